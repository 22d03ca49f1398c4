"""Helpers shared by the games' rule tests."""

from __future__ import annotations

import pytest

from karavan_core import Action, Game, IllegalAction, State


def refuse(game: Game, state: State, action: Action) -> str:
    """Apply an illegal action: it must raise with a sentence and change nothing."""
    before = state
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, action)
    assert state == before
    message = str(refused.value)
    assert message[:1].isupper() and message.endswith(".")
    return message
