"""``karavan learn GAME``: open the guided first game of GAME (at the step it had reached)."""

from __future__ import annotations

import argparse

from karavan_core.lessons import get_lesson, lesson_names
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
    lesson = common.look_up_game(ctx, get_lesson)
    common.open_saves(ctx, tidy=False)
    return common.open_app(ctx.app_config(), None, lesson=lesson.game_name)
