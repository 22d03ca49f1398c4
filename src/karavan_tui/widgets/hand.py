"""The zone of a player's hand: a row of cards, hidden behind the curtain."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.words import cells, cut

# The border around a title: "╭─ " before it and " ─╮" after it.
TITLE_FRAME = 6


class HandZone(Vertical):
    """The hand of the player at the keyboard (``CARDS`` cards in the row ``#hand-row``).

    In the public view it is hidden: a notice stands in its place, and the cards are
    blanked too, so that no private card stays even in a hidden widget.
    """

    CARDS: ClassVar[int] = 0  # how many cards the row holds
    ROW_CLASSES: ClassVar[str] = ""  # the row's classes ("-thirds": three columns when narrow)
    _owner: tuple[str, str, str] | None = None  # the title's name, what follows it, the ellipsis

    def compose(self) -> ComposeResult:
        """The row of cards and the hidden notice."""
        yield CardRow(self.CARDS, id="hand-row", classes=self.ROW_CLASSES)
        yield Static("", id="hand-hidden")

    def hide(self, notice: str = "Hands are hidden.", blank: str = "-none") -> None:
        """Hide the hand behind ``notice``, its cards blanked (``blank``: their class)."""
        row = self.query_one("#hand-row", CardRow)
        row.set_faces([CardFace("", blank)] * self.CARDS)
        row.display = False
        hidden = self.query_one("#hand-hidden", Static)
        hidden.display = True
        hidden.update(notice)
        self._owner = None
        self.border_title = "Hand"

    def title_hand(self, name: str, after: str, ellipsis: str) -> None:
        """Title the zone "NAME's hand" and ``after`` it (counts, keys), the name cut with
        ``ellipsis`` where the zone is too narrow for it whole (the counts stay)."""
        self._owner = (name, after, ellipsis)
        self.fit_title()

    def on_resize(self) -> None:
        """The title again for the new width."""
        self.fit_title()

    def fit_title(self) -> None:
        """The hand's title, its owner's name as long as the width allows."""
        if self._owner is None:
            return
        name, after, ellipsis = self._owner
        room = self.outer_size.width - TITLE_FRAME - cells(f"'s hand{after}")
        if self.outer_size.width:
            name = cut(name, max(room, cells(ellipsis) + 1), ellipsis)
        self.border_title = Content(f"{name}'s hand{after}")

    def reveal(self) -> CardRow:
        """Show the row of cards (to draw the hand in it), the notice gone."""
        row = self.query_one("#hand-row", CardRow)
        row.display = True
        self.query_one("#hand-hidden", Static).display = False
        return row
