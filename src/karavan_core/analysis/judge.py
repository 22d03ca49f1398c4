"""Judging one decision with the Expert search: hints and the review's verdicts.

Everything here starts from the decider's observation, never from a full
state: the search deals the hidden cards afresh in every iteration, so a
hint or a verdict knows exactly what the player knew.

The chance of winning of a decision is the mean reward of the search when
every one of its iterations starts with that decision (a *forced* search),
held between 0 and 1.
Judging compares two forced searches, for the decision played and for the
one the search prefers, that deal the same hidden cards in the same order:
their difference is then the decision's own cost, not the luck of the draws.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from attrs import frozen

from karavan_core.bots.ismcts import ExpertBot, Node
from karavan_core.engine import Action, Game, Observation

# Iterations of the open search that finds the preferred decision, and of each
# forced search that measures one decision (bench/review.py keeps a judged
# decision under a second on one core).
OPEN_ITERATIONS = 1000
FORCED_ITERATIONS = 600


class Verdict(StrEnum):
    """How much of the chance of winning a decision gave away."""

    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# The least chance lost (a fraction of one) that earns each verdict below GOOD.
THRESHOLDS: tuple[tuple[float, Verdict], ...] = (
    (0.20, Verdict.BLUNDER),
    (0.10, Verdict.MISTAKE),
    (0.05, Verdict.INACCURACY),
)


def verdict_for(lost: float) -> Verdict:
    """The verdict on a decision that lost ``lost`` of the chance of winning (0 to 1)."""
    for least, verdict in THRESHOLDS:
        if lost >= least:
            return verdict
    return Verdict.GOOD


def decision_accuracy(lost: float) -> float:
    """A decision's accuracy in percent: 100 for no chance lost, falling fast, never below 0.

    The curve is the one lichess fits to chess games (in chances of winning),
    so a player's accuracy reads as chess players know it.
    """
    value = 103.1668 * math.exp(-4.354 * max(0.0, lost)) - 3.1668
    return max(0.0, min(100.0, value))


@frozen
class Hint:
    """What the Expert search would play, in the decider's words, and its chance of winning."""

    action: Action
    words: str
    win: float


@frozen
class Judgement:
    """One decision weighed against the Expert search's preference."""

    played: Action
    best: Action
    win_before: float  # with the best decision the search found (or the one played, if better)
    win_after: float  # with the decision played
    best_win: float
    seconds: float  # thinking time spent judging

    @property
    def lost(self) -> float:
        """The chance of winning the decision gave away (never negative)."""
        return max(0.0, self.win_before - self.win_after)

    @property
    def verdict(self) -> Verdict:
        """The verdict by :data:`THRESHOLDS`."""
        return verdict_for(self.lost)

    @property
    def accuracy(self) -> float:
        """This decision's accuracy in percent."""
        return decision_accuracy(self.lost)


class Analyst:
    """The Expert search, asked for advice rather than for a move.

    The same ``seed`` and observation always give the same answer.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seed: int = 0,
        open_iterations: int = OPEN_ITERATIONS,
        forced_iterations: int = FORCED_ITERATIONS,
    ) -> None:
        self.game = game
        self.open = ExpertBot(game, seed, iterations=open_iterations)
        self.forced = ExpertBot(game, seed, iterations=forced_iterations)

    def preferred(self, observation: Observation, legal: Sequence[Action]) -> tuple[Action, float]:
        """The decision the open search visits most, with its mean reward."""
        if len(legal) == 1:
            return legal[0], self.chance(observation, legal[0])
        root = self.open.search(observation, legal)
        return best_child(root, legal)

    def chance(self, observation: Observation, action: Action) -> float:
        """The chance of winning after ``action``, by a search that always starts with it."""
        root = self.forced.search(observation, [action])
        child = root.children[action]
        return as_chance(child.reward / child.visits)

    def hint(self, observation: Observation, legal: Sequence[Action]) -> Hint:
        """What to play now, from the decider's own ``observation`` and ``legal`` decisions."""
        action, win = self.preferred(observation, legal)
        return Hint(action, self.game.preview(observation, action), win)

    def judge(self, observation: Observation, legal: Sequence[Action], played: Action) -> Judgement:
        """Weigh ``played`` (one of ``legal``) against the decision the search prefers."""
        start = time.process_time()
        best, best_win = self.preferred(observation, legal)
        if len(legal) > 1:  # weighed by a forced search, like the decision played
            best_win = self.chance(observation, best)
        after = best_win if played == best else self.chance(observation, played)
        return Judgement(
            played, best, max(best_win, after), after, best_win, time.process_time() - start
        )


def best_child(root: Node, legal: Sequence[Action]) -> tuple[Action, float]:
    """The most visited of ``root``'s decisions (then the best mean; then the first listed)."""
    ranked = []
    for order, action in enumerate(legal):
        child = root.children.get(action)
        if child is not None and child.visits:
            ranked.append((child.visits, child.reward / child.visits, -order, action))
    if not ranked:
        return legal[0], 0.5
    _, mean, _, action = max(ranked, key=lambda item: item[:3])
    return action, as_chance(mean)


def as_chance(mean: float) -> float:
    """A mean reward of the search as a chance of winning (0 to 1).

    A finished game pays a little beyond 0 or 1 for the margin (see
    ``Evaluator.rewards``); a decision that surely wins is a certainty, no more.
    """
    return min(1.0, max(0.0, mean))
