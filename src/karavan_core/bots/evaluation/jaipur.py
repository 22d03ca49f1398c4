"""Jaipur evaluation: seals, the round's points so far, and what the hand may still sell for."""

from __future__ import annotations

import math
import random
from typing import Any

from karavan_core.bots.evaluation import GameEvaluation, SearchSettings
from karavan_core.engine import Action, Game
from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur.components import CARD_INDEX
from karavan_core.games.jaipur.rules import takings_and_sales
from karavan_core.games.jaipur.state import Exchange, JaipurState, Sell
from karavan_core.values import replace

# The search levels: the value model below scores a position as soon as the
# decision is taken (Hard-v1, bench/hard_v1.py, plays eight heuristic decisions
# first), and only the cheapest give-backs of each exchange are searched.
# Over 50 seat-swapped games (seed 101) that beat Hard-v1 72.0% (58.3–82.5),
# taking 0.18 s a decision to its 0.34 s (two cores shared with other work).
# Expert searches four times as long: over 38 games (seed 102) it beat that
# Hard 68.4% (52.5–80.9).  Measured and not kept: a Hard of 200 iterations beat
# Hard-v1 76.7% (62.3–86.8) over 43 games (seed 1), but an Expert of 1,600
# over a pool of 200 deals (as many visits per deal as the HARD below) beat it
# 56.4% (48.6–63.9) over 156, where the EXPERT below beat it 58.7% over the same
# deals' first 150: neither the smaller Hard nor the wider pool spread the levels.
# Expert widens its tree progressively (at most the square root of a node's
# visits of its decisions tried, the ones its mover values most just after them
# first), so its budget deepens the lines worth reading instead of trying every
# exchange once: head to head against the Expert without it, it won 75.0%
# (61.8–84.8) of 52 seat-swapped games (seed 103), at twice its time a decision.
HARD = SearchSettings()
EXPERT = replace(HARD, iterations=1600, widening=1.0)

SCALE = 12.0
# Random Jaipur play is mostly pointless exchanges: measured over 10 games
# against Greedy, Hard won 2 with random playouts of 4 decisions and 7 with
# these heuristic ones (1 of 8 with random playouts of 16).  Over 40 games,
# heuristic playouts of 8 decisions won 75%, of 4 decisions 60%.
ROLLOUT_DEPTH = 8
SMART_ROLLOUTS = True
SEAL = 60.0  # a seal outweighs any round's lead in points


def round_points(state: JaipurState, player: int) -> float:
    """Goods and bonus tokens won this round, and the expected share of the camel token."""
    points = float(sum(sum(values) for values in state.goods_won[player]))
    points += sum(sum(values) for values in state.bonus_won[player])
    herd = state.herds[player]
    best_other = max(h for s, h in enumerate(state.herds) if s != player)
    if herd > best_other:
        points += C.CAMEL_TOKEN
    elif herd == best_other:
        points += C.CAMEL_TOKEN / 2
    return points


def evaluate(state: JaipurState, player: int) -> float:
    """Seals (weighted high), plus this round's points and the hand's likely sale value."""
    value = SEAL * state.seals[player]
    if state.is_over:
        return value
    value += round_points(state, player)
    hand = state.hands[player]
    for good, count in enumerate(hand):
        pile = state.goods_piles[good]
        if count and pile:
            # The next tokens of the pile, discounted: they may be taken first.
            value += 0.55 * sum(pile[:count])
            if count >= 3:
                value += 0.5 * count  # a bonus token is in reach
    value += 0.3 * state.herds[player]
    if sum(hand) >= C.HAND_LIMIT:
        value -= 2.0  # a full hand cannot take a good
    return value


def rollout_action(game: Game[Any, Any, Any], state: JaipurState, rng: random.Random) -> Action:
    """Sell the most valuable lot, else take the dearest single good, else anything.

    One time in five, or when no sale or single good is worth anything, any
    legal decision at random; only then are all of them (exchanges included) listed.
    """
    if rng.random() < 0.2:
        return _any(game, state, rng)
    best: Action | None = None
    best_value = 0.0
    for action in takings_and_sales(state):
        pile = state.goods_piles[CARD_INDEX[action.good]]
        if isinstance(action, Sell):
            value = sum(pile[: action.count]) + (2.0 if action.count >= 3 else 0.0)
        else:
            value = 0.5 * pile[0] if pile else 0.0
        if value > best_value:
            best, best_value = action, value
    return best if best is not None else _any(game, state, rng)


def _any(game: Game[Any, Any, Any], state: JaipurState, rng: random.Random) -> Action:
    legal: list[Action] = game.legal_actions(state)
    return legal[rng.randrange(len(legal))]


# -- the value model of the search levels (Hard and Expert) ---------------------------------

FEATURES = (
    "round points",
    "camel token expected",
    "camels in the herd",
    "hand at the piles' top tokens",
    "cards in hand",
    "hand full",
    "goods held three or more",
    "precious goods in hand",
    "empty piles x round points",
    "to move",
)
WEIGHTS = (
    0.0907,  # round points
    0.0510,  # camel token expected
    0.0351,  # camels in the herd
    0.0556,  # hand at the piles' top tokens
    0.0250,  # cards in hand
    -0.0377,  # hand full
    0.2882,  # goods held three or more
    0.0271,  # precious goods in hand
    0.0239,  # empty piles x round points
    0.1299,  # to move
)
# The model says who wins the round in progress; the seals make that a chance
# of winning the match (see ``chances``), so the values are fitted on rounds.
ROUND_VALUES = True
_PRECIOUS = tuple(CARD_INDEX[card] for card in C.PRECIOUS)


def features(state: JaipurState, player: int) -> list[float]:
    """What the value model weighs for ``player`` in the round in progress (:data:`FEATURES`)."""
    points = float(sum(sum(values) for values in state.goods_won[player]))
    points += sum(sum(values) for values in state.bonus_won[player])
    herd = state.herds[player]
    other = state.herds[1 - player]
    camel = 1.0 if herd > other else 0.5 if herd == other else 0.0
    hand = state.hands[player]
    piles = state.goods_piles
    worth = 0.0
    threes = 0
    for good, count in enumerate(hand):
        if count:
            worth += sum(piles[good][:count])
            threes += count >= 3
    cards = sum(hand)
    empty = sum(1 for pile in piles if not pile)
    return [
        points,
        camel,
        float(herd),
        worth,
        float(cards),
        1.0 if cards >= C.HAND_LIMIT else 0.0,
        float(threes),
        float(sum(hand[i] for i in _PRECIOUS)),
        empty * points,
        1.0 if state.current == player else 0.0,
    ]


def chances(state: JaipurState, values: list[float]) -> list[float]:
    """Each player's chance of the match from the values of the round in progress.

    The round goes to either player by the logit of their values; after it, a
    match not yet decided is taken as even.
    """
    win = _logistic(values[0] - values[1])
    first = _match(state.seals[0] + 1, state.seals[1]) * win
    first += _match(state.seals[0], state.seals[1] + 1) * (1.0 - win)
    return [first, 1.0 - first]


def _match(mine: int, theirs: int) -> float:
    """The first player's chance of the match at these seals, every later round even."""
    if mine >= C.SEALS_TO_WIN:
        return 1.0
    if theirs >= C.SEALS_TO_WIN:
        return 0.0
    return 0.5 * (_match(mine + 1, theirs) + _match(mine, theirs + 1))


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


# Exchanges are most of Jaipur's decisions (up to 140 in one position) and most
# of them give away cards no player would: the search keeps, for each set of
# goods taken, the few give-backs that cost the hand least.
GIVE_BACKS_KEPT = 2
CAMEL_WORTH = 1.0  # what a camel given back is taken to cost, in points


def model_candidates(state: JaipurState, legal: list[Action]) -> list[Action]:
    """Every decision but exchanges, and per set of goods taken the cheapest give-backs."""
    piles = state.goods_piles
    kept: list[Action] = []
    by_take: dict[tuple[int, ...], list[tuple[float, int, Exchange]]] = {}
    for order, action in enumerate(legal):
        if type(action) is not Exchange:
            kept.append(action)
            continue
        cost = CAMEL_WORTH * action.camels
        for good, count in enumerate(action.give):
            if count:
                pile = piles[good]
                cost += count * (pile[0] if pile else 0.0)
        by_take.setdefault(action.take, []).append((cost, order, action))
    for options in by_take.values():
        options.sort()
        kept.extend(action for _, _, action in options[:GIVE_BACKS_KEPT])
    return kept


EVALUATION = GameEvaluation(
    evaluate=evaluate,
    scale=SCALE,
    rollout_action=rollout_action,
    rollout_depth=ROLLOUT_DEPTH,
    smart_rollouts=SMART_ROLLOUTS,
    hard=HARD,
    expert=EXPERT,
    features=features,
    weights=WEIGHTS,
    chances=chances,
    model_candidates=model_candidates,
)
"""What Jaipur's bots read of a position (see GameEvaluation)."""
