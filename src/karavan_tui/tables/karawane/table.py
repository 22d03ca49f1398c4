"""Karawane's table: the zones fed from the view, and the gestures carried out.

A play is chosen as a card from the hand, then a camel among the targets the engine
offers for it (a picker), or as a camel on the track, then the card to play on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.events import Resize

from karavan_core.engine import Action
from karavan_core.games.karawane.state import KarawaneObservation
from karavan_tui.tables.base import TableView, View, table_stylesheet
from karavan_tui.tables.karawane import gestures
from karavan_tui.tables.karawane.players import Players, PlayersZone
from karavan_tui.tables.karawane.zones import (
    ROOMY_LINES,
    Hand,
    HandZone,
    Track,
    TrackZone,
    box_width,
)
from karavan_tui.tables.spots import Spot
from karavan_tui.widgets.cards import CardRow

# The least a roomy track leaves the hand: a large card in its border (11 rows) and two
# to spare for piles that wrap; and the lines of a player's block in the players zone
# (counts, camels, played pile, cards to come).
HAND_LEAST = 13
PLAYER_LINES = 4


class KarawaneTable(TableView[KarawaneObservation]):
    """The Karawane table."""

    FIRST_FOCUS = "#hand-row"
    PICKER_PLACE = "bottom"  # the camel picker leaves the track in sight
    DEFAULT_CSS = table_stylesheet("karawane/karawane.tcss")
    SCOPED_CSS = False

    ZONES = (
        (TrackZone, "track"),
        (HandZone, "hand"),
        (PlayersZone, "players"),
    )

    def show(self, view: View) -> None:
        """Give every zone its part of ``view``."""
        super().show(view)
        obs = self.obs
        g = view.glyphs
        self.query_one(TrackZone).track = Track(obs, self.before, g)
        self.query_one(HandZone).hand = Hand(obs, view.legal, g)
        self.query_one(PlayersZone).players = Players(obs, view.scores, g)
        self.fit_track()

    def on_resize(self, event: Resize) -> None:
        """Lay the track out anew for the table's new size."""
        self.fit_track()

    def fit_track(self) -> None:
        """Draw the track's squares as boxes where the table has the room for them.

        Decided by the table's own size, known at every resize (the screen's size
        classes may come later), and the number of players, so the layout holds
        for the whole game: wide enough for ten boxes in a row, and tall enough
        that the hand keeps the rows of a large card below the boxes and a
        players' block of four lines each.  A block that grows longer late in a
        game (a long pile wraps) takes its rows from the hand, whose cards then
        show their compact faces (karawane.tcss).
        """
        if self.view is None:
            return
        width, height = self.size
        players = len(self.obs.players) * PLAYER_LINES + 2
        rows = height - (ROOMY_LINES + 2) - players
        roomy = box_width(width - 4) is not None and rows >= HAND_LEAST  # inside the border
        self.set_class(roomy, "-roomy")
        self.query_one(TrackZone).set_class(roomy, "-roomy")

    # -- choosing -----------------------------------------------------------------------
    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Play the chosen card of the hand: at once, or after choosing its camel."""
        message.stop()
        if self.view is not None:
            self.perform(gestures.choose_card(self.obs, self.legal, message.index))

    def on_track_zone_clicked(self, message: TrackZone.Clicked) -> None:
        """Play on the clicked camel: pick the card."""
        message.stop()
        self.play_on(message.seat, message.camel)

    def play_on(self, seat: int, camel: int) -> None:
        """Play on camel ``camel`` of ``seat`` (clicked on the track): pick the card."""
        if self.view is not None:
            self.perform(gestures.choose_camel(self.obs, self.legal, seat, camel))

    # -- hints --------------------------------------------------------------------------
    def hint_places(self, action: Action) -> list[Spot]:
        """The hand card a decision plays (the cursor goes there: Enter plays it)."""
        return gestures.hint_places(self.obs, action)

    def mark_hint(self, gesture: Sequence[Action], *, point: bool = False) -> None:
        """Mark the hinted card in the hand and the camel it moves on the track."""
        super().mark_hint(gesture, point=point)
        self.query_one(TrackZone).hinted = gestures.hinted_camel(gesture[0] if gesture else None)

    def on_turn(self) -> None:
        """Bring the keyboard to the hand: every decision starts with a card."""
        self.query_one(CardRow).focus()
