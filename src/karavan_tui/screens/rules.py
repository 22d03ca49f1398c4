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


def sections(text: str) -> list[str]:
    """``text`` (Markdown) cut before each heading of its second level: the opening first."""
    parts = re.split(r"(?m)^(?=## )", text)
    return [part for part in parts if part]


class RulesMarkdown(Markdown):
    """The rules' Markdown, its list bullets plain ASCII in ASCII mode."""

    def __init__(self, text: str, ascii_mode: bool) -> None:
        if ascii_mode:
            self.BULLETS = ["- ", "* ", "+ ", "- ", "* "]
            text = ascii_rules(text)
        super().__init__(text)


class RulesScreen(Screen[None]):
    """One tab per game, opened on the game being played; Left and Right go to the others.

    A game's rules are laid out when its tab is first shown, a section at a time: its
    opening straight away, each next section once the screen has been drawn (laying out
    the four documents at once takes a second or two).
    """

    BINDINGS = [
        Binding("escape,q", "close", "Back"),
        # Before the text's own keys: it has nothing to scroll sideways.
        Binding("left", "tab(-1)", "Other game", key_display="←→", priority=True),
        Binding("right", "tab(1)", "Next game", show=False, priority=True),
    ]
    DEFAULT_CSS = """
    RulesScreen Markdown { padding: 0 1; max-width: 100; }
    RulesScreen .rules { align-horizontal: center; }  /* read at about 100 columns, centred */
    RulesScreen TabPane { padding: 0; }
    /* A section's heading after the last one's closing margin: the gap of one document. */
    RulesScreen RulesMarkdown > MarkdownH2:first-child { margin: 1 0 1 0; }
    """

    def __init__(self, game_name: str | None = None) -> None:
        super().__init__()
        self.game_name = game_name
        self.pending = 0  # sections still to lay out

    def compose(self) -> ComposeResult:
        """Header, a tab per game (its text comes when it is shown) and Footer."""
        yield AppHeader()
        with TabbedContent(initial=self.game_name or ""):
            for game in all_games():
                with TabPane(game.title, id=game.name):
                    yield VerticalScroll(classes="rules")
        yield Footer()

    def on_mount(self) -> None:
        """Show the first game's rules."""
        self.sub_title = "Rules"
        self.show_pane(self.query_one(TabbedContent).active_pane)

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """Another game's tab: its rules, ready to scroll."""
        self.show_pane(event.pane)

    def show_pane(self, pane: TabPane | None) -> None:
        """Lay out ``pane``'s rules if they are not yet, and let the arrow keys scroll them."""
        if pane is None or pane.id is None:
            return
        text = pane.query_one(VerticalScroll)
        if not text.children:
            ascii_mode = getattr(self.app, "ascii_mode", False)
            parts = sections(rules_text(pane.id))
            self.pending += len(parts)
            self.read_on(text, parts, ascii_mode)
        text.focus()

    def read_on(self, text: VerticalScroll, rest: list[str], ascii_mode: bool) -> None:
        """Lay out the first of the sections ``rest`` at the end of ``text``, and the next
        once the screen has been drawn again."""
        if not rest:
            return
        self.pending -= 1
        text.mount(RulesMarkdown(rest[0], ascii_mode))
        self.call_after_refresh(self.read_on, text, rest[1:], ascii_mode)

    def text_of(self, game_name: str) -> str:
        """The Markdown of ``game_name``'s rules laid out so far (whole once ``pending`` is 0)."""
        pane = self.query_one(f"#{game_name}", TabPane)
        return "".join(markdown.source for markdown in pane.query(RulesMarkdown))

    def action_tab(self, step: int) -> None:
        """The game ``step`` tabs along (Left: -1, Right: 1), around at the ends."""
        tabs = self.query_one(TabbedContent)
        names = [game.name for game in all_games()]
        tabs.active = names[(names.index(tabs.active) + step) % len(names)]

    def action_close(self) -> None:
        """Go back."""
        self.dismiss(None)
