"""The rules of each game, in the app's own words."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, TabbedContent, TabPane

from karavan_core.registry import all_games
from karavan_tui.widgets.chrome import AppHeader


def rules_text(game_name: str) -> str | None:
    """The rules of ``game_name`` as Markdown, or ``None`` when the app has none yet."""
    path = resources.files("karavan_tui") / "rules" / f"{game_name}.md"
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None


class RulesScreen(Screen[None]):
    """One tab per game that has rules written."""

    BINDINGS = [Binding("escape,q", "close", "Back")]
    DEFAULT_CSS = """
    RulesScreen Markdown { padding: 0 1; }
    RulesScreen TabPane { padding: 0; }
    """

    def __init__(self, game_name: str | None = None) -> None:
        super().__init__()
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        """Header, tabs and Footer."""
        yield AppHeader()
        written = [(game, rules_text(game.name)) for game in all_games()]
        written = [(game, text) for game, text in written if text]
        initial = self.game_name if any(g.name == self.game_name for g, _ in written) else None
        with TabbedContent(initial=initial or ""):
            for game, text in written:
                with TabPane(game.title, id=game.name), VerticalScroll(classes="rules"):
                    yield Markdown(text)
        yield Footer()

    def on_mount(self) -> None:
        """Let the arrow keys scroll the text straight away."""
        self.sub_title = "Rules"
        pane = self.query_one(TabbedContent).active_pane
        if pane is not None:
            pane.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        """Go back."""
        self.dismiss(None)
