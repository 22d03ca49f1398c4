"""The ``karavan`` command: open the app, list saves, and more — one module per command.

Bad arguments print a clear message and exit with status 2 (argparse's
convention); a save that cannot be read prints one line naming the file and
the problem, also with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from karavan_core.saves import default_saves_dir
from karavan_core.version import __version__
from karavan_net.lobby import DOOR_ENV
from karavan_tui.cli import (
    account,
    common,
    host,
    join,
    learn,
    new,
    online,
    resume,
    review,
    saves,
    serve,
    simulate,
    web,
)
from karavan_tui.cli.common import Context, Failed
from karavan_tui.cli.levels_help import ListingHelpFormatter, levels_epilog

COMMANDS: dict[str, ModuleType] = {
    module.COMMAND.name: module
    for module in (
        saves,
        new,
        learn,
        resume,
        online,
        host,
        join,
        web,
        serve,
        account,
        review,
        simulate,
    )
}
"""Each command's module by its name, in the order ``karavan --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``karavan`` command."""
    parser = common.OneLineParser(
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
    with_saves = common.OneLineParser(add_help=False)
    with_saves.add_argument("--saves", metavar="DIR", default=argparse.SUPPRESS, help=saves_help)
    opens_app = common.OneLineParser(add_help=False, parents=[with_saves])
    opens_app.add_argument(
        "--ascii", action="store_true", default=argparse.SUPPRESS, help=ascii_help
    )
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=common.OneLineParser
    )
    for name, module in COMMANDS.items():
        command = module.COMMAND
        module.add_arguments(
            commands.add_parser(
                name,
                parents=[opens_app if command.opens_app else with_saves],
                help=command.help,
                description=command.description or None,
                epilog=levels_epilog() if command.lists_levels else None,
                formatter_class=ListingHelpFormatter,
            )
        )
    return parser


def command_parser(parser: argparse.ArgumentParser, name: str | None) -> argparse.ArgumentParser:
    """The parser of command ``name`` (``parser`` itself where there is none)."""
    for action in parser._actions:  # argparse keeps its subcommands here, and nowhere else
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            chosen: argparse.ArgumentParser = action.choices[name]
            return chosen
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # A command's own errors name the command, as argparse's do.
    ctx = Context(command_parser(parser, args.command), args, default_saves_dir(args.saves))
    module = COMMANDS.get(args.command or "")
    if os.environ.get(DOOR_ENV) and module is not online:
        return common.fail("over ssh, Karavan runs only as `karavan online`: the server's lobby")
    try:
        if module is not None:
            status: int = module.run(ctx)
            return status
        # No command: the app at its title screen.
        common.open_saves(ctx)
        return common.open_app(ctx.app_config(), None)
    except Failed as failed:
        return common.fail(str(failed))


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
