"""The rules of each game, in the app's own words."""

from __future__ import annotations

import re
from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, TabbedContent, TabPane

from karavan_core.registry import all_games
from karavan_tui.glyphs import ASCII, UNICODE
from karavan_tui.tables.karakorum.faces import ASCII_SYMBOLS, UNICODE_SYMBOLS
from karavan_tui.widgets.chrome import AppHeader


def rules_text(game_name: str) -> str:
    """The rules of ``game_name`` as Markdown (every registered game has them)."""
    path = resources.files("karavan_tui") / "rules" / f"{game_name}.md"
    return path.read_text(encoding="utf-8")


# The table's own symbols the rules show, and what ASCII mode draws for each.
TABLE_SYMBOLS = str.maketrans(
    {
        UNICODE.master: ASCII.master,
        UNICODE.tax: ASCII.tax,
        UNICODE_SYMBOLS.axe: ASCII_SYMBOLS.axe,
    }
)


def ascii_rules(text: str) -> str:
    """The rules as ASCII mode shows them: its symbols, and a symbol given with its ASCII
    twin ("**♛**, or **M** in ASCII mode") said once."""
    text = ASCII.words(text).translate(TABLE_SYMBOLS)
    text = re.sub(r"\*\*(\S+)\*\*, or \*\*\1\*\* in ASCII mode", r"**\1**", text)
    return re.sub(r"\((\S) or \\\1\)", r"(\\\1)", text)  # "(* or \*)": "(\*)"


class RulesMarkdown(Markdown):
    """The rules' Markdown, its list bullets plain ASCII in ASCII mode."""

    def __init__(self, text: str, ascii_mode: bool) -> None:
        if ascii_mode:
            self.BULLETS = ["- ", "* ", "+ ", "- ", "* "]
            text = ascii_rules(text)
        super().__init__(text)


class RulesScreen(Screen[None]):
    """One tab per game, opened on the game being played."""

    BINDINGS = [Binding("escape,q", "close", "Back")]
    DEFAULT_CSS = """
    RulesScreen Markdown { padding: 0 1; max-width: 100; }
    RulesScreen .rules { align-horizontal: center; }  /* read at about 100 columns, centred */
    RulesScreen TabPane { padding: 0; }
    """

    def __init__(self, game_name: str | None = None) -> None:
        super().__init__()
        self.game_name = game_name

    def compose(self) -> ComposeResult:
        """Header, tabs and Footer."""
        yield AppHeader()
        ascii_mode = getattr(self.app, "ascii_mode", False)
        with TabbedContent(initial=self.game_name or ""):
            for game in all_games():
                with TabPane(game.title, id=game.name), VerticalScroll(classes="rules"):
                    yield RulesMarkdown(rules_text(game.name), ascii_mode)
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
