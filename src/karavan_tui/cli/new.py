"""``karavan new GAME --players ...``: start a game and open its table."""

from __future__ import annotations

from karavan_core.registry import game_names
from karavan_core.saves import check_saves_dir, remove_abandoned_temps
from karavan_tui.cli import common
from karavan_tui.cli.common import Commands, Context, Parents
from karavan_tui.cli.levels_help import ListingHelpFormatter, levels_epilog


def add_parser(commands: Commands, parents: Parents) -> None:
    """Add ``new`` to the ``karavan`` command."""
    new = commands.add_parser(
        "new",
        parents=[parents.opens_app],
        help="start a game and open its table",
        description="Start a game and open its table directly.",
        epilog=levels_epilog(),
        formatter_class=ListingHelpFormatter,
    )
    new.add_argument("game", metavar="GAME", help=f"the game: {', '.join(game_names())}")
    new.add_argument(
        "--players",
        required=True,
        metavar="LIST",
        help="comma-separated seats in order: a name for a human, bot:LEVEL or "
        "bot:LEVEL:NAME for a bot (e.g. Ann,Bob,bot:random)",
    )
    new.add_argument("--seed", type=int, metavar="N", help="deal from this seed (default: random)")
    new.add_argument("--first", metavar="NAME", help="who starts (default: drawn at random)")


def run(ctx: Context) -> int:
    """Deal the game and open the app at its table."""
    try:
        check_saves_dir(ctx.folder)
    except OSError as error:
        return common.fail(f"cannot keep saves in {ctx.folder}: {error.strerror or error}")
    remove_abandoned_temps(ctx.folder)
    return common.open_app(ctx.app_config(), common.new_from_args(ctx))
