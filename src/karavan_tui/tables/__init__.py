"""The table widget of each game, by game name.

Only games listed here are offered in the new-game dialog: a game without a
table of its own cannot be played in the app yet.
"""

from __future__ import annotations

import importlib

from karavan_tui.tables.base import TableHost, TableView, View

# Game name -> (module, class) of its table.  Imported on demand so that the
# title screen starts without loading every table.
_TABLES: dict[str, tuple[str, str]] = {
    "karakum": ("karavan_tui.tables.karakum", "KarakumTable"),
    "karakorum": ("karavan_tui.tables.karakorum", "KarakorumTable"),
    "karawane": ("karavan_tui.tables.karawane", "KarawaneTable"),
    "jaipur": ("karavan_tui.tables.jaipur", "JaipurTable"),
}

TABLE_GAMES: tuple[str, ...] = tuple(_TABLES)


def table_for(game_name: str) -> type[TableView] | None:
    """The table widget class of ``game_name``, or ``None`` if it has none yet."""
    if game_name not in _TABLES:
        return None
    module, name = _TABLES[game_name]
    table: type[TableView] = getattr(importlib.import_module(module), name)
    return table


def playable(game_name: str) -> bool:
    """Whether the app has a table for ``game_name``."""
    return game_name in _TABLES


__all__ = ["TABLE_GAMES", "TableHost", "TableView", "View", "playable", "table_for"]
