"""``karavan saves``: list the saved games, newest first."""

from __future__ import annotations

import argparse
from pathlib import Path

from karavan_core.saves import list_saves
from karavan_core.text import local_time, plural, printable
from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context

COMMAND = Command("saves", "list the saved games", opens_app=False)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``saves`` takes no argument of its own."""


def run(ctx: Context) -> int:
    """Print the saves of the saves folder."""
    return print_saves(ctx.folder)


def print_saves(folder: Path) -> int:
    """Print the saves in ``folder``, newest first (and one line per unreadable file).

    Each save is its file name — whole, and quoted as the shell needs it, so that
    it can be pasted after `karavan resume` — then an indented line with the game,
    the players, the decisions and when it was last played, which wraps on a
    narrow terminal (and is one line in a file or a pipe).  Names and file names come
    from outside: they are printed as Text (never markup), control characters written
    as escapes.
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
            f"{plural(save.decisions, 'decision')}{status} · "
            f"last played {local_time(save.saved_at)}"
        )
        console.print(Text(printable(shlex.quote(name)), style="bold"), soft_wrap=True)
        if console.is_terminal:
            console.print(Padding(Text(details), (0, 0, 0, 4)))
        else:  # into a file or a pipe: each line whole, nothing padded to a width
            console.print(Text("    " + details), soft_wrap=True)
    for error in bad:
        common.fail(str(error))
    return 0
