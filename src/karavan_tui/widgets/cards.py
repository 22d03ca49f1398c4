"""A row of cards that the keyboard and the mouse can choose from.

A card is drawn in one of three sizes, by the room its table's stylesheet
gives it (the table screen takes ``-short``/``-tall`` and ``-narrow``/``-wide``/
``-huge`` classes by the terminal's size): compact, the two rows of a face's
``text``; boxed, the same inside a border in the card's colour; large, the
face's ``large`` text (its full name, value and what it carries) once the card
has the rows for it.  ASCII mode and NO_COLOR keep the same letters and symbols.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

# Classes of a face that cannot be acted on: the cursor does not settle there by itself.
CLOSED = frozenset({"-off", "-none", "-empty"})


@frozen
class CardFace:
    """How one card looks: its text, its CSS classes (colour, state) and a hover tip.

    ``key`` names what lies there (the same card keeps the same key wherever it
    moves), so the cursor can follow it; ``changed`` marks a card another player
    changed since the viewer's last decision.  ``large`` is the card in full, for
    a card given the rows for it (else it shows ``text``).
    """

    text: Text | str
    classes: str = ""
    tip: str | None = None
    key: str | None = None
    changed: bool = False
    large: Text | str | None = None

    def text_for(self, rows: int, columns: int) -> Text | str:
        """What the card shows in ``rows`` x ``columns`` cells: in full if it fits there."""
        large = self.large
        if large is not None and rows >= len(str(large).splitlines()):
            widest = max((cell_len(line) for line in str(large).splitlines()), default=0)
            if columns >= widest:
                return large
        return self.text

    @property
    def open(self) -> bool:
        """Whether the card can be acted on now."""
        return not CLOSED & set(self.classes.split())

    @property
    def empty(self) -> bool:
        """Whether this is a place with no card in it (a pile of none counts: "C ×0")."""
        return bool({"-empty", "-none"} & set(self.classes.split()))


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
        self._draw()
        self.remove_class(*old, "-changed")
        self.add_class(*face.classes.split())
        self.set_class(face.changed, "-changed")
        self.tooltip = face.tip

    def _draw(self) -> None:
        face = self._face
        if face is not None:
            size = self.content_size
            self.update(face.text_for(size.height, size.width), layout=False)  # sized by CSS

    def on_resize(self) -> None:
        """Another size of card: the face in full, or compact."""
        self._draw()

    @property
    def face(self) -> CardFace | None:
        """The face shown now."""
        return self._face

    def on_click(self, event: Click) -> None:
        """Choose this card; a right click (or Ctrl and a click) marks it, as Space does."""
        event.stop()
        row = self.parent
        if isinstance(row, CardRow):
            if event.button == 3 or event.ctrl:
                row.mark(self.index)
            else:
                row.choose(self.index)


class CardRow(Horizontal, can_focus=True):
    """A zone of the table holding a fixed number of cards, with a cursor.

    Left and right move the cursor, up and down move to the previous or next
    zone, Enter or a click chooses the card under the cursor.
    """

    BINDINGS = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("home", "to_end(-1)", "First card", show=False),
        Binding("end", "to_end(1)", "Last card", show=False),
        Binding("up", "zone(-1)", "Previous zone", show=False),
        Binding("down", "zone(1)", "Next zone", show=False),
        Binding("enter", "choose", "Choose", tooltip="Act on the card under the cursor"),
        Binding(
            "space", "mark", "Mark", show=False, tooltip="Mark the card for a choice of several"
        ),
    ]

    cursor: reactive[int] = reactive(0)

    class Picked(Message):
        """Card ``index`` of ``row`` was picked: the base of ``Marked`` and ``Chosen``."""

        def __init__(self, row: CardRow, index: int) -> None:
            super().__init__()
            self.row = row
            self.index = index

    class Marked(Picked):
        """A card of ``row`` was marked (Space, or a right click): a choice of several cards."""

    class Chosen(Picked):
        """A card of ``row`` was chosen."""

    def __init__(self, count: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.count = count
        self.cards = [Card(i) for i in range(count)]

    def compose(self) -> ComposeResult:
        """The cards."""
        yield from self.cards

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Choose and Mark work as the screen's driver allows (not in a game of bots alone)."""
        if action in ("choose", "mark"):
            return self.screen.check_action("choose", ())
        return True

    def set_faces(self, faces: Sequence[CardFace | None]) -> None:
        """Show ``faces``, one per card (``None`` hides that place); the cursor follows.

        The cursor stays with the card it was on wherever that card moves.  When
        the card has left the row, the cursor stays if what is there now can be
        acted on, else moves to the nearest card that can.
        """
        under = self.cards[self.cursor].face if self.cards[self.cursor].display else None
        for card, face in zip(self.cards, faces, strict=True):
            card.display = face is not None
            if face is not None:
                card.set_face(face)
        here = faces[self.cursor]
        key = under.key if under is not None else None
        if key is not None and (here is None or here.key != key):
            same = [i for i, face in enumerate(faces) if face is not None and face.key == key]
            if same:
                self.cursor = min(same, key=lambda i: abs(i - self.cursor))
                return
        if here is None or (key is not None and here.key != key and not here.open):
            self.cursor = nearest_open(faces, self.cursor)
        elif here.empty:  # its pile ran out (a good all sold): to the nearest card there is
            there = [i for i, face in enumerate(faces) if face is not None and not face.empty]
            if there:
                self.cursor = min(there, key=lambda i: (abs(i - self.cursor), i))

    def restart(self) -> None:
        """The cursor back to the row's first card that can be acted on (where a new
        player at the keyboard starts, not where the last one left it)."""
        faces = [card.face if card.display else None for card in self.cards]
        self.cursor = nearest_open(faces, 0)

    def point_at(self, index: int) -> None:
        """Put the cursor on card ``index`` (or the nearest shown one if it is hidden)."""
        self.cursor = index if self.cards[index].display else self._nearest_shown(index)

    def _nearest_shown(self, index: int) -> int:
        shown = [i for i, card in enumerate(self.cards) if card.display]
        return min(shown, key=lambda i: (abs(i - index), i)) if shown else index

    def watch_cursor(self, old: int, new: int) -> None:
        """Move the cursor mark."""
        self.cards[old].remove_class("-cursor")
        self.cards[new].add_class("-cursor")

    def on_mount(self) -> None:
        """Mark the first card."""
        self.cards[self.cursor].add_class("-cursor")

    def _reachable(self, index: int) -> bool:
        """Whether the arrows stop on card ``index``: shown, and not an empty place.

        An empty place (or a pile of none) holds nothing to act on; a dimmed card
        stops the cursor (Enter on it says why it cannot be played).
        """
        card = self.cards[index]
        return bool(card.display) and not (card.face is not None and card.face.empty)

    def action_move(self, step: int) -> None:
        """Move the cursor to the next card that is there; it stops at either end (no
        wrapping)."""
        index = self.cursor + step
        while 0 <= index < self.count:
            if self._reachable(index):
                self.cursor = index
                return
            index += step

    def action_zone(self, step: int) -> None:
        """Move the keyboard to the card row above (``-1``) or below (``1``) on this screen.

        The first and last rows keep it: the arrows never carry it off the cards (to the
        log, say), where they would scroll instead and the cursor would seem lost.
        """
        rows = [widget for widget in self.screen.focus_chain if isinstance(widget, CardRow)]
        index = rows.index(self) + step if self in rows else -1
        if 0 <= index < len(rows):
            rows[index].focus()

    def action_to_end(self, step: int) -> None:
        """Put the cursor on the first (``step`` -1) or last (1) card that is there."""
        shown = [i for i in range(self.count) if self._reachable(i)]
        if shown:
            self.cursor = shown[-1] if step > 0 else shown[0]

    def action_mark(self) -> None:
        """Mark the card under the cursor."""
        self.mark(self.cursor)

    def mark(self, index: int) -> None:
        """Mark card ``index`` (the cursor follows)."""
        self._pick(index, self.Marked)

    def action_choose(self) -> None:
        """Choose the card under the cursor."""
        self.choose(self.cursor)

    def choose(self, index: int) -> None:
        """Choose card ``index`` (the cursor follows)."""
        self._pick(index, self.Chosen)

    def _pick(self, index: int, message: type[CardRow.Picked]) -> None:
        self.cursor = index
        self.focus()
        self.post_message(message(self, index))


def nearest_open(faces: Sequence[CardFace | None], index: int) -> int:
    """The shown card nearest ``index`` that can be acted on, else the nearest shown one."""
    for wanted in (lambda f: f is not None and f.open, lambda f: f is not None):
        found = [i for i, face in enumerate(faces) if wanted(face)]
        if found:
            return min(found, key=lambda i: (abs(i - index), i))
    return index
