"""Karakum's table: the camel market, the resources, the hand and every caravan.

Each zone is its own widget.  Everything shown comes from the observation of
the player at the keyboard; every choice goes back to the game screen as
engine actions, which the engine accepts or refuses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import define
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Static

from karavan_core.engine import Action
from karavan_core.games.karakum import components as C
from karavan_core.games.karakum.components import RES_LETTERS, RESOURCES, Res
from karavan_core.games.karakum.rules import describe_cards, payments, price, taxed_color
from karavan_core.games.karakum.state import (
    Buy,
    Camel,
    DrawCard,
    KarakumObservation,
    Pass,
    Pay,
    Step,
    TakeCard,
)
from karavan_core.text import plural
from karavan_tui.glyphs import Glyphs
from karavan_tui.tables.base import TableView, View, table_stylesheet
from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.widgets.refit import Refits
from karavan_tui.words import padded, widest, wrap_tokens

# Card colours for rich text (the zones' cards take theirs from the .tcss).
COLOURS: dict[Res, str] = {
    Res.BLUE: "bold white on #2f5fb3",
    Res.PURPLE: "bold white on #7a3fa0",
    Res.RED: "bold white on #9e1b1b",
    Res.ORANGE: "bold black on #ffa733",
    Res.GREEN: "bold black on #4fa84a",
    Res.GOLD: "bold black on #e3c340",
}


def camel_text(camel: Camel, new: bool = False, g: Glyphs | None = None) -> Text:
    """A camel as a coloured token such as ``R3`` (letter and number carry it without colour).

    A camel ``new`` since the viewer's last decision is marked and underlined.
    """
    text = Text(f"{RES_LETTERS[camel.color]}{camel.value}", style=COLOURS[camel.color])
    if new and g is not None:
        text = Text(g.changed, style="bold") + text
        text.stylize("underline", 1)
    return text


def short(res: Res) -> str:
    """The good a camel of colour ``res`` is paid with, in at most five letters."""
    return res.good[:5]


def mark(new: bool, g: Glyphs) -> str:
    """The change mark before a card's text, when another player changed it."""
    return g.changed if new else ""


class MarketZone(Horizontal):
    """The camel deck and the market, slot 0 next to the deck."""

    def compose(self) -> ComposeResult:
        """The deck pile and the five market slots."""
        yield Static("", id="camel-deck", classes="card -deck")
        yield CardRow(C.MARKET_SIZE, id="market-row")

    def show(
        self,
        obs: KarakumObservation,
        before: KarakumObservation | None,
        legal: set[Action],
        g: Glyphs,
    ) -> None:
        """Draw the market from ``obs``, marking the camels that arrived since ``before``."""
        taxed = taxed_color(obs.market)
        self.query_one("#camel-deck", Static).update(f"{g.deck}{obs.camel_deck_size:>3}\ncamels")
        faces = []
        for slot, camel in enumerate(obs.market):
            if camel is None:
                faces.append(CardFace(f"{g.sep}\nempty", "-empty"))
                continue
            new = before is not None and camel not in before.market
            cost = price(obs.market, slot)
            tax = g.tax if camel.color is taxed else " "
            classes = f"-{camel.color.value}"
            if Buy(slot) not in legal and not (obs.step is Step.PAY and obs.slot == slot):
                classes += " -off"
            if obs.step is Step.PAY and obs.slot == slot:
                classes += " -buying"
            tip = f"{camel.color.value} {camel.value}: costs {cost} units of {camel.color.good}"
            if camel.color is taxed:
                tip += f" (taxed +{cost - camel.value})"
            # The second line names the good that pays: the camel's letter is its colour.
            token = f"{mark(new, g)}{RES_LETTERS[camel.color]}{camel.value}{tax}"
            face = CardFace(f"{token}\n{cost} {short(camel.color)}", classes, tip, str(camel), new)
            faces.append(face)
        self.query_one(CardRow).set_faces(faces)
        tax_text = f"tax {g.tax} {RES_LETTERS[taxed]} {taxed.value} +1" if taxed else "no tax"
        self.border_title = f"Camel market {g.sep} {tax_text}"


class ResourceZone(CardRow):
    """The resource deck (draw) and the face-up row."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(1 + C.ROW_SIZE, **kwargs)  # the deck, then the face-up row

    def show(
        self,
        obs: KarakumObservation,
        before: KarakumObservation | None,
        news: Sequence[Action],
        legal: set[Action],
        g: Glyphs,
    ) -> None:
        """Draw the deck and the row from ``obs``, marking the places refilled since ``before``.

        A place taken by another player and refilled with the same good is marked too.
        """
        faces = [
            CardFace(
                f"{g.deck}{obs.resource_deck_size:>3}\ndraw",
                "-deck" + ("" if DrawCard() in legal else " -off"),
                "Draw the top card of the resource deck",
                key="deck",
            )
        ]
        for slot, card in enumerate(obs.row):
            if card is None:
                faces.append(CardFace(f"{g.sep}\nempty", "-empty"))
                continue
            off = "" if TakeCard(slot) in legal else " -off"
            new = before is not None and (before.row[slot] != card or TakeCard(slot) in news)
            faces.append(
                CardFace(
                    # Goods go by name: a letter on the table always means a camel's colour.
                    f"{mark(new, g)}{card.good}\n{'face up' if card is not Res.GOLD else 'gold'}",
                    f"-{card.value}{off}",
                    f"Take the face-up {card.good} ({card.value})",
                    key=card.value,
                    changed=new,
                )
            )
        self.set_faces(faces)
        discard = sum(obs.discard)
        self.border_title = f"Resources {g.sep} discard {discard}"


class HandZone(Vertical):
    """The hand of the player at the keyboard, by good; hidden behind the curtain."""

    def compose(self) -> ComposeResult:
        """One card per resource and the hidden notice."""
        yield CardRow(len(RESOURCES), id="hand-row")
        yield Static("", id="hand-hidden")

    def show(self, obs: KarakumObservation, g: Glyphs, paying: Sequence[int] = ()) -> None:
        """Draw the observer's hand (none in the public view); ``paying``: cards marked to pay."""
        hidden = self.query_one("#hand-hidden", Static)
        row = self.query_one("#hand-row", CardRow)
        if obs.hand is None or obs.player is None:
            # Blank the cards too, so no private card stays even in a hidden widget.
            row.set_faces([CardFace("", "-none")] * len(RESOURCES))
            row.display = False
            hidden.display = True
            hidden.update("Hands are hidden.")
            self.border_title = "Hand"
            return
        row.display = True
        hidden.display = False
        times = "x" if g.tax == "*" else "×"
        faces = []
        for res, count in zip(RESOURCES, obs.hand, strict=True):
            paid = paying[res.index] if paying else 0
            classes = (
                f"-{res.value}" + (" -none" if not count else "") + (" -marked" if paid else "")
            )
            text = f"{times}{count}\n" + (f"pay {paid}" if paid else res.good)
            tip = f"{res.good}: {count} in hand" + (f", {paid} marked to pay" if paid else "")
            faces.append(CardFace(text, classes, tip, key=res.value))
        row.set_faces(faces)
        name = obs.players[obs.player]
        self.border_title = Content(f"{name}'s hand {g.sep} {plural(sum(obs.hand), 'card')}")


class CaravansZone(Refits):
    """Every player's caravan: left-side camels, the master, then the chain."""

    _shown: tuple[KarakumObservation, KarakumObservation | None, Glyphs] | None = None

    def show(self, obs: KarakumObservation, before: KarakumObservation | None, g: Glyphs) -> None:
        """Draw one line per player: name, hand size, left side, master, chain.

        A caravan too long for the zone goes on below, indented under the
        camels so that the names stay in their column.  Camels that joined a
        caravan since ``before`` are underlined and marked.
        """
        self._shown = (obs, before, g)
        width = widest(obs.players)  # in cells: an emoji takes two
        lefts = [3 * len(left) for left in obs.lefts]
        pad = max(lefts)
        room = self.content_region.width or 10_000
        text = Text()
        for seat, name in enumerate(obs.players):
            if seat:
                text.append("\n")
            mine = seat == obs.to_move
            text.append(f"{g.turn if mine else ' '} ", style="bold")
            text.append(padded(name, width), style="bold" if mine else "")
            text.append(f" ({obs.hand_sizes[seat]:>2}) ", style="dim")
            indent = 2 + width + 6
            used = indent + pad - lefts[seat]
            text.append(" " * (pad - lefts[seat]))
            # A camel is news where it was not before: one that went from the left side
            # into the chain has joined the caravan, so it is marked there too.
            had_left = () if before is None else before.lefts[seat]
            had_chain = () if before is None else before.caravans[seat]
            new = before is not None
            tokens = [camel_text(c, new and c not in had_left, g) for c in obs.lefts[seat]]
            tokens.append(Text(g.master, style="bold"))
            tokens += [camel_text(c, new and c not in had_chain, g) for c in obs.caravans[seat]]
            wrap_tokens(text, tokens, used, room, indent)
        self.update(text, layout=False)  # the zone's size does not depend on its text


@define
class Paying:
    """A purchase being marked: the market place, whether Buy is still to be played, the
    cards marked to pay (counts per resource)."""

    slot: int
    buying: bool
    cards: list[int]


class KarakumTable(TableView[KarakumObservation]):
    """The Karakum table."""

    FIRST_FOCUS = "#resources"
    BINDINGS = [
        Binding("escape", "cancel_payment", "Cancel", show=False),
        Binding("p", "list_payments", "Payments", show=False, tooltip="Every way to pay"),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.paying: Paying | None = None  # a purchase whose payment is being marked

    DEFAULT_CSS = table_stylesheet("karakum.tcss")
    SCOPED_CSS = False

    ZONES = (
        (MarketZone, "market"),
        (ResourceZone, "resources"),
        (HandZone, "hand"),
        (CaravansZone, "caravans"),
    )

    def show(self, view: View) -> None:
        """Draw every zone."""
        super().show(view)
        obs = self.obs
        legal = set(view.legal)
        g = view.glyphs
        before = view.before
        assert before is None or isinstance(before, KarakumObservation)
        self.query_one(MarketZone).show(obs, before, legal, g)
        self.query_one(ResourceZone).show(obs, before, view.news, legal, g)
        if not self._paying_fits(view):  # the purchase being marked is no longer open
            self.paying = None
        if self.paying is None and view.legal and obs.step is Step.PAY and obs.slot is not None:
            # Bought already (a save may stop between Buy and Pay): the payment is marked
            # at once, so the table never waits for a payment nobody is marking.
            self.paying = self._new_paying(obs.slot, buying=False)
        self.query_one(HandZone).show(obs, g, self.paying.cards if self.paying else ())
        caravans = self.query_one(CaravansZone)
        caravans.show(obs, before, g)
        caravans.border_title = f"Caravans: (cards in hand) left side {g.master} chain"

    def _paying_fits(self, view: View) -> bool:
        """Whether the purchase being marked is still open in ``view``.

        It is not once the player's turn is over, or once the decision was taken
        another way (the move list): the camel may have left the market.
        """
        paying = self.paying
        if paying is None or not view.legal:
            return False
        obs = view.observation
        assert isinstance(obs, KarakumObservation)
        if paying.buying:
            return Buy(paying.slot) in view.legal
        return obs.step is Step.PAY and obs.slot == paying.slot

    # -- choosing -----------------------------------------------------------------
    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Turn a chosen card into a decision (while paying: the purchase)."""
        message.stop()
        paying = self.paying
        other_camel = message.row.id == "market-row" and (
            paying is None or message.index != paying.slot
        )
        # While paying, the status line says Enter buys: so it does from any row, the
        # resources too (focus moves there with the arrows); another camel is bought instead.
        if paying is not None and not other_camel:
            self.confirm_payment()
            return
        if message.row.id == "hand-row":
            self.notify("Space marks a card to pay with, once you have chosen a camel.")
        elif message.row.id == "market-row":
            self.buy(message.index)
        elif message.index == 0:
            self.host.decide(DrawCard())
        else:
            self.host.decide(TakeCard(message.index - 1))

    def hint_places(self, action: Action) -> list[tuple[str, int]]:
        """The card a decision takes or buys, or the hand cards it pays with."""
        if isinstance(action, DrawCard):
            return [("resources", 0)]
        if isinstance(action, TakeCard):
            return [("resources", action.slot + 1)]
        if isinstance(action, Buy):
            return [("market-row", action.slot)]
        if isinstance(action, Pay):
            return [("hand-row", i) for i, n in enumerate(action.cards) if n]
        return []

    def mark_hint(self, action: Action | None, *, point: bool = False) -> None:
        """Mark the hinted cards; a hinted payment is marked in the hand, ready to pay."""
        if point and isinstance(action, Pay) and self.paying is not None and self.view:
            self.paying.cards = list(action.cards)
            self.show(self.view)
        super().mark_hint(action, point=point)

    def take_listed(self, action: Action) -> None:
        """A camel bought from the move list is paid for on the table, as if chosen there."""
        if isinstance(action, Buy) and action in self.legal:
            self.buy(action.slot)
        else:
            super().take_listed(action)

    def _new_paying(self, slot: int, *, buying: bool) -> Paying:
        """A purchase of the camel in ``slot`` with its cheapest payment marked."""
        obs = self.obs
        camel = obs.market[slot]
        assert camel is not None and obs.hand is not None
        options = payments(obs.hand, camel.color, price(obs.market, slot))
        return Paying(slot, buying, list(options[0]) if options else [0] * len(RESOURCES))

    def buy(self, slot: int) -> None:
        """Start paying for the camel in ``slot``: the cheapest payment is marked in the hand."""
        obs = self.obs
        buying = not (obs.step is Step.PAY and obs.slot == slot)
        if buying and Buy(slot) not in self.legal:
            self.host.decide(Buy(slot))  # refused: the screen says why
            return
        self.paying = self._new_paying(slot, buying=buying)
        if self.view is not None:
            self.show(self.view)
        self.query_one("#hand-row", CardRow).focus()
        self.host.refresh_status()

    def on_card_row_marked(self, message: CardRow.Marked) -> None:
        """While paying, one more card of that good to pay with (back to none after all)."""
        message.stop()
        obs = self.obs
        if message.row.id != "hand-row" or obs.hand is None:
            self.notify("Space marks cards of your hand to pay for a camel chosen in the market.")
            return
        if self.paying is None:
            self.notify("Choose a camel in the market first: then mark the cards to pay with.")
            return
        held = obs.hand[message.index]
        if not held:
            self.notify(f"You hold no {RESOURCES[message.index].good}.", severity="warning")
            return
        cards = self.paying.cards
        cards[message.index] = (cards[message.index] + 1) % (held + 1)
        if self.view is not None:
            self.show(self.view)
        self.host.refresh_status()

    def payment_gesture(self) -> tuple[Action, ...]:
        """The decisions the marked payment makes: buy (unless already bought), then pay."""
        assert self.paying is not None
        pay = Pay(tuple(self.paying.cards))
        return (Buy(self.paying.slot), pay) if self.paying.buying else (pay,)

    def marking_status(self) -> str | None:
        """While paying: the camel, the cards marked, and whether they pay it."""
        if self.paying is None or self.view is None:
            return None
        obs, g = self.obs, self.view.glyphs
        camel = obs.market[self.paying.slot]
        cost = price(obs.market, self.paying.slot)
        marked = describe_cards(tuple(self.paying.cards))
        reason = self.host.check(*self.payment_gesture())
        if self.paying.buying:
            head = f"Buy the {camel} for {plural(cost, 'unit')} with {marked}"
            keys = "Enter buys, Esc cancels, p lists every way"
        else:  # Buy is played already: only paying is left (u takes the purchase back)
            head = f"The {camel} is bought: pay {plural(cost, 'unit')} with {marked}"
            keys = "Enter pays, p lists every way, u takes the buy back"
        if reason is None:
            return f"{head} {g.sep} {keys}"
        return f"{head}. {reason}"

    def confirm_payment(self) -> None:
        """Buy with the marked cards, or say why they do not pay."""
        gesture = self.payment_gesture()
        reason = self.host.check(*gesture)
        if reason is not None:
            self.notify(reason, title="Not allowed", severity="warning")
            return
        self.paying = None
        self.host.decide(*gesture)

    def action_cancel_payment(self) -> None:
        """Stop paying (Esc): nothing is bought; a camel bought already must be paid for."""
        if self.paying is not None and not self.paying.buying:
            camel = self.obs.market[self.paying.slot]
            self.notify(f"The {camel} is bought already: pay for it, or press u to take it back.")
            return
        if self.paying is not None:
            self.paying = None
            if self.view is not None:
                self.show(self.view)
            self.host.refresh_status()

    def action_list_payments(self) -> None:
        """Every way to pay for the camel being paid for, as a list (p)."""
        if self.paying is None:
            self.notify("Choose a camel in the market first.")
            return
        obs = self.obs
        slot, buying = self.paying.slot, self.paying.buying
        camel = obs.market[slot]
        assert camel is not None and obs.hand is not None
        options = [Pay(cards) for cards in payments(obs.hand, camel.color, price(obs.market, slot))]
        if buying:  # the list makes the purchase whole, or (Esc) buys nothing
            self.action_cancel_payment()
        self.pick_payment(slot, options, buying=buying)

    def pick_payment(self, slot: int, options: Sequence[Action], *, buying: bool) -> None:
        """Open the payment picker for the camel in ``slot``."""
        obs = self.obs
        camel = obs.market[slot]
        assert camel is not None
        cost = price(obs.market, slot)
        labels = []
        for option in options:
            assert isinstance(option, Pay)
            labels.append(f"{describe_cards(option.cards)}  ({plural(sum(option.cards), 'card')})")
        title = f"Pay {cost} units for the {camel} {RES_LETTERS[camel.color]}{camel.value}"
        self.ask(title, options, labels, before=(Buy(slot),) if buying else ())

    def on_turn(self) -> None:
        """Open the picker a step needs (payment, which camel joins, a forced pass)."""
        view = self.view
        if view is None or not view.legal:
            return
        obs = self.obs
        legal = list(view.legal)
        if obs.step is Step.PAY and obs.slot is not None:
            self.buy(obs.slot)
        elif obs.step is Step.JOIN:
            self.ask("Several left-side camels can join: which goes first?", legal)
        elif legal == [Pass()]:
            self.ask("No move is possible", legal)
        elif obs.step in (Step.SECOND_CARD, Step.BONUS):
            self.query_one(ResourceZone).focus()
