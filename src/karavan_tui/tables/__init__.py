"""The table widget of each game, by game name.

Only games listed here are offered in the new-game dialog: a game without a
table of its own cannot be played in the app yet.
"""

from __future__ import annotations

from karavan_tui.tables.base import TableHost, TableView, View


def table_for(game_name: str) -> type[TableView] | None:
    """The table widget class of ``game_name``, or ``None`` if it has none yet."""
    # Imported on demand so that the title screen starts without loading every table.
    if game_name == "karakum":
        from karavan_tui.tables.karakum import KarakumTable

        return KarakumTable
    return None


def playable(game_name: str) -> bool:
    """Whether the app has a table for ``game_name``."""
    return game_name in TABLE_GAMES


TABLE_GAMES: tuple[str, ...] = ("karakum",)

__all__ = ["TABLE_GAMES", "TableHost", "TableView", "View", "playable", "table_for"]
