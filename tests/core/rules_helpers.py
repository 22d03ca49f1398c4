"""Helpers shared by the games' rule tests."""

from __future__ import annotations

from typing import Any

import pytest

from karavan_core import Action, Game, IllegalAction, State


def refuse(game: Game[Any, Any, Any], state: State, action: Action) -> str:
    """Apply an illegal action: it must raise with a sentence and change nothing."""
    before = state
    with pytest.raises(IllegalAction) as refused:
        game.apply(state, action)
    assert state == before
    message = str(refused.value)
    assert message[:1].isupper() and message.endswith(".")
    return message


def log_line(game: Game[Any, Any, Any], state: State, action: Action) -> str:
    """The log's line for ``action`` in ``state``: built from the public views around it."""
    after = game.apply(state, action)
    return game.describe(game.observe(state, None), action, game.observe(after, None))


def preview(game: Game[Any, Any, Any], state: State, action: Action) -> str:
    """The words the player to move reads for ``action`` before taking it."""
    return game.preview(game.observe(state, state.to_move), action)


def prompt(game: Game[Any, Any, Any], state: State) -> str:
    """The status line's words for the player to move, from their own observation."""
    return game.prompt(game.observe(state, state.to_move))
