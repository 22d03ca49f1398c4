"""``karavan learn GAME``: open the guided first game of GAME (at the step it had reached)."""

from __future__ import annotations

from karavan_core.lessons import lesson_names
from karavan_core.saves import check_saves_dir
from karavan_core.text import printable
from karavan_tui.cli import common
from karavan_tui.cli.common import Commands, Context, Parents


def add_parser(commands: Commands, parents: Parents) -> None:
    """Add ``learn`` to the ``karavan`` command."""
    learn = commands.add_parser(
        "learn",
        parents=[parents.opens_app],
        help="learn a game by playing a guided first game",
        description="Play a guided first game that teaches every rule, step by step. "
        "Leave at any point: it goes on from the same step next time.",
    )
    learn.add_argument("game", metavar="GAME", help=f"the game: {', '.join(lesson_names())}")


def run(ctx: Context) -> int:
    """Open the app at the lesson's table."""
    name = ctx.args.game.strip().lower()
    if name not in lesson_names():
        ctx.error(
            f"no lesson for {printable(repr(ctx.args.game))}; the games are: "
            f"{', '.join(lesson_names())}"
        )
    try:
        check_saves_dir(ctx.folder)
    except OSError as error:
        return common.fail(f"cannot keep saves in {ctx.folder}: {error.strerror or error}")
    return common.open_app(ctx.app_config(), None, lesson=name)
