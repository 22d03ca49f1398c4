"""Karawane's zones: the track with every camel and the hand (the players: players.py).

Each zone draws from its reactive data (what the table last gave it), laid out for the
width it has when Textual draws it, so a resize redraws it by itself.  Everything comes
from the observation of the player at the keyboard, or the public view.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive, var
from textual.widget import Widget

from karavan_core.engine import Action
from karavan_core.games.karawane.components import (
    CITY,
    DESERT_SQUARES,
    FIRST_OASIS,
    HAND_SIZE,
    OASIS_POINTS,
)
from karavan_core.games.karawane.state import KarawaneObservation
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.tables.karawane.faces import card_face
from karavan_tui.tables.karawane.gestures import SEAT_LETTERS, camel_name, card_of
from karavan_tui.tables.karawane.players import SEAT_COLOURS
from karavan_tui.widgets import hand
from karavan_tui.widgets.cards import CardFace
from karavan_tui.words import cells, short_name

# A hinted camel takes the hinted cards' colours (the theme's warning colour), and a pointer.
HINT_STYLE = "bold black on #ffa62b"
CELL = 4  # columns per track square
LABEL = 7  # columns of the row labels ("Desert ")
# Where the table has the room (roomy_track_text), each square is a box this wide at most
# and at least, ten to a row of the desert; each row of boxes takes four lines.
BOX_MOST = 11
BOX_LEAST = 9
BOXES_PER_ROW = 10
ROOMY_LINES = 1 + 4 * 3  # the city, two rows of desert squares, the oasis row

Camel = tuple[int, int]  # (seat, camel)


def camel_token(seat: int, camel: int, moved: bool = False, hinted: bool = False) -> Text:
    """A camel as a coloured token such as ``B2`` (owner letter, camel number).

    A camel that moved since the viewer's last decision is underlined; the camel
    a hint moves is drawn in the hint's colours.
    """
    style = (HINT_STYLE if hinted else SEAT_COLOURS[seat]) + (" underline" if moved else "")
    return Text(camel_name(seat, camel), style=style)


@frozen
class Track:
    """What the track shows: the camels of ``obs``, those moved since ``before`` marked."""

    obs: KarawaneObservation
    before: KarawaneObservation | None
    glyphs: Glyphs


def moved_camels(track: Track) -> set[Camel]:
    """The camels standing elsewhere than in ``before`` (none without it)."""
    before = track.before
    if before is None:
        return set()
    return {
        (seat, camel)
        for seat, line in enumerate(track.obs.camels)
        for camel, square in enumerate(line)
        if before.camels[seat][camel] != square
    }


def desert_camels(track: Track) -> dict[int, Camel]:
    """The camel on each square past the city (a square holds one camel at most)."""
    return {
        square: (seat, camel)
        for seat, line in enumerate(track.obs.camels)
        for camel, square in enumerate(line)
        if square != CITY
    }


def city_line(track: Track, hinted: Camel | None) -> tuple[Text, dict[Camel, Camel]]:
    """The first line of the track: the camels still in the city, and where each is drawn.

    The city packs its camels three cells apart; the cell before a camel sent back
    there holds the change mark, as in the desert (unless the hint's pointer is there).
    """
    g = track.glyphs
    moved = moved_camels(track)
    city = [
        (seat, camel)
        for seat, line in enumerate(track.obs.camels)
        for camel, square in enumerate(line)
        if square == CITY
    ]
    spots: dict[Camel, Camel] = {}
    text = Text()
    text.append(f"{'City':<{LABEL - 1}}", style="bold")
    after = " "  # what the cell after the previous camel holds
    for index, (seat, camel) in enumerate(city):
        spots[(0, LABEL + 3 * index)] = (seat, camel)
        fresh = (seat, camel) in moved
        text.append(g.changed if fresh and after == " " else after, style="bold")
        pointed = (seat, camel) == hinted
        text.append_text(camel_token(seat, camel, fresh, pointed))
        after = g.left if pointed else " "
    text.append(after if city else " empty", style="bold" if city else "dim")
    return text, spots


def track_text(track: Track, hinted: Camel | None, room: int) -> tuple[Text, dict[Camel, Camel]]:
    """The city line, the desert in rows of squares that fit ``room``, then the oasis row.

    Camels that moved since ``before`` are marked and underlined; the ``hinted`` camel
    is drawn in the hint's colours, with a pointer after it.  Also returns where each
    camel is drawn: (line, first column) -> (seat, camel).
    """
    g = track.glyphs
    moved = moved_camels(track)
    # Seven to a row where ten do not fit (40 columns): the desert in three rows, not four.
    per_row = next((n for n in (DESERT_SQUARES, 10, 7) if room >= LABEL + CELL * n), 5)
    empty = g.blank
    where = desert_camels(track)
    text, spots = city_line(track, hinted)

    def append_camel(seat: int, camel: int, fresh: bool) -> None:
        """A camel's token and the cell after it: blank, or the hint's pointer."""
        pointed = (seat, camel) == hinted
        text.append_text(camel_token(seat, camel, fresh, pointed))
        text.append(g.left if pointed else " ", style="bold")

    def squares_row(label: str, squares: list[int], heads: list[str]) -> None:
        """One row of squares: a line of headings, then a line of camels."""
        text.append("\n")
        camels_line = text.plain.count("\n") + 1
        text.append(f"{label:<{LABEL}}", style="bold")
        text.append("".join(f"{head:>{CELL - 1}} " for head in heads), style="dim")
        text.append("\n" + " " * LABEL)
        for index, square in enumerate(squares):
            column = LABEL + index * CELL
            if square in where:
                seat, camel = where[square]
                spots[(camels_line, column + 1)] = (seat, camel)
                fresh = (seat, camel) in moved
                text.append(g.changed if fresh else " ", style="bold")
                append_camel(seat, camel, fresh)
            else:
                text.append(f"{empty:>{CELL - 1}} ", style="dim")

    for start in range(1, DESERT_SQUARES + 1, per_row):
        squares = list(range(start, min(start + per_row, FIRST_OASIS)))
        squares_row("Desert" if start == 1 else "", squares, [str(sq) for sq in squares])
    oasis = list(range(FIRST_OASIS, FIRST_OASIS + len(OASIS_POINTS)))
    squares_row("Oasis", oasis, [f"{points}pt" for points in OASIS_POINTS])
    return text, spots


def box_width(room: int) -> int | None:
    """The width of a square's box in a roomy track ``room`` columns wide, or ``None``."""
    width = min(BOX_MOST, (room - LABEL) // BOXES_PER_ROW)
    return width if width >= BOX_LEAST else None


def roomy_track_text(
    track: Track, hinted: Camel | None, width: int
) -> tuple[Text, dict[Camel, Camel]]:
    """The track where the table has the room: every square a box ``width`` columns wide.

    The city line, then the desert in two rows of ten boxes and the oasis row; a
    box is drawn in its camel's colour and holds the camel and its owner's name.
    The marks are those of :func:`track_text`, and so is the map of where each
    camel is drawn.
    """
    obs, g = track.obs, track.glyphs
    text, spots = city_line(track, hinted)
    moved = moved_camels(track)
    where = desert_camels(track)
    ascii_ = g == ASCII
    corners = ("+", "+", "+", "+") if ascii_ else ("╭", "╮", "╰", "╯")
    across, down = ("-", "|") if ascii_ else ("─", "│")
    inner = width - 2

    def row(label: str, squares: list[int], heads: list[str], empty_style: str) -> None:
        top = text.plain.count("\n") + 1
        lines = [Text(" " * LABEL) for _ in range(4)]
        lines[1] = Text(f"{label:<{LABEL}}", style="bold")
        for index, (square, head) in enumerate(zip(squares, heads, strict=True)):
            column = LABEL + index * width
            camel = where.get(square)
            style = empty_style if camel is None else SEAT_COLOURS[camel[0]].split(" on ")[-1]
            title = f" {head} "
            lines[0].append(corners[0] + across + title, style=style)
            lines[0].append(across * (inner - 1 - cells(title)) + corners[1], style=style)
            lines[3].append(corners[2] + across * inner + corners[3], style=style)
            token, name = Text(), Text()
            if camel is not None:
                seat, number = camel
                fresh = camel in moved
                pointed = camel == hinted
                token.append(g.changed if fresh else " ", style="bold")
                spots[(top + 1, column + 1 + (inner - 4) // 2 + 1)] = camel
                token.append_text(camel_token(seat, number, fresh, pointed))
                token.append(g.left if pointed else " ", style="bold")
                name.append(short_name(obs.players[seat], inner, g.ellipsis), style="dim")
            for line, words in ((lines[1], token), (lines[2], name)):
                left = (inner - words.cell_len) // 2
                line.append(down, style=style)
                line.append(" " * left)
                line.append_text(words)
                line.append(" " * (inner - left - words.cell_len))
                line.append(down, style=style)
        for line in lines:
            text.append("\n")
            text.append_text(line)

    for start in range(1, DESERT_SQUARES + 1, BOXES_PER_ROW):
        squares = list(range(start, min(start + BOXES_PER_ROW, FIRST_OASIS)))
        row("Desert" if start == 1 else "", squares, [str(sq) for sq in squares], "dim")
    oasis = list(range(FIRST_OASIS, FIRST_OASIS + len(OASIS_POINTS)))
    row("Oasis", oasis, [f"{points}pt" for points in OASIS_POINTS], "dim green")
    return text, spots


class TrackZone(Widget):
    """The city, the desert squares and the oasis squares, with every camel on them.

    A click on a camel posts :class:`TrackZone.Clicked`.
    """

    track: reactive[Track | None] = reactive(None)
    hinted: reactive[Camel | None] = reactive(None)  # the camel a hint moves

    class Clicked(Message):
        """Camel ``camel`` of ``seat`` was clicked."""

        def __init__(self, seat: int, camel: int) -> None:
            super().__init__()
            self.seat = seat
            self.camel = camel

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Where each camel was last drawn: (line, first column) -> (seat, camel).
        self.spots: dict[Camel, Camel] = {}
        self.tooltip = "Click a camel to choose a card to play on it"

    def watch_track(self, track: Track | None) -> None:
        """Name the rows in the border, in the glyphs of the track."""
        if track is not None:
            g = track.glyphs
            arrow = ">" if g == ASCII else "→"
            self.border_title = (
                f"Track {g.sep} city {arrow} desert 1-{DESERT_SQUARES} {arrow} oasis (points)"
            )

    def render(self) -> Text:
        """The track laid out for the zone's width (its height is fixed in the stylesheet)."""
        if self.track is None:
            return Text()
        room = self.content_region.width
        width = box_width(room) if self.has_class("-roomy") else None
        if width is None:
            text, self.spots = track_text(self.track, self.hinted, room)
        else:
            text, self.spots = roomy_track_text(self.track, self.hinted, width)
        return text

    def camel_at(self, line: int, column: int) -> Camel | None:
        """The camel drawn at ``line``, ``column`` of the content, if any."""
        for offset in (0, 1):  # a token is two columns wide
            spot = self.spots.get((line, column - offset))
            if spot is not None:
                return spot
        return None

    def on_click(self, event: Click) -> None:
        """Tell the table which camel was clicked."""
        offset = event.get_content_offset(self)
        spot = None if offset is None else self.camel_at(offset.y, offset.x)
        if spot is not None:
            event.stop()
            self.post_message(self.Clicked(*spot))


@frozen
class Hand:
    """What the hand shows: the observer's cards (none in the public view), which are playable."""

    obs: KarawaneObservation
    legal: tuple[Action, ...]
    glyphs: Glyphs


class HandZone(hand.HandZone):
    """The hand of the player at the keyboard; hidden behind the curtain."""

    CARDS = HAND_SIZE
    ROW_CLASSES = "-thirds"  # a card's name and effect need a third of a narrow row
    hand: var[Hand | None] = var(None)

    def watch_hand(self, hand: Hand | None) -> None:
        """Draw the observer's hand, dimming the cards that cannot be played now."""
        if hand is None:
            return
        obs, g = hand.obs, hand.glyphs
        if obs.hand is None or obs.player is None:
            self.hide("Cards are hidden.", blank="-empty")
            return
        row = self.reveal()
        playable = {card_of(action) for action in hand.legal}
        faces = [
            card_face(obs.hand[slot], obs.hand[slot] in playable, g)
            if slot < len(obs.hand)
            else CardFace("no card", "-empty")
            for slot in range(HAND_SIZE)
        ]
        row.set_faces(faces)
        seat = obs.player
        after = f" ({SEAT_LETTERS[seat]}) {g.sep} deck {obs.deck_sizes[seat]}"
        self.title_hand(obs.players[seat], after, g.ellipsis)
