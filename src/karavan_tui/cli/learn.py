"""``karavan learn GAME``: open the guided first game of GAME (at the step it had reached)."""

from __future__ import annotations

import argparse

from karavan_core.lessons import lesson_names
from karavan_core.text import printable
from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context

COMMAND = Command(
    "learn",
    "learn a game by playing a guided first game",
    "Play a guided first game that teaches every rule, step by step. "
    "Leave at any point: it goes on from the same step next time.",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``GAME`` to learn."""
    common.add_game_argument(parser, lesson_names())


def run(ctx: Context) -> int:
    """Open the app at the lesson's table."""
    name = ctx.args.game.strip().lower()
    if name not in lesson_names():
        ctx.error(
            f"no lesson for {printable(repr(ctx.args.game))}; the games are: "
            f"{', '.join(lesson_names())}"
        )
    common.open_saves(ctx, tidy=False)
    return common.open_app(ctx.app_config(), None, lesson=name)
