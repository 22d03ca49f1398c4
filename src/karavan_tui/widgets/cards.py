"""A row of cards that the keyboard and the mouse can choose from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static


@frozen
class CardFace:
    """How one card looks: its text, its CSS classes (colour, state) and a hover tip."""

    text: Text | str
    classes: str = ""
    tip: str | None = None


class Card(Static):
    """One card in a :class:`CardRow`; a click chooses it."""

    def __init__(self, index: int) -> None:
        super().__init__("", classes="card")
        self.index = index
        self._face: CardFace | None = None

    def set_face(self, face: CardFace) -> None:
        """Show ``face`` (does nothing when it is already shown, to keep updates cheap)."""
        if face == self._face:
            return
        old = self._face.classes.split() if self._face else []
        self._face = face
        self.update(face.text, layout=False)  # cards have a fixed size
        self.remove_class(*old)
        self.add_class(*face.classes.split())
        self.tooltip = face.tip

    def on_click(self, event: Click) -> None:
        """Choose this card."""
        event.stop()
        row = self.parent
        if isinstance(row, CardRow):
            row.choose(self.index)


class CardRow(Horizontal, can_focus=True):
    """A zone of the table holding a fixed number of cards, with a cursor.

    Left and right move the cursor, up and down move to the previous or next
    zone, Enter or a click chooses the card under the cursor.
    """

    BINDINGS = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("up", "app.focus_previous", "Previous zone", show=False),
        Binding("down", "app.focus_next", "Next zone", show=False),
        Binding("enter", "choose", "Choose", tooltip="Act on the card under the cursor"),
    ]

    cursor: reactive[int] = reactive(0)

    class Chosen(Message):
        """A card of ``row`` was chosen."""

        def __init__(self, row: CardRow, index: int) -> None:
            super().__init__()
            self.row = row
            self.index = index

    def __init__(self, count: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = count
        self.cards = [Card(i) for i in range(count)]

    def compose(self) -> ComposeResult:
        """The cards."""
        yield from self.cards

    def set_faces(self, faces: Sequence[CardFace]) -> None:
        """Show ``faces``, one per card."""
        for card, face in zip(self.cards, faces, strict=True):
            card.set_face(face)

    def watch_cursor(self, old: int, new: int) -> None:
        """Move the cursor mark."""
        self.cards[old].remove_class("-cursor")
        self.cards[new].add_class("-cursor")

    def on_mount(self) -> None:
        """Mark the first card."""
        self.cards[self.cursor].add_class("-cursor")

    def action_move(self, step: int) -> None:
        """Move the cursor (wrapping around)."""
        self.cursor = (self.cursor + step) % self.count

    def action_choose(self) -> None:
        """Choose the card under the cursor."""
        self.choose(self.cursor)

    def choose(self, index: int) -> None:
        """Choose card ``index`` (the cursor follows)."""
        self.cursor = index
        self.focus()
        self.post_message(self.Chosen(self, index))
