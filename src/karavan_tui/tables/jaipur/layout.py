"""Where Jaipur's market cards lie on the table: the same places after an undo or a replay.

Plain functions of the public views, without Textual: the table lays the market
out with them, and its gestures read the card at a place from that layout.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from karavan_core.engine import Action
from karavan_core.games.jaipur.components import CARDS, GOODS, MARKET_SIZE, Card
from karavan_core.games.jaipur.rules import cards_of
from karavan_core.games.jaipur.state import Exchange, JaipurObservation, TakeCamels, TakeGood


def stable_layout(shown: Sequence[Card | None], cards: Sequence[Card]) -> list[Card]:
    """``cards`` laid out where ``shown`` had them: cards still there keep their places.

    The places that emptied take the cards that arrived, in the market's order;
    no card moves just because another was taken.
    """
    left = Counter(cards)
    places: list[Card | None] = []
    for card in list(shown) + [None] * (len(cards) - len(shown)):
        if card is not None and left[card] > 0:
            left[card] -= 1
            places.append(card)
        else:
            places.append(None)
    # Fewer cards than before (the deck ran dry): the emptied places at the end go first.
    while len(places) > len(cards):
        places.pop(max(i for i, card in enumerate(places) if card is None))
    arrivals = iter(cards_of_counter(left))
    return [card if card is not None else next(arrivals) for card in places]


def market_places(past: Sequence[JaipurObservation]) -> list[Card]:
    """The market's cards in their places, worked out from the public views of the game.

    A round's market is laid out in the market's order (goods, then camels) when it
    is dealt; after every decision the cards still there keep their places and the
    new ones fill those that emptied (:func:`stable_layout`).  Since only the
    history decides, an undo, a resume or a replay shows every card where it was.
    """
    first = len(past) - 1
    while first > 0 and past[first].turn != 0:  # back to the deal of the round shown
        first -= 1
    places = cards_of(past[first].market)[:MARKET_SIZE]
    for view in past[first + 1 :]:
        places = stable_layout(places, cards_of(view.market)[:MARKET_SIZE])
    return places


def laid_out(
    obs: JaipurObservation, past: Sequence[JaipurObservation], shown: Sequence[Card | None]
) -> list[Card]:
    """The market of ``obs`` in its places: from ``past`` if at hand, else kept from ``shown``.

    ``shown`` is the layout drawn last (a hosted table's client has no history).
    """
    if past:
        return market_places(past)
    return stable_layout(shown, cards_of(obs.market)[:MARKET_SIZE])


def cards_of_counter(counts: Counter[Card]) -> list[Card]:
    """The cards of ``counts`` in the market's order (goods, then camels)."""
    return [card for card in CARDS for _ in range(counts[card])]


def arrivals(
    before: JaipurObservation, news: Sequence[Action], after: JaipurObservation
) -> Counter[Card]:
    """The market cards of ``after`` that were not there in ``before``, ``news`` played between.

    Counting each kind alone would miss a card that replaced one of its own kind
    (a camel drawn where the camels were taken): the cards the decisions took
    out of the market are set aside first, and whatever is there beyond what
    stayed arrived (drawn from the deck, or given in an exchange).
    """
    stayed = Counter(cards_of(before.market))
    for action in news:
        if isinstance(action, TakeGood):
            stayed[action.good] -= 1
        elif isinstance(action, TakeCamels):
            stayed[Card.CAMEL] = 0
        elif isinstance(action, Exchange):
            for good, count in zip(GOODS, action.take, strict=True):
                stayed[good] -= count
    arrived = Counter(cards_of(after.market))
    arrived.subtract(+stayed)
    return +arrived


def new_places(
    places: Sequence[Card], previous: Sequence[Card | None] | None, arrived: Counter[Card]
) -> set[int]:
    """The places of ``places`` that hold the ``arrived`` cards.

    A place whose card differs from the one it held in ``previous`` (the layout
    when the cards were counted before) holds a new card; a card that arrived
    in place of one of its own kind is given a place of that kind not taken yet
    (identical cards: any one will do).  Without ``previous``, the first places
    of each kind.
    """
    left = Counter(arrived)
    marked: set[int] = set()
    if previous is not None:
        for index, card in enumerate(places):
            held = previous[index] if index < len(previous) else None
            if held != card and left[card] > 0:
                marked.add(index)
                left[card] -= 1
    for index, card in enumerate(places):
        if index not in marked and left[card] > 0:
            marked.add(index)
            left[card] -= 1
    return marked
