"""The Hard and Expert levels: information-set Monte Carlo tree search.

Single-observer ISMCTS after Cowling, Powley and Whitehouse (2012), "Information
Set Monte Carlo Tree Search".  Every iteration deals the hidden parts of the
table anew with ``sample_state`` (a *determinization*), walks down one shared
tree choosing among the decisions legal in that deal with UCB, where a child's
exploration term counts the times it was *available* rather than the parent's
visits; adds one node, plays the game out and backs up one reward per player.
Each node's statistics are kept from the point of view of the player who took
the decision leading to it, so opponents choose their best replies too.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from karavan_core.bots.base import Bot, register_level
from karavan_core.bots.evaluation import (
    Evaluator,
    SearchSettings,
    evaluator_for,
    settings_for,
)
from karavan_core.engine import Action, Game, Observation, State
from karavan_core.values import replace

# Decisions a playout may take past its depth limit to finish the turn under way.
MAX_TURN_FINISH = 8
# How often a search tells its ``progress`` listener how far it is: every this many
# iterations (a few hundredths of a second at most).
PROGRESS_EVERY = 50


class Node:
    """Statistics of one decision in the tree, seen by the player who took it."""

    __slots__ = (
        "action",
        "available",
        "children",
        "dealt",
        "mover",
        "order",
        "reward",
        "visits",
    )

    def __init__(self, mover: int | None, action: Action | None = None) -> None:
        self.mover = mover
        self.action = action  # the decision leading here (None at the root)
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[Action, Node] = {}
        # With a pool of deals: per deal, the state reached here and the decisions
        # open in it (None until asked), so a deal met again walks the tree for free.
        self.dealt: dict[int, list[Any]] | None = None
        # With progressive widening: the rank of each decision by its promise, best first.
        self.order: dict[Action, int] | None = None


class SearchBot(Bot):
    """ISMCTS with a budget of iterations (and an optional ``seconds`` cap).

    How it searches one game is a :class:`SearchSettings` (see there), which
    each level takes from :meth:`settings_for`; ``iterations`` and any of the
    settings' fields given as keywords change it for this bot (tests and
    tuning use that).

    Rewards are chances of winning, and two sensible moves seldom differ by
    more than a few hundredths, so UCB's constant (``exploration``) is small:
    measured against Greedy over 40 Jaipur games, 0.3 won 70% where 0.7 won 60%.
    """

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        **changes: Any,
    ) -> None:
        super().__init__(game, seed)
        if iterations is not None:
            # A budget given is the budget at every table size (hints, reviews, tuning).
            changes["iterations"] = iterations
            changes.setdefault("two_player_iterations", None)
        settings = self.settings_for(game)
        self.settings = replace(settings, **changes) if changes else settings
        self.iterations = self.settings.iterations
        self.two_player_iterations = self.settings.two_player_iterations
        self.seconds = seconds
        self.evaluator: Evaluator = evaluator_for(game, search=True, model=self.settings.model)
        self.rollout_depth = self.settings.rollout_depth
        self.smart_rollouts = self.settings.smart_rollouts
        self.exploration = self.settings.exploration
        self.greedy_finish = self.settings.greedy_finish
        self.deals = self.settings.deals
        self.last_iterations = 0  # iterations run by the latest decision, for benchmarks

    @classmethod
    def settings_for(cls, game: Game[Any, Any, Any]) -> SearchSettings:
        """How this level searches ``game``."""
        return settings_for(game, "hard")

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The root decision visited most by the search (one of ``legal``)."""
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        root = self.search(observation, legal, until_settled=True)
        return self.most_visited(root, observation, legal)

    def most_visited(self, root: Node, observation: Observation, legal: Sequence[Action]) -> Action:
        """The one of ``legal`` that :meth:`choose` takes from a searched ``root``."""
        rng = self.decision_rng(observation)

        def rank(action: Action) -> tuple[int, float, float]:
            child = root.children.get(action)
            if child is None:
                return (-1, 0.0, rng.random())
            # Most visits, then best mean reward, then chance: never "first listed",
            # which would favour one kind of move whenever the budget is small.
            return (child.visits, child.reward / child.visits, rng.random())

        return max(legal, key=rank)

    def budget(self, observation: Observation) -> int:
        """The iterations of a decision from ``observation``: more at a table of two, if set."""
        if self.two_player_iterations is not None and len(observation.players) == 2:
            return self.two_player_iterations
        return self.iterations

    def search(
        self,
        observation: Observation,
        legal: Sequence[Action] | None = None,
        until_settled: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> Node:
        """Run the budget of iterations from ``observation`` and return the root.

        ``legal``, the decisions open now, saves listing them again in every
        deal: the player to move can do the same whatever the hidden cards are
        (the property tests check that ``legal_actions`` agrees on every deal).
        With ``until_settled`` the search stops once the iterations left could
        not change which root decision is visited most (what :meth:`choose`
        takes), so it decides as the whole budget would; hints and reviews,
        which read every decision's figures, run the budget out.
        ``progress``, where given, is told the iterations run so far every
        :data:`PROGRESS_EVERY` of them (a review's bar moves with it; an
        exception it raises stops the search).
        """
        run = _Run(self, observation, legal)
        budget = self.budget(observation)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < budget:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            run.iterate(done)
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done)
            # The leader needs more visits than are left, so only past half the budget.
            if until_settled and 2 * done > budget and _settled(run.root, budget - done):
                break
        self.last_iterations = done
        return run.root

    def select(
        self,
        node: Node,
        legal: Sequence[Action],
        mover: int,
        rng: random.Random,
        state: State,
    ) -> tuple[Node, bool]:
        """The child of ``node`` to follow among the ``legal`` decisions, and whether it is new.

        Every legal decision already tried counts one more time available; an
        untried one, if any, is chosen at random and added, else the best by UCB.
        With progressive widening an untried one is added only while the node
        has fewer children tried than its visits allow, and the most promising
        first (ranked in ``state``, the deal at hand, where it reached ``node``).
        """
        children = node.children
        untried = []
        tried = []
        for action in legal:  # one dict lookup per decision
            child = children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.available += 1
                tried.append(child)
        widening = self.settings.widening
        if untried and (
            widening is None
            or not tried
            or len(tried) < widening * node.visits**self.settings.widening_power
        ):
            if widening is None or len(untried) == 1:
                action = untried[rng.randrange(len(untried))]
            else:
                action = self._most_promising(node, state, legal, untried, mover)
            child = children[action] = Node(mover, action)
            child.available = 1
            return child, True
        c = self.exploration
        best_score = -1.0
        best = tried[0]
        for child in tried:
            visits = child.visits
            score = child.reward / visits + c * math.sqrt(math.log(child.available) / visits)
            if score > best_score:
                best_score, best = score, child
        return best, False

    def _most_promising(
        self,
        node: Node,
        state: State,
        legal: Sequence[Action],
        untried: list[Action],
        mover: int,
    ) -> Action:
        """The best ranked of ``untried``, ranking ``legal`` in ``state`` the first time asked.

        A decision ranks by the mover's evaluation just after it (its own
        value alone, cheaper than scoring every player).  The rank is worked
        out in one deal and kept for the node; a decision legal only in other
        deals ranks after every ranked one.
        """
        order = node.order
        if order is None:
            game = self.game
            evaluate = self.evaluator.evaluate
            promise = [
                (-evaluate(game.apply_legal(state, action), mover), index)
                for index, action in enumerate(legal)
            ]
            promise.sort()
            order = node.order = {legal[index]: rank for rank, (_, index) in enumerate(promise)}
        last = len(order)
        return min(untried, key=lambda action: order.get(action, last))

    def rollout(self, state: State, rng: random.Random, mover: int | None) -> list[float]:
        """Play ``state`` out (or up to the depth limit) and return each player's reward.

        A position is only scored between turns: halfway through one (a camel
        bought but not yet paid for) the evaluation would misjudge it, so the
        playout first finishes the turn ``mover`` has begun.
        """
        game = self.game
        policy = self.evaluator.rollout_action if self.smart_rollouts else None
        depth = self.rollout_depth
        steps = 0
        values: list[float] | None = None  # of ``state``, where the finishing step scored it
        while (to_move := state.to_move) is not None:
            if (
                depth is not None
                and steps >= depth
                and (to_move != mover or steps >= depth + MAX_TURN_FINISH)
            ):
                break  # past the depth limit, and the turn under way is over (or too long)
            mover = to_move
            steps += 1
            if self.greedy_finish and depth is not None and steps > depth:
                # The best next decision has already reached (and perhaps scored) its state.
                _, state, values = self._best_step(state, to_move)
                continue
            if policy is not None:
                action = policy(game, state, rng)  # it lists the legal decisions if it needs them
            else:
                legal = game.legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            state = game.apply_legal(state, action)
            values = None
        return self.evaluator.rewards(state, values)

    def best_reply(self, state: State, mover: int, options: Sequence[Action]) -> Action:
        """The one of ``options`` after which ``mover`` leads the others most (the first of equals).

        How the other players are taken to answer below the root with ``greedy_replies``.
        """
        game = self.game
        advantage = self.evaluator.advantage
        best: Action = options[0]
        best_value = -math.inf
        for action in options:
            value = advantage(game.apply_legal(state, action), mover)
            if value > best_value:
                best, best_value = action, value
        return best

    def best_next(self, state: State, mover: int) -> Action:
        """The decision after which ``mover``'s evaluation is highest (the first of equals)."""
        return self._best_step(state, mover)[0]

    def _best_step(self, state: State, mover: int) -> tuple[Action, State, list[float] | None]:
        """:meth:`best_next`, the state it leads to, and every player's values there if known.

        The values are known where the evaluation scores all players at once
        (``every_value``) and the decision was chosen by them: the playout that
        stops there then scores its last state without evaluating it again.
        """
        game = self.game
        evaluator = self.evaluator
        legal: list[Action] = game.legal_actions(state)
        if evaluator.tree_policy is not None and self.settings.tree_policy:
            chosen = evaluator.tree_policy(state, legal)
            if chosen is not None:
                return chosen, game.apply_legal(state, chosen), None
        candidates = evaluator.search_candidates
        if candidates is not None:
            legal = candidates(state, legal)
        if len(legal) == 1:
            return legal[0], game.apply_legal(state, legal[0]), None
        every_value = evaluator.every_value
        best: tuple[Action, State, list[float] | None] | None = None
        best_value = -math.inf
        for action in legal:
            after = game.apply_legal(state, action)
            if every_value is not None:
                values = every_value(after)
                value = values[mover]
            else:
                values, value = None, evaluator.evaluate(after, mover)
            # The first decision stands until one scores higher: the choice, its state and
            # its values always belong together.
            if best is None or value > best_value:
                best, best_value = (action, after, values), value
        assert best is not None  # legal is never empty
        return best


class _Run:
    """One search's iterations from one observation: the tree, the pool of deals, and
    the decisions worked out once for the root and for each node in each deal."""

    __slots__ = (
        "bot",
        "candidates",
        "deal",
        "deals",
        "game",
        "legal",
        "me",
        "pool",
        "replies",
        "rng",
        "root",
        "root_options",
        "tree_policy",
    )
    deal: Callable[[random.Random], State]
    pool: list[State]
    root_options: list[Action] | None

    def __init__(
        self, bot: SearchBot, observation: Observation, legal: Sequence[Action] | None
    ) -> None:
        self.bot = bot
        self.game = bot.game
        self.rng = bot.decision_rng(observation)
        self.root = Node(None)
        self.legal = legal
        self.candidates = bot.evaluator.search_candidates
        self.tree_policy = bot.evaluator.tree_policy if bot.settings.tree_policy else None
        self.replies = bot.settings.greedy_replies
        self.me = observation.player
        self.deal = bot.game.sampler(observation)
        self.deals = bot.deals
        self.pool = []
        self.root_options = None

    def iterate(self, done: int) -> None:
        """Iteration number ``done``: deal, walk down the tree, play out, back up."""
        dealt = done % self.deals if self.deals else 0
        state, path = self._descend(self._dealt(dealt), dealt)
        rewards = self.bot.rollout(state, self.rng, path[-1].mover)
        for visited in path:
            visited.visits += 1
            if visited.mover is not None:
                visited.reward += rewards[visited.mover]

    def _dealt(self, dealt: int) -> State:
        """The deal of this iteration: a fresh one, or deal ``dealt`` of the pool."""
        if self.deals is None:
            return self.deal(self.rng)
        if len(self.pool) < dealt + 1:
            state = self.deal(self.rng)
            self.pool.append(state)
            return state
        return self.pool[dealt]  # every deal of the pool in turn, so each is met equally often

    def _descend(self, state: State, dealt: int) -> tuple[State, list[Node]]:
        """Selection and expansion: the state reached and the nodes walked through."""
        game, pooled = self.game, self.deals is not None
        path = [self.root]
        node = self.root
        while (to_move := state.to_move) is not None:
            options = self._options(node, state, to_move, dealt)
            node, expanded = self.bot.select(node, options, to_move, self.rng, state)
            known = node.dealt.get(dealt) if node.dealt is not None else None
            if known is not None:
                state = known[0]
            else:
                # The actions come from legal_actions, so the check in apply is skipped.
                state = game.apply_legal(state, node.action)
                if pooled:
                    if node.dealt is None:
                        node.dealt = {}
                    node.dealt[dealt] = [state, None]
            path.append(node)
            if expanded:
                break
        return state, path

    def _options(self, node: Node, state: State, to_move: int, dealt: int) -> list[Action]:
        """The decisions searched at ``node`` in deal ``dealt`` (worked out once where they
        cannot differ)."""
        if node is self.root and self.root_options is not None:
            return self.root_options
        known = node.dealt.get(dealt) if node.dealt is not None else None
        if known is not None and known[1] is not None:
            found: list[Action] = known[1]
            return found
        given = self.legal if node is self.root else None
        listed = self.game.legal_actions(state) if given is None else list(given)
        candidates = self.candidates
        options = listed if candidates is None else candidates(state, listed)
        if given is None and self.tree_policy is not None:
            chosen = self.tree_policy(state, listed)
            if chosen is not None:
                options = [chosen]  # below the root this step is not branched on
        if given is None and self.replies and to_move != self.me and len(options) > 1:
            options = [self.bot.best_reply(state, to_move, options)]
        if given is not None:
            self.root_options = options  # the same in every deal: worked out once
        elif known is not None:
            known[1] = options
        return options


def _settled(root: Node, left: int) -> bool:
    """Whether ``left`` more iterations could not give another root decision the most visits.

    The leader must stay strictly ahead: on equal visits the mean reward
    would decide, and that the iterations left could still change.
    """
    first = second = 0
    for child in root.children.values():
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > left


@register_level
class HardBot(SearchBot):
    """ISMCTS within a tenth of a second a decision: the ``HARD`` of the game's module."""

    level = "hard"
    strength = 2
    description = "searches ahead (ISMCTS) for about a twentieth of a second a move"


@register_level
class ExpertBot(SearchBot):
    """Hard's search with several times its budget: the ``EXPERT`` of the game's module."""

    level = "expert"
    strength = 3
    description = "searches like Hard, several times as long"

    @classmethod
    def settings_for(cls, game: Game[Any, Any, Any]) -> SearchSettings:
        """Expert's settings for ``game``."""
        return settings_for(game, "expert")
