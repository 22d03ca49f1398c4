"""Karakum's table: the zones fed from the view, the cards' clicks and keys sent to gestures.

Everything shown comes from the observation of the player at the keyboard;
every choice goes back to the game screen as engine actions, which the engine
accepts or refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from textual.binding import Binding

from karavan_core.analysis import Hint
from karavan_core.engine import Action
from karavan_core.games.karakum.state import Buy, KarakumObservation, Step, TakeCard
from karavan_tui.tables.base import (
    CLEAR_MARKS,
    TableView,
    TurnStep,
    View,
    hint_status,
    table_stylesheet,
)
from karavan_tui.tables.karakum import gestures
from karavan_tui.tables.karakum.gestures import KarakumTurnStep, Payment
from karavan_tui.tables.karakum.players import CaravansZone
from karavan_tui.tables.karakum.zones import (
    HandData,
    HandZone,
    MarketZone,
    ResourceZone,
    TableData,
)
from karavan_tui.tables.marking import Marked
from karavan_tui.tables.outcome import Outcome, Say
from karavan_tui.tables.spots import Spot
from karavan_tui.widgets.cards import CardRow


class KarakumTable(TableView[KarakumObservation]):
    """The Karakum table."""

    FIRST_FOCUS = "#resources"
    BINDINGS = [
        CLEAR_MARKS,
        Binding("p", "list_payments", "Payments", show=False, tooltip="Every way to pay"),
    ]
    DEFAULT_CSS = table_stylesheet("karakum/karakum.tcss")
    SCOPED_CSS = False
    ZONES = (
        (MarketZone, "market"),
        (ResourceZone, "resources"),
        (HandZone, "hand"),
        (CaravansZone, "caravans"),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.paying: Payment | None = None  # a purchase whose payment is being marked
        self.last_seen: KarakumObservation | None = None  # the view shown before this one
        self.drawn: list[int] = []  # the resources drawn blind this turn, by the player seen
        self.drawn_turn: int | None = None

    def show(self, view: View) -> None:
        """Draw every zone (a camel bought already is paid for at once); tell a card drawn blind."""
        super().show(view)
        obs = self.obs
        # The log only says a card was drawn: its drawer is told which (a replay says nothing).
        seen = self.last_seen
        drawn = gestures.drawn_blind(seen, obs) if seen else None
        self.last_seen = obs
        if any(isinstance(action, TakeCard) for action in self.played):
            # A face-up card taken whose place was refilled with the same resource looks
            # the same as a card drawn blind: the table knows which it played.
            drawn = None
        if seen is not None and drawn is not None and view.playing:
            # A second card drawn blind in a turn (the draw may end it: the turn is the one
            # it was drawn in): the note names both, and replaces the first.
            if self.drawn_turn != seen.turn:
                self.drawn = []
            self.drawn.append(drawn)
            self.drawn_turn = seen.turn
            self.notify(gestures.drawn_words(self.drawn), title=gestures.DRAWN)
        if self.paying is None:
            self.paying = gestures.owed(obs, view.legal)
        legal = frozenset(view.legal)
        data = TableData(
            obs=obs,
            before=self.before,
            legal=legal,
            g=view.glyphs,
            news=view.news,
            scores=view.scores,
        )
        self.query_one(MarketZone).data = data
        self.query_one(ResourceZone).data = data
        paying = self.paying.counts if self.paying else ()
        self.query_one(HandZone).data = HandData(obs, view.glyphs, paying)
        caravans = self.query_one(CaravansZone)
        caravans.data = data
        caravans.border_title = f"Caravans: (cards in hand) left side {view.glyphs.master} chain"

    # -- paying by marking cards ----------------------------------------------------
    def marked_gesture(self) -> Marked | None:
        """While paying: the camel, the cards marked, and the keys."""
        return gestures.marked(self.paying, self.obs) if self.view else None

    def forget_marks(self) -> None:
        """Stop paying: nothing is bought."""
        self.paying = None

    def marks_fit(self, view: View) -> bool:
        """Whether the purchase being marked is still open in ``view``."""
        paying = self.paying
        return paying is not None and gestures.payment_fits(paying, self.obs, view.legal)

    def carry_out(self, done: Payment | Outcome, *, to_hand: bool = False) -> None:
        """Mark the payment ``done`` (``to_hand``: a purchase starts, the keys go to the
        hand), or perform the outcome."""
        if not isinstance(done, Payment):
            self.perform(done)
            return
        self.paying = done
        self.marks_changed()
        if to_hand:
            self.query_one("#hand-row", CardRow).focus()

    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Turn a chosen card into a decision (while paying: the purchase)."""
        message.stop()
        row = message.row.id or ""
        chosen = gestures.choose(self.paying, row, message.index, self.obs, self.legal)
        self.carry_out(chosen, to_hand=True)  # a payment comes of a camel chosen

    def on_card_row_marked(self, message: CardRow.Marked) -> None:
        """While paying, one more card of that good to pay with (back to none after all)."""
        message.stop()
        row = message.row.id or ""
        self.carry_out(gestures.mark(self.paying, row, message.index, self.obs))

    def buy(self, slot: int) -> None:
        """Start paying for the camel in ``slot``: the cheapest payment is marked in the hand."""
        self.carry_out(gestures.buy(slot, self.obs, self.legal), to_hand=True)

    def action_list_payments(self) -> None:
        """Every way to pay for the camel being paid for, as a list (p)."""
        if self.paying is None:
            self.perform(Say("Choose a camel in the market first."))
            return
        picker = gestures.payment_picker(self.paying, self.obs)
        if self.paying.buying:  # the list makes the purchase whole, or (Esc) buys nothing
            self.forget_marks()
            self.marks_changed()
        self.perform(picker)

    def take_listed(self, action: Action) -> None:
        """A camel bought from the move list is paid for on the table, as if chosen there."""
        if isinstance(action, Buy) and action in self.legal:
            self.buy(action.slot)
        else:
            super().take_listed(action)

    def hint_places(self, action: Action) -> list[Spot]:
        """The card a decision takes or buys, or the hand cards it pays with."""
        return gestures.hint_spots(action)

    def hint_follows(self, action: Action) -> bool:
        """A camel hinted to buy comes with its payment: the table plays both together."""
        return gestures.hint_follows(action)

    def hint_words(self, hints: Sequence[Hint]) -> str:
        """A purchase is said as paying says it (the camel, its price and the cards)."""
        gesture = [hint.action for hint in hints]
        words = gestures.purchase_words(gesture, self.obs) if self.view else None
        return hint_status(hints, words)

    def mark_hint(self, gesture: Sequence[Action], *, point: bool = False) -> None:
        """Mark the hinted cards; a hinted payment is marked in the hand, ready to pay."""
        if point and gesture and self.paying is not None and self.view:
            self.paying = gestures.hinted(self.paying, gesture[0])
            self.show(self.view)
        super().mark_hint(gesture, point=point)

    def hint_marks(self, gesture: tuple[Action, ...]) -> Spot | None:
        """A hinted purchase or payment is marked as paying marks it; Enter buys (or pays)."""
        payment = gestures.hinted_payment(gesture, self.obs) if self.view else None
        if payment is None:
            return None
        self.paying = payment
        return (gestures.MARKET_ROW, payment.slot)

    def marks_now(self) -> object | None:
        """The purchase being paid for, if any."""
        return self.paying

    def turn_note(self, steps: Sequence[TurnStep]) -> str:
        """The cards the player drew blind in the turn just ended (the log does not name them)."""
        return gestures.drawn_in_turn(cast(Sequence[KarakumTurnStep], steps))

    def on_turn(self) -> None:
        """Open the picker a step needs (payment, which camel joins, a forced pass)."""
        view = self.view
        if view is None or not view.legal:
            return
        obs = self.obs
        if obs.step is Step.PAY and obs.slot is not None:
            self.buy(obs.slot)
        elif (picker := gestures.turn_picker(obs, view.legal)) is not None:
            self.perform(picker)
        elif obs.step in (Step.SECOND_CARD, Step.BONUS):
            self.query_one(ResourceZone).focus()
