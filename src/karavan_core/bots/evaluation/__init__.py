"""Per-game position evaluations shared by the Greedy level and the search levels.

Each game may have a module here named after it, offering:

* ``evaluate(state, player) -> float`` — an estimate of the points ``player``
  will end with, read from ``state`` from that player's point of view (also
  for a finished game, on the same scale);
* optionally ``search_evaluate(state, player) -> float`` — a richer estimate
  on the same scale for the search levels, which score positions a turn or
  more ahead (the Greedy level keeps the small ``evaluate``), and
  ``search_values(state)``, the same of every player at once where the
  players share most of the work;
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

and, for search levels that score positions with a value model:

* optionally ``HARD`` and ``EXPERT`` — the :class:`SearchSettings` of those
  levels in this game (without them, the levels search by playouts alone: see
  :func:`playout_settings`);
* optionally ``model_evaluate(state, player)`` — like ``search_evaluate``,
  for those searches (where it improves on ``search_evaluate``);
* optionally a value model: ``features(state, player) -> list[float]`` named
  by ``FEATURES``, weighed by ``WEIGHTS`` (fitted by ``bench/fit.py``); a
  player's chance of winning is the softmax of the weighted sums, or what
  ``chances(state, values)`` makes of them where the values are about
  something else (Jaipur's round in progress);
* optionally ``model_candidates(state, legal)`` — like ``search_candidates``,
  for the searches with the value model;
* optionally ``model_policy(state, legal)`` — the one decision those searches
  take below the root in the steps it answers (``None`` elsewhere), where a
  step has few real choices and branching on it would only make the tree
  shallower (Karakorum's placing turns).

A game without a module falls back on its running score (``Game.result``
is defined mid-game), so every registered game can be played by every level.
"""

from __future__ import annotations

import importlib
import math
import operator
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from attrs import frozen

from karavan_core.engine import Action, Game, State
from karavan_core.values import replace

Evaluate = Callable[[State, int], float]
RolloutPolicy = Callable[[Game[Any, Any, Any], State, random.Random], Action]
Candidates = Callable[[State, list[Action]], list[Action]]
Features = Callable[[State, int], list[float]]
Combine = Callable[[State, list[float]], list[float]]
TreePolicy = Callable[[State, list[Action]], Action | None]


@frozen(kw_only=True)
class Evaluator:
    """A game's evaluation: estimated points per player, and a margin scale."""

    game: Game[Any, Any, Any]
    evaluate: Evaluate
    scale: float
    rollout_action: RolloutPolicy | None = None
    rollout_depth: int = 40
    smart_rollouts: bool = False
    search_candidates: Candidates | None = None
    features: Features | None = None
    weights: tuple[float, ...] = ()
    combine: Combine | None = None
    tree_policy: TreePolicy | None = None
    every_value: Callable[[State], list[float]] | None = None  # ``evaluate`` of all at once

    def values(self, state: State) -> list[float]:
        """Estimated points of every player."""
        if self.every_value is not None:
            return self.every_value(state)
        return [self.evaluate(state, seat) for seat in range(len(state.players))]

    def advantage(self, state: State, player: int) -> float:
        """``player``'s estimated lead over the best of the others (negative when behind)."""
        values = self.values(state)
        return values[player] - max(v for seat, v in enumerate(values) if seat != player)

    def rewards(self, state: State, values: list[float] | None = None) -> list[float]:
        """One reward per player, as backed up by the tree search.

        An unfinished game pays the chance of winning suggested by the
        evaluated lead, between 0 and 1.  A finished one pays 1 for
        winning (a shared win is split) and 0 for losing, give or take a tenth
        for the margin, so a win outranks every game still open and a loss
        ranks below them all: a search never puts off a win it can take, nor
        hastens a loss.  (In Jaipur's last round a player far ahead, with the
        deck spent, could otherwise trade cards with the market for ever: the
        round ends only when a take finds the market cannot be refilled.)
        ``values``, where given, are :meth:`values` of ``state``, already
        worked out.
        """
        if self.game.is_over(state):
            result = self.game.result(state)
            scores = result.scores
            share = 1.0 / len(result.winners)
            out = []
            for seat, score in enumerate(scores):
                lead = score - max(s for i, s in enumerate(scores) if i != seat)
                win = share if seat in result.winners else 0.0
                out.append(win + 0.2 * (_logistic(lead / self.scale) - 0.5))
            return out
        if self.features is not None:
            return self.chances(state, values)
        if values is None:
            values = self.values(state)
        # Each player's lead over the best of the others: the best player's is
        # over the second best (who may be level), everyone else's over the best.
        best, second = sorted(values, reverse=True)[:2]
        scale = self.scale
        return [_logistic((v - (second if v == best else best)) / scale) for v in values]

    def chances(self, state: State, values: list[float] | None = None) -> list[float]:
        """Every player's chance of winning by the value model: a softmax of their values.

        (A game whose values are about something else, such as Jaipur's round
        in progress, turns them into chances of its own ``chances``.)
        ``values``, where given, are :meth:`values` of ``state``.
        """
        if values is None:
            values = self.values(state)
        if self.combine is not None:
            return self.combine(state, values)
        top = max(values)
        exps = [math.exp(v - top) for v in values]
        total = sum(exps)
        return [e / total for e in exps]


@frozen(kw_only=True)
class SearchSettings:
    """How a search level plays one game.

    ``iterations`` is the budget of a decision.  ``model`` scores positions
    with the evaluation made for these levels (a value model of ``features``
    and ``WEIGHTS``, or ``model_evaluate``) rather than the one Hard used
    before; ``tree_policy`` lets that evaluation's ``model_policy`` answer the
    steps it knows below the root.  Playouts stop after
    ``rollout_depth`` decisions (``None``: at the end) once the turn under way
    is over; that turn is finished by the best next decision for its player
    (``greedy_finish``), else by the game's heuristic policy
    (``smart_rollouts``), else at random.  With ``deals`` the search deals
    that many determinizations and meets each in turn, instead of a fresh one
    every iteration: dealing is then paid once per deal and a deal met again
    walks the tree without applying a decision.  ``exploration`` is UCB's
    constant.  With ``greedy_replies`` the other players are not branched on
    below the root: each answers with the decision after which it leads the
    others most, and the iterations go to the searching player's own decisions.
    With ``widening`` a node visited n times has at most ``widening * n **
    widening_power`` of its decisions tried (progressive widening), the most
    promising first: ranked, once per node, by the mover's evaluation just
    after each.  ``two_player_iterations``, where set, is the budget at a table
    of two instead of ``iterations``: an iteration there costs about half what
    it does at four, so the same time buys more of them.
    """

    iterations: int = 400
    two_player_iterations: int | None = None
    model: bool = True
    rollout_depth: int | None = 0
    greedy_finish: bool = True
    smart_rollouts: bool = False
    deals: int | None = 50
    exploration: float = 0.3
    greedy_replies: bool = False
    tree_policy: bool = True
    widening: float | None = None
    widening_power: float = 0.5


def settings_for(game: Game[Any, Any, Any], level: str) -> SearchSettings:
    """The settings of ``level`` ("hard" or "expert") for ``game``: ``HARD`` or ``EXPERT``.

    Those of the game's evaluation module; a game without them is searched by
    playouts alone (see :func:`playout_settings`).
    """
    module = _module(game)
    if level == "hard":
        return getattr(module, "HARD", None) or playout_settings(game)
    # Without a value model, Expert spends three times Hard's budget on heuristic playouts.
    longer = replace(playout_settings(game), iterations=1200, smart_rollouts=True)
    return getattr(module, "EXPERT", None) or longer


def playout_settings(game: Game[Any, Any, Any]) -> SearchSettings:
    """A search that scores positions by playouts and the hand-made evaluation, no value
    model: 400 iterations, playouts of the game's ``ROLLOUT_DEPTH`` (heuristic where its
    ``SMART_ROLLOUTS``), a fresh deal every iteration."""
    module = _module(game)
    return SearchSettings(
        iterations=400,
        model=False,
        rollout_depth=getattr(module, "ROLLOUT_DEPTH", 40),
        greedy_finish=False,
        smart_rollouts=getattr(module, "SMART_ROLLOUTS", False),
        deals=None,
    )


def _module(game: Game[Any, Any, Any]) -> Any:
    """The evaluation module of ``game``, or ``None``."""
    try:
        return importlib.import_module(f"{__name__}.{game.name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game.name}":
            raise
        return None


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def _running_score(game: Game[Any, Any, Any]) -> Evaluate:
    def evaluate(state: State, player: int) -> float:
        return float(game.result(state).scores[player])

    return evaluate


def evaluator_for(
    game: Game[Any, Any, Any], search: bool = False, model: bool = False
) -> Evaluator:
    """The evaluation of ``game`` (its own module if it has one, else its running score).

    ``search`` asks for the search levels' evaluation: the module's
    ``search_evaluate`` where it has one.  ``model`` asks for the value model
    (``features`` and ``WEIGHTS``) where the module has one.  The same
    question gets the same object.
    """
    return _evaluator(game, search, model)


@cache
def _evaluator(game: Game[Any, Any, Any], search: bool, model: bool) -> Evaluator:
    module = _module(game)
    if module is None:
        return Evaluator(game=game, evaluate=_running_score(game), scale=10.0)
    features = getattr(module, "features", None) if model else None
    hand_made: Evaluate | None = getattr(module, "model_evaluate", None) if model else None
    if features is None and hand_made is None:  # the hand-written evaluation
        evaluate = module.evaluate
        if search:
            evaluate = getattr(module, "search_evaluate", evaluate)
        return Evaluator(
            game=game,
            evaluate=evaluate,
            scale=float(module.SCALE),
            rollout_action=getattr(module, "rollout_action", None),
            rollout_depth=getattr(module, "ROLLOUT_DEPTH", 40),
            smart_rollouts=getattr(module, "SMART_ROLLOUTS", False),
            search_candidates=getattr(module, "search_candidates", None),
            every_value=getattr(module, "search_values", None) if search else None,
        )
    # The value model, with rollout and candidate settings of its own.
    weights = tuple(module.WEIGHTS) if features is not None else ()
    model_evaluate = _linear(features, weights) if features is not None else hand_made
    assert model_evaluate is not None
    return Evaluator(
        game=game,
        evaluate=model_evaluate,
        scale=float(module.SCALE),
        rollout_action=getattr(module, "rollout_action", None),
        rollout_depth=getattr(module, "MODEL_ROLLOUT_DEPTH", 0),
        smart_rollouts=getattr(module, "MODEL_SMART_ROLLOUTS", False),
        search_candidates=getattr(module, "model_candidates", None),
        features=features,
        weights=weights,
        combine=getattr(module, "chances", None),
        tree_policy=getattr(module, "model_policy", None),
        every_value=getattr(module, "model_values", None),
    )


def _linear(features: Features, weights: tuple[float, ...]) -> Evaluate:
    def evaluate(state: State, player: int) -> float:
        return float(sum(map(operator.mul, weights, features(state, player))))

    return evaluate
