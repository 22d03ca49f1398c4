"""The saved games in a table: open one, or delete one after confirming."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import DataTable, Footer, Label

from karavan_core.saves import SaveSummary, list_saves
from karavan_core.text import printable
from karavan_tui.modals.confirm import ConfirmScreen


def when(stamp: str) -> str:
    """An ISO time stamp as local ``YYYY-MM-DD HH:MM``."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp or "?"


class SavesScreen(ModalScreen[Path | None]):
    """Every save in the folder, newest first; dismisses with the chosen file."""

    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("enter", "open", "Open", priority=True),
        Binding("d,delete", "delete", "Delete"),
    ]
    DEFAULT_CSS = """
    SavesScreen { align: center middle; }
    SavesScreen > Vertical {
        width: 100%; max-width: 110; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SavesScreen #saves-title { text-style: bold; }
    SavesScreen DataTable { height: auto; max-height: 16; }
    SavesScreen #saves-note { color: $text-muted; }
    """

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.saves: list[SaveSummary] = []

    def compose(self) -> ComposeResult:
        """Title, table and a note on unreadable files."""
        with Vertical():
            yield Label(Content(f"Saved games in {printable(str(self.folder))}"), id="saves-title")
            yield DataTable(cursor_type="row", zebra_stripes=True, id="saves")
            yield Label("", id="saves-note")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the table."""
        table = self.query_one(DataTable)
        table.add_columns("Game", "Players", "Decisions", "Last played", "File")
        self.reload()

    def reload(self) -> None:
        """Read the folder again."""
        table = self.query_one(DataTable)
        table.clear()
        self.saves, bad = list_saves(self.folder)
        for save in self.saves:
            # Names and file names come from outside: Text cells are never read as markup.
            table.add_row(
                Text(save.game),
                Text(", ".join(save.players)),
                Text(f"{save.decisions}{' (over)' if save.over else ''}"),
                Text(when(save.saved_at)),
                Text(printable(save.path.name)),
            )
        note = "Enter opens, d deletes, Esc goes back."
        if not self.saves:
            note = "No saved games yet. Esc goes back."
        if bad:
            note += f"  {len(bad)} file(s) could not be read: see `karavan saves`."
        self.query_one("#saves-note", Label).update(note)

    def _selected(self) -> SaveSummary | None:
        table = self.query_one(DataTable)
        if not self.saves or table.cursor_row < 0 or table.cursor_row >= len(self.saves):
            return None
        return self.saves[table.cursor_row]

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """A click or Enter on a row opens it."""
        event.stop()
        self.action_open()

    def action_open(self) -> None:
        """Open the selected save."""
        save = self._selected()
        if save is not None:
            self.dismiss(save.path)

    def action_delete(self) -> None:
        """Delete the selected save once the player confirms."""
        save = self._selected()
        if save is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                try:
                    save.path.unlink()
                except OSError as error:
                    self.notify(
                        f"Could not delete {printable(save.path.name)}: {error.strerror}",
                        severity="error",
                    )
                else:
                    self.notify(f"Deleted {printable(save.path.name)}.")
                self.reload()

        self.app.push_screen(
            ConfirmScreen(
                f"Delete the {save.game} game of {', '.join(save.players)} "
                f"({save.decisions} decisions)? This cannot be undone.",
                yes="Delete",
            ),
            answered,
        )

    def action_cancel(self) -> None:
        """Go back."""
        self.dismiss(None)
