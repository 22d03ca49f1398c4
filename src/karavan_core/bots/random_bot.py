"""The Random level: a uniformly random legal decision."""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.bots.base import Bot, register_level
from karavan_core.engine import Action, Observation


@register_level
class RandomBot(Bot):
    """Plays any legal decision with equal chance; drives the conformance suite."""

    level = "random"
    strength = 0
    description = "picks any legal move at random"

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """A uniformly random member of ``legal``."""
        return legal[self.rng.randrange(len(legal))]
