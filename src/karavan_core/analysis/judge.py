"""Judging one decision with the Expert search: hints and the review's verdicts.

Everything here starts from the decider's observation, never from a full
state: the search deals the hidden cards afresh in every iteration, so a
hint or a verdict knows exactly what the player knew.

The open search over every legal decision finds the one it prefers, and its
mean reward there is that decision's chance of winning (held between 0 and
1).  A decision played that the search does not prefer is weighed by two
*forced* searches, each of whose iterations starts with one decision (the one
played, the one preferred), seeded alike so that they deal mostly the same
hidden cards in the same order: their difference is then the decision's own
cost, not the luck of the draws.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any

from attrs import frozen

from karavan_core.bots.ismcts import ExpertBot, Node
from karavan_core.engine import Action, Game, Observation
from karavan_core.tournament import derive_seed

# Iterations of the open search that finds the preferred decision (a hint is the
# same search), and of each forced search that weighs one decision.  Against
# searches of 3,000 and 1,500 iterations, over 36 decisions each of a Jaipur and
# a Karakorum game, these gave 71 verdicts of 72 alike (1,000 and 600 gave 72) in
# about half the time; Jaipur, whose iterations cost the most (its widened tree
# ranks every decision of each new node), gets 400 and 200, which gave the same
# verdicts there as 600 and 300 in 29% less time (docs/performance.md).
ADVICE_BUDGET = (600, 300)
GAME_ADVICE_BUDGETS: dict[str, tuple[int, int]] = {"jaipur": (400, 200)}


def advice_budget(game: Game[Any, Any, Any]) -> tuple[int, int]:
    """The iterations of ``game``'s open search (a hint's) and of each forced search."""
    return GAME_ADVICE_BUDGETS.get(game.name, ADVICE_BUDGET)


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


@frozen(kw_only=True)
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

    The same ``seed`` and observation always give the same answer.  A hint and
    the review's judgement of the same decision are the same open search (see
    :func:`advice_seed`), so the review never faults a decision the hint chose.
    The searches' iterations are the game's :func:`advice_budget` unless given.
    ``progress``, where given, is told the share of a judgement done (0 to 1)
    while the searches run.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seed: int = 0,
        open_iterations: int | None = None,
        forced_iterations: int | None = None,
        progress: Callable[[float], None] | None = None,
    ) -> None:
        self.game = game
        own_open, own_forced = advice_budget(game)
        open_iterations = own_open if open_iterations is None else open_iterations
        forced_iterations = own_forced if forced_iterations is None else forced_iterations
        self.open = ExpertBot(game, seed, iterations=open_iterations)
        self.forced = ExpertBot(game, seed, iterations=forced_iterations)
        self.progress = progress
        # The most a judgement runs: the open search and two forced ones.
        self._whole = open_iterations + 2 * forced_iterations

    def _told(self, before: int) -> Callable[[int], None] | None:
        """The listener of a search that starts once ``before`` iterations of a judgement ran."""
        progress = self.progress
        if progress is None:
            return None
        whole = self._whole
        return lambda done: progress(min(1.0, (before + done) / whole))

    def preferred(self, observation: Observation, legal: Sequence[Action]) -> tuple[Action, float]:
        """The decision the open search visits most, with its mean reward.

        The search stops once the iterations left could not change that
        decision: it is the one the whole budget would find.
        """
        if len(legal) == 1:
            return legal[0], self.chance(observation, legal[0])
        root = self.open.search(observation, legal, until_settled=True, progress=self._told(0))
        return best_child(root, legal)

    def chance(self, observation: Observation, action: Action, before: int = 0) -> float:
        """The chance of winning after ``action``, by a search that always starts with it.

        ``before`` is how many iterations of the judgement ran before this search.
        """
        root = self.forced.search(observation, [action], progress=self._told(before))
        child = root.children[action]
        return as_chance(child.reward / child.visits)

    def hint(self, observation: Observation, legal: Sequence[Action]) -> Hint:
        """What to play now, from the decider's own ``observation`` and ``legal`` decisions."""
        action, win = self.preferred(observation, legal)
        return Hint(action, self.game.preview(observation, action), win)

    def judge(self, observation: Observation, legal: Sequence[Action], played: Action) -> Judgement:
        """Weigh ``played`` (one of ``legal``) against the decision the search prefers.

        The decision the search prefers loses nothing (its chance is the open
        search's); any other is weighed against it by two forced searches (see
        the module's words).
        """
        start = time.process_time()
        best, best_win = self.preferred(observation, legal)
        after = best_win
        if played != best:
            ran = self.open.iterations
            best_win = self.chance(observation, best, ran)
            after = self.chance(observation, played, ran + self.forced.iterations)
        return Judgement(
            played=played,
            best=best,
            win_before=max(best_win, after),
            win_after=after,
            best_win=best_win,
            seconds=time.process_time() - start,
        )


def advice_seed(match_seed: int, index: int) -> int:
    """The seed of the searches that advise on decision ``index`` of a match.

    A hint asked before that decision and the review's judgement of it share
    it, with the same budget: the same search then prefers the same decision.
    """
    return derive_seed(match_seed, "review", index)


def gesture_hints(
    game: Game[Any, Any, Any],
    observation: Observation,
    legal: Sequence[Action],
    match_seed: int,
    index: int,
    budget: tuple[int, int] | None = None,
    follows: Callable[[Action], bool] = lambda action: False,
) -> tuple[Hint, ...]:
    """The hint for decision ``index`` of a match, and for the decisions it ``follows`` with.

    Some tables play a decision together with its player's next ones, as one
    gesture (Karakum's purchase: the camel, then its payment).  For a hinted
    decision that ``follows(action)`` says is such, the next decision is
    hinted too, as a hint asked before it would be (its own seed), from the
    observation the player will have then.  That observation is worked out
    from a deal of ``observation``'s hidden cards: a decision that shows the
    player nothing new (the only kind a gesture goes on past) leads every
    deal to the same one.  ``budget`` is the review's (its open search is the
    hint's; by default the game's :func:`advice_budget`).
    """
    hints: list[Hint] = []
    player = observation.player
    iterations = advice_budget(game) if budget is None else budget
    while True:
        analyst = Analyst(game, advice_seed(match_seed, index), *iterations)
        hint = analyst.hint(observation, legal)
        hints.append(hint)
        if not follows(hint.action) or game.reveals(observation, hint.action):
            return tuple(hints)
        deal = game.sample_state(observation, random.Random(advice_seed(match_seed, index)))
        after = game.apply(deal, hint.action)
        if after.to_move != player:
            return tuple(hints)
        observation, legal = game.observe(after, player), game.legal_actions(after)
        index += 1


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
