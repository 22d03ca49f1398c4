"""Karakum's rules: what may be decided, and what each decision does.

Plain functions over the state, so that the contract (:mod:`.game`), the words
(:mod:`.words`) and the bots' evaluation read one statement of each rule:
one predicate per kind of decision says whether it is legal and, if not, why
(:class:`Why`); :func:`apply_decision` plays one.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, auto
from functools import cache, lru_cache
from operator import floordiv
from typing import Any

from attrs import frozen

from karavan_core.engine import Action
from karavan_core.games.karakum import components as C
from karavan_core.games.karakum.components import GOLD_INDEX, RES_INDEX, RESOURCES, Res
from karavan_core.games.karakum.state import (
    Buy,
    Camel,
    DrawCard,
    Hand,
    Join,
    KarakumState,
    Pass,
    Pay,
    Step,
    TakeCard,
)
from karavan_core.values import replace, replace_at

ALL_CAMELS: tuple[Camel, ...] = tuple(Camel(c, v) for c in C.GOODS for v in C.CAMEL_VALUES)
NO_CARDS: Hand = (0,) * len(RESOURCES)
DRAW = DrawCard()
PASS = Pass()
# The decisions that only name a place, made once: listing them builds no objects.
TAKE_CARD: tuple[TakeCard, ...] = tuple(TakeCard(i) for i in range(C.ROW_SIZE))
BUY: tuple[Buy, ...] = tuple(Buy(i) for i in range(C.MARKET_SIZE))


# -- small helpers on hands and caravans ----------------------------------------


def fits(caravan: Sequence[Camel], camel: Camel) -> bool:
    """Whether ``camel`` may join the end of ``caravan`` (colour or number matches)."""
    if not caravan:
        return True
    last = caravan[-1]
    return last.color is camel.color or last.value == camel.value


def _add(hand: Hand, index: int, n: int = 1) -> Hand:
    changed = list(hand)  # two allocations, where slicing and joining make four
    changed[index] += n
    return tuple(changed)


def plus(a: Hand, b: Hand) -> Hand:
    """The two hands' cards together, kind by kind."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def minus(a: Hand, b: Hand) -> Hand:
    """``a`` without ``b``'s cards, kind by kind."""
    return tuple(x - y for x, y in zip(a, b, strict=True))


@lru_cache(maxsize=4096)  # a market changes only when a camel is bought
def prices(market: tuple[Camel | None, ...]) -> tuple[int, ...]:
    """What each market camel costs in payment units: its value, plus the tax while it shares
    the colour of the camel next to the deck (that camel pays it too).  An empty place: 0."""
    taxed = taxed_color(market)
    return tuple(
        0 if camel is None else camel.value + (C.TAX if camel.color is taxed else 0)
        for camel in market
    )


def price(market: tuple[Camel | None, ...], slot: int) -> int:
    """Payment units for the camel in ``slot`` (see :func:`prices`)."""
    assert market[slot] is not None
    return prices(market)[slot]


@frozen
class PaymentCheck:
    """What a payment offered for the camel being bought gives, against its price."""

    held: bool  # the player holds those cards
    unpaired: Res | None  # a good of another colour given in an odd number, if any
    paid: int  # the units it gives
    cost: int  # the units the camel costs

    @property
    def exact(self) -> bool:
        """Whether it pays the camel exactly."""
        return self.held and self.unpaired is None and self.paid == self.cost


def check_payment(state: KarakumState, cards: Hand) -> PaymentCheck:
    """``cards`` weighed as a payment for the camel being bought (the PAY step)."""
    assert state.slot is not None
    camel = state.market[state.slot]
    assert camel is not None
    hand = state.hands[state.current]
    cost = price(state.market, state.slot)
    if len(cards) != len(hand) or any(n < 0 or n > h for n, h in zip(cards, hand, strict=True)):
        return PaymentCheck(False, None, 0, cost)
    own = camel.color.index
    others = [i for i in range(len(C.GOODS)) if i != own]
    unpaired = next((RESOURCES[i] for i in others if cards[i] % 2), None)
    pairs = sum(cards[i] // 2 for i in others)
    return PaymentCheck(True, unpaired, cards[own] + cards[GOLD_INDEX] + pairs, cost)


def payment_terms(state: KarakumState) -> tuple[Hand, Res, int]:
    """What the payments for the camel being bought depend on: the hand (cut to what could
    be spent), the camel's colour and its price."""
    assert state.slot is not None
    camel = state.market[state.slot]
    assert camel is not None
    cost = price(state.market, state.slot)
    return _usable(state.hands[state.current], camel.color, cost), camel.color, cost


def taxed_color(market: Sequence[Camel | None]) -> Res | None:
    """The colour that pays the tax now (that of the camel next to the deck)."""
    return None if market[0] is None else market[0].color


def units(hand: Hand, color: Res) -> int:
    """The most payment units ``hand`` can give towards a camel of ``color``."""
    return color_units(hand)[color.index]


def _pairs(hand: Hand) -> int:
    """The pairs of identical goods in ``hand`` (each pays one unit of another colour)."""
    return sum(map(floordiv, hand[: len(C.GOODS)], _TWOS))


_TWOS = (2,) * len(C.GOODS)


# The search's evaluation asks this of the same few hands at every playout's end.
@lru_cache(maxsize=4096)
def color_units(hand: Hand) -> tuple[int, ...]:
    """``units`` of ``hand`` towards a camel of each colour, in GOODS order."""
    pairs = _pairs(hand)
    gold = hand[GOLD_INDEX]
    # A unit is one card of the camel's own good, one gold, or a pair of another good (the
    # own good's pairs are counted among the pairs, so they are taken off once).
    return tuple(mine + gold + pairs - mine // 2 for mine in hand[: len(C.GOODS)])


def payments(hand: Hand, color: Res, cost: int) -> list[Hand]:
    """Every distinct way ``hand`` can pay ``cost`` units for a camel of ``color``, cheapest first.

    A unit is one card of the camel's good, one gold, or two identical cards of
    another good.  Cheapest means fewest cards, then least gold.
    """
    return list(_payments(_usable(hand, color, cost), color, cost))


def _usable(hand: Hand, color: Res, cost: int) -> Hand:
    """``hand`` with every count cut to what a payment of ``cost`` units could spend of it.

    Payments depend on nothing else, so hands that differ only beyond that
    share one entry of the cache below (a hoarding hand would otherwise miss it).
    """
    own = RES_INDEX[color]
    return tuple(min(n, cost if i in (own, GOLD_INDEX) else 2 * cost) for i, n in enumerate(hand))


# Paying a camel is a decision of its own, listed afresh at every PAY step:
# thousands of times a decision in the bots' search.
@lru_cache(maxsize=4096)
def pay_actions(hand: Hand, color: Res, cost: int) -> tuple[Pay, ...]:
    """The decisions paying for a camel: ``payments`` as actions (``hand`` already usable)."""
    return tuple(map(_pay, _payments(hand, color, cost)))


_pay = cache(Pay)  # one object per payment (a payment spends at most 16 cards of a kind)


@lru_cache(maxsize=4096)
def _payments(hand: Hand, color: Res, cost: int) -> tuple[Hand, ...]:
    """``payments``, generated straight in order (cheapest first) instead of sorted.

    A payment of ``p`` pairs spends ``cost + p`` cards, so fewer pairs come
    first; then less gold (the rest paid in the camel's own good); then, as
    the order has it, more cards of the goods listed first.
    """
    own = RES_INDEX[color]
    others = tuple(i for i in range(len(C.GOODS)) if i != own)
    most = tuple(hand[i] // 2 for i in others)
    found: list[Hand] = []
    spend = [0] * len(RESOURCES)
    for pairs in range(min(cost, sum(most)) + 1):
        rest = cost - pairs  # units left for the own good and gold, one card each
        for gold in range(max(0, rest - hand[own]), min(hand[GOLD_INDEX], rest) + 1):
            spend[own], spend[GOLD_INDEX] = rest - gold, gold
            for split in _splits(pairs, tuple(min(m, pairs) for m in most)):
                for i, n in zip(others, split, strict=True):
                    spend[i] = 2 * n
                found.append(tuple(spend))
    return tuple(found)


@cache
def _splits(total: int, most: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way of writing ``total`` as parts no larger than ``most``, largest first part first."""
    if not most:
        return ((),) if total == 0 else ()
    room = sum(most[1:])
    return tuple(
        (first, *rest)
        for first in range(min(most[0], total), max(0, total - room) - 1, -1)
        for rest in _splits(total - first, most[1:])
    )


def hand_from(cards: Sequence[Res]) -> Hand:
    """Count a list of resource cards into a hand."""
    return tuple(map(list(cards).count, RESOURCES))


def cards_of(counts: Hand) -> list[Res]:
    """Spell a hand out as a list of cards."""
    return [res for res, n in zip(RESOURCES, counts, strict=True) for _ in range(n)]


def _top_card(state: KarakumState) -> tuple[dict[str, Any], Res | None]:
    """The top resource card, and the changes taking it makes to the state.

    The discards are reshuffled into a new deck if the deck is empty; with
    both empty there is no card (and the changes change nothing).
    """
    deck, discard, rng = state.resource_deck, state.discard, state.rng
    if not deck:
        if not any(discard):
            return {"resource_deck": deck, "discard": discard}, None
        rng, deck = rng.shuffled(cards_of(discard))
        discard = NO_CARDS
    return {"resource_deck": deck[1:], "discard": discard, "rng": rng}, deck[0]


@cache
def join_action(index: int) -> Join:
    """The one ``Join(index)`` (a left side holds a few camels at most)."""
    return Join(index)


def _fill_row(state: KarakumState) -> KarakumState:
    """``state`` with its empty face-up places filled, left to right, while cards can be had.

    A place is empty only once the deck and the discards have both run out, so
    this deals from the discards just paid, shuffled into a new deck.
    """
    for slot, card in enumerate(state.row):
        if card is None:
            changes, top = _top_card(state)
            if top is None:
                break
            state = replace(state, row=replace_at(state.row, slot, top), **changes)
    return state


def _can_draw(state: KarakumState) -> bool:
    return bool(state.resource_deck) or any(state.discard)


# -- what is legal: one predicate per kind of decision -----------------------------


class Why(Enum):
    """Why a decision may not be taken: the rules' answer (:mod:`.words` says it)."""

    NOT_NOW = auto()  # the step asks for another kind of decision
    NO_CARD = auto()  # no face-up card lies in that place
    GOLD_SECOND = auto()  # a face-up gold cannot be the second card
    PILES_EMPTY = auto()  # the deck and the discard pile are both empty
    NO_CAMEL = auto()  # no camel stands in that market place
    UNAFFORDABLE = auto()  # the hand cannot pay the camel's price
    PAYMENT = auto()  # those cards do not pay for the camel (the words say how)
    CANNOT_JOIN = auto()  # that left-side camel matches the caravan in neither way
    NOT_STUCK = auto()  # passing, while another decision is possible
    UNKNOWN = auto()  # not a Karakum decision at all


def takings(state: KarakumState) -> list[Why | None]:
    """For each face-up place: why its card may not be taken now (``None``: it may)."""
    step, row = state.step, state.row
    if step not in (Step.CHOOSE, Step.SECOND_CARD, Step.BONUS):
        return [Why.NOT_NOW] * len(row)
    second = step is Step.SECOND_CARD
    return [
        Why.NO_CARD if card is None else Why.GOLD_SECOND if second and card is Res.GOLD else None
        for card in row
    ]


def drawing(state: KarakumState) -> Why | None:
    """Why the deck's top card may not be drawn now."""
    if state.step not in (Step.CHOOSE, Step.SECOND_CARD, Step.BONUS):
        return Why.NOT_NOW
    return None if _can_draw(state) else Why.PILES_EMPTY


def buyings(state: KarakumState) -> list[Why | None]:
    """For each market place: why its camel may not be bought now."""
    market = state.market
    if state.step is not Step.CHOOSE:
        return [Why.NOT_NOW] * len(market)
    can_pay = color_units(state.hands[state.current])
    return [
        Why.NO_CAMEL
        if camel is None
        else None
        if can_pay[camel.color.index] >= cost
        else Why.UNAFFORDABLE
        for camel, cost in zip(market, prices(market), strict=True)
    ]


def paying(state: KarakumState, cards: Hand) -> Why | None:
    """Why ``cards`` may not pay for the camel being bought (:func:`check_payment` says how)."""
    if state.step is not Step.PAY:
        return Why.NOT_NOW
    return None if check_payment(state, cards).exact else Why.PAYMENT


def joinings(state: KarakumState) -> list[Why | None]:
    """For each left-side camel: why it may not join the caravan now."""
    left = state.lefts[state.current]
    if state.step is not Step.JOIN:
        return [Why.NOT_NOW] * len(left)
    caravan = state.caravans[state.current]
    return [None if fits(caravan, camel) else Why.CANNOT_JOIN for camel in left]


def passing(state: KarakumState) -> Why | None:
    """Why the player may not pass: only a player who can do nothing else passes."""
    if state.step is not Step.CHOOSE:
        return Why.NOT_NOW
    others = [*takings(state), drawing(state), *buyings(state)]
    return Why.NOT_STUCK if None in others else None


def refusal(state: KarakumState, action: object) -> Why | None:
    """Why ``action`` may not be taken in ``state`` (a game not over), or ``None`` if it may:
    the answer of the predicate for its kind, at its place."""
    if isinstance(action, TakeCard):
        return _at(takings(state), action.slot, Why.NO_CARD)
    if isinstance(action, Buy):
        return _at(buyings(state), action.slot, Why.NO_CAMEL)
    if isinstance(action, Join):
        return _at(joinings(state), action.index, Why.CANNOT_JOIN)
    if isinstance(action, DrawCard):
        return drawing(state)
    if isinstance(action, Pay):
        return paying(state, action.cards)
    if isinstance(action, Pass):
        return passing(state)
    return Why.UNKNOWN


def _at(answers: list[Why | None], place: object, nowhere: Why) -> Why | None:
    """The answer for ``place`` among a kind's ``answers``; ``nowhere`` for a place not there."""
    if answers and answers[0] is Why.NOT_NOW:
        return Why.NOT_NOW
    if type(place) is not int or not 0 <= place < len(answers):
        return nowhere
    return answers[place]


# -- what a decision does -------------------------------------------------------------


def apply_decision(state: KarakumState, action: Action) -> KarakumState:
    """The state after ``action``, a decision already known to be legal."""
    step = state.step
    if isinstance(action, TakeCard):
        card = state.row[action.slot]
        assert card is not None
        changes, replacement = _top_card(state)
        changes["row"] = replace_at(state.row, action.slot, replacement)
        first = step is Step.CHOOSE and card is not Res.GOLD
        return _gathered(state, card, first, changes)
    if isinstance(action, DrawCard):
        changes, drawn = _top_card(state)
        assert drawn is not None
        return _gathered(state, drawn, step is Step.CHOOSE, changes)
    if isinstance(action, Buy):
        return replace(state, step=Step.PAY, slot=action.slot, passes=0)
    if isinstance(action, Pay):
        return _paid(state, action.cards)
    if isinstance(action, Join):
        return _join_and_bonus(evolve_join(state, action.index))
    if isinstance(action, Pass):
        state = replace(state, passes=state.passes + 1)
        if state.passes >= len(state.players):
            return replace(state, step=Step.OVER, turn=state.turn + 1)
        return _end_turn(state)
    raise AssertionError(f"unhandled action {action!r}")


def _gathered(state: KarakumState, card: Res, first: bool, changes: dict[str, Any]) -> KarakumState:
    """The state once the player to move has gathered ``card`` (``changes`` say from where).

    After a first card the player takes a second one if any is left to
    take; otherwise the turn ends.  One copy of the state is made either way.
    """
    seat = state.current
    changes["hands"] = replace_at(state.hands, seat, _add(state.hands[seat], RES_INDEX[card]))
    changes["passes"] = 0
    if first:
        row = changes.get("row", state.row)
        deck, discard = changes["resource_deck"], changes["discard"]
        if deck or any(discard) or any(c is not None and c is not Res.GOLD for c in row):
            return replace(state, step=Step.SECOND_CARD, **changes)
    return _end_turn(state, **changes)


def _paid(state: KarakumState, cards: Hand) -> KarakumState:
    """The state once the camel being bought is paid for with ``cards``."""
    seat, slot = state.current, state.slot
    assert slot is not None
    camel = state.market[slot]
    assert camel is not None
    hands = replace_at(state.hands, seat, minus(state.hands[seat], cards))
    discard = plus(state.discard, cards)
    # The camels between the deck and the gap move one slot away from the deck to close
    # it, leaving slot 0 (next to the deck) free for a new camel.
    market = (None,) + state.market[:slot] + state.market[slot + 1 :]
    deck = state.camel_deck
    if deck:
        market, deck = (deck[0],) + market[1:], deck[1:]
    caravan, left = state.caravans[seat], state.lefts[seat]
    if fits(caravan, camel):
        caravan = caravan + (camel,)
    else:
        left = left + (camel,)
    state = replace(
        state,
        hands=hands,
        discard=discard,
        market=market,
        camel_deck=deck,
        caravans=replace_at(state.caravans, seat, caravan),
        lefts=replace_at(state.lefts, seat, left),
        slot=None,
        bonus_due=camel.value == C.BONUS_VALUE,
    )
    if state.payment_refills_row:
        state = _fill_row(state)
    return _join_and_bonus(state)


def _join_and_bonus(state: KarakumState) -> KarakumState:
    """Join left-side camels while exactly one can; ask when several can; then the bonus."""
    seat = state.current
    while True:
        caravan = state.caravans[seat]
        joinable = [i for i, camel in enumerate(state.lefts[seat]) if fits(caravan, camel)]
        if not joinable:
            break
        if len(joinable) > 1:
            return replace(state, step=Step.JOIN)
        state = evolve_join(state, joinable[0])
    if state.bonus_due:
        state = replace(state, bonus_due=False, step=Step.BONUS)
        if None in takings(state) or drawing(state) is None:
            return state
    return _end_turn(state)


def _end_turn(state: KarakumState, **changes: Any) -> KarakumState:
    """Pass the turn (or end the game), making ``changes`` in the same copy of the state."""
    if not all(state.market):  # a place is empty: the market could not be refilled
        return replace(state, step=Step.OVER, slot=None, turn=state.turn + 1, **changes)
    return replace(
        state,
        step=Step.CHOOSE,
        current=(state.current + 1) % len(state.players),
        slot=None,
        turn=state.turn + 1,
        **changes,
    )


def evolve_join(state: KarakumState, index: int) -> KarakumState:
    """``state`` with only the chosen left-side camel moved into the caravan."""
    seat = state.current
    left = state.lefts[seat]
    return replace(
        state,
        caravans=replace_at(state.caravans, seat, state.caravans[seat] + (left[index],)),
        lefts=replace_at(state.lefts, seat, left[:index] + left[index + 1 :]),
    )


def auto_joins(caravan: tuple[Camel, ...], left: tuple[Camel, ...]) -> list[Camel]:
    """The left-side camels that join ``caravan`` on their own, in order.

    One joins while it is the only one that fits; when several fit, the owner
    chooses (a decision of its own), so the count stops there.
    """
    joined: list[Camel] = []
    while True:
        fitting = [camel for camel in left if fits(caravan, camel)]
        if len(fitting) != 1:
            return joined
        camel = fitting[0]
        joined.append(camel)
        caravan += (camel,)
        left = tuple(other for other in left if other != camel)
