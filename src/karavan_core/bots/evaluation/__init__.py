"""Per-game position evaluations shared by the Greedy level and the search levels.

Each game may have a module here named after it, whose ``EVALUATION`` is a
:class:`GameEvaluation`: a typed, frozen record of what its bots use (the
hand-made evaluation and its scale, the playouts' policy and depth, the
candidates worth searching, the value model and the search levels' settings);
see that class for each field.

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
from typing import Any, Generic, TypeVar

from attrs import frozen

from karavan_core.engine import Action, Game, State
from karavan_core.values import replace

S = TypeVar("S")

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


@frozen(kw_only=True)
class GameEvaluation(Generic[S]):
    """What one game's bots read of its positions (``S``: the game's state), checked by mypy.

    * ``evaluate(state, player)``: an estimate of the points ``player`` will end
      with, from that player's point of view (also of a finished game, on the
      same scale); ``scale``: a points margin that makes a game about decided
      (it turns a lead into a chance of winning);
    * ``search_evaluate``: a richer estimate on the same scale for the search
      levels, which score positions a turn or more ahead (Greedy keeps the
      small one), and ``search_values(state)``, the same of every player at
      once where they share most of the work;
    * ``rollout_action(game, state, rng)``: a cheap, plausible decision for
      the playouts, listing the legal decisions itself and only when it needs
      them; ``rollout_depth``: decisions a playout runs before it is scored
      (fewer where decisions are dear); ``smart_rollouts``: Hard, too, plays
      out with ``rollout_action`` (where random play misleads the search);
    * ``search_candidates(state, legal)``: the decisions worth searching (a
      non-empty part of ``legal``) where many near-equal ones would spread the
      budget thin;
    * ``hard``, ``expert``: the search levels' :class:`SearchSettings` (else
      they search by playouts alone: :func:`playout_settings`);
    * the search levels' own evaluation: ``model_evaluate``, or a value model
      of ``features(state, player)`` weighed by ``weights`` (fitted by
      ``bench/fit.py``: a player's chance of winning is the softmax of the
      weighted sums, or ``chances(state, values)`` where the values are about
      something else, as Jaipur's round in progress), with
      ``model_candidates``, ``model_values`` (all players at once),
      ``model_rollout_depth``, ``model_smart_rollouts``, and
      ``model_policy(state, legal)``: the one decision those searches take
      below the root in the steps it answers (``None`` elsewhere), where
      branching would only make the tree shallower (Karakorum's placings).
    """

    evaluate: Callable[[S, int], float]
    scale: float
    search_evaluate: Callable[[S, int], float] | None = None
    search_values: Callable[[S], list[float]] | None = None
    rollout_action: Callable[[Game[Any, Any, Any], S, random.Random], Action] | None = None
    rollout_depth: int = 40
    smart_rollouts: bool = False
    search_candidates: Callable[[S, list[Action]], list[Action]] | None = None
    hard: SearchSettings | None = None
    expert: SearchSettings | None = None
    model_evaluate: Callable[[S, int], float] | None = None
    features: Callable[[S, int], list[float]] | None = None
    weights: tuple[float, ...] = ()
    chances: Callable[[S, list[float]], list[float]] | None = None
    model_candidates: Callable[[S, list[Action]], list[Action]] | None = None
    model_values: Callable[[S], list[float]] | None = None
    model_rollout_depth: int = 0
    model_smart_rollouts: bool = False
    model_policy: Callable[[S, list[Action]], Action | None] | None = None


def settings_for(game: Game[Any, Any, Any], level: str) -> SearchSettings:
    """The settings of ``level`` ("hard" or "expert") for ``game``: ``HARD`` or ``EXPERT``.

    Those of the game's evaluation; a game without them is searched by
    playouts alone (see :func:`playout_settings`).
    """
    profile = _profile(game)
    if level == "hard":
        return (profile and profile.hard) or playout_settings(game)
    # Without a value model, Expert spends three times Hard's budget on heuristic playouts.
    longer = replace(playout_settings(game), iterations=1200, smart_rollouts=True)
    return (profile and profile.expert) or longer


def playout_settings(game: Game[Any, Any, Any]) -> SearchSettings:
    """A search that scores positions by playouts and the hand-made evaluation, no value
    model: 400 iterations, playouts of the game's ``rollout_depth`` (heuristic where its
    ``smart_rollouts``), a fresh deal every iteration."""
    profile = _profile(game)
    return SearchSettings(
        iterations=400,
        model=False,
        rollout_depth=40 if profile is None else profile.rollout_depth,
        greedy_finish=False,
        smart_rollouts=profile is not None and profile.smart_rollouts,
        deals=None,
    )


def _profile(game: Game[Any, Any, Any]) -> GameEvaluation[Any] | None:
    """The ``EVALUATION`` of ``game``'s module here, or ``None`` if it has no module."""
    try:
        module = importlib.import_module(f"{__name__}.{game.name}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game.name}":
            raise
        return None
    profile = module.EVALUATION
    if not isinstance(profile, GameEvaluation):
        raise TypeError(f"{module.__name__}.EVALUATION is not a GameEvaluation")
    return profile


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
    profile = _profile(game)
    if profile is None:
        return Evaluator(game=game, evaluate=_running_score(game), scale=10.0)
    features = profile.features if model else None
    hand_made = profile.model_evaluate if model else None
    if features is None and hand_made is None:  # the hand-written evaluation
        return Evaluator(
            game=game,
            evaluate=(search and profile.search_evaluate) or profile.evaluate,
            scale=profile.scale,
            rollout_action=profile.rollout_action,
            rollout_depth=profile.rollout_depth,
            smart_rollouts=profile.smart_rollouts,
            search_candidates=profile.search_candidates,
            every_value=profile.search_values if search else None,
        )
    # The value model, with rollout and candidate settings of its own.
    weights = profile.weights if features is not None else ()
    model_evaluate = _linear(features, weights) if features is not None else hand_made
    assert model_evaluate is not None
    return Evaluator(
        game=game,
        evaluate=model_evaluate,
        scale=profile.scale,
        rollout_action=profile.rollout_action,
        rollout_depth=profile.model_rollout_depth,
        smart_rollouts=profile.model_smart_rollouts,
        search_candidates=profile.model_candidates,
        features=features,
        weights=weights,
        combine=profile.chances,
        tree_policy=profile.model_policy,
        every_value=profile.model_values,
    )


def _linear(features: Features, weights: tuple[float, ...]) -> Evaluate:
    def evaluate(state: State, player: int) -> float:
        return float(sum(map(operator.mul, weights, features(state, player))))

    return evaluate
