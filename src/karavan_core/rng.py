"""A small, immutable random number generator that lives inside a game state.

The whole generator is two integers: the game's seed and a counter of how many
random draws have been made.  Each draw builds a fresh :class:`random.Random`
from both, so the state stays tiny (``random.Random.getstate()`` is ~6 KB),
serialises as plain JSON and replays exactly: undoing a move and playing it
again reveals the same card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from attrs import frozen

T = TypeVar("T")

_MIX = 0x9E3779B97F4A7C15  # golden-ratio constant: spreads consecutive counters apart


@frozen
class Rng:
    """Seed plus draw counter; every method returns the advanced generator."""

    seed: int
    counter: int = 0

    def _generator(self) -> random.Random:
        return random.Random((self.seed * _MIX + self.counter) & ((1 << 128) - 1))

    def _next(self) -> Rng:
        return Rng(self.seed, self.counter + 1)

    def shuffled(self, items: Sequence[T]) -> tuple[Rng, tuple[T, ...]]:
        """Return the advanced generator and ``items`` in a random order."""
        out = list(items)
        shuffle(self._generator(), out)
        return self._next(), tuple(out)

    def randrange(self, n: int) -> tuple[Rng, int]:
        """Return the advanced generator and a number in ``range(n)``."""
        return self._next(), self._generator().randrange(n)


def shuffle(generator: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place exactly as ``generator.shuffle(items)`` does, in half the time.

    Deals and the bots' samples shuffle whole decks, and ``random.shuffle``
    calls a Python method per card.  This is the same Fisher-Yates walk with
    the same draws as CPython's (``_randbelow_with_getrandbits``, unchanged
    from 3.11 to 3.13), so a seed still deals the very same cards; a test
    compares the two.  Any other kind of generator shuffles itself.
    """
    if type(generator) is not random.Random:
        generator.shuffle(items)
        return
    getrandbits = generator.getrandbits
    for i in reversed(range(1, len(items))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def fresh_rng(source: random.Random) -> Rng:
    """A new generator seeded from ``source`` (used when sampling hidden states)."""
    return Rng(source.getrandbits(63))
