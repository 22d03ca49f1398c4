"""The notice shown while the terminal is smaller than the app needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmallScreen(ModalScreen[None]):
    """Covers everything until the terminal is large enough again."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen Static { width: 100%; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        """The notice."""
        yield Static("", id="too-small")

    def show_size(self, width: int, height: int) -> None:
        """Say how large the terminal is and how large it must be."""
        self.query_one("#too-small", Static).update(
            f"The terminal is {width}x{height}.\n"
            f"Karavan needs at least {MIN_WIDTH}x{MIN_HEIGHT}: please make it larger.\n"
            "(ctrl+q quits)"
        )

    def on_mount(self) -> None:
        """Fill in the size."""
        self.show_size(*self.app.size)
