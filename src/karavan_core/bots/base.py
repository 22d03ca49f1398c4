"""The bot interface and the table of levels."""

from __future__ import annotations

import abc
import enum
import hashlib
import random
from collections.abc import Sequence
from typing import Any, ClassVar

import attrs

from karavan_core.engine import Action, Game, Observation


def canonical(value: Any) -> str:
    """A text for ``value`` that is the same in every process.

    ``repr`` is not enough: the order of a set of strings changes with Python's
    per-process hash seed, and bots must decide alike in every worker process.
    """
    if attrs.has(type(value)):
        inner = ",".join(canonical(getattr(value, f.name)) for f in attrs.fields(type(value)))
        return f"{type(value).__name__}({inner})"
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple | list):
        return "(" + ",".join(canonical(item) for item in value) + ")"
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(canonical(item) for item in value)) + "}"
    if isinstance(value, dict):
        items = sorted(f"{canonical(k)}:{canonical(v)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    return repr(value)


class Bot(abc.ABC):
    """A computer player: given what it may see and what it may do, it picks one decision.

    Thinking bots draw their randomness from :meth:`decision_rng`, a generator
    made afresh from the seed and the observation: a decision is then a pure
    function of ``(seed, observation, legal)``.  Asking again after a cancelled
    or undone decision gives the same answer, and nothing is mutated while a
    bot thinks, so an abandoned worker thread cannot disturb the next one.
    """

    level: ClassVar[str]
    strength: ClassVar[int]  # the level's place in every list of levels, weakest first
    description: ClassVar[str]
    # Offered at the table (the new game dialog, ``bot:LEVEL``); a level kept only
    # to measure others against is not, but tournaments can seat it.
    offered: ClassVar[bool] = True

    def __init__(self, game: Game[Any, Any, Any], seed: int = 0) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)

    @abc.abstractmethod
    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal``, chosen from ``observation`` alone."""

    def decision_rng(self, observation: Observation) -> random.Random:
        """A generator for one decision, fixed by the bot's seed and ``observation``."""
        digest = hashlib.blake2b(
            f"{self.seed}|{canonical(observation)}".encode(), digest_size=16
        ).digest()
        return random.Random(int.from_bytes(digest, "big"))


# The levels a player can choose, and every level including those kept for benchmarks.
BOT_LEVELS: dict[str, type[Bot]] = {}
ALL_LEVELS: dict[str, type[Bot]] = {}


def register_level(cls: type[Bot]) -> type[Bot]:
    """Class decorator adding a bot class to :data:`ALL_LEVELS` under its level name.

    An offered level goes in :data:`BOT_LEVELS` too.  The levels stay in order
    of ``strength``, whatever order their modules are imported in: the app and
    the help list them as they stand.
    """
    ALL_LEVELS[cls.level] = cls
    ordered = sorted(ALL_LEVELS.values(), key=lambda level: level.strength)
    for registry, levels in (
        (ALL_LEVELS, ordered),
        (BOT_LEVELS, [level for level in ordered if level.offered]),
    ):
        registry.clear()
        registry.update((level.level, level) for level in levels)
    return cls


# The longest a bot at a table may think over one decision, in wall-clock seconds, per
# level; a level not listed is quick whatever the load (Random, Greedy).  The iteration
# budget stays what decides: on a normal machine a Hard decision takes some 0.05 s (0.17 s
# at worst) and an Expert one 0.15-0.33 s (0.67 s), so a cap comes into play only on a machine
# many times slower or far busier, where it cuts the search short rather than hold the
# table.  The decision is kept in the match like any other, so replays never depend on it.
TABLE_SECONDS: dict[str, float] = {"hard": 1.0, "expert": 4.0}


def table_bot(level: str, game: Game[Any, Any, Any], seed: int = 0) -> Bot:
    """A bot of ``level`` to play at a table: :func:`make_bot` with its level's cap on
    thinking time (:data:`TABLE_SECONDS`), if it has one."""
    seconds = TABLE_SECONDS.get(level.lower())
    if seconds is None:
        return make_bot(level, game, seed)
    return make_bot(level, game, seed, seconds=seconds)


def make_bot(level: str, game: Game[Any, Any, Any], seed: int = 0, **options: Any) -> Bot:
    """A bot of ``level`` for ``game``; ``ValueError`` naming the levels if unknown.

    Any level of :data:`ALL_LEVELS` may be made, benchmark ones too (where a
    player picks one, the app offers :data:`BOT_LEVELS`).  ``options`` go to
    the level's constructor (for instance ``seconds=1.0`` to cap the thinking
    time of the search levels).
    """
    try:
        cls = ALL_LEVELS[level.lower()]
    except KeyError:
        known = ", ".join(ALL_LEVELS)
        raise ValueError(f"No bot level {level!r}; the levels are: {known}.") from None
    return cls(game, seed, **options)
