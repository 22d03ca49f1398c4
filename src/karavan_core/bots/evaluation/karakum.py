"""Karakum evaluation: the caravan's points, plus what the resources in hand may still buy."""

from __future__ import annotations

import random
from collections.abc import Sequence

from karavan_core.engine import Action, Game
from karavan_core.games.karakum import components as C
from karavan_core.games.karakum.rules import fits
from karavan_core.games.karakum.state import Buy, KarakumState, Pay, Step

SCALE = 6.0
ALL_CAMELS = len(C.GOODS) * len(C.CAMEL_VALUES)


def evaluate(state: KarakumState, player: int) -> float:
    """Points ``player`` has, plus a discounted value for cards in hand and a flexible caravan."""
    caravan = state.caravans[player]
    left = state.lefts[player]
    points = sum(c.value for c in caravan) + sum(c.value for c in left) / 2
    if state.step is Step.OVER:
        return float(sum(c.value for c in caravan) + sum(c.value for c in left) // 2)
    # A left-side camel may still join and then count in full.
    points += 0.15 * sum(c.value for c in left)
    # Cards are worth less as the camel deck (the game's clock) runs down.
    start_deck = ALL_CAMELS - len(state.removed) - C.MARKET_SIZE
    remaining = len(state.camel_deck) / start_deck if start_deck else 0.0
    hand = state.hands[player]
    weight = 0.2 + 0.45 * remaining
    points += weight * (sum(hand[:5]) + 1.6 * hand[C.GOLD_INDEX])
    # Camels on offer that fit the end of the caravan keep it growing.
    market_fit = sum(1 for c in state.market if c is not None and fits(caravan, c))
    points += 0.1 * market_fit * remaining
    return points


def rollout_action(
    game: Game, state: KarakumState, legal: Sequence[Action], rng: random.Random
) -> Action:
    """Mostly buy the dearest camel that fits; pay the cheapest way; otherwise gather at random."""
    if state.step is Step.PAY:
        return legal[0]  # payments are listed cheapest first
    if state.step is Step.CHOOSE and rng.random() < 0.85:
        caravan = state.caravans[state.current]
        best, best_value = None, 0.0
        for action in legal:
            if isinstance(action, Buy):
                camel = state.market[action.slot]
                assert camel is not None
                value = camel.value if fits(caravan, camel) else camel.value / 2
                if value > best_value:
                    best, best_value = action, value
        if best is not None:
            return best
    if isinstance(legal[0], Pay):
        return legal[0]
    return legal[rng.randrange(len(legal))]
