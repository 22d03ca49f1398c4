"""Positions for the gesture tests: real deals from the engine, stepped to what a test needs."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from karavan_core.engine import Action, Game

NAMES = ("Ann", "Bob", "Cem", "Dee")


def first_position(
    game: Game[Any, Any, Any],
    wanted: Callable[[Any], bool],
    *,
    players: int = 2,
    steps: int = 400,
    policy: Callable[[Any, Sequence[Action], random.Random], Action] | None = None,
) -> Any:
    """The first state, over seeds 1 up and play by ``policy`` (random by default), where
    Ann (seat 0, who begins) is to move and ``wanted`` holds."""
    for seed in range(1, 300):
        state = game.new_game(NAMES[:players], seed, {"first_player": 0})
        rng = random.Random(seed)
        for _ in range(steps):
            if game.is_over(state):
                break
            if state.to_move == 0 and wanted(state):
                return state
            legal = game.legal_actions(state)
            state = game.apply(state, policy(state, legal, rng) if policy else rng.choice(legal))
    raise AssertionError("no such position")
