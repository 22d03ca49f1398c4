"""The ``karavan`` command: open the app, list saves, and more.

Bad arguments print a clear message and exit with status 2 (argparse's
convention); a save that cannot be read prints one line naming the file and
the problem, also with status 2.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from karavan_core.bots import BOT_LEVELS
from karavan_core.match import Match, Seat
from karavan_core.registry import game_names, get_game
from karavan_core.saves import (
    SaveError,
    check_saves_dir,
    default_saves_dir,
    list_saves,
    load_match,
    new_save_path,
    remove_abandoned_temps,
)
from karavan_core.text import printable
from karavan_core.version import __version__
from karavan_tui.config import AppConfig
from karavan_tui.levels_help import ListingHelpFormatter, levels_epilog
from karavan_tui.words import plural


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``karavan`` command."""
    parser = argparse.ArgumentParser(
        prog="karavan",
        description="Camel-caravan card games in the terminal: "
        "Karakum, Karawane, Karakorum and Jaipur.",
    )
    parser.add_argument("--version", action="version", version=f"karavan {__version__}")
    saves_help = "folder for saves (default: $KARAVAN_SAVES, else ./saves)"
    ascii_help = "plain ASCII symbols only (for terminals without good Unicode)"
    parser.add_argument("--saves", metavar="DIR", help=saves_help)
    parser.add_argument("--ascii", action="store_true", help=ascii_help)
    # The commands take --saves (and those that open the app --ascii) after their name too.
    with_saves = argparse.ArgumentParser(add_help=False)
    with_saves.add_argument("--saves", metavar="DIR", default=argparse.SUPPRESS, help=saves_help)
    opens_app = argparse.ArgumentParser(add_help=False, parents=[with_saves])
    opens_app.add_argument(
        "--ascii", action="store_true", default=argparse.SUPPRESS, help=ascii_help
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("saves", help="list the saved games", parents=[with_saves])
    new = commands.add_parser(
        "new",
        parents=[opens_app],
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
    resume = commands.add_parser(
        "resume",
        parents=[opens_app],
        help="open a saved game (default: the latest in progress)",
        description="Open a saved game at its table: a file, or a name as `karavan saves` "
        "lists it (with or without .json).",
    )
    resume.add_argument("file", nargs="?", metavar="NAME", help="the save's name or file")
    from karavan_tui.net import cli as net_cli

    net_cli.add_parsers(commands, opens_app)
    from karavan_tui import review_command

    review_command.add_parser(commands)
    if importlib.util.find_spec("karavan_tui.simulate") is not None:
        from karavan_tui import simulate

        simulate.add_parser(commands)
    return parser


def parse_seats(parser: argparse.ArgumentParser, text: str) -> list[Seat]:
    """The seats of ``--players`` (exits with status 2 on a bad list)."""
    seats = []
    for index, part in enumerate(text.split(",")):
        try:
            seat = Seat.parse(part, index)
        except ValueError as error:
            parser.error(f"--players: {printable(str(error))}")
        if seat.is_bot and seat.level not in BOT_LEVELS:
            parser.error(
                f"--players: no bot level {printable(repr(seat.level))}; "
                f"the levels are: {', '.join(BOT_LEVELS)}"
            )
        seats.append(seat)
    names = [seat.name.casefold() for seat in seats]
    if len(set(names)) != len(names):
        parser.error("--players: every player needs a different name")
    return seats


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    folder = default_saves_dir(args.saves)
    if args.command == "saves":
        return print_saves(folder)
    if args.command == "review":
        from karavan_tui import review_command

        return review_command.run(args, folder)
    if args.command == "simulate":
        from karavan_tui import simulate

        return simulate.run(args)
    if args.command in ("host", "join", "web"):
        return net_command(parser, args, folder)
    try:
        check_saves_dir(folder)
    except OSError as error:
        return fail(f"cannot keep saves in {folder}: {error.strerror or error}")
    remove_abandoned_temps(folder)
    start = None
    if args.command == "new":
        start = new_from_args(parser, args, folder)
    elif args.command == "resume":
        start = resume_from_args(args, folder)
        if start is None:
            return 2
    return open_app(AppConfig(saves_dir=folder, ascii=args.ascii), start)


def net_command(parser: argparse.ArgumentParser, args: argparse.Namespace, folder: Path) -> int:
    """``karavan host``, ``join`` and ``web`` (see :mod:`karavan_tui.net.cli`)."""
    from karavan_tui.net import cli as net_cli

    def config() -> AppConfig:
        return AppConfig(saves_dir=folder, ascii=args.ascii)

    if args.command == "host":
        return net_cli.run_host(parser, args, folder, fail, config)
    if args.command == "join":
        return net_cli.run_join(parser, args, fail, config)
    return net_cli.run_web(parser, args, args.saves, fail)


def fail(message: str, status: int = 2) -> int:
    """Print ``message`` as one line (outside text made safe to show) and return ``status``."""
    print(f"karavan: {printable(message)}", file=sys.stderr)
    return status


def open_app(config: AppConfig, start: tuple[Match, Path] | None) -> int:
    """Run the app until it closes; 1 (with one line saying where the report is) after a crash."""
    from karavan_tui.app import create_app  # imported late: `karavan saves` stays quick

    app = create_app(config, start)
    app.run()
    if app.return_code and app.crash_report is not None:
        return fail(
            f"an unexpected error stopped Karavan; the report is in {app.crash_report} "
            "(every game is saved: karavan resume opens the latest)",
            status=1,
        )
    return app.return_code or 0


def new_from_args(
    parser: argparse.ArgumentParser, args: argparse.Namespace, folder: Path
) -> tuple[Match, Path]:
    """The match ``karavan new`` asks for, and a fresh save file for it."""
    try:
        game = get_game(args.game)
    except KeyError as error:
        parser.error(printable(str(error.args[0])))
    seats = parse_seats(parser, args.players)
    options = {}
    if args.first is not None:
        wanted = args.first.strip().casefold()
        matches = [i for i, seat in enumerate(seats) if seat.name.casefold() == wanted]
        if not matches:
            parser.error(f"--first: {printable(repr(args.first))} is not one of the players")
        options["first_player"] = matches[0]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    try:
        match = Match(game, seats, seed, options)
    except ValueError as error:
        parser.error(printable(str(error)))
    return match, new_save_path(folder, game.name)


def resume_from_args(args: argparse.Namespace, folder: Path) -> tuple[Match, Path] | None:
    """The match ``karavan resume`` opens; ``None`` after printing why it cannot."""
    if args.file is None:
        from karavan_tui.screens.title import resumable

        latest = resumable(list_saves(folder)[0])
        if latest is None:
            fail(f"no game in progress in {folder}")
            return None
        path = latest.path
    else:
        path = find_save(folder, args.file)
    try:
        match = load_match(path)
    except SaveError as error:
        fail(str(error))
        return None
    return match, path


def find_save(folder: Path, name: str) -> Path:
    """The save called ``name``: a path, or a name in ``folder`` as listed, ``.json`` optional."""
    given = Path(name)
    for candidate in (given, folder / name, folder / f"{name}.json"):
        if candidate.exists():
            return candidate
    return given if given.suffix == ".json" or given.parent != Path() else folder / f"{name}.json"


def _when(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp or "?"


def print_saves(folder: Path) -> int:
    """Print the saves in ``folder``, newest first (and one line per unreadable file).

    Each save is its file name — whole, and quoted as the shell needs it, so that
    it can be pasted after `karavan resume` — then an indented line with the game,
    the players, the decisions and when it was last played, which wraps on a
    narrow terminal.  Names and file names come from outside: they are printed as
    Text (never markup), control characters written as escapes.
    """
    import shlex

    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    console = Console()
    good, bad = list_saves(folder)
    if not good and not bad:
        console.print(Text(f"No saves in {printable(str(folder))}."))
        return 0
    console.print(Text(f"Saves in {printable(str(folder))}, newest first:", style="bold"))
    for save in good:
        try:
            name = str(save.path.relative_to(folder))
        except ValueError:
            name = str(save.path)
        status = ", over" if save.over else ""
        details = (
            f"{save.game} · {', '.join(save.players)} · "
            f"{plural(save.decisions, 'decision')}{status} · last played {_when(save.saved_at)}"
        )
        console.print(Text(printable(shlex.quote(name)), style="bold"), soft_wrap=True)
        console.print(Padding(Text(details), (0, 0, 0, 4)))
    for error in bad:
        fail(str(error))
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
