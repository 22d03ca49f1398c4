"""The zone of a player's hand: a row of cards, hidden behind the curtain."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from karavan_tui.widgets.cards import CardFace, CardRow


class HandZone(Vertical):
    """The hand of the player at the keyboard (``CARDS`` cards in the row ``#hand-row``).

    In the public view it is hidden: a notice stands in its place, and the cards are
    blanked too, so that no private card stays even in a hidden widget.
    """

    CARDS: ClassVar[int] = 0  # how many cards the row holds

    def compose(self) -> ComposeResult:
        """The row of cards and the hidden notice."""
        yield CardRow(self.CARDS, id="hand-row")
        yield Static("", id="hand-hidden")

    def hide(self, notice: str = "Hands are hidden.", blank: str = "-none") -> None:
        """Hide the hand behind ``notice``, its cards blanked (``blank``: their class)."""
        row = self.query_one("#hand-row", CardRow)
        row.set_faces([CardFace("", blank)] * self.CARDS)
        row.display = False
        hidden = self.query_one("#hand-hidden", Static)
        hidden.display = True
        hidden.update(notice)
        self.border_title = "Hand"

    def reveal(self) -> CardRow:
        """Show the row of cards (to draw the hand in it), the notice gone."""
        row = self.query_one("#hand-row", CardRow)
        row.display = True
        self.query_one("#hand-hidden", Static).display = False
        return row
