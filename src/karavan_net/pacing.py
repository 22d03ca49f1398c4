"""When a bot's decision is played: the one pace of bots, at a local table and a hosted one.

A bot thinks off the event loop's thread; its decision waits until the pause
the referee gives its turn (:meth:`~karavan_core.referee.BotTurn.pause`) is
over, the thinking included, so that a quick bot does not move at once and a
slow one is not made to wait twice.  The caller plays it with
:meth:`~karavan_core.referee.Referee.play_bot`, which drops it if the table
moved on meanwhile.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from karavan_core.engine import Action
from karavan_core.referee import BotTurn

STEP = 0.05
"""Seconds between two looks at ``hurry`` while a decision waits for its pause to end."""


async def sleep(seconds: float) -> None:
    """Wait ``seconds`` without holding the event loop up."""
    await asyncio.sleep(seconds)


def never() -> bool:
    """No hurry: every pause is waited out."""
    return False


async def bot_decision(
    turn: BotTurn, between_turns: float, hurry: Callable[[], bool] = never
) -> Action:
    """The decision of ``turn``'s bot, once its pause (``between_turns`` before a turn's
    first decision) is over, or as soon as ``hurry()`` says so."""
    due = time.monotonic() + turn.pause(between_turns)
    action = await asyncio.to_thread(turn.choose)
    while not hurry() and (left := due - time.monotonic()) > 0:
        await sleep(min(left, STEP))
    return action
