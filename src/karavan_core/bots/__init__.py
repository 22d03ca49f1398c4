"""Computer opponents, generic over the engine contract.

A bot sees only its own observation and the legal decisions, never the full
state, and is deterministic for a given seed.
"""

from karavan_core.bots.base import BOT_LEVELS, Bot, make_bot
from karavan_core.bots.random_bot import RandomBot

__all__ = ["BOT_LEVELS", "Bot", "RandomBot", "make_bot"]
