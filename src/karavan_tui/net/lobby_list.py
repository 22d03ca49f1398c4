"""One of the lobby's lists: a row for each table, over as many lines as it needs.

:class:`LobbyList` is a :class:`~textual.widgets.DataTable` that shows a
:class:`~karavan_tui.net.lobby_rows.Layout` (its columns as wide as it says),
keeps its cursor on the same table when the list changes, and selects a row at
the first click (a tap on a phone), where a DataTable's own click only moves its
cursor there.  Every line is plain text: names are never read as markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.events import Click
from textual.widgets import DataTable

from karavan_tui.net.lobby_rows import Layout


class LobbyList(DataTable[Text]):
    """A list of the lobby's tables (or players), one row for each."""

    BINDINGS = [Binding("enter", "select_cursor", "Open", tooltip="Sit, watch or play (asks)")]

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.keys: list[str] = []  # each row's table (or player), in order

    def show(self, layout: Layout, keys: Sequence[str], header: bool = True) -> None:
        """Show ``layout``'s rows (``keys``: each row's table), the cursor kept on its table
        where that is still listed, else on the row it was on."""
        row = self.cursor_row
        chosen = self.keys[row] if 0 <= row < len(self.keys) else None
        self.clear(columns=True)
        self.show_header = header
        for head, width in zip(layout.heads, layout.widths, strict=True):
            self.add_column(Text(head), width=width)
        for key, cells in zip(keys, layout.rows, strict=True):
            lines = max((len(cell) for cell in cells), default=1)
            texts = (Text("\n".join(cell), no_wrap=True, end="") for cell in cells)
            self.add_row(*texts, height=lines, key=key)
        self.keys = list(keys)
        if self.keys:
            where = self.keys.index(chosen) if chosen in self.keys else min(row, len(keys) - 1)
            self.move_cursor(row=max(where, 0), animate=False)

    @property
    def chosen(self) -> str | None:
        """The key of the row under the cursor, if any."""
        row = self.cursor_row
        return self.keys[row] if 0 <= row < len(self.keys) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Open is greyed out (never hidden) while there is no row to open."""
        if action == "select_cursor" and not self.keys:
            return None
        return True

    def on_click(self, event: Click) -> None:
        """A click (a tap) on a row selects it at once: the cursor is put on the cell
        clicked first, which is where the DataTable's own click then selects."""
        meta = event.style.meta
        row, column = meta.get("row"), meta.get("column")
        if isinstance(row, int) and isinstance(column, int) and row >= 0 and column >= 0:
            self.cursor_coordinate = Coordinate(row, column)
