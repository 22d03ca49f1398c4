"""The notice shown while the terminal is smaller than the app needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24
# A narrow screen (a phone held upright) stacks the table: it needs more rows instead.
NARROW_WIDTH = 40
NARROW_HEIGHT = 30


def too_small(width: int, height: int) -> bool:
    """Whether a terminal of ``width`` x ``height`` is too small for every layout."""
    wide_enough = width >= MIN_WIDTH and height >= MIN_HEIGHT
    narrow_enough = width >= NARROW_WIDTH and height >= NARROW_HEIGHT
    return not (wide_enough or narrow_enough)


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
            f"Karavan needs at least {MIN_WIDTH}x{MIN_HEIGHT}, or {NARROW_WIDTH}x{NARROW_HEIGHT} "
            "on a narrow screen: please make it larger.\n"
            "(ctrl+q quits)"
        )

    def on_mount(self) -> None:
        """Fill in the size."""
        self.show_size(*self.app.size)
