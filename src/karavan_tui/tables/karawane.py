"""Karawane's table: the track with every camel, the hand, and every player's piles.

Each zone is its own widget.  Everything shown comes from the observation of
the player at the keyboard; a play is chosen as a card from the hand, then a
camel among the targets the engine offers for it (a picker), or a camel on
the track, then the card to play on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.events import Click
from textual.widgets import Static

from karavan_core.engine import Action
from karavan_core.games.karawane.components import (
    CITY,
    DESERT_SQUARES,
    FIRST_OASIS,
    HAND_SIZE,
    OASIS_POINTS,
    Card,
    Kind,
)
from karavan_core.games.karawane.state import (
    KarawaneObservation,
    Play,
    PlaySandstorm,
    PlayWithoutEffect,
)
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.tables.base import TableView, View, table_stylesheet
from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.widgets.refit import Refits
from karavan_tui.words import cells, padded, widest

# Each seat is a letter and a colour: the letter alone tells the camels apart.
SEAT_LETTERS = "ABCD"
SEAT_COLOURS = (
    "bold white on #b3362f",
    "bold white on #2f5fb3",
    "bold black on #4fa84a",
    "bold black on #e3c340",
)
# A hinted camel takes the hinted cards' colours (the theme's warning colour), and a pointer.
HINT_STYLE = "bold black on #ffa62b"
CELL = 4  # columns per track square
LABEL = 7  # columns of the row labels ("Desert ")


def camel_token(seat: int, camel: int, moved: bool = False, hinted: bool = False) -> Text:
    """A camel as a coloured token such as ``B2`` (owner letter, camel number).

    A camel that moved since the viewer's last decision is underlined; the camel
    a hint moves is drawn in the hint's colours.
    """
    style = (HINT_STYLE if hinted else SEAT_COLOURS[seat]) + (" underline" if moved else "")
    return Text(f"{SEAT_LETTERS[seat]}{camel + 1}", style=style)


def card_effect(card: Card, g: Glyphs) -> str:
    """What a card does, in a few words for its face."""
    minus = "-" if g == ASCII else "−"
    kind = card.kind
    if kind is Kind.OASIS:
        return f"own camel +{card.palms}"
    if kind is Kind.MIRAGE:
        return f"rival camel {minus}{card.palms}"
    if kind is Kind.DRIVER:
        return "past the leader"
    return "all reshuffle"


def card_tip(card: Card) -> str:
    """A card's effect in a full sentence, for its hover tip."""
    kind = card.kind
    if kind is Kind.OASIS:
        return f"{card.label}: move one of your camels {card.palms} free squares forward"
    if kind is Kind.MIRAGE:
        return f"{card.label}: move a rival camel on a desert square {card.palms} free squares back"
    if kind is Kind.DRIVER:
        return f"{card.label}: move one of your camels to the square just ahead of the leader"
    return f"{card.label}: every player reshuffles all their cards and draws a new hand"


def card_of(action: Action) -> Card | None:
    """The card an action plays."""
    if isinstance(action, PlaySandstorm):
        return Card.SANDSTORM
    return getattr(action, "card", None)


class TrackZone(Refits):
    """The city, the desert squares and the oasis squares, with every camel on them.

    A click on a camel asks which card to play on it.
    """

    _shown: tuple[KarawaneObservation, KarawaneObservation | None, Glyphs] | None = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Where each camel is drawn: (line, first column) -> (seat, camel).
        self.spots: dict[tuple[int, int], tuple[int, int]] = {}
        self.hinted: tuple[int, int] | None = None  # the camel a hint moves: (seat, camel)
        self.tooltip = "Click a camel to choose a card to play on it"

    def show(self, obs: KarawaneObservation, before: KarawaneObservation | None, g: Glyphs) -> None:
        """Draw the city line, the desert in rows of squares, then the oasis row.

        Camels that moved since ``before`` are marked and underlined; the hinted camel
        is drawn in the hint's colours, with a pointer after it.
        """
        self._shown = (obs, before, g)
        moved = {
            (seat, camel)
            for seat, line in enumerate(obs.camels)
            for camel, square in enumerate(line)
            if before is not None and before.camels[seat][camel] != square
        }
        room = self.content_region.width or 10_000
        per_row = DESERT_SQUARES if room >= LABEL + CELL * DESERT_SQUARES else 10
        empty = "." if g == ASCII else "·"
        where: dict[int, tuple[int, int]] = {}
        city: list[tuple[int, int]] = []
        for seat, line in enumerate(obs.camels):
            for camel, square in enumerate(line):
                if square == CITY:
                    city.append((seat, camel))
                else:
                    where[square] = (seat, camel)
        self.spots = {}
        text = Text()

        def append_camel(seat: int, camel: int, fresh: bool) -> None:
            """A camel's token and the cell after it: blank, or the hint's pointer."""
            hinted = (seat, camel) == self.hinted
            text.append_text(camel_token(seat, camel, fresh, hinted))
            text.append(g.left if hinted else " ", style="bold")

        def cells(label: str, squares: list[int], heads: list[str]) -> None:
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
                    self.spots[(camels_line, column + 1)] = (seat, camel)
                    fresh = (seat, camel) in moved
                    text.append(g.changed if fresh else " ", style="bold")
                    append_camel(seat, camel, fresh)
                else:
                    text.append(f"{empty:>{CELL - 1}} ", style="dim")

        text.append(f"{'City':<{LABEL}}", style="bold")
        for index, (seat, camel) in enumerate(city):
            self.spots[(0, LABEL + 3 * index)] = (seat, camel)
            append_camel(seat, camel, (seat, camel) in moved)
        if not city:
            text.append("empty", style="dim")
        for start in range(1, DESERT_SQUARES + 1, per_row):
            squares = list(range(start, min(start + per_row, FIRST_OASIS)))
            cells("Desert" if start == 1 else "", squares, [str(sq) for sq in squares])
        oasis = list(range(FIRST_OASIS, FIRST_OASIS + len(OASIS_POINTS)))
        cells("Oasis", oasis, [f"{points}pt" for points in OASIS_POINTS])
        self.update(text, layout=False)  # the zone's height is fixed in the stylesheet
        arrow = ">" if g == ASCII else "→"
        self.border_title = (
            f"Track {g.sep} city {arrow} desert 1-{DESERT_SQUARES} {arrow} oasis (points)"
        )

    def mark_hint(self, camel: tuple[int, int] | None) -> None:
        """Mark ``camel`` (seat, camel) as the one a hint moves (``None``: no camel)."""
        if camel != self.hinted:
            self.hinted = camel
            if self._shown is not None:
                self.show(*self._shown)

    def camel_at(self, line: int, column: int) -> tuple[int, int] | None:
        """The camel drawn at ``line``, ``column`` of the content, if any."""
        for offset in (0, 1):  # a token is two columns wide
            spot = self.spots.get((line, column - offset))
            if spot is not None:
                return spot
        return None

    def on_click(self, event: Click) -> None:
        """Ask the table to play on the clicked camel."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        spot = self.camel_at(offset.y, offset.x)
        if spot is not None and isinstance(self.parent, KarawaneTable):
            event.stop()
            self.parent.play_on(*spot)


class HandZone(Vertical):
    """The hand of the player at the keyboard; hidden behind the curtain."""

    def compose(self) -> ComposeResult:
        """The cards and the hidden notice."""
        yield CardRow(HAND_SIZE, id="hand-row")
        yield Static("", id="hand-hidden")

    def show(self, obs: KarawaneObservation, legal: set[Action], g: Glyphs) -> None:
        """Draw the observer's hand (none in the public view), dimming unplayable cards."""
        row = self.query_one(CardRow)
        hidden = self.query_one("#hand-hidden", Static)
        if obs.hand is None or obs.player is None:
            # Blank the faces too, so no private card stays even in a hidden widget.
            row.set_faces([CardFace("", "-empty")] * HAND_SIZE)
            row.display = False
            hidden.display = True
            hidden.update("Cards are hidden.")
            self.border_title = "Hand"
            return
        row.display = True
        hidden.display = False
        playable = {card_of(action) for action in legal}
        faces = []
        for slot in range(HAND_SIZE):
            if slot >= len(obs.hand):
                faces.append(CardFace("no card", "-empty"))
                continue
            card = obs.hand[slot]
            off = "" if card in playable else " -off"
            face = f"{card.label}\n{card_effect(card, g)}"
            faces.append(CardFace(face, f"-{card.kind}{off}", card_tip(card)))
        row.set_faces(faces)
        seat = obs.player
        self.border_title = Content(
            f"{obs.players[seat]}'s hand ({SEAT_LETTERS[seat]}) {g.sep} deck {obs.deck_sizes[seat]}"
        )


class PlayersZone(Refits):
    """Every player: letter, cards in hand, deck, points, and the played pile (top card first)."""

    _shown: tuple[KarawaneObservation, tuple[int, ...], Glyphs] | None = None

    def show(self, obs: KarawaneObservation, scores: tuple[int, ...], g: Glyphs) -> None:
        """A line of headings, then one line per player: the played pile, newest first."""
        self._shown = (obs, scores, g)
        room = self.content_region.width or 10_000
        width = max(widest(obs.players), len("player"))  # in cells: an emoji takes two
        head = f"{'':5} {padded('player', width)} hand deck  pts  played"
        text = Text(head[:room], style="dim")
        for seat, name in enumerate(obs.players):
            text.append("\n")
            mine = seat == obs.to_move
            text.append(f"{g.turn if mine else ' '} ", style="bold")
            text.append(f" {SEAT_LETTERS[seat]} ", style=SEAT_COLOURS[seat])
            text.append(f" {padded(name, width)}", style="bold" if mine else "")
            hand, deck = obs.hand_sizes[seat], obs.deck_sizes[seat]
            text.append(f" {hand:>4} {deck:>4} {scores[seat]:>4}  ")
            left = room - cells(text.plain.rsplit("\n", 1)[-1])
            text.append_text(played_pile(obs.played[seat], left, g))
        self.update(text, layout=False)  # one line per player, fixed in the stylesheet


def played_pile(pile: Sequence[Card], room: int, g: Glyphs) -> Text:
    """A played pile in at most ``room`` cells: cards by name, newest first, then a count."""
    if not pile:
        return Text("none", style="dim")
    names = [card.label for card in reversed(pile)]
    shown = Text(names[0], style="bold")
    for index, label in enumerate(names[1:], start=1):
        rest = len(names) - index - 1
        more = f" (+{rest})" if rest else ""
        if len(shown) + len(f" {g.left} {label}") + len(more) > room:
            shown.append(f" (+{len(names) - index})", style="dim")
            break
        shown.append(f" {g.left} {label}", style="dim")
    return shown


class KarawaneTable(TableView[KarawaneObservation]):
    """The Karawane table."""

    FIRST_FOCUS = "#hand-row"
    PICKER_PLACE = "bottom"  # the camel picker leaves the track in sight
    DEFAULT_CSS = table_stylesheet("karawane.tcss")
    SCOPED_CSS = False

    ZONES = (
        (TrackZone, "track"),
        (HandZone, "hand"),
        (PlayersZone, "players"),
    )

    def show(self, view: View) -> None:
        """Draw every zone."""
        super().show(view)
        obs = self.obs
        g = view.glyphs
        before = view.before
        assert before is None or isinstance(before, KarawaneObservation)
        self.query_one(TrackZone).show(obs, before, g)
        self.query_one(HandZone).show(obs, set(view.legal), g)
        players = self.query_one(PlayersZone)
        players.show(obs, view.scores, g)
        players.border_title = f"Players {g.sep} played cards, newest first"

    # -- choosing -----------------------------------------------------------------------
    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Play the chosen card of the hand: at once, or after choosing its camel."""
        message.stop()
        hand = self.obs.hand
        if hand is None or message.index >= len(hand):
            return
        card = hand[message.index]
        plays = [action for action in self.legal if card_of(action) == card]
        if not plays and self.legal:
            # Other cards have an effect, so this one may not be thrown away either.
            self.notify(
                f"{card.label} can move no camel now: play another card.",
                title="Not allowed",
                severity="warning",
            )
        elif not plays:
            # Not this player's turn: the engine's host says whose it is.
            self.host.decide(PlayWithoutEffect(card))
        elif len(plays) == 1 and not isinstance(plays[0], Play):
            self.host.decide(plays[0])
        else:
            self.ask(f"{card.label}: on which camel?", plays)

    def play_on(self, seat: int, camel: int) -> None:
        """Play on camel ``camel`` of ``seat`` (clicked on the track): pick the card."""
        view = self.view
        if view is None:
            return
        obs = self.obs
        if not view.legal:
            if obs.to_move is not None:
                self.notify(f"Wait: it is {obs.players[obs.to_move]}'s turn.", severity="warning")
            return
        square = obs.camels[seat][camel]

        def targets(action: Action) -> bool:
            # Camels in the city are alike: any of a player's city camels stands for all.
            if not isinstance(action, Play) or action.owner != seat:
                return False
            return action.camel == camel or square == CITY == obs.camels[seat][action.camel]

        plays = [action for action in view.legal if targets(action)]
        token = f"{SEAT_LETTERS[seat]}{camel + 1}"
        # The engine moves the first of a player's city camels, so name the group, not this one.
        where = f"a camel of {SEAT_LETTERS[seat]} out of the city" if square == CITY else token
        if not plays:
            self.notify(
                f"No card in your hand can move camel {token} now.",
                title="Not allowed",
                severity="warning",
            )
            return
        self.ask(f"Which card, to move {where}?", plays)

    def hint_places(self, action: Action) -> list[tuple[str, int]]:
        """The hand card a decision plays (the cursor goes there: Enter plays it)."""
        hand = self.obs.hand
        card = card_of(action)
        return [("hand-row", hand.index(card))] if hand and card in hand else []

    def mark_hint(self, action: Action | None, *, point: bool = False) -> None:
        """Mark the hinted card in the hand and the camel it moves on the track."""
        super().mark_hint(action, point=point)
        camel = (action.owner, action.camel) if isinstance(action, Play) else None
        self.query_one(TrackZone).mark_hint(camel)

    def on_turn(self) -> None:
        """Bring the keyboard to the hand: every decision starts with a card."""
        self.query_one(CardRow).focus()
