"""Karakum's payments, generated in order, equal a plain search sorted afterwards."""

from __future__ import annotations

import itertools
import random

from karavan_core.games.karakum.components import GOLD_INDEX, RESOURCES, Res
from karavan_core.games.karakum.rules import payments


def reference(hand: tuple[int, ...], color: Res, cost: int) -> list[tuple[int, ...]]:
    """Every spend of whole units that pays ``cost`` exactly, sorted as the rules sort them."""
    own = RESOURCES.index(color)
    ranges = []
    for i, held in enumerate(hand):
        per_unit = 1 if i in (own, GOLD_INDEX) else 2
        ranges.append(range(0, min(held, per_unit * cost) + 1, per_unit))
    found = []
    for spend in itertools.product(*ranges):
        units = sum(n if i in (own, GOLD_INDEX) else n // 2 for i, n in enumerate(spend))
        if units == cost:
            found.append(spend)
    found.sort(key=lambda s: (sum(s), s[GOLD_INDEX], tuple(-n for n in s)))
    return found


def test_payments_match_a_plain_search_in_the_same_order():
    rng = random.Random(5)
    for _ in range(400):
        hand = tuple(rng.choice((0, 0, 1, 2, 3, 4, 5, 7, 9)) for _ in RESOURCES)
        color = rng.choice(RESOURCES[:5])
        cost = rng.randint(1, 8)
        assert payments(hand, color, cost) == reference(hand, color, cost)
