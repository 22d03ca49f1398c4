"""The whole log of a game, to read back."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from karavan_tui.app_access import karavan_app
from karavan_tui.widgets.side import numbered


class FullLogScreen(ModalScreen[None]):
    """The opening line and every decision so far, scrollable."""

    BINDINGS = [Binding("escape,l,q", "close", "Close")]
    DEFAULT_CSS = """
    FullLogScreen { align: center middle; }
    FullLogScreen > Vertical {
        width: 90%; max-width: 100; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    FullLogScreen #full-log-title { text-style: bold; }
    FullLogScreen VerticalScroll { height: 1fr; }
    """

    def __init__(self, title: str, lines: Sequence[str]) -> None:
        super().__init__()
        self.log_title = title
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        """Title and the numbered log."""
        with Vertical():
            yield Label(Content(self.log_title), id="full-log-title")
            words = karavan_app(self).glyphs.words
            with VerticalScroll(id="full-log"):
                yield Static(numbered([words(line) for line in self.lines]))
        yield Footer()

    def on_mount(self) -> None:
        """Start at the newest entry."""
        scroll = self.query_one(VerticalScroll)
        scroll.focus()
        self.call_after_refresh(scroll.scroll_end, animate=False)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
