"""The Greedy level: the decision whose own turn ends best by the game's evaluation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from karavan_core.bots.base import Bot, register_level
from karavan_core.bots.evaluation import Evaluator, evaluator_for
from karavan_core.engine import Action, Game, Observation, State


@register_level
class GreedyBot(Bot):
    """Looks one decision ahead, following its own turn to its end.

    The hidden parts of the table are dealt a few times (``samples``) with
    ``sample_state``; each legal decision is tried in every deal, the rest of
    the bot's own turn is completed greedily, and the decision with the best
    average evaluated lead wins.  Using the same deals for every decision keeps
    the comparison fair.
    """

    level = "greedy"
    strength = 1
    description = "takes the move that looks best right now"

    def __init__(
        self, game: Game[Any, Any, Any], seed: int = 0, samples: int = 4, turn_steps: int = 4
    ) -> None:
        super().__init__(game, seed)
        self.samples = samples
        self.turn_steps = turn_steps
        self.evaluator: Evaluator = evaluator_for(game)

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The decision with the best average evaluated lead at the end of the bot's turn."""
        if len(legal) == 1:
            return legal[0]
        rng = self.decision_rng(observation)
        me = observation.player
        assert me is not None  # a bot decides from its own seat's observation, never the public one
        totals = [0.0] * len(legal)
        sampler = self.game.sampler(observation)
        for _ in range(self.samples):
            deal = sampler(rng)
            for i, action in enumerate(legal):
                totals[i] += self.value_after(deal, action, me)
        best = max(totals)
        # Ties are broken at random so the bot is not predictable among equals.
        tied = [a for a, t in zip(legal, totals, strict=True) if t >= best - 1e-9]
        return tied[rng.randrange(len(tied))]

    def value_after(self, state: State, action: Action, me: int) -> float:
        """``me``'s evaluated lead after ``action`` and the best rest of ``me``'s turn."""
        game = self.game
        # The actions come from legal_actions (the same in every deal), so the check is skipped.
        state = game.apply_legal(state, action)
        for _ in range(self.turn_steps):
            if state.to_move != me:
                break
            options = game.legal_actions(state)
            state = max(
                (game.apply_legal(state, a) for a in options),
                key=lambda s: self.evaluator.advantage(s, me),
            )
        return self.evaluator.advantage(state, me)
