"""Command-line help that lists the bot levels, for the commands that seat bots."""

from __future__ import annotations

import argparse

from karavan_core.bots import BOT_LEVELS


class ListingHelpFormatter(argparse.HelpFormatter):
    """Wraps each line of a description or epilog on its own, so a list keeps its lines."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        fill = super()._fill_text
        return "\n".join(fill(line, width, indent) for line in text.splitlines())


def levels_epilog() -> str:
    """One line per bot level: its name and how it plays."""
    lines = [f"{level}: {cls.description}" for level, cls in BOT_LEVELS.items()]
    return "bot levels, weakest first:\n" + "\n".join(lines)
