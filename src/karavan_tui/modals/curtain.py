"""The hot-seat curtain: hides the whole table until the next player is at the keyboard.

While it is down it tells, in the public log's words, what happened since the
next player last decided: what they would have seen over the table, and no more.
Its other side, :class:`TurnOverScreen`, comes first where the player whose turn
has just ended must still be told what only they saw happen in it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from karavan_tui.context import karavan_app
from karavan_tui.messages import BackToTitle, SaveOpenGame
from karavan_tui.widgets.side import numbered


class CurtainScreen(Screen[bool | None]):
    """A full, opaque screen saying "Pass to NAME"; Enter lifts it.

    It is a plain screen, not a modal, so nothing of the table shows through;
    ``news`` (public log lines, numbered from ``first``) says what happened since
    that player's last decision.  Only Enter (or a click) lifts it, as it says:
    a Space meant for the table must not show a hand to the wrong player.

    Where ``taker`` is named, **u** takes that player's last decision back without
    lifting the curtain: it is dismissed with ``True``, and the table draws a
    curtain for whoever decides next, so no hand shows to whoever pressed it.
    Away from the table (a replay's or a review's curtain), Esc backs out instead of
    lifting it: it is dismissed with ``None``.
    """

    BINDINGS = [
        Binding("enter", "lift", "Show my cards", key_display="Enter"),
        Binding("u", "take_back", "Undo", tooltip="Take back the last player's decision"),
        Binding("escape", "back", "Back", tooltip="Keep the curtain's cards hidden: go back"),
        Binding("s", "save_as", "Save as", tooltip="Save the game under a name"),
        Binding("q", "leave", "Title", tooltip="Back to the title (the game stays saved)"),
    ]
    DEFAULT_CSS = """
    CurtainScreen { align: center middle; background: $background; }
    CurtainScreen #curtain { height: auto; }
    CurtainScreen #curtain-name { text-style: bold; color: $accent; }
    CurtainScreen Label { width: 100%; text-align: center; margin: 1 0; }
    CurtainScreen #curtain-news {
        width: 76; max-width: 100%; height: auto; max-height: 14;
        border: round $foreground 30%; border-title-color: $text-muted; padding: 0 1;
    }
    """

    def __init__(
        self,
        name: str,
        at_table: bool = True,
        news: Sequence[str] = (),
        first: int = 1,
        taker: str | None = None,
    ) -> None:
        super().__init__()
        self.player_name = name
        self.news = tuple(news)
        self.first = first
        # Saving and leaving are the game table's keys; a replay's curtain only lifts.
        self.at_table = at_table
        self.taker = taker if at_table else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Save and Title belong to a curtain over the game table only; Undo to one whose
        last decision may be taken back."""
        if action in ("save_as", "leave"):
            return self.at_table
        if action == "take_back":
            return self.taker is not None
        if action == "back":
            return not self.at_table
        return True

    def compose(self) -> ComposeResult:
        """The message, and the news since the player's last decision."""
        with Vertical(id="curtain"):
            yield Label(Content(f"Pass to {self.player_name}"), id="curtain-name")
            yield Label(
                Content(f"{self.player_name}, press Enter when only you can see the screen.")
            )
            if self.news:
                lines = [karavan_app(self).glyphs.words(line) for line in self.news]
                news = VerticalScroll(Static(numbered(lines, self.first)), id="curtain-news")
                # Before a player's first decision, all of it is news since the deal.
                first_time = self.first <= 1
                news.border_title = "Since the deal" if first_time else "Since your last decision"
                news.can_focus = False
                with Center():
                    yield news
        yield Footer()

    def on_mount(self) -> None:
        """The newest news in sight when there is more than fits."""
        for news in self.query("#curtain-news"):
            news.scroll_end(animate=False, immediate=True)

    def on_click(self) -> None:
        """A click lifts the curtain too."""
        self.dismiss(False)

    def action_save_as(self) -> None:
        """Save the game under the curtain by name; the curtain stays down."""
        self.post_message(SaveOpenGame())

    def action_leave(self) -> None:
        """Back to the title without lifting the curtain (the game is saved already)."""
        self.post_message(BackToTitle())

    def action_lift(self) -> None:
        """Show the table to the player."""
        self.dismiss(False)

    def action_back(self) -> None:
        """Go back without lifting the curtain (away from the table only)."""
        self.dismiss(None)

    def action_take_back(self) -> None:
        """Take back the last player's decision; the table behind stays hidden."""
        self.dismiss(True)


class TurnOverScreen(Screen[None]):
    """Hot-seat: "NAME, your turn is over", with what only that player saw happen in it.

    Shown to the player who has just played, before the curtain for the next one (or
    the bots' moves) and never after it: a card drawn blind at the end of a turn
    would otherwise be named to nobody, as the log must not name it.  An opaque
    screen like the curtain (the table behind it shows nothing private any more);
    Enter, or a click, closes it.
    """

    BINDINGS = [Binding("enter", "done", "Done", key_display="Enter")]
    DEFAULT_CSS = """
    TurnOverScreen { align: center middle; background: $background; }
    TurnOverScreen #turn-over { height: auto; }
    TurnOverScreen #turn-over-name { text-style: bold; color: $accent; }
    TurnOverScreen Label { width: 100%; text-align: center; margin: 1 0; }
    TurnOverScreen #turn-over-note {
        width: auto; max-width: 100%; height: auto; text-style: bold;
        border: round $accent; border-title-color: $text-muted; padding: 0 2;
    }
    """

    def __init__(self, name: str, note: str) -> None:
        super().__init__()
        self.player_name = name
        self.note = note

    def compose(self) -> ComposeResult:
        """Whose turn is over, what only they may know of it, and how to go on."""
        with Vertical(id="turn-over"):
            yield Label(Content(f"{self.player_name}, your turn is over"), id="turn-over-name")
            note = Static(Content(self.note), id="turn-over-note")
            note.border_title = "Only for you"
            with Center():
                yield note
            yield Label(Content(f"{self.player_name}, press Enter once you have read it."))
        yield Footer()

    def on_click(self) -> None:
        """A click closes it too."""
        self.dismiss(None)

    def action_done(self) -> None:
        """The player has read it."""
        self.dismiss(None)
