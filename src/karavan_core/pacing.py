"""When a decision worked out off the table's thread is played: the one pace of bots.

Every bot decision — a bot's seat, a bot standing in for an away player or for
one whose time ran out — is worked out from a
:class:`~karavan_core.referee.BotTurn` the referee gives, off the event loop's
thread, and waits until the pause the referee gives its turn
(:meth:`~karavan_core.referee.BotTurn.pause`) is over, the thinking included,
so that a quick bot does not move at once and a slow one is not made to wait
twice.  A hint is searched the same way, with no pause.  The caller plays a
bot's decision with :meth:`~karavan_core.referee.Referee.play_bot`, which drops
it if the table moved on meanwhile.

Local tables, hosted ones and the server's all pace their bots here, so the
app offline needs nothing of the network layer for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from karavan_core.engine import Action

if TYPE_CHECKING:  # the referee imports nothing of this module: no circle at run time
    from karavan_core.referee import BotTurn

T = TypeVar("T")

STEP = 0.05
"""Seconds between two looks at ``hurry`` while a decision waits for its pause to end."""


async def sleep(seconds: float) -> None:
    """Wait ``seconds`` without holding the event loop up."""
    await asyncio.sleep(seconds)


def never() -> bool:
    """No hurry: every pause is waited out."""
    return False


async def deliberate(think: Callable[[], T], pause: float, hurry: Callable[[], bool] = never) -> T:
    """What ``think()`` works out in a worker thread, handed back once ``pause`` seconds have
    passed since the call (the thinking included), or as soon as ``hurry()`` says so."""
    due = time.monotonic() + pause
    result = await asyncio.to_thread(think)
    while not hurry() and (left := due - time.monotonic()) > 0:
        await sleep(min(left, STEP))
    return result


async def bot_decision(
    turn: BotTurn, between_turns: float, hurry: Callable[[], bool] = never
) -> Action:
    """The decision of ``turn``'s bot, once its pause (``between_turns`` before a turn's
    first decision) is over, or as soon as ``hurry()`` says so."""
    return await deliberate(turn.choose, turn.pause(between_turns), hurry)
