"""The bot interface and the table of levels."""

from __future__ import annotations

import abc
import random
from collections.abc import Sequence
from typing import ClassVar

from karavan_core.engine import Action, Game, Observation


class Bot(abc.ABC):
    """A computer player: given what it may see and what it may do, it picks one decision."""

    level: ClassVar[str]
    description: ClassVar[str]

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    @abc.abstractmethod
    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal``, chosen from ``observation`` alone."""


BOT_LEVELS: dict[str, type[Bot]] = {}


def register_level(cls: type[Bot]) -> type[Bot]:
    """Class decorator adding a bot class to :data:`BOT_LEVELS` under its level name."""
    BOT_LEVELS[cls.level] = cls
    return cls


def make_bot(level: str, game: Game, seed: int = 0) -> Bot:
    """A bot of ``level`` for ``game``; ``ValueError`` naming the levels if unknown."""
    try:
        cls = BOT_LEVELS[level.lower()]
    except KeyError:
        known = ", ".join(BOT_LEVELS)
        raise ValueError(f"No bot level {level!r}; the levels are: {known}.") from None
    return cls(game, seed)
