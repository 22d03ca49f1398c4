"""Jaipur's rules: a two-player trading duel, played as a match of rounds.

Each turn is one decision: take one good, take all the camels, exchange, or
sell.  Counts per kind stand in for the cards themselves (the market and the
hands are unordered), which keeps the states small and lets every exchange be
enumerated quickly: the sub-multisets of any small set of counts are computed
once and cached.

Plain functions over the state, so that the contract (:mod:`.game`), the words
(:mod:`.words`) and the bots' evaluation read one statement of each rule: one
predicate per kind of decision says whether it is legal and, if not, why
(:class:`Why`); :func:`apply_decision` plays one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum, auto
from functools import cache
from itertools import product, repeat
from operator import add, mul, sub
from typing import Any, TypeVar, cast

from karavan_core.engine import Action
from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur.components import CAMEL, CARD_INDEX, CARDS, GOODS, Card
from karavan_core.games.jaipur.scoring import round_scores, seal_winner
from karavan_core.games.jaipur.state import (
    Counts,
    Exchange,
    JaipurObservation,
    JaipurState,
    RoundResult,
    RoundScore,
    Sell,
    TakeCamels,
    TakeGood,
)
from karavan_core.rng import Rng
from karavan_core.text import spelled
from karavan_core.values import replace, replace_at

T = TypeVar("T")
N_GOODS = len(GOODS)
NO_GOODS: Counts = (0,) * N_GOODS
# The deck each round is dealt from: everything but the market's starting camels.
ROUND_DECK: tuple[Card, ...] = tuple(
    card
    for card, n in zip(CARDS, C.CARD_COUNTS, strict=True)
    for _ in range(n - (C.MARKET_CAMELS if card is Card.CAMEL else 0))
)
TAKE_CAMELS = TakeCamels()
TAKE_GOOD: tuple[TakeGood, ...] = tuple(TakeGood(good) for good in GOODS)
# SELL[good][count]; counts a good's card total allows, at most.
SELL: tuple[tuple[Sell, ...], ...] = tuple(
    tuple(Sell(good, n) for n in range(C.CARD_COUNTS[i] + 1)) for i, good in enumerate(GOODS)
)
MIN_SALE: Counts = tuple(C.PRECIOUS_MIN_SALE if good in C.PRECIOUS else 1 for good in GOODS)


# -- small helpers on count tuples ---------------------------------------------------


def _add_at(counts: Counts, index: int, n: int) -> Counts:
    changed = list(counts)  # two allocations, where slicing and joining make four
    changed[index] += n
    return tuple(changed)


def counts_of(cards: Sequence[Card], kinds: int = len(CARDS)) -> Counts:
    """Count a list of cards into ``kinds`` counts (7 with camels, 6 for goods only)."""
    return tuple(map(list(cards).count, CARDS[:kinds]))


def cards_of(counts: Counts) -> list[Card]:
    """Spell counts out as a list of cards."""
    return [card for card, n in zip(CARDS, counts, strict=False) for _ in range(n)]


@cache
def sub_counts(counts: Counts) -> tuple[tuple[Counts, ...], ...]:
    """Every sub-multiset of ``counts``, grouped by size (entry ``k`` holds those of ``k`` cards).

    Only hands (at most seven goods) and market goods (at most five) are ever
    asked for, so the cache stays small: there are 1716 such count tuples.
    """
    by_size: list[list[Counts]] = [[] for _ in range(sum(counts) + 1)]
    for combo in product(*(range(n + 1) for n in counts)):
        by_size[sum(combo)].append(combo)
    return tuple(tuple(group) for group in by_size)


# One shared object per distinct exchange, so enumeration rarely builds new ones.
# Unbounded is safe: at most five goods are taken, so only 25,456 exchanges exist.
_exchange = cache(Exchange)


# Listing the exchanges is most of the time of a Jaipur decision, random or
# searched, so they are listed in blocks rather than one by one: all those with
# the same goods taken and the same cards givable (the hand less the kinds
# taken) form one block, built once and kept with its take.  A block is a pure
# function of its take and key, so keeping it cannot change what is listed.
# Keys are integers, the givable counts packed three bits a kind (a hand holds
# at most seven cards), so finding a block is one bitwise AND and one lookup.
_BITS = 3
_KIND = (1 << _BITS) - 1


def _packed(counts: Counts) -> int:
    """``counts`` packed into one integer, three bits a kind."""
    return sum(n << (_BITS * i) for i, n in enumerate(counts))


@cache
def _capped(hand: Counts) -> tuple[int, ...]:
    """``hand`` packed, with each count capped at ``n``, for each ``n`` up to five.

    An exchange of ``n`` goods never gives more than ``n`` of a kind, so two
    hands that differ only beyond that share their blocks.  At most 1716 hands exist.
    """
    return tuple(_packed(tuple(min(h, n) for h in hand)) for n in range(C.MARKET_SIZE + 1))


Block = tuple[tuple[Exchange, ...], ...]  # [c]: the exchanges giving at most c camels


def sale_ends_round(observation: JaipurObservation, sale: Sell) -> bool:
    """Whether ``sale`` empties enough goods token piles to end the round (public knowledge)."""
    tokens_left = [len(pile) for pile in observation.goods_piles]
    tokens_left[sale.good.index] -= min(sale.count, tokens_left[sale.good.index])
    return tokens_left.count(0) >= C.EMPTY_PILES_TO_END


class _Take:
    """One way of taking goods in an exchange, and the blocks of exchanges that take so."""

    __slots__ = ("blocks", "counts", "kept", "mask", "size")

    def __init__(self, counts: Counts) -> None:
        self.counts = counts
        self.size = sum(counts)
        self.kept = tuple(0 if t else 1 for t in counts)  # the kinds that may be given
        self.mask = sum(_KIND << (_BITS * i) for i, k in enumerate(self.kept) if k)
        self.blocks: dict[int, Block] = {}  # by the givable counts, packed and capped


_TAKES: dict[Counts, _Take] = {}  # at most 455 takes exist


def _take(counts: Counts) -> _Take:
    """The one :class:`_Take` of ``counts`` (setdefault: one even if two threads ask at once)."""
    take = _TAKES.get(counts)
    return take if take is not None else _TAKES.setdefault(counts, _Take(counts))


@cache
def _takes(goods: Counts) -> tuple[_Take, ...]:
    """What an exchange may take from these market goods, in listing order.

    At most 462 market goods tuples exist.
    """
    takes = sub_counts(goods)
    return tuple(_take(t) for size in range(C.MIN_EXCHANGE, len(takes)) for t in takes[size])


# About 45,000 blocks turn up over 2,000 random matches (a few hundred bytes
# each); past the bound they are all dropped and built again as needed.
_MAX_BLOCKS = 1 << 16
_block_count = 0


def _exchange_block(take: _Take, hand: Counts, key: int) -> Block:
    """Build and keep the block ``key`` of ``take``: the exchanges giving from ``hand``.

    Only the kinds not taken may be given (a good being taken is never given
    back); the exchanges giving fewest camels come first.
    """
    global _block_count
    size = take.size
    # Not capped like the key: the sub-multisets of the hand are cached by hand
    # (few), and an exchange's gives are the same from the capped hand or not.
    gives = sub_counts(tuple(map(mul, hand, take.kept)))
    found: list[Exchange] = []
    prefixes = []
    for camel_count in range(size + 1):
        rest = size - camel_count
        if rest < len(gives):
            # map runs in C: no Python frame per exchange already made.
            found += map(_exchange, repeat(take.counts), gives[rest], repeat(camel_count))
        prefixes.append(tuple(found))
    if _block_count >= _MAX_BLOCKS:
        for each in _TAKES.values():
            each.blocks.clear()
        _block_count = 0
    _block_count += 1
    block = take.blocks[key] = tuple(prefixes)
    return block


def exchanges(goods: Counts, hand: Counts, camels: int) -> list[Exchange]:
    """Every legal exchange with these market goods, this hand and ``camels`` givable camels.

    ``camels`` is already capped by the hand limit: each camel given adds one
    card to the hand.  Listed by the number of goods taken, then what is
    taken, then the camels given, then what is given.
    """
    found: list[Action] = []
    _list_exchanges(found, goods, hand, camels)
    return cast(list[Exchange], found)


def _list_exchanges(actions: list[Action], goods: Counts, hand: Counts, camels: int) -> None:
    """Add ``exchanges(goods, hand, camels)`` to ``actions``."""
    capped = _capped(hand)
    for take in _takes(goods):
        size = take.size
        key = capped[size] & take.mask
        block = take.blocks.get(key)
        if block is None:
            block = _exchange_block(take, hand, key)
        actions += block[camels if camels < size else size]


def _add_for(rows: tuple[Counts, ...], seat: int, index: int, n: int) -> tuple[Counts, ...]:
    """``rows`` (one count tuple per seat) with ``n`` added to ``seat``'s count at ``index``."""
    return _paired(rows, seat, _add_at(rows[seat], index, n))


def _seen(known: Counts, take: Counts, give: Counts) -> Counts:
    """What the others know of a hand once it openly takes ``take`` and gives up ``give``.

    Giving up goods tells the others nothing about the rest of that kind, so
    only what was known to be there is struck off.
    """
    if known == NO_GOODS:  # the commonest case by far: nothing was known of this hand
        return take
    return tuple(map(add, map(max, map(sub, known, give), NO_GOODS), take))


def deal_round(
    players: tuple[str, ...],
    rng: Rng,
    seals: tuple[int, ...],
    rounds: tuple[RoundResult, ...],
    starter: int,
) -> JaipurState:
    """A fresh round: shuffled deck and bonus piles, three camels and two cards in the market."""
    rng, deck = rng.shuffled(ROUND_DECK)
    bonus_piles = []
    for values in C.BONUS_TOKENS:
        rng, pile = rng.shuffled(values)
        bonus_piles.append(pile)
    goods = C.MARKET_SIZE - C.MARKET_CAMELS  # the market's other places take the deck's top
    market = _add_at(counts_of(deck[:goods]), CAMEL, C.MARKET_CAMELS)
    deck = deck[goods:]
    hands, herds = [], []
    for _ in players:
        dealt = counts_of(deck[: C.HAND_SIZE])
        deck = deck[C.HAND_SIZE :]
        hands.append(dealt[:CAMEL])
        herds.append(dealt[CAMEL])  # dealt camels go straight to the herd
    empty = tuple(() for _ in GOODS)
    return JaipurState(
        players=players,
        rng=rng,
        seals=seals,
        rounds=rounds,
        starter=starter,
        current=starter,
        over=False,
        deck=deck,
        market=market,
        hands=tuple(hands),
        herds=tuple(herds),
        discard=NO_GOODS,
        goods_piles=C.GOODS_TOKENS,
        bonus_piles=tuple(bonus_piles),
        goods_won=(empty,) * len(players),
        bonus_won=(((),) * len(C.BONUS_TOKENS),) * len(players),
        known=(NO_GOODS,) * len(players),  # a dealt hand is secret
    )


# -- what is legal: one predicate per kind of decision -----------------------------


class Why(Enum):
    """Why a decision may not be taken: the rules' answer (:mod:`.words` says it)."""

    CAMEL_ALONE = auto()  # a camel is never taken or sold like a good
    NOT_IN_MARKET = auto()  # no card of that good lies in the market
    HAND_FULL = auto()  # the hand already holds the most cards allowed
    NO_CAMELS = auto()  # no camel lies in the market
    MALFORMED = auto()  # an exchange whose counts are not counts of goods
    TOO_FEW = auto()  # an exchange taking fewer goods than an exchange takes
    UNEVEN = auto()  # an exchange giving back another number of cards than it takes
    SAME_GOOD = auto()  # an exchange giving back a good it takes
    MARKET_SHORT = auto()  # more of a good taken than the market holds
    HAND_SHORT = auto()  # more of a good given or sold than the hand holds
    HERD_SHORT = auto()  # more camels given than the herd holds
    OVER_LIMIT = auto()  # an exchange leaving the hand over its limit
    NO_SALE = auto()  # a sale of no card at all
    PRECIOUS_FEW = auto()  # too few cards of a precious good sold at once
    UNKNOWN = auto()  # not a Jaipur decision at all


def room(hand: Counts) -> int:
    """How many more cards ``hand`` may hold: the one place the hand limit is read."""
    return C.HAND_LIMIT - sum(hand)


def takings(state: JaipurState) -> tuple[Why | None, ...]:
    """For each good (GOODS order): why one card of it may not be taken now."""
    return _takings(state.market[:CAMEL], room(state.hands[state.current]) > 0)


@cache
def _takings(goods: Counts, has_room: bool) -> tuple[Why | None, ...]:
    """:func:`takings` for these market goods (at most 462 exist), the hand full or not."""
    return tuple(Why.NOT_IN_MARKET if not n else None if has_room else Why.HAND_FULL for n in goods)


@cache
def _goods_taken(goods: Counts, has_room: bool) -> tuple[TakeGood, ...]:
    """The decisions taking one good that :func:`takings` allows, in GOODS order."""
    return tuple(TAKE_GOOD[i] for i, why in enumerate(_takings(goods, has_room)) if why is None)


def taking_camels(state: JaipurState) -> Why | None:
    """Why the market's camels may not be taken now."""
    return None if state.market[CAMEL] else Why.NO_CAMELS


def exchange_fault(state: JaipurState, action: Exchange) -> tuple[Why, Card | None] | None:
    """What is wrong with ``action``, and the good it concerns if any (``None``: nothing)."""
    take, give, camels = action.take, action.give, action.camels
    counts = (*take, *give, camels)
    if len(take) != N_GOODS or len(give) != N_GOODS or min(counts) < 0:
        return Why.MALFORMED, None
    taken, given = sum(take), sum(give) + camels
    if taken < C.MIN_EXCHANGE:
        return Why.TOO_FEW, None
    if taken != given:
        return Why.UNEVEN, None
    hand, market = state.hands[state.current], state.market
    for good, t, g, in_market, held in zip(GOODS, take, give, market, hand, strict=False):
        if t and g:
            return Why.SAME_GOOD, good
        if t > in_market:
            return Why.MARKET_SHORT, good
        if g > held:
            return Why.HAND_SHORT, good
    if camels > state.herds[state.current]:
        return Why.HERD_SHORT, Card.CAMEL
    if camels > room(hand):  # each camel given makes one more card in the hand
        return Why.OVER_LIMIT, None
    return None


def exchanging(state: JaipurState, action: Exchange) -> Why | None:
    """Why ``action`` may not be exchanged now (:func:`exchange_fault` says where)."""
    fault = exchange_fault(state, action)
    return None if fault is None else fault[0]


def givable_camels(state: JaipurState) -> int:
    """How many camels an exchange may give now: the herd, as far as the hand has room."""
    seat = state.current
    return _givable(state.herds[seat], room(state.hands[seat]))


def _givable(herd: int, space: int) -> int:
    """:func:`givable_camels` from the herd and the hand's room, already counted."""
    return max(0, min(herd, space))


def selling(hand: Counts, good: Card, count: int) -> Why | None:
    """Why ``count`` cards of ``good`` may not be sold from ``hand``."""
    if good is Card.CAMEL:
        return Why.CAMEL_ALONE
    if count < 1:
        return Why.NO_SALE
    if count > hand[good.index]:
        return Why.HAND_SHORT
    if good in C.PRECIOUS and count < C.PRECIOUS_MIN_SALE:
        return Why.PRECIOUS_FEW
    return None


@cache
def _sales(hand: Counts) -> tuple[Sell, ...]:
    """Every sale :func:`selling` allows from ``hand``, good by good, fewest cards first.

    At most 1716 hands exist.
    """
    return tuple(
        SELL[i][n]
        for i, good in enumerate(GOODS)
        for n in range(hand[i] + 1)
        if selling(hand, good, n) is None
    )


def refusal(state: JaipurState, action: object) -> Why | None:
    """Why ``action`` may not be taken in ``state`` (a match not over), or ``None`` if it may:
    the answer of the predicate for its kind."""
    if isinstance(action, TakeGood):
        if action.good is Card.CAMEL:
            return Why.CAMEL_ALONE
        return takings(state)[action.good.index]
    if isinstance(action, TakeCamels):
        return taking_camels(state)
    if isinstance(action, Exchange):
        return exchanging(state, action)
    if isinstance(action, Sell):
        return selling(state.hands[state.current], action.good, action.count)
    return Why.UNKNOWN


def takings_and_sales(state: JaipurState) -> list[TakeGood | Sell]:
    """The legal decisions that take one good or sell, in ``legal_actions``' order.

    All of them but the camels and the exchanges, which cost the most to list:
    the bots' playouts mostly choose among these.
    """
    if state.over:
        return []
    hand = state.hands[state.current]
    found: list[TakeGood | Sell] = [*_goods_taken(state.market[:CAMEL], room(hand) > 0)]
    found += _sales(hand)
    return found


def legal_decisions(state: JaipurState) -> list[Action]:
    """Take one good, take the camels, every exchange, every sale (in that order)."""
    if state.over:
        return []
    seat = state.current
    hand, market = state.hands[seat], state.market
    goods = market[:CAMEL]
    space = room(hand)  # counted once for the takings and the exchanges
    actions: list[Action] = [*_goods_taken(goods, space > 0)]
    if taking_camels(state) is None:
        actions.append(TAKE_CAMELS)
    _list_exchanges(actions, goods, hand, _givable(state.herds[seat], space))
    actions += _sales(hand)
    return actions


# -- what a decision does -------------------------------------------------------------

# The sentences a finished round is kept with: who took the camel token and the seal, and
# why (the words are :mod:`.words`'; the rules only keep them).
RoundStory = Callable[[tuple[str, ...], tuple[RoundScore, ...], int, str, "int | None"], str]


def apply_decision(state: JaipurState, action: Action, story: RoundStory) -> JaipurState:
    """The state after ``action``, a decision already known to be legal; ``story`` tells
    a round that it ends."""
    seat = state.current
    if type(action) is Exchange:  # the commonest decision of all, by far, so asked first
        return _exchanged(state, action)
    if isinstance(action, TakeGood):
        i = CARD_INDEX[action.good]
        return _refill(
            state,
            1,
            _add_at(state.market, i, -1),
            story,
            hands=_add_for(state.hands, seat, i, 1),
            known=_add_for(state.known, seat, i, 1),  # everyone saw it go into the hand
        )
    if isinstance(action, TakeCamels):
        n = state.market[CAMEL]
        herds = _paired(state.herds, seat, state.herds[seat] + n)
        return _refill(state, n, state.market[:CAMEL] + (0,), story, herds=herds)
    assert isinstance(action, Sell)
    return _sold(state, CARD_INDEX[action.good], action.count, story)


def _exchanged(state: JaipurState, action: Exchange) -> JaipurState:
    """The state after the exchange ``action`` (which refills nothing and ends no round)."""
    seat = state.current
    to_hand, to_market = _moves(action)
    hands, herds, known = state.hands, state.herds, state.known
    return replace(
        state,
        current=1 - seat,
        turn=state.turn + 1,
        market=tuple(map(add, state.market, to_market)),
        hands=_paired(hands, seat, tuple(map(add, hands[seat], to_hand))),
        herds=_paired(herds, seat, herds[seat] - action.camels),
        known=_paired(known, seat, _seen(known[seat], action.take, action.give)),
    )


@cache
def _moves(action: Exchange) -> tuple[Counts, Counts]:
    """What ``action`` adds to the hand's goods and to the market (camels last), kind by
    kind: worked out once per exchange (25,456 exist), as the hash of one is kept."""
    take, give = action.take, action.give
    return tuple(map(sub, take, give)), (*map(sub, give, take), action.camels)


def _paired(pair: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """``pair`` (one item per seat of the two) with ``seat``'s item replaced by ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _refill(
    state: JaipurState, n: int, market: Counts, story: RoundStory, **changes: Any
) -> JaipurState:
    """Refill ``n`` market places from the deck; the round ends if the deck falls short."""
    deck = state.deck
    for card in deck[:n]:
        market = _add_at(market, CARD_INDEX[card], 1)
    ended = "the market could not be refilled" if len(deck) < n else None
    return _finish(state, ended, story, market=market, deck=deck[n:], **changes)


def _sold(state: JaipurState, i: int, n: int, story: RoundStory) -> JaipurState:
    """The state once ``n`` cards of the good at ``i`` are sold for tokens."""
    seat = state.current
    pile = state.goods_piles[i]
    goods_piles = replace_at(state.goods_piles, i, pile[n:])
    mine = state.goods_won[seat]
    goods_won = _paired(state.goods_won, seat, replace_at(mine, i, mine[i] + pile[:n]))
    bonus_piles, bonus_won = state.bonus_piles, state.bonus_won
    k = bonus_pile(n)
    if k is not None and bonus_piles[k]:  # the bonus only while its pile lasts
        bonus = bonus_piles[k]
        bonus_piles = replace_at(bonus_piles, k, bonus[1:])
        held = bonus_won[seat]
        bonus_won = _paired(bonus_won, seat, replace_at(held, k, held[k] + bonus[:1]))
    ended = None
    if goods_piles.count(()) >= C.EMPTY_PILES_TO_END:
        ended = f"{spelled(C.EMPTY_PILES_TO_END)} goods have run out of tokens"
    known = state.known[seat]
    return _finish(
        state,
        ended,
        story,
        hands=_add_for(state.hands, seat, i, -n),
        discard=_add_at(state.discard, i, n),
        # Only what was known to be there is struck off: selling some of a
        # kind tells the others nothing about the rest of it.
        known=_paired(state.known, seat, _add_at(known, i, -min(n, known[i]))),
        goods_piles=goods_piles,
        goods_won=goods_won,
        bonus_piles=bonus_piles,
        bonus_won=bonus_won,
    )


def bonus_pile(count: int) -> int | None:
    """The bonus pile a sale of ``count`` cards draws from (by size), or ``None`` for none."""
    if count < C.BONUS_SIZES[0]:
        return None
    return min(count, C.BONUS_SIZES[-1]) - C.BONUS_SIZES[0]


def _finish(
    state: JaipurState, ended_by: str | None, story: RoundStory, **changes: Any
) -> JaipurState:
    """Pass the turn, or end the round (and perhaps the match) if ``ended_by`` says why."""
    if ended_by is None:
        return replace(state, current=1 - state.current, turn=state.turn + 1, **changes)
    state = replace(state, **changes)
    scores = round_scores(state)
    number = len(state.rounds) + 1
    winner = seal_winner(scores)
    reason = story(state.players, scores, number, ended_by, winner)
    rounds = state.rounds + (
        RoundResult(
            number=number,
            starter=state.starter,
            scores=scores,
            winner=winner,
            ended_by=ended_by,
            reason=reason,
        ),
    )
    seals = state.seals if winner is None else _add_at(state.seals, winner, 1)
    if winner is not None and seals[winner] >= C.SEALS_TO_WIN:
        return replace(state, seals=seals, rounds=rounds, over=True, turn=state.turn + 1)
    if winner is not None:
        starter = 1 - winner  # the round's loser starts the next
    else:
        starter = 1 - state.starter if C.TIED_ROUND_ALTERNATES_START else state.starter
    return deal_round(state.players, state.rng, seals, rounds, starter)
