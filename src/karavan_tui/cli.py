"""The ``karavan`` command: open the app, list saves, and more.

Bad arguments print a clear message and exit with status 2 (argparse's
convention); a save that cannot be read prints one line naming the file and
the problem, also with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from karavan_core.saves import default_saves_dir, list_saves
from karavan_core.version import __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``karavan`` command."""
    parser = argparse.ArgumentParser(
        prog="karavan",
        description="Camel-caravan card games in the terminal: "
        "Karakum, Karawane, Karakorum and Jaipur.",
    )
    parser.add_argument("--version", action="version", version=f"karavan {__version__}")
    parser.add_argument(
        "--saves",
        metavar="DIR",
        help="folder for saves (default: $KARAVAN_SAVES, else ./saves)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser("saves", help="list the saved games")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    folder = default_saves_dir(args.saves)
    if args.command == "saves":
        return print_saves(folder)
    from karavan_tui.app import KaravanApp  # imported late: `karavan saves` stays quick

    KaravanApp(saves_dir=folder).run()
    return 0


def _when(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp or "?"


def print_saves(folder: Path) -> int:
    """Print a table of the saves in ``folder`` (and one line per unreadable file)."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    good, bad = list_saves(folder)
    if not good and not bad:
        console.print(f"No saves in {folder}.")
        return 0
    table = Table(title=f"Saves in {folder}")
    for column in ("file", "game", "players", "decisions", "last played"):
        table.add_column(column, justify="right" if column == "decisions" else "left")
    for save in good:
        try:
            name = str(save.path.relative_to(folder))
        except ValueError:
            name = str(save.path)
        status = " (over)" if save.over else ""
        table.add_row(
            name,
            save.game,
            ", ".join(save.players),
            f"{save.decisions}{status}",
            _when(save.saved_at),
        )
    console.print(table)
    for error in bad:
        print(f"karavan: {error}", file=sys.stderr)
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
