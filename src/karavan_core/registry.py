"""The game registry: every game known to Karavan, by short name."""

from __future__ import annotations

import importlib
from typing import Any

from karavan_core.engine import Game

# Short name -> module defining ``GAME``.  Modules load on first use so that
# importing the core stays cheap.
_MODULES: dict[str, str] = {
    "karakum": "karavan_core.games.karakum",
    "karawane": "karavan_core.games.karawane",
    "karakorum": "karavan_core.games.karakorum",
    "jaipur": "karavan_core.games.jaipur",
}

_loaded: dict[str, Game[Any, Any, Any]] = {}


def all_games() -> list[Game[Any, Any, Any]]:
    """All registered games, in a stable order."""
    return [get_game(name) for name in _MODULES]


def game_names() -> list[str]:
    """The short names of all registered games."""
    return list(_MODULES)


def get_game(name: str) -> Game[Any, Any, Any]:
    """The game called ``name``; ``KeyError`` with the known names if there is none."""
    key = name.strip().lower()
    if key not in _MODULES:
        known = ", ".join(_MODULES)
        raise KeyError(f"No game called {name!r}; the games are: {known}.")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(_MODULES[key]).GAME
    return _loaded[key]
