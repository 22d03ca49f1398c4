"""What a click, a mark, Enter or a key means at Karakum's table: plain functions, tested alone.

A camel is bought by choosing it in the market, then paid for with cards marked
in the hand (the cheapest way is marked at once): a :class:`Payment`.  These
read the observation, the legal decisions and that payment, and answer with the
decisions to send, a picker, a sentence (outcome.py) or a new payment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from attrs import evolve, field, frozen

from karavan_core.engine import Action
from karavan_core.games.karakum.components import RES_LETTERS, RESOURCES, Res
from karavan_core.games.karakum.rules import payments, price
from karavan_core.games.karakum.state import (
    Buy,
    DrawCard,
    KarakumObservation,
    Pass,
    Pay,
    Step,
    TakeCard,
)
from karavan_core.games.karakum.words import describe_cards
from karavan_core.text import plural
from karavan_tui.tables.marking import Marked, Marks
from karavan_tui.tables.outcome import Ask, Confirm, Outcome, Say, play
from karavan_tui.tables.spots import Spot, counted_spots

MARKET_ROW, RESOURCES_ROW, HAND_ROW = "market-row", "resources", "hand-row"


@frozen
class Payment:
    """A purchase being paid for: the camel's market ``slot``, whether Buy is still to be
    played (``buying``; else it is bought already), and the cards marked to pay with."""

    slot: int
    buying: bool
    cards: Marks[Res] = field(factory=Marks)

    @property
    def counts(self) -> tuple[int, ...]:
        """The cards marked, a count per resource."""
        return self.cards.counts(RESOURCES)

    def gesture(self) -> tuple[Action, ...]:
        """The decisions the payment makes: buy (unless bought already), then pay."""
        pay = Pay(self.counts)
        return (Buy(self.slot), pay) if self.buying else (pay,)


def ways_to_pay(obs: KarakumObservation, slot: int) -> list[tuple[int, ...]]:
    """Every way the observer's hand pays for the camel in ``slot``, the cheapest first."""
    camel = obs.market[slot]
    if camel is None or obs.hand is None:
        return []
    return list(payments(obs.hand, camel.color, price(obs.market, slot)))


def paid_with(counts: tuple[int, ...]) -> Marks[Res]:
    """Marks for the cards of ``counts`` (a count per resource)."""
    return Marks.of(zip(RESOURCES, counts, strict=True))


def new_payment(obs: KarakumObservation, slot: int, *, buying: bool) -> Payment:
    """A purchase of the camel in ``slot`` with its cheapest payment marked."""
    ways = ways_to_pay(obs, slot)
    return Payment(slot, buying, paid_with(ways[0]) if ways else Marks())


def payment_fits(payment: Payment, obs: KarakumObservation, legal: Collection[Action]) -> bool:
    """Whether ``payment`` is still open: not once the turn is over, or once the decision
    was taken another way (the move list), as the camel may have left the market."""
    if not legal:
        return False
    if payment.buying:
        return Buy(payment.slot) in legal
    return obs.step is Step.PAY and obs.slot == payment.slot


def owed(obs: KarakumObservation, legal: Collection[Action]) -> Payment | None:
    """The payment to mark at once when a camel is bought already (a save may stop between
    Buy and Pay), so the table never waits for a payment nobody is marking."""
    if legal and obs.step is Step.PAY and obs.slot is not None:
        return new_payment(obs, obs.slot, buying=False)
    return None


def marked(payment: Payment | None, obs: KarakumObservation) -> Marked | None:
    """What the payment makes, for the status line and Enter (``None`` when not paying)."""
    if payment is None:
        return None
    camel = obs.market[payment.slot]
    cost = price(obs.market, payment.slot)
    cards = describe_cards(payment.counts)
    if payment.buying:
        words = f"Buy the {camel} for {plural(cost, 'unit')} with {cards}"
        return Marked(
            words=words,
            actions=payment.gesture(),
            keys="Enter buys, Esc cancels, p lists every way",
        )
    # Buy is played already: only paying is left (u takes the purchase back).
    words = f"The {camel} is bought: pay {plural(cost, 'unit')} with {cards}"
    keys = "Enter pays, p lists every way, u takes the buy back"
    kept = f"The {camel} is bought already: pay for it, or press u to take it back."
    return Marked(words=words, actions=payment.gesture(), keys=keys, kept=kept)


def buy(slot: int, obs: KarakumObservation, legal: Collection[Action]) -> Payment | Outcome:
    """Choosing the camel in ``slot``: its payment starts, the cheapest way marked.

    A camel that may not be bought now is refused in the engine's words.
    """
    buying = not (obs.step is Step.PAY and obs.slot == slot)
    if buying and Buy(slot) not in legal:
        return play(Buy(slot))  # refused: the screen says why
    return new_payment(obs, slot, buying=buying)


def mark(
    payment: Payment | None, row: str, index: int, obs: KarakumObservation
) -> Payment | Outcome:
    """Space on a hand card while paying: one more of that good (back to none after all)."""
    if row != HAND_ROW or obs.hand is None:
        return Say("Space marks cards of your hand to pay for a camel chosen in the market.")
    if payment is None:
        return Say("Choose a camel in the market first: then mark the cards to pay with.")
    held = obs.hand[index]
    if not held:
        return Say(f"You hold no {RESOURCES[index].good}.", warning=True)
    return evolve(payment, cards=payment.cards.cycled(RESOURCES[index], held))


def choose(
    payment: Payment | None,
    row: str,
    index: int,
    obs: KarakumObservation,
    legal: Collection[Action],
) -> Payment | Outcome:
    """Enter (or a click) on card ``index`` of ``row``.

    While paying, the status line says Enter buys: so it does from any row (focus moves
    there with the arrows), unless another camel is chosen, which is bought instead.
    """
    other_camel = row == MARKET_ROW and (payment is None or index != payment.slot)
    if payment is not None and not other_camel:
        return Confirm()
    if row == HAND_ROW:
        return Say("Space marks a card to pay with, once you have chosen a camel.")
    if row == MARKET_ROW:
        return buy(index, obs, legal)
    return play(DrawCard()) if index == 0 else play(TakeCard(index - 1))


def payment_picker(payment: Payment, obs: KarakumObservation) -> Ask:
    """Every way to pay for the camel being paid for, as a list (``p``).

    While Buy is still to be played the pick plays it first: the list makes the
    purchase whole, or (Esc) buys nothing.
    """
    slot = payment.slot
    camel = obs.market[slot]
    options = tuple(Pay(cards) for cards in ways_to_pay(obs, slot))
    labels = tuple(
        f"{describe_cards(option.cards)}  ({plural(sum(option.cards), 'card')})"
        for option in options
    )
    token = f" ({RES_LETTERS[camel.color]}{camel.value})" if camel else ""
    title = f"Pay {plural(price(obs.market, slot), 'unit')} for the {camel}{token}"
    return Ask(title, options, labels, before=(Buy(slot),) if payment.buying else ())


def turn_picker(obs: KarakumObservation, legal: Collection[Action]) -> Ask | None:
    """The picker a step opens by itself: which camel joins first, or a forced pass."""
    options = tuple(legal)
    if obs.step is Step.JOIN:
        return Ask("Several left-side camels can join: which goes first?", options)
    if options == (Pass(),):
        return Ask("No move is possible", options)
    return None


def hinted(payment: Payment | None, action: Action) -> Payment | None:
    """A hinted payment marked in the hand, ready to pay (else the payment as it was)."""
    if payment is not None and isinstance(action, Pay):
        return evolve(payment, cards=paid_with(action.cards))
    return payment


def hint_follows(action: Action) -> bool:
    """Whether the table plays ``action`` with the next decision: a camel bought is paid for."""
    return isinstance(action, Buy)


def hinted_payment(gesture: Sequence[Action], obs: KarakumObservation) -> Payment | None:
    """A hinted purchase (the camel, then its payment) or payment, marked as the player would
    mark it; ``None`` for any other hint."""
    match tuple(gesture):
        case (Buy(slot=slot), Pay(cards=cards)):
            return Payment(slot, True, paid_with(cards))
        case (Pay(cards=cards),) if obs.step is Step.PAY and obs.slot is not None:
            return Payment(obs.slot, False, paid_with(cards))
    return None


def purchase_words(gesture: Sequence[Action], obs: KarakumObservation) -> str | None:
    """A hinted purchase in the words the table uses while paying ("Buy the red 4 for 3
    units with ..."); ``None`` for any other hint."""
    payment = hinted_payment(gesture, obs)
    said = marked(payment, obs) if payment is not None and payment.buying else None
    return None if said is None else f"{said.words}."


def hint_spots(action: Action) -> list[Spot]:
    """The card a decision takes or buys, or the hand cards it pays with."""
    if isinstance(action, DrawCard):
        return [(RESOURCES_ROW, 0)]
    if isinstance(action, TakeCard):
        return [(RESOURCES_ROW, action.slot + 1)]
    if isinstance(action, Buy):
        return [(MARKET_ROW, action.slot)]
    if isinstance(action, Pay):
        return counted_spots(HAND_ROW, action.cards)
    return []


# -- a card drawn blind -------------------------------------------------------------
DRAWN = "From the deck"  # the title of the note naming the cards drawn blind this turn


def drawn_words(drawn: Sequence[int]) -> str:
    """The cards a player drew blind this turn (resource indexes), as the note says them."""
    counts = Counter(drawn)
    words = " and ".join(RESOURCES[index].counted(n) for index, n in counts.items())
    return f"You drew {words} from the deck."


def drawn_blind(before: KarakumObservation, after: KarakumObservation) -> int | None:
    """The resource the player drew from the face-down deck between two of their own views.

    The log (public) only says that a card was drawn; the player sees which one in
    their hand, and is told: one card more in one resource, the deck one card
    smaller and the face-up row as it was.  ``None`` for anything else.
    """
    if after.row != before.row or after.resource_deck_size != before.resource_deck_size - 1:
        return None
    return one_more(before, after)


def one_more(before: KarakumObservation, after: KarakumObservation) -> int | None:
    """The resource of which the player's hand holds one card more in ``after``, if that
    is all that changed in it between two of their own views; else ``None``."""
    if after.player is None or before.player != after.player or after.hand is None:
        return None
    if before.hand is None:
        return None
    grown = [
        i for i, (old, new) in enumerate(zip(before.hand, after.hand, strict=True)) if new != old
    ]
    if len(grown) != 1 or after.hand[grown[0]] != before.hand[grown[0]] + 1:
        return None
    return grown[0]


# One decision of the player with their own views before and after it.
KarakumTurnStep = tuple[KarakumObservation, Action, KarakumObservation]


def drawn_in_turn(steps: Sequence[KarakumTurnStep]) -> str:
    """What the player drew blind in a turn, as the note says it ("" if nothing).

    ``steps`` are their decisions of the turn, each with their own views before and
    after it: the decision says which cards came from the deck.
    """
    drawn = [
        card
        for before, action, after in steps
        if isinstance(action, DrawCard) and (card := one_more(before, after)) is not None
    ]
    return drawn_words(drawn) if drawn else ""
