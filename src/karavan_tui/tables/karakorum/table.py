"""Karakorum's table: the zones fed from the view, the gestures carried out, the marks kept.

Every choice goes back to the game screen as engine actions, which the engine
accepts or refuses with its own reason.
"""

from __future__ import annotations

from typing import Any

from karavan_core.engine import Action
from karavan_core.games.karakorum.state import Card, KarakorumObservation, Step
from karavan_tui.tables.base import CLEAR_MARKS, TableView, View, table_stylesheet
from karavan_tui.tables.karakorum import gestures
from karavan_tui.tables.karakorum.gestures import EXP_ROW, TABLE_ROW, viewer_seat
from karavan_tui.tables.karakorum.players import (
    Climbers,
    ClimbersZone,
    Opponents,
    OpponentsZone,
)
from karavan_tui.tables.karakorum.zones import (
    Expeditions,
    ExpeditionsZone,
    Goals,
    GoalsZone,
    RoundCards,
    TableZone,
)
from karavan_tui.tables.marking import Marked, Marks
from karavan_tui.tables.outcome import Say
from karavan_tui.tables.spots import Spot
from karavan_tui.widgets.cards import CardRow


class KarakorumTable(TableView[KarakorumObservation]):
    """The Karakorum table."""

    FIRST_FOCUS = f"#{TABLE_ROW}"
    BINDINGS = [CLEAR_MARKS]
    DEFAULT_CSS = table_stylesheet("karakorum/karakorum.tcss")
    SCOPED_CSS = False
    TALL = 34  # from this terminal height (and width) the goals take one line per peak
    WIDE = 53

    ZONES = (
        (TableZone, "round"),
        (GoalsZone, "goals"),
        (ExpeditionsZone, "expeditions"),
        (OpponentsZone, "opponents"),
        (ClimbersZone, "climbers"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.marked: Marks[Card] = Marks()  # cards marked to take together, or the one to place

    @property
    def me(self) -> int:
        """The seat whose expeditions are drawn below (the player to move, behind the curtain)."""
        return viewer_seat(self.obs)

    def show(self, view: View) -> None:
        """Give every zone its part of ``view``."""
        super().show(view)
        obs, before, g = self.obs, self.before, view.glyphs
        self.query_one(TableZone).cards = RoundCards(
            obs=obs, before=before, legal=view.legal, glyphs=g, marked=tuple(self.marked)
        )
        self.query_one(GoalsZone).goals = Goals(obs, g)
        self.query_one(ExpeditionsZone).expeditions = Expeditions(obs, self.me, view.legal, g)
        self.query_one(OpponentsZone).opponents = Opponents(obs, before, self.me, g)
        self.query_one(ClimbersZone).climbers = Climbers(
            obs=obs, before=before, me=self.me, scores=view.score_words, glyphs=g
        )
        self.fit_layout()

    def on_resize(self) -> None:
        """Lay the zones out again for the new size."""
        self.fit_layout()

    def fit_layout(self) -> None:
        """Switch the goals between one line and one line per peak, the others' expeditions
        between their own zone (wide screens) and lines under the tracks."""
        self.query_one(GoalsZone).long = self.roomy
        self.query_one(ClimbersZone).with_others = not self.wide

    @property
    def wide(self) -> bool:
        """Whether the others' expeditions have a zone of their own (from 120 columns)."""
        return self.app.size.width >= 120

    @property
    def roomy(self) -> bool:
        """Whether the goals have room for one line per peak in long words."""
        return self.app.size.height >= self.TALL and self.size.width >= self.WIDE

    # -- choosing -----------------------------------------------------------------
    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Turn a chosen slot into a decision."""
        message.stop()
        if self.view is None:
            return
        if message.row.id == TABLE_ROW:
            self.perform(gestures.choose_on_table(self.obs, self.legal, self.marked, message.index))
        else:
            self.perform(
                gestures.choose_expedition(self.obs, self.legal, self.marked, message.index)
            )

    # -- several cards by marking (see tables/marking.py) -------------------------------
    def on_card_row_marked(self, message: CardRow.Marked) -> None:
        """Mark cards to take together (one peak), or the taken card to place next."""
        message.stop()
        if self.turn_view() is None:
            return
        marks = gestures.mark(self.obs, self.marked, message.row.id or "", message.index)
        if isinstance(marks, Say):
            self.perform(marks)
            return
        self.marked = marks
        self.marks_changed()
        if self.obs.step is Step.PLACE and marks:
            self.query_one(f"#{EXP_ROW}", CardRow).focus()

    def marked_gesture(self) -> Marked | None:
        """What the marked cards make: the cards to take together, or the card to place."""
        return None if self.view is None else gestures.marked_gesture(self.obs, self.marked)

    def forget_marks(self) -> None:
        """Drop the marks."""
        self.marked = Marks()

    def marks_fit(self, view: View) -> bool:
        """Marks last while their player is to move and their cards are in the row."""
        return gestures.marks_fit(self.obs, view.legal, self.marked)  # self.obs is view's

    # -- what the screen asks ----------------------------------------------------------
    def news_weight(self, action: Action) -> int:
        """Scoring and removing tell the most, then taking and placing, then revealing;
        stopping, passing and ending a turn the least."""
        return gestures.news_weight(action)

    def hint_places(self, action: Action) -> list[Spot]:
        """The slots of the table row and the expeditions a decision acts on."""
        return gestures.hint_places(self.obs, action)

    def hint_marks(self, gesture: tuple[Action, ...]) -> Spot | None:
        """A hinted card to place is marked to place; the cursor goes to its expedition."""
        laid = gestures.hinted_place(self.obs, gesture[0]) if gesture and self.view else None
        if laid is None:
            return None
        self.marked, spot = laid
        return spot

    def marks_now(self) -> object | None:
        """The cards marked, if any."""
        return self.marked or None

    def laid_keys(self, marked: Marked) -> str:
        """The cursor is on the hinted card's expedition: Enter places it there."""
        return "Enter places it, Esc clears"

    def on_turn(self) -> None:
        """Put the cursor on the likeliest decision of this step, in the zone it belongs to."""
        if self.view is None or not self.view.legal:
            return
        places = gestures.turn_places(self.obs, self.legal)
        for row_id, index in places:
            self.query_one(f"#{row_id}", CardRow).point_at(index)
        self.query_one(f"#{places[0][0]}", CardRow).focus()
