"""What a click, a mark, Enter or a key means at Jaipur's table: plain functions, tested alone.

They read the observation, the legal decisions, the market as laid out on the
table (``places``: the card at each place, from layout.py; the exchange card
comes after them) and the cards marked for an exchange, and answer with the
decisions to send, a picker, a sentence (outcome.py) or new marks.  What the
rules refuse is refused in the engine's words (``Refuse``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from attrs import field, frozen

from karavan_core.engine import Action
from karavan_core.games.jaipur.components import GOODS, MARKET_SIZE, NOUNS, Card
from karavan_core.games.jaipur.state import (
    Exchange,
    JaipurObservation,
    Sell,
    TakeCamels,
    TakeGood,
)
from karavan_core.games.jaipur.words import describe_cards
from karavan_core.text import plural
from karavan_tui.tables.marking import Marked, Marks
from karavan_tui.tables.outcome import Ask, Confirm, Outcome, Pick, Refuse, Say, play
from karavan_tui.tables.spots import Spot, counted_spots, spot_of, spots_of

EXCHANGE = MARKET_SIZE  # the market row's last card: the exchange
HERD = len(GOODS)  # the hand row's last card: the herd
MARKET_ROW, HAND_ROW = "market", "hand-row"  # the ids of the two rows of cards


def noun(card: Card) -> str:
    """The card's name for one card: "diamond", "camel"."""
    return NOUNS[card][0]


@frozen
class ExchangeMarks:
    """An exchange being marked: market places to take, goods and camels of the hand to give."""

    taking: Marks[int] = field(factory=Marks)
    giving: Marks[Card] = field(factory=Marks)

    def __bool__(self) -> bool:
        return bool(self.taking or self.giving)

    def exchange(self, places: Sequence[Card | None]) -> Exchange:
        """The exchange the marks make (the goods at the places marked)."""
        take = [0] * len(GOODS)
        for place in self.taking:
            card = places[place] if place < len(places) else None
            if card is not None and card is not Card.CAMEL:
                take[card.index] += 1
        return Exchange(tuple(take), self.giving.counts(GOODS), self.giving.count(Card.CAMEL))


def marked(marks: ExchangeMarks, places: Sequence[Card | None]) -> Marked | None:
    """What the marks make, for the status line and Enter (``None`` when nothing is marked)."""
    if not marks:
        return None
    exchange = marks.exchange(places)
    taken, given = sum(exchange.take), sum(exchange.give) + exchange.camels
    return Marked(
        words=f"Exchange: take {taken}, give {given}",
        actions=(exchange,),
        keys="Enter exchanges, Esc clears",
    )


def mark(
    marks: ExchangeMarks,
    row: str,
    index: int,
    obs: JaipurObservation,
    legal: Collection[Action],
    places: Sequence[Card | None],
) -> ExchangeMarks | Outcome:
    """Space on card ``index`` of ``row``: one more card to give, a market good to take or not.

    Space on the exchange card makes the marked exchange.  Out of turn nothing is
    marked (playing nothing, the screen says whose turn it is).
    """
    if not legal:
        return play()
    if row == HAND_ROW:
        hand, seat = obs.hand, obs.player
        if hand is None or seat is None:
            return Say("Hands are hidden.")
        if index == HERD:
            herd = obs.herds[seat]
            if not herd:
                return Say("Your herd has no camel to give.", warning=True)
            return ExchangeMarks(marks.taking, marks.giving.cycled(Card.CAMEL, herd))
        good = GOODS[index]
        if not hand[good.index]:
            return Say(f"You hold no {noun(good)}.", warning=True)
        return ExchangeMarks(marks.taking, marks.giving.cycled(good, hand[good.index]))
    if index == EXCHANGE:  # the exchange marked so far (nothing marked: the engine says why)
        return Confirm() if marks else play(marks.exchange(places))
    card = places[index] if index < len(places) else None
    if card is None:
        return marks  # an empty place (the deck ran dry): nothing to mark
    if card is Card.CAMEL:  # an exchange takes goods only: the camels go all together
        return Say(
            "Camels cannot be taken in an exchange: Enter on a camel takes them all.",
            warning=True,
            title="Not allowed",
        )
    return ExchangeMarks(marks.taking.toggled(index), marks.giving)


def choose(
    row: str,
    index: int,
    marking: bool,
    obs: JaipurObservation,
    legal: Collection[Action],
    places: Sequence[Card | None],
) -> Outcome | None:
    """Enter (or a click) on card ``index`` of ``row``: with marks made, the exchange.

    In the market a good is taken, the camels all together, the exchange card opens
    the exchange picker; in the hand a good is sold (how many: a picker).
    """
    if marking:
        return Confirm()
    if row == HAND_ROW:
        if index == HERD:
            return Refuse((Sell(Card.CAMEL, 1),), "Space marks them to give in an exchange.")
        return sell(GOODS[index], obs, legal)
    if index == EXCHANGE:
        return exchange_picker(legal)
    card = places[index] if index < len(places) else None
    if card is Card.CAMEL:
        return play(TakeCamels())
    return None if card is None else play(TakeGood(card))


def sell(good: Card, obs: JaipurObservation, legal: Collection[Action]) -> Outcome:
    """Sell ``good``: how many, among the sales offered; none offered, the engine says why.

    A sale is never made by Enter on the card alone: the picker asks first, even
    where one count is offered (its words say what the sale takes, and whether it
    ends the round), so that a stray Enter sells nothing.
    """
    sales = tuple(a for a in legal if isinstance(a, Sell) and a.good is good)
    if sales:
        title = f"Sell {noun(good)}: how many?" if len(sales) > 1 else f"Sell {noun(good)}?"
        return Ask(title, sales)
    held = obs.hand[good.index] if obs.hand else 0
    return play(Sell(good, max(1, held)))  # refused: too few, none held, not your turn


def exchange_picker(legal: Collection[Action]) -> Outcome:
    """The exchange picker: first the goods to take, then what to give for them.

    Both lists come from the exchanges the engine offers, so the picker can only
    end on a legal exchange.
    """
    if not legal:
        return play()  # not this player's turn: the screen says whose it is
    offers = [action for action in legal if isinstance(action, Exchange)]
    if not offers:
        return Say("You have no exchange to make now.", warning=True, title="Not allowed")
    ways: dict[tuple[int, ...], int] = {}
    for action in offers:
        ways[action.take] = ways.get(action.take, 0) + 1
    takes = list(ways)
    labels = tuple(
        f"{describe_cards(take)}  ({plural(ways[take], 'way')} to give {sum(take)} back)"
        for take in takes
    )
    title = "Exchange: which goods do you take from the market?"
    return Pick(title, labels, lambda index: give_picker(takes[index], offers))


def give_picker(take: tuple[int, ...], offers: Sequence[Exchange]) -> Ask:
    """The exchange picker's second step: what to give for ``take``, camels first."""
    # Giving camels is the usual way to trade, so those ways come first.
    ways = tuple(sorted((a for a in offers if a.take == take), key=lambda a: -a.camels))
    labels = tuple(describe_cards(action.give, action.camels) for action in ways)
    return Ask(f"For {describe_cards(take)}, you give:", ways, labels)


def hinted_exchange(action: Action, places: Sequence[Card | None]) -> ExchangeMarks | None:
    """The marks a player would make for a hinted exchange: the market places of the goods it
    takes, and the cards it gives (``None`` for any other decision)."""
    if not isinstance(action, Exchange):
        return None
    taking = [index for row, index in hint_spots(action, places) if row == MARKET_ROW]
    giving = zip((*GOODS, Card.CAMEL), (*action.give, action.camels), strict=True)
    return ExchangeMarks(Marks.of((place, 1) for place in taking), Marks.of(giving))


def hint_spots(action: Action, places: Sequence[Card | None]) -> list[Spot]:
    """The market places and hand cards a decision takes or gives, the main one first."""
    if isinstance(action, TakeGood):
        return spot_of(MARKET_ROW, places, action.good)
    if isinstance(action, TakeCamels):
        return spots_of(MARKET_ROW, places, Card.CAMEL)
    if isinstance(action, Sell):
        return [(HAND_ROW, action.good.index)]
    if isinstance(action, Exchange):
        taken = zip(GOODS, action.take, strict=True)
        spots = [spot for good, n in taken for spot in spots_of(MARKET_ROW, places, good, n)]
        return spots + counted_spots(HAND_ROW, (*action.give, action.camels))
    return []
