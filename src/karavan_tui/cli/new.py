"""``karavan new GAME --players ...``: start a game and open its table."""

from __future__ import annotations

import argparse

from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context

COMMAND = Command(
    "new",
    "start a game and open its table",
    "Start a game and open its table directly.",
    lists_levels=True,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME --players LIST [--seed N] [--first NAME]``."""
    common.add_game_argument(parser)
    common.add_deal_arguments(
        parser,
        "comma-separated seats in order: a name for a human, bot:LEVEL or bot:LEVEL:NAME "
        "for a bot (e.g. Ann,Bob,bot:random)",
        required=True,
    )


def run(ctx: Context) -> int:
    """Deal the game and open the app at its table."""
    common.open_saves(ctx)
    return common.open_app(ctx.app_config(), common.new_from_args(ctx))
