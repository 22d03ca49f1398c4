"""Per-game position evaluations shared by the Greedy level and the search levels.

Each game may have a module here named after it, offering:

* ``evaluate(state, player) -> float`` — an estimate of the points ``player``
  will end with, read from ``state`` from that player's point of view (also
  for a finished game, on the same scale);
* optionally ``search_evaluate(state, player) -> float`` — a richer estimate
  on the same scale for the search levels, which score positions a turn or
  more ahead (the Greedy level keeps the small ``evaluate``);
* ``SCALE`` — a points margin that makes a game about decided (it turns a lead
  into a chance of winning);
* optionally ``rollout_action(game, state, rng)`` — a cheap, plausible
  decision for the playouts of the Expert level; it lists the legal decisions
  itself, and only when it needs them (listing them all is most of the cost
  of a playout step where the policy mostly picks among a few);
* optionally ``ROLLOUT_DEPTH`` — how many decisions the search levels' playouts
  run before the evaluation scores them (where decisions are dear, fewer);
* optionally ``SMART_ROLLOUTS = True`` — the Hard level, too, plays out with
  ``rollout_action`` (where random play is measured to mislead the search);
* optionally ``search_candidates(state, legal)`` — the decisions worth
  searching among ``legal`` (a non-empty part of it), where a game offers many
  near-equal ones that would only spread the search's budget thin.

A game without a module falls back on its running score (``Game.result``
is defined mid-game), so every registered game can be played by every level.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from attrs import frozen

from karavan_core.engine import Action, Game, State

Evaluate = Callable[[State, int], float]
RolloutPolicy = Callable[[Game[Any, Any, Any], State, random.Random], Action]
Candidates = Callable[[State, list[Action]], list[Action]]


@frozen
class Evaluator:
    """A game's evaluation: estimated points per player, and a margin scale."""

    game: Game[Any, Any, Any]
    evaluate: Evaluate
    scale: float
    rollout_action: RolloutPolicy | None = None
    rollout_depth: int = 40
    smart_rollouts: bool = False
    search_candidates: Candidates | None = None

    def values(self, state: State) -> list[float]:
        """Estimated points of every player."""
        return [self.evaluate(state, seat) for seat in range(len(state.players))]

    def advantage(self, state: State, player: int) -> float:
        """``player``'s estimated lead over the best of the others (negative when behind)."""
        values = self.values(state)
        return values[player] - max(v for seat, v in enumerate(values) if seat != player)

    def rewards(self, state: State) -> list[float]:
        """One reward in [0, 1] per player, as backed up by the tree search.

        A finished game pays mostly for winning (a shared win is split) and a
        little for the margin; an unfinished one pays the chance of winning
        suggested by the evaluated lead.
        """
        if self.game.is_over(state):
            result = self.game.result(state)
            scores = result.scores
            share = 1.0 / len(result.winners)
            out = []
            for seat, score in enumerate(scores):
                lead = score - max(s for i, s in enumerate(scores) if i != seat)
                win = share if seat in result.winners else 0.0
                out.append(0.8 * win + 0.2 * _logistic(lead / self.scale))
            return out
        values = self.values(state)
        # Each player's lead over the best of the others: the best player's is
        # over the second best (who may be level), everyone else's over the best.
        best, second = sorted(values, reverse=True)[:2]
        scale = self.scale
        return [_logistic((v - (second if v == best else best)) / scale) for v in values]


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def _running_score(game: Game[Any, Any, Any]) -> Evaluate:
    def evaluate(state: State, player: int) -> float:
        return float(game.result(state).scores[player])

    return evaluate


@cache
def evaluator_for(game: Game[Any, Any, Any], search: bool = False) -> Evaluator:
    """The evaluation of ``game`` (its own module if it has one, else its running score).

    ``search`` asks for the search levels' evaluation: the module's
    ``search_evaluate`` where it has one.
    """
    try:
        module = importlib.import_module(f"{__name__}.{game.name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game.name}":
            raise
        return Evaluator(game, _running_score(game), 10.0)
    evaluate = module.evaluate
    if search:
        evaluate = getattr(module, "search_evaluate", evaluate)
    return Evaluator(
        game,
        evaluate,
        float(module.SCALE),
        getattr(module, "rollout_action", None),
        getattr(module, "ROLLOUT_DEPTH", 40),
        getattr(module, "SMART_ROLLOUTS", False),
        getattr(module, "search_candidates", None),
    )
