"""The Textual app: for now, a title screen listing the games."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Header, Static

from karavan_core import games
from karavan_core.version import __version__


class KaravanApp(App):
    """Karavan's terminal app."""

    TITLE = "Karavan"
    SUB_TITLE = f"camel-caravan card games · {__version__}"
    BINDINGS = [Binding("q", "quit", "Quit")]

    def __init__(self, saves_dir: Path | None = None) -> None:
        super().__init__()
        self.saves_dir = saves_dir

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="games"):
            for game in games():
                yield Static(
                    f"{game.title}  ({game.min_players}–{game.max_players} players)",
                    classes="game",
                )
        yield Footer()
