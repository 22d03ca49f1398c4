"""Karawane's players zone: every player's counts, camels and piles.

Where the zone has the rows for it, each player gets a block (their counts, where
each camel stands, the played pile in full, the cards still to come); else one line
each, the pile cut to the width with a count.  Everything here is public: every deck
holds the same twelve cards, so what a player has not played yet follows from their
played pile (hand and deck together, never which card is where).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from attrs import frozen
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from karavan_core.games.karawane.components import (
    CARD_RANK,
    CITY,
    DECK,
    FIRST_OASIS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OASIS_POINTS,
    Card,
)
from karavan_core.games.karawane.state import KarawaneObservation
from karavan_core.text import plural
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.tables.karawane.gestures import SEAT_LETTERS, camel_name
from karavan_tui.words import cells, cut, name_column, padded, wrap_tokens

# Each seat's colour, beside its letter.
SEAT_COLOURS = (
    "bold white on #b3362f",
    "bold white on #2f5fb3",
    "bold black on #4fa84a",
    "bold black on #e3c340",
)
# A player's block: the heading line, then these lines, each after its label.
LABELS = ("camels", "played", "to come")
INDENT = 15  # where a block's lines start, after their label


@frozen
class Players:
    """What the players zone shows: every player of ``obs``, with ``scores``."""

    obs: KarawaneObservation
    scores: tuple[int, ...]
    glyphs: Glyphs


def square_words(square: int) -> str:
    """Where a camel stands, in words for the players' blocks."""
    if square == CITY:
        return "city"
    if square >= FIRST_OASIS:
        return f"oasis {OASIS_POINTS[square - FIRST_OASIS]}pt"
    return f"square {square}"


def to_come(pile: Sequence[Card], hand: Sequence[Card] = ()) -> Counter[Card]:
    """The cards of a player's deck not in their played pile (nor in ``hand``, where it is
    known): in hand or deck, or in the deck alone."""
    left = Counter(DECK)
    left.subtract(pile)
    left.subtract(hand)
    return +left


BADGE = 6  # the turn mark and the seat's letter, before the name
TABLE_COUNTS = 16  # " hand deck  pts  " after the name in the one-line table
PILE_LEAST = 12  # the played pile keeps room for a card and a count ("Oasis 3 (+9)")


def seat_badge(text: Text, players: Players, seat: int, name: str, width: int) -> None:
    """The start of a player's line: the turn mark, the letter in colour, the ``name`` (the
    seat's, cut where the zone is tight) padded to ``width``."""
    obs, g = players.obs, players.glyphs
    mine = seat == obs.to_move
    text.append(f"{g.turn if mine else ' '} ", style="bold")
    text.append(f" {SEAT_LETTERS[seat]} ", style=SEAT_COLOURS[seat])
    text.append(f" {padded(name, width)}", style="bold" if mine else "")


def player_table(players: Players, room: int) -> Text:
    """A line of headings, then one line per player, the pile cut to ``room``."""
    obs, scores, g = players.obs, players.scores, players.glyphs
    # The column is as wide as its heading at least: a name has those cells whatever the room.
    most = max(room - BADGE - TABLE_COUNTS - PILE_LEAST, len("player"))
    names, width = name_column(obs.players, most, g.ellipsis)
    width = max(width, len("player"))  # in cells: an emoji takes two
    head = f"{'':5} {padded('player', width)} hand deck  pts  played"
    text = Text(head[:room], style="dim")
    for seat in range(len(obs.players)):
        text.append("\n")
        seat_badge(text, players, seat, names[seat], width)
        hand, deck = obs.hand_sizes[seat], obs.deck_sizes[seat]
        text.append(f" {hand:>4} {deck:>4} {scores[seat]:>4}  ")
        left = room - cells(text.plain.rsplit("\n", 1)[-1])
        text.append_text(played_pile(obs.played[seat], left, g))
    return text


def player_blocks(players: Players, room: int, wrap: bool = True, coming: bool = True) -> Text:
    """A block per player: counts and points, camels, the played pile, the cards to come.

    Without ``wrap`` the pile and the cards to come keep to a line each (cut, with a
    count); without ``coming`` the cards to come are left out (they follow from the pile).
    """
    obs, scores, g = players.obs, players.scores, players.glyphs
    counts = [
        f" {g.sep} hand {obs.hand_sizes[seat]} {g.sep} deck {obs.deck_sizes[seat]}"
        for seat in range(len(obs.players))
    ]
    points = [f"  {plural(score, 'point')}" for score in scores]
    tails = max(cells(p + c) for p, c in zip(points, counts, strict=True))
    names, width = name_column(obs.players, room - BADGE - tails, g.ellipsis)
    text = Text()
    for seat, line in enumerate(obs.camels):
        if seat:
            text.append("\n")
        seat_badge(text, players, seat, names[seat], width)
        text.append(points[seat], style="bold")
        text.append(counts[seat], style="dim")
        camels = [
            Text(f"{camel_name(seat, camel)} {square_words(square)} {g.sep}")
            for camel, square in enumerate(line)
        ]
        camels[-1].right_crop(len(g.sep) + 1)
        newest = [card.label for card in reversed(obs.played[seat])]
        played = [Text(f"{label} {g.left}") for label in newest] or [Text("none", style="dim")]
        if newest:
            played[-1].right_crop(len(g.left) + 1)
        times = "x" if g == ASCII else "×"
        # The viewer's own hand is on the table already: their "to come" is their deck.
        hand = obs.hand if seat == obs.player else None
        own = hand is not None
        coming_cards = to_come(obs.played[seat], hand or ())
        left = sorted(coming_cards.items(), key=lambda item: CARD_RANK[item[0]])
        to_play = [Text(f"{card.label}{f' {times}{n}' if n > 1 else ''},") for card, n in left]
        if to_play:
            to_play[-1].right_crop(1)
        if not wrap:
            played = [played_pile(obs.played[seat], room - INDENT, g)]
            words = " ".join(token.plain for token in to_play)
            to_play = [Text(cut(words, room - INDENT, g.ellipsis))] if to_play else []
        labels = (*LABELS[:2], "in deck") if own else LABELS
        lines = zip(labels, (camels, played, to_play), strict=True)
        for label, tokens in list(lines)[: None if coming else 2]:
            text.append("\n" + " " * 6)
            text.append(f"{label:<{INDENT - 6}}", style="dim")
            wrap_tokens(text, tokens or [Text("none", style="dim")], INDENT, room, INDENT)
    return text


def played_pile(pile: Sequence[Card], room: int, g: Glyphs) -> Text:
    """A played pile in at most ``room`` cells: cards by name, newest first, then a count."""
    if not pile:
        return Text("none", style="dim")
    names = [card.label for card in reversed(pile)]
    rest = f" (+{len(names) - 1})" if len(names) > 1 else ""
    # The newest card's name is cut when even it and the count do not fit.
    shown = Text(cut(names[0], room - len(rest), g.ellipsis), style="bold")
    for index, label in enumerate(names[1:], start=1):
        left = len(names) - index - 1
        more = f" (+{left})" if left else ""
        if len(shown) + len(f" {g.left} {label}") + len(more) > room:
            shown.append(f" (+{len(names) - index})", style="dim")
            break
        shown.append(f" {g.left} {label}", style="dim")
    return shown


class PlayersZone(Widget):
    """Every player: letter, cards in hand, deck, points, the played pile (newest first).

    In full, a block per player, where the zone has the rows; else one line each.
    """

    # A new pile may wrap onto another line: the zone's height is worked out again.
    players: reactive[Players | None] = reactive(None, layout=True)

    def watch_players(self, players: Players | None) -> None:
        """Say in the border what the piles show."""
        if players is not None:
            self.border_title = f"Players {players.glyphs.sep} played cards, newest first"
            # Narrow, never fewer rows than the one-line table's (the table scrolls instead,
            # karawane.tcss); from 80 columns the zone takes the rows the screen leaves it.
            count = len(players.obs.players)
            for seats in range(MIN_PLAYERS, MAX_PLAYERS + 1):
                self.set_class(seats == count, f"-seats-{seats}")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The rows of the blocks (where the stylesheet lets the zone take its own height)."""
        if self.players is None:
            return 1
        return len(player_blocks(self.players, width).plain.splitlines())

    def render(self) -> Text:
        """The blocks if they fit the zone's rows (shortened if need be), else the one-line
        table."""
        if self.players is None:
            return Text()
        room = self.content_region.width or 10_000
        # The roomiest that fits: whole blocks, their piles a line each, without the cards
        # to come, a table.
        for wrap, coming in ((True, True), (False, True), (False, False)):
            blocks = player_blocks(self.players, room, wrap, coming)
            if len(blocks.plain.splitlines()) <= self.content_region.height:
                return blocks
        return player_table(self.players, room)
