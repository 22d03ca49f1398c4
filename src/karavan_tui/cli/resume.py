"""``karavan resume [FILE]``: open a save at its table (by default the latest game in progress)."""

from __future__ import annotations

import argparse

from karavan_core.saves import SaveError, list_saves, load_match, resumable
from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context

COMMAND = Command(
    "resume",
    "open a saved game (default: the latest in progress)",
    "Open a saved game at its table: a file, or a name as `karavan saves` lists it "
    "(with or without .json).",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The save to open, if not the latest game in progress."""
    parser.add_argument("file", nargs="?", metavar="NAME", help="the save's name or file")


def run(ctx: Context) -> int:
    """Load the save and open the app at its table; one line and status 2 if it cannot be."""
    folder = common.open_saves(ctx)
    if ctx.args.file is None:
        latest = resumable(list_saves(folder)[0])
        if latest is None:
            return common.fail(f"no game in progress in {folder}")
        path = latest.path
    else:
        path = common.find_save(folder, ctx.args.file)
    try:
        match = load_match(path)
    except SaveError as error:
        return common.fail(str(error))
    return common.open_app(ctx.app_config(), (match, path))
