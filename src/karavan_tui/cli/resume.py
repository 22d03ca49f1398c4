"""``karavan resume [FILE]``: open a save at its table (by default the latest game in progress)."""

from __future__ import annotations

from karavan_core.saves import (
    SaveError,
    check_saves_dir,
    list_saves,
    load_match,
    remove_abandoned_temps,
    resumable,
)
from karavan_tui.cli import common
from karavan_tui.cli.common import Commands, Context, Parents


def add_parser(commands: Commands, parents: Parents) -> None:
    """Add ``resume`` to the ``karavan`` command."""
    resume = commands.add_parser(
        "resume",
        parents=[parents.opens_app],
        help="open a saved game (default: the latest in progress)",
        description="Open a saved game at its table: a file, or a name as `karavan saves` "
        "lists it (with or without .json).",
    )
    resume.add_argument("file", nargs="?", metavar="NAME", help="the save's name or file")


def run(ctx: Context) -> int:
    """Load the save and open the app at its table; one line and status 2 if it cannot be."""
    folder = ctx.folder
    try:
        check_saves_dir(folder)
    except OSError as error:
        return common.fail(f"cannot keep saves in {folder}: {error.strerror or error}")
    remove_abandoned_temps(folder)
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
