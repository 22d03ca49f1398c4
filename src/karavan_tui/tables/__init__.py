"""The table widget of each game, by game name (every registered game has one)."""

from __future__ import annotations

import importlib

from karavan_tui.tables.base import (
    HINT_FLAG,
    TableHost,
    TableView,
    TurnStep,
    View,
    flag_hint,
    hinted_index,
)

# Game name -> (module, class) of its table.  Imported on demand so that the
# title screen starts without loading every table.
_TABLES: dict[str, tuple[str, str]] = {
    "karakum": ("karavan_tui.tables.karakum.table", "KarakumTable"),
    "karakorum": ("karavan_tui.tables.karakorum", "KarakorumTable"),
    "karawane": ("karavan_tui.tables.karawane", "KarawaneTable"),
    "jaipur": ("karavan_tui.tables.jaipur.table", "JaipurTable"),
}


def table_for(game_name: str) -> type[TableView]:
    """The table widget class of ``game_name`` (a registered game's short name)."""
    module, name = _TABLES[game_name]
    table: type[TableView] = getattr(importlib.import_module(module), name)
    return table


__all__ = [
    "HINT_FLAG",
    "TableHost",
    "TableView",
    "TurnStep",
    "View",
    "flag_hint",
    "hinted_index",
    "table_for",
]
