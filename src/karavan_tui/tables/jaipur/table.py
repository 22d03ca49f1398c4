"""Jaipur's table: the zones fed from the view, the cards' clicks and keys sent to gestures.

Everything shown comes from the observation of the player at the keyboard;
every choice goes back to the game screen as engine actions, which the engine
accepts or refuses.  Between rounds a summary of the finished round comes up
before play goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.binding import Binding

from karavan_core.engine import Action
from karavan_core.games.jaipur.components import GOODS, MARKET_SIZE, SEALS_TO_WIN, Card
from karavan_core.games.jaipur.state import JaipurObservation, RoundResult
from karavan_tui.modals.round_summary import RoundSummaryScreen
from karavan_tui.tables.base import CLEAR_MARKS, TableView, View, table_stylesheet
from karavan_tui.tables.jaipur import gestures
from karavan_tui.tables.jaipur.gestures import ExchangeMarks
from karavan_tui.tables.jaipur.layout import laid_out, market_places
from karavan_tui.tables.jaipur.players import PlayersData, PlayersZone
from karavan_tui.tables.jaipur.zones import (
    HandData,
    HandZone,
    MarketData,
    MarketZone,
    PilesData,
    TokensZone,
)
from karavan_tui.tables.marking import Marked
from karavan_tui.tables.spots import Spot
from karavan_tui.widgets.cards import CardRow


class JaipurTable(TableView[JaipurObservation]):
    """The Jaipur table."""

    FIRST_FOCUS = "#market"
    DEFAULT_CSS = table_stylesheet("jaipur/jaipur.tcss")
    SCOPED_CSS = False
    BINDINGS = [
        # Not in the Footer, which is full at 80 columns: the market's exchange card and
        # the zone's title offer it.
        Binding("x", "exchange", "Exchange", show=False, tooltip="Take goods, give cards back"),
        Binding("o", "rounds", "Rounds", show=False, tooltip="The finished rounds' summaries"),
        CLEAR_MARKS,
    ]
    ZONES = (
        (MarketZone, "market"),
        (TokensZone, "tokens"),
        (HandZone, "hand"),
        (PlayersZone, "players"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rounds_seen: int | None = None  # finished rounds already summarised
        self.marks = ExchangeMarks()  # an exchange being marked

    @property
    def places(self) -> list[Card | None]:
        """The card at each place of the market row (``None``: a gap, or the exchange card)."""
        return self.query_one(MarketZone).shown

    @property
    def marking(self) -> bool:
        """Whether an exchange is being marked."""
        return bool(self.marks)

    def _places_before(
        self, view: View, shown: list[Card | None]
    ) -> tuple[Card | None, ...] | None:
        """The market's places when ``view.before`` was seen, where that can be known.

        From the history (the views before the news); at a hosted table, which has
        none, the places drawn last stand in for them.
        """
        if view.before is None:
            return None
        past = self.past
        if past:
            return tuple(market_places(past[: len(past) - len(view.news)]))
        return tuple(shown) if any(shown) else None

    def show(self, view: View) -> None:
        """Draw every zone; bring up the summary when a round has just ended."""
        super().show(view)
        obs, before, g, playing = self.obs, self.before, view.glyphs, view.playing
        legal = frozenset(view.legal)
        market = self.query_one(MarketZone)
        shown = market.shown[:MARKET_SIZE]
        places = tuple(laid_out(obs, self.past, shown))
        taking = frozenset(self.marks.taking)
        previous = self._places_before(view, shown)
        market.data = MarketData(
            obs=obs,
            before=before,
            legal=legal,
            g=g,
            places=places,
            taking=taking,
            playing=playing,
            news=view.news,
            previous=previous,
        )
        self.query_one(TokensZone).data = PilesData(obs, before, g)
        giving = self.marks.giving
        hand = HandData(
            obs=obs,
            legal=legal,
            g=g,
            giving=giving.counts(GOODS),
            giving_camels=giving.count(Card.CAMEL),
            playing=playing,
        )
        self.query_one(HandZone).data = hand
        players = self.query_one(PlayersZone)
        players.data = PlayersData(obs, g)
        players.border_title = f"Round {len(obs.rounds) + 1} {g.sep} first to {SEALS_TO_WIN} seals"
        if obs.is_over:
            players.border_title = f"Round {len(obs.rounds)} {g.sep} the match is over"
        finished = len(obs.rounds)
        players.border_subtitle = f"o {g.sep} finished rounds" if finished and playing else ""
        if self._rounds_seen is not None and finished > self._rounds_seen and not obs.is_over:
            # After the screen's own work (a curtain it is about to draw goes underneath):
            # both players read the summary together before the next hand is shown.
            self.pauses_play = True  # no bot moves until both have read it
            self.call_later(self.summarise, obs.rounds, obs.players[obs.starter])
        self._rounds_seen = finished  # also follows undo back into an earlier round

    def summarise(self, rounds: Sequence[RoundResult], next_starter: str | None) -> None:
        """Show the finished ``rounds``: only the newest when ``next_starter`` starts the next."""
        star = self.view.glyphs.winner if self.view else "*"

        def closed(_: object) -> None:
            self.pauses_play = False

        self.app.push_screen(
            RoundSummaryScreen(self.obs.players, rounds, next_starter, star), closed
        )

    def action_rounds(self) -> None:
        """Show every finished round again."""
        if not self.obs.rounds:
            self.notify("No round has finished yet.")
            return
        self.summarise(self.obs.rounds, None)

    # -- an exchange by marking cards -----------------------------------------------
    def marked_gesture(self) -> Marked | None:
        """While an exchange is marked: what it takes and gives."""
        return gestures.marked(self.marks, self.places)

    def forget_marks(self) -> None:
        """Forget the marks of an exchange."""
        self.marks = ExchangeMarks()

    def on_card_row_marked(self, message: CardRow.Marked) -> None:
        """Mark a market good to take, or one more card of the hand or herd to give."""
        message.stop()
        row = message.row.id or ""
        done = gestures.mark(self.marks, row, message.index, self.obs, self.legal, self.places)
        if isinstance(done, ExchangeMarks):
            self.marks = done
            self.marks_changed()
        else:
            self.perform(done)

    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Turn a chosen card into a decision (with marks made: the exchange)."""
        message.stop()
        row = message.row.id or ""
        obs, legal = self.obs, self.legal
        self.perform(gestures.choose(row, message.index, self.marking, obs, legal, self.places))

    def sell(self, good: Card) -> None:
        """Sell ``good``: pick how many among the sales offered (the engine refuses any other)."""
        self.perform(gestures.sell(good, self.obs, self.legal))

    def action_exchange(self) -> None:
        """The exchange picker: first the goods to take, then what to give for them."""
        self.perform(gestures.exchange_picker(self.legal))

    def hint_places(self, action: Action) -> list[Spot]:
        """The market places and hand cards a decision takes or gives."""
        return gestures.hint_spots(action, self.places)

    def hint_marks(self, gesture: tuple[Action, ...]) -> Spot | None:
        """A hinted exchange is marked as the player would mark it; Enter exchanges."""
        marks = gestures.hinted_exchange(gesture[0], self.places) if gesture else None
        if marks is None:
            return None
        self.marks = marks
        return self.hint_places(gesture[0])[0]

    def marks_now(self) -> object | None:
        """The exchange marked, if any."""
        return self.marks or None
