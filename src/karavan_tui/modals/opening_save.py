"""The dialog shown while a long save is replayed: which file, and how far the replay is."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, ProgressBar


class OpeningSave(ModalScreen[None]):
    """ "Opening NAME" over a bar of the decisions replayed so far; the app closes it.

    A save is verified by replaying every decision in it, which for the longest
    takes a moment: the bar says the app is at work, not stuck.
    """

    DEFAULT_CSS = """
    OpeningSave { align: center middle; }
    OpeningSave > Vertical {
        width: 64; max-width: 100%; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    OpeningSave #opening-name { width: 100%; text-style: bold; margin-bottom: 1; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.file_name = name
        self.done = 0
        self.total: int | None = None
        self.closing = False  # the save is loaded: the dialog goes as soon as it is on top

    def compose(self) -> ComposeResult:
        """The file's name (outside data: shown literally) and the bar."""
        with Vertical():
            yield Label(Text(f"Opening {self.file_name}"), id="opening-name")
            yield Label("Checking every decision in it:")
            yield ProgressBar(total=self.total, show_eta=False, id="replayed")

    def advance(self, done: int, total: int) -> None:
        """``done`` of the save's ``total`` decisions are replayed."""
        self.done, self.total = done, total
        if self.is_mounted:
            self._show()

    def close(self) -> None:
        """The save is loaded (or refused): close now, or once back on top (the palette may
        have been opened over it meanwhile)."""
        self.closing = True
        if self.is_current:
            self.dismiss()

    def on_screen_resume(self) -> None:
        """Back on top after the load ended: close."""
        if self.closing:
            self.dismiss()

    def on_mount(self) -> None:
        """Show how far the replay got before the dialog came up."""
        self._show()

    def _show(self) -> None:
        if self.total is not None:
            bar = self.query_one("#replayed", ProgressBar)
            bar.update(total=max(self.total, 1), progress=self.done)
