"""Hard-v1: the search by playouts alone at Hard's budget, a yardstick for the benchmarks.

400 iterations, the hand-made evaluations, playouts of the game's
``ROLLOUT_DEPTH`` (random, or heuristic where ``SMART_ROLLOUTS``), a fresh deal
every iteration: the Hard level the value models were measured against
(``docs/strength.md``).  Importing this module registers the level
``hard-v1``; the app never offers it.  ``bench/bots.py`` and ``bench/fit.py``
seat it; a tournament's worker processes import the benchmark script that
started them, and with it this module.
"""

from __future__ import annotations

from typing import Any

from karavan_core.bots import SearchBot
from karavan_core.bots.base import register_level
from karavan_core.bots.evaluation import SearchSettings, playout_settings
from karavan_core.engine import Game


@register_level
class HardV1Bot(SearchBot):
    """The search by playouts alone at Hard's budget (:func:`playout_settings`)."""

    level = "hard-v1"
    strength = 2
    offered = False
    description = "Hard's search by playouts alone (benchmarks only)"

    @classmethod
    def settings_for(cls, game: Game[Any, Any, Any]) -> SearchSettings:
        """Hard's budget, searched by playouts alone."""
        return playout_settings(game)
