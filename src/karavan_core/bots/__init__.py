"""Computer opponents, generic over the engine contract.

A bot sees only its own observation and the legal decisions, never the full
state, and is deterministic for a given seed.  Four levels, the same in every
game: ``random``, ``greedy``, ``hard`` and ``expert`` (see :data:`BOT_LEVELS`).
"""

from karavan_core.bots.base import ALL_LEVELS, BOT_LEVELS, TABLE_SECONDS, Bot, make_bot, table_bot
from karavan_core.bots.greedy import GreedyBot
from karavan_core.bots.ismcts import ExpertBot, HardBot, SearchBot
from karavan_core.bots.random_bot import RandomBot

__all__ = [
    "ALL_LEVELS",
    "BOT_LEVELS",
    "TABLE_SECONDS",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "HardBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
    "table_bot",
]
