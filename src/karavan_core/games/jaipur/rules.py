"""Jaipur's rules: a two-player trading duel, played as a match of rounds.

Each turn is one decision: take one good, take all the camels, exchange, or
sell.  Counts per kind stand in for the cards themselves (the market and the
hands are unordered), which keeps the states small and lets every exchange be
enumerated quickly: the sub-multisets of any small set of counts are computed
once and cached.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import product, repeat
from operator import add, mul, sub
from typing import Any, cast

from karavan_core.engine import Action, Game, Result
from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur.components import CAMEL, CARD_INDEX, CARDS, GOODS, NOUNS, Card
from karavan_core.games.jaipur.state import (
    ACTION_TYPES,
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
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.text import plural
from karavan_core.values import copied, replace, replace_at

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


@cache
def _takings(goods: Counts) -> tuple[TakeGood, ...]:
    """Taking one good, for each good in the market (at most 462 market goods exist)."""
    return tuple(TAKE_GOOD[i] for i in range(N_GOODS) if goods[i])


@cache
def _sales(hand: Counts) -> tuple[Sell, ...]:
    """Every sale ``hand`` allows, good by good, fewest cards first (at most 1716 hands exist)."""
    return tuple(sale for i, n in enumerate(hand) for sale in SELL[i][MIN_SALE[i] : n + 1])


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


def describe_cards(goods: Counts, camels: int = 0) -> str:
    """Counts as words, camels first: "2 camels + 1 leather"."""
    parts = [Card.CAMEL.amount(camels)] if camels else []
    parts += [good.amount(n) for good, n in zip(GOODS, goods, strict=True) if n]
    return " + ".join(parts) if parts else "nothing"


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


# Listing the exchanges was most of the time of a Jaipur decision, random or
# searched: one exchange object looked up per exchange listed.  Now they are
# listed in blocks: all those with the same goods taken and the same cards
# givable (the hand less the kinds taken) form one block, built once and
# kept with its take.  A block is a pure function of its take and key, so
# keeping it cannot change what is listed.  Keys are integers, the givable
# counts packed three bits a kind (a hand holds at most seven cards), so
# finding a block is one bitwise AND and one lookup in a small dict.
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
    return replace_at(rows, seat, _add_at(rows[seat], index, n))


def _seen(known: Counts, take: Counts, give: Counts) -> Counts:
    """What the others know of a hand once it openly takes ``take`` and gives up ``give``.

    Giving up goods tells the others nothing about the rest of that kind, so
    only what was known to be there is struck off.
    """
    if known == NO_GOODS:  # the commonest case by far: nothing was known of this hand
        return take
    return tuple(map(add, map(max, map(sub, known, give), NO_GOODS), take))


def _deal(
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
    market = _add_at(counts_of(deck[:2]), CAMEL, C.MARKET_CAMELS)
    deck = deck[2:]
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


def _settle(
    players: tuple[str, ...], scores: tuple[RoundScore, ...], number: int, ended_by: str
) -> tuple[int | None, str]:
    """Who takes the round's seal, and the sentences saying why."""
    a, b = players
    sa, sb = scores
    if sa.camel_token:
        camel = f"{a}'s herd of {sa.herd} beats {b}'s {sb.herd}: {a} takes the camel token."
    elif sb.camel_token:
        camel = f"{b}'s herd of {sb.herd} beats {a}'s {sa.herd}: {b} takes the camel token."
    else:
        camel = f"The herds tie at {plural(sa.herd, 'camel')}: nobody takes the camel token."
    keys = [(s.total, len(s.bonus_tokens), len(s.goods_tokens)) for s in scores]
    winner = None if keys[0] == keys[1] else (0 if keys[0] > keys[1] else 1)
    if winner is None:
        seal = (
            f"Both have {plural(sa.total, 'point')}, {plural(len(sa.bonus_tokens), 'bonus token')} "
            f"and {plural(len(sa.goods_tokens), 'goods token')}: a complete tie, so nobody takes "
            "a seal."
        )
    else:
        name = players[winner]
        win, lose = scores[winner], scores[1 - winner]
        if win.total != lose.total:
            seal = f"{name} takes the seal with {plural(win.total, 'point')} to {lose.total}."
        elif len(win.bonus_tokens) != len(lose.bonus_tokens):
            seal = (
                f"Both have {plural(win.total, 'point')}; "
                f"{name} takes the seal with more bonus tokens "
                f"({len(win.bonus_tokens)} to {len(lose.bonus_tokens)})."
            )
        else:
            seal = (
                f"Both have {plural(win.total, 'point')} and "
                f"{plural(len(win.bonus_tokens), 'bonus token')}; "
                f"{name} takes the seal with more goods tokens "
                f"({len(win.goods_tokens)} to {len(lose.goods_tokens)})."
            )
    return winner, f"Round {number} ends because {ended_by}. {camel} {seal}"


def takings_and_sales(state: JaipurState) -> list[TakeGood | Sell]:
    """The legal decisions that take one good or sell, in ``legal_actions``' order.

    All of them but the camels and the exchanges, which cost the most to list:
    the bots' playouts mostly choose among these.
    """
    if state.over:
        return []
    hand = state.hands[state.current]
    found: list[TakeGood | Sell] = []
    if sum(hand) < C.HAND_LIMIT:
        found += _takings(state.market[:CAMEL])
    found += _sales(hand)
    return found


# -- the game ---------------------------------------------------------------------


class Jaipur(Game[JaipurState, JaipurObservation, Action]):
    """Jaipur for two players: first to two seals wins the match."""

    name = "jaipur"
    title = "Jaipur"
    min_players = C.PLAYERS
    max_players = C.PLAYERS
    action_types = ACTION_TYPES
    score_label = "Seals"
    chart_label = "rupees"

    # -- setup --------------------------------------------------------------------
    def deal(self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]) -> JaipurState:
        """Deal the first round of a new match."""
        rng, first = self.first_player(options, C.PLAYERS, rng)
        return _deal(players, rng, (0,) * C.PLAYERS, (), first)

    # -- decisions ------------------------------------------------------------------
    def legal_actions(self, state: JaipurState) -> list[Action]:
        """Take one good, take the camels, every exchange, every sale (in that order)."""
        if state.over:
            return []
        seat = state.current
        hand, market = state.hands[seat], state.market
        goods = market[:CAMEL]
        size = sum(hand)
        actions: list[Action] = [*_takings(goods)] if size < C.HAND_LIMIT else []
        if market[CAMEL]:
            actions.append(TAKE_CAMELS)
        givable = max(0, min(state.herds[seat], C.HAND_LIMIT - size))
        _list_exchanges(actions, goods, hand, givable)
        actions += _sales(hand)
        return actions

    def why_illegal(self, state: JaipurState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``.

        Checks the rules directly (never by listing every legal action).
        """
        if state.over:
            return "The match is over."
        seat = state.current
        hand, market = state.hands[seat], state.market
        if isinstance(action, TakeGood):
            return self._why_take(hand, market, action.good)
        if isinstance(action, TakeCamels):
            return None if market[CAMEL] else "There are no camels in the market to take."
        if isinstance(action, Exchange):
            return self._why_exchange(hand, market, state.herds[seat], action)
        if isinstance(action, Sell):
            return self._why_sell(hand, action)
        return "That is not a Jaipur move."

    @staticmethod
    def _why_take(hand: Counts, market: Counts, good: Card) -> str | None:
        if good is Card.CAMEL:
            return "Camels are never taken one at a time: take all the camels instead."
        if not market[good.index]:
            return f"There is no {good.amount(1)[2:]} in the market."
        if sum(hand) >= C.HAND_LIMIT:
            return (
                f"You already hold {C.HAND_LIMIT} cards, the most allowed, "
                "so you cannot take another good."
            )
        return None

    @staticmethod
    def _why_exchange(hand: Counts, market: Counts, herd: int, action: Exchange) -> str | None:
        take, give, camels = action.take, action.give, action.camels
        if (
            len(take) != N_GOODS
            or len(give) != N_GOODS
            or min(take) < 0
            or min(give) < 0
            or camels < 0
        ):
            return "That exchange is not well formed."
        taken, given = sum(take), sum(give) + camels
        if taken < C.MIN_EXCHANGE:
            return (
                f"An exchange takes at least {C.MIN_EXCHANGE} goods from the market; "
                "to take a single good, take one good instead."
            )
        if taken != given:
            return (
                f"An exchange gives back exactly as many cards as it takes "
                f"(this one takes {taken} and gives {given})."
            )
        for good, t, g, in_market, held in zip(GOODS, take, give, market, hand, strict=False):
            if t and g:
                return f"You cannot give back {good.value} while taking {good.value}."
            if t > in_market:
                return f"The market holds only {good.amount(in_market)}."
            if g > held:
                return f"You hold only {good.amount(held)}."
        if camels > herd:
            return f"Your herd has only {Card.CAMEL.amount(herd)}."
        if sum(hand) + camels > C.HAND_LIMIT:
            return (
                f"After this exchange you would hold {sum(hand) + camels} cards; "
                f"the limit is {C.HAND_LIMIT}."
            )
        return None

    @staticmethod
    def _why_sell(hand: Counts, action: Sell) -> str | None:
        good, count = action.good, action.count
        if good is Card.CAMEL:
            return "Camels can never be sold."
        if count < 1:
            return "A sale sells at least one card."
        if count > hand[good.index]:
            return f"You hold only {good.amount(hand[good.index])}."
        if good in C.PRECIOUS and count < C.PRECIOUS_MIN_SALE:
            return (
                f"{good.value.capitalize()} can only be sold "
                f"{C.PRECIOUS_MIN_SALE} or more at a time."
            )
        return None

    def prompt(self, observation: JaipurObservation) -> str:
        """What the player to move must decide now."""
        obs = observation
        if obs.over:
            return "The match is over."
        name = obs.players[obs.current]
        return f"{name}: take a good, take the camels, exchange or sell"

    def disclose(self, state: JaipurState) -> tuple[tuple[str, str], ...]:
        """Every hand, the deck in order and the bonus tokens left, in words."""
        rows = [
            (f"{name}'s hand", describe_cards(hand))
            for name, hand in zip(state.players, state.hands, strict=True)
        ]
        deck = ", ".join(NOUNS[card][0] for card in state.deck)  # one card each: "diamond"
        rows.append(("Deck, top first", deck or "empty"))
        for size, pile in zip(("3", "4", "5+"), state.bonus_piles, strict=True):
            rows.append(
                (f"{size}-card bonus tokens, top first", " ".join(map(str, pile)) or "none")
            )
        for name, won in zip(state.players, state.bonus_won, strict=True):
            values = [value for pile in won for value in pile]
            total = sum(values)
            rows.append(
                (
                    f"{name}'s bonus tokens",
                    f"{' + '.join(map(str, values))} = {total}" if values else "none",
                )
            )
        return tuple(rows)

    # -- applying ---------------------------------------------------------------------
    def _apply(self, state: JaipurState, action: Action) -> JaipurState:
        seat = state.current
        if isinstance(action, TakeGood):
            i = CARD_INDEX[action.good]
            return self._refill(
                state,
                1,
                _add_at(state.market, i, -1),
                hands=_add_for(state.hands, seat, i, 1),
                known=_add_for(state.known, seat, i, 1),  # everyone saw it go into the hand
            )
        if isinstance(action, TakeCamels):
            n = state.market[CAMEL]
            herds = replace_at(state.herds, seat, state.herds[seat] + n)
            return self._refill(state, n, state.market[:CAMEL] + (0,), herds=herds)
        if isinstance(action, Exchange):
            take, give, camels = action.take, action.give, action.camels
            market = state.market
            # Kind by kind with map, in C: the market has camels last, which take lacks.
            hand = tuple(map(sub, map(add, state.hands[seat], take), give))
            return self._finish(
                state,
                None,
                market=(*map(add, map(sub, market, take), give), market[CAMEL] + camels),
                hands=replace_at(state.hands, seat, hand),
                herds=replace_at(state.herds, seat, state.herds[seat] - camels),
                known=replace_at(state.known, seat, _seen(state.known[seat], take, give)),
            )
        assert isinstance(action, Sell)
        return self._sell(state, CARD_INDEX[action.good], action.count)

    def _refill(self, state: JaipurState, n: int, market: Counts, **changes: Any) -> JaipurState:
        """Refill ``n`` market places from the deck; the round ends if the deck falls short."""
        deck = state.deck
        for card in deck[:n]:
            market = _add_at(market, CARD_INDEX[card], 1)
        ended = "the market could not be refilled" if len(deck) < n else None
        return self._finish(state, ended, market=market, deck=deck[n:], **changes)

    def _sell(self, state: JaipurState, i: int, n: int) -> JaipurState:
        seat = state.current
        pile = state.goods_piles[i]
        goods_piles = replace_at(state.goods_piles, i, pile[n:])
        mine = state.goods_won[seat]
        goods_won = replace_at(state.goods_won, seat, replace_at(mine, i, mine[i] + pile[:n]))
        bonus_piles, bonus_won = state.bonus_piles, state.bonus_won
        if n >= C.BONUS_SIZES[0]:
            k = min(n, C.BONUS_SIZES[-1]) - C.BONUS_SIZES[0]
            bonus = bonus_piles[k]
            if bonus:  # the bonus only while its pile lasts
                bonus_piles = replace_at(bonus_piles, k, bonus[1:])
                held = bonus_won[seat]
                bonus_won = replace_at(bonus_won, seat, replace_at(held, k, held[k] + bonus[:1]))
        empty = goods_piles.count(())
        ended = "three goods have run out of tokens" if empty >= C.EMPTY_PILES_TO_END else None
        known = state.known[seat]
        return self._finish(
            state,
            ended,
            hands=_add_for(state.hands, seat, i, -n),
            discard=_add_at(state.discard, i, n),
            # Only what was known to be there is struck off: selling some of a
            # kind tells the others nothing about the rest of it.
            known=replace_at(state.known, seat, _add_at(known, i, -min(n, known[i]))),
            goods_piles=goods_piles,
            goods_won=goods_won,
            bonus_piles=bonus_piles,
            bonus_won=bonus_won,
        )

    def _finish(self, state: JaipurState, ended_by: str | None, **changes: Any) -> JaipurState:
        """Pass the turn, or end the round (and perhaps the match) if ``ended_by`` says why."""
        if ended_by is None:
            return replace(state, current=1 - state.current, turn=state.turn + 1, **changes)
        state = replace(state, **changes)
        scores = self.round_scores(state)
        number = len(state.rounds) + 1
        winner, reason = _settle(state.players, scores, number, ended_by)
        rounds = state.rounds + (
            RoundResult(number, state.starter, scores, winner, ended_by, reason),
        )
        seals = state.seals if winner is None else _add_at(state.seals, winner, 1)
        if winner is not None and seals[winner] >= C.SEALS_TO_WIN:
            return replace(state, seals=seals, rounds=rounds, over=True, turn=state.turn + 1)
        if winner is not None:
            starter = 1 - winner  # the round's loser starts the next
        else:
            starter = 1 - state.starter if C.TIED_ROUND_ALTERNATES_START else state.starter
        return _deal(state.players, state.rng, seals, rounds, starter)

    # -- scoring ------------------------------------------------------------------------
    def round_scores(self, state: JaipurState) -> tuple[RoundScore, ...]:
        """Each player's takings if the round in progress ended now (camel token included)."""
        herds = state.herds
        most = max(herds)
        camel_owner = herds.index(most) if herds.count(most) == 1 else None
        return tuple(
            RoundScore(
                goods_tokens=tuple(v for values in state.goods_won[seat] for v in values),
                bonus_tokens=tuple(v for values in state.bonus_won[seat] for v in values),
                herd=herds[seat],
                camel_token=C.CAMEL_TOKEN if seat == camel_owner else 0,
            )
            for seat in range(len(state.players))
        )

    def chart_scores(self, state: JaipurState) -> tuple[int, ...]:
        """The rupees of the round in play: the goods and bonus tokens won in it so far, or,
        where a round has just ended, its total (the camel token too)."""
        if self.ends_round(state):
            return tuple(score.total for score in state.rounds[-1].scores)
        return tuple(
            sum(map(sum, goods)) + sum(map(sum, bonus))
            for goods, bonus in zip(state.goods_won, state.bonus_won, strict=True)
        )

    def ends_round(self, state: JaipurState) -> bool:
        """Whether ``state`` follows the end of a round: the next one dealt, nothing played
        in it yet, or the match over."""
        return bool(state.rounds) and (state.over or state.turn == 0)

    def result(self, state: JaipurState) -> Result:
        """Seals as scores; the breakdown per round; notes on every seal.

        Mid-match it shows the round in progress too, without the values of
        anyone's bonus tokens (those stay hidden until the round ends).
        """
        seals = state.seals
        best = max(seals)
        winners = tuple(seat for seat, n in enumerate(seals) if n == best)
        breakdown = []
        for seat in range(len(state.players)):
            lines: list[tuple[str, str]] = [("Seals", str(seals[seat]))]
            for past in state.rounds:
                score = past.scores[seat]
                label = f"Round {past.number}"
                seal = ", seal" if past.winner == seat else ""
                lines += [
                    (
                        f"{label} goods tokens",
                        f"{score.goods_points} ({plural(len(score.goods_tokens), 'token')})",
                    ),
                    (
                        f"{label} bonus tokens",
                        f"{score.bonus_points} ({plural(len(score.bonus_tokens), 'token')})",
                    ),
                    (f"{label} camel token", f"{score.camel_token} (herd of {score.herd})"),
                    (f"{label} total", f"{score.total}{seal}"),
                ]
            if not state.over:
                label = f"Round {state.round_number}"
                goods = [v for values in state.goods_won[seat] for v in values]
                bonus = sum(len(values) for values in state.bonus_won[seat])
                lines += [
                    (
                        f"{label} goods tokens so far",
                        f"{sum(goods)} ({plural(len(goods), 'token')})",
                    ),
                    (f"{label} bonus tokens so far", f"{plural(bonus, 'token')}, values hidden"),
                    (f"{label} herd", Card.CAMEL.amount(state.herds[seat])),
                ]
            breakdown.append(tuple(lines))
        notes = [past.reason for past in state.rounds]
        names = state.players
        if state.over:
            w = winners[0]
            notes.append(f"{names[w]} wins the match with {seals[w]} seals to {seals[1 - w]}.")
        elif len(winners) == 1:
            w = winners[0]
            notes.append(
                f"{names[w]} leads by {seals[w]} seals to {seals[1 - w]}; "
                f"round {state.round_number} is in progress."
            )
        else:
            notes.append(
                f"The seals are level at {best} each; round {state.round_number} is in progress."
            )
        return Result(seals, winners, tuple(breakdown), tuple(notes))

    # -- information ----------------------------------------------------------------------
    def observe(self, state: JaipurState, player: int | None) -> JaipurObservation:
        """The public table plus ``player``'s own hand and bonus token values.

        The public view (``player=None``) has neither.
        """
        return copied(
            JaipurObservation,
            state,
            player=player,
            deck_size=len(state.deck),
            hand=None if player is None else state.hands[player],
            hand_sizes=tuple(sum(hand) for hand in state.hands),
            bonus_pile_sizes=tuple(len(pile) for pile in state.bonus_piles),
            bonus_won=None if player is None else state.bonus_won[player],
            bonus_counts=tuple(tuple(len(v) for v in held) for held in state.bonus_won),
        )

    def reveals(self, observation: JaipurObservation, action: Action) -> bool:
        """Taking from the market (it refills from the deck), a sale that wins a bonus token,
        and whatever ends the round (the next is dealt; the bonus tokens are shown).

        An exchange refills nothing and never ends a round.
        """
        if isinstance(action, TakeGood | TakeCamels):
            return True
        if not isinstance(action, Sell):
            return False
        if action.count >= C.BONUS_SIZES[0]:
            pile = min(action.count, C.BONUS_SIZES[-1]) - C.BONUS_SIZES[0]
            if observation.bonus_pile_sizes[pile]:
                return True
        # Whether the sale ends the round shows on the goods piles: any deal tells.
        dealt = self.sample_state(observation, random.Random(0))
        if action not in self.legal_actions(dealt):
            return False  # refused anyway, for reasons the player can see
        after = self._apply(dealt, action)
        return after.over or len(after.rounds) > len(dealt.rounds)

    def sample_state(self, observation: JaipurObservation, rng: random.Random) -> JaipurState:
        """Deal the unseen cards and bonus tokens at random, consistent with ``observation``."""
        return self.sampler(observation)(rng)

    def sampler(self, observation: JaipurObservation) -> Callable[[random.Random], JaipurState]:
        """``sample_state`` for many deals: the unseen cards are found once, then shuffled."""
        obs = observation
        assert obs.player is not None and obs.hand is not None and obs.bonus_won is not None
        other = 1 - obs.player
        # The goods the rival was seen to take are surely in their hand; the rest is a guess.
        theirs_known = obs.known[other]
        seen = zip(obs.market[:CAMEL], obs.hand, obs.discard, theirs_known, strict=True)
        unseen = tuple(n - sum(s) for n, s in zip(C.CARD_COUNTS[:CAMEL], seen, strict=True))
        unseen_goods = cards_of(unseen)
        size = obs.hand_sizes[other] - sum(theirs_known)
        # Only camels no one holds are in the deck.
        camels = [Card.CAMEL] * (C.CARD_COUNTS[CAMEL] - obs.market[CAMEL] - sum(obs.herds))
        unseen_tokens = []
        for k, values in enumerate(C.BONUS_TOKENS):
            left = list(values)
            for value in obs.bonus_won[k]:
                left.remove(value)
            unseen_tokens.append(left)
        theirs_counts = obs.bonus_counts[other]
        # Every deal is this state with the hidden parts (and the generator) replaced.
        table = copied(
            JaipurState, obs, rng=Rng(0), deck=(), hands=(), bonus_piles=(), bonus_won=()
        )

        def deal(rng: random.Random) -> JaipurState:
            goods = unseen_goods.copy()
            shuffle(rng, goods)
            guessed = counts_of(goods[:size], N_GOODS)
            hands = [obs.hand, obs.hand]
            hands[other] = tuple(map(add, theirs_known, guessed))
            deck = goods[size:] + camels
            shuffle(rng, deck)
            bonus_piles, theirs = [], []
            for tokens, count in zip(unseen_tokens, theirs_counts, strict=True):
                tokens = tokens.copy()
                shuffle(rng, tokens)
                theirs.append(tuple(tokens[:count]))
                bonus_piles.append(tuple(tokens[count:]))
            bonus_won = [obs.bonus_won, obs.bonus_won]
            bonus_won[other] = tuple(theirs)
            return replace(
                table,
                rng=fresh_rng(rng),
                deck=tuple(deck),
                hands=tuple(hands),
                bonus_piles=tuple(bonus_piles),
                bonus_won=tuple(bonus_won),
            )

        return deal

    def unfilled(self, state: JaipurState) -> str | None:
        """A market short of its five cards in a round still being played."""
        if not state.over and sum(state.market) < C.MARKET_SIZE:
            return f"The market holds {sum(state.market)} cards, not {C.MARKET_SIZE}."
        return None

    def inventory(self, state: JaipurState) -> Counter[str]:
        """Every card and token of the round in progress (or the last round, once over)."""
        counts: Counter[str] = Counter()
        cards = list(state.market)
        for goods in (*state.hands, state.discard):
            for i, n in enumerate(goods):
                cards[i] += n
        cards[CAMEL] += sum(state.herds)
        for card in state.deck:
            cards[card.index] += 1
        for card, n in zip(CARDS, cards, strict=True):
            counts[f"card {card.value}"] = n
        for i, good in enumerate(GOODS):
            tokens = state.goods_piles[i] + sum((won[i] for won in state.goods_won), ())
            counts.update(f"goods token {good.value} {v}" for v in tokens)
        for k, size in enumerate(C.BONUS_SIZES):
            tokens = state.bonus_piles[k] + sum((won[k] for won in state.bonus_won), ())
            counts.update(f"bonus token {size}-card {v}" for v in tokens)
        counts["camel token"] = 1
        return counts

    # -- words ----------------------------------------------------------------------------
    def preview(self, observation: JaipurObservation, action: Action) -> str:
        """``action`` before it is taken: the tokens it wins and whether it surely ends the round.

        A bonus token's value, and so who would take the seal, stays unsaid:
        the rival's bonus tokens are hidden until the round ends.
        """
        obs = observation
        text = self._sentence(obs, action)
        refill = 0
        if isinstance(action, TakeGood):
            refill = 1
        elif isinstance(action, TakeCamels):
            refill = obs.market[CAMEL]
        if refill > obs.deck_size:
            text += " The deck cannot refill the market, so the round ends."
        if isinstance(action, Sell) and sale_ends_round(obs, action):
            text += f" {C.EMPTY_PILES_TO_END} goods are then out of tokens, so the round ends."
        return text

    def describe(self, before: JaipurObservation, action: Action, after: JaipurObservation) -> str:
        """``action`` in the log's words, with the round's end once it is public."""
        text = self._sentence(before, action)
        if len(after.rounds) > len(before.rounds):
            text += " " + after.rounds[-1].reason
            if after.over:
                seals = after.seals
                w = 0 if seals[0] > seals[1] else 1
                text += (
                    f" {after.players[w]} wins the match with {seals[w]} seals to {seals[1 - w]}."
                )
        return text

    def _sentence(self, obs: JaipurObservation, action: Action) -> str:
        name = obs.players[obs.current]
        if isinstance(action, TakeGood):
            return f"{name} takes {action.good.amount(1)} from the market."
        if isinstance(action, TakeCamels):
            n = obs.market[CAMEL]
            what = {1: "the only camel", 2: "both camels"}.get(n, f"all {n} camels")
            return f"{name} takes {what} from the market."
        if isinstance(action, Exchange):
            gives = describe_cards(action.give, action.camels)
            return f"{name} exchanges {gives} for {describe_cards(action.take)}."
        assert isinstance(action, Sell)
        return self._describe_sale(obs, action)

    def _describe_sale(self, obs: JaipurObservation, action: Sell) -> str:
        good, n = action.good, action.count
        name = obs.players[obs.current]
        tokens = obs.goods_piles[good.index][:n]
        text = f"{name} sells {good.amount(n)}"
        if not tokens:
            text += f" but gets no token: the {NOUNS[good][0]} tokens have run out"
        else:
            worth = " + ".join(map(str, tokens))
            worth += f" = {sum(tokens)}" if len(tokens) > 1 else ""
            text += f" for {plural(len(tokens), 'token')} worth {worth}"
            if len(tokens) < n:
                text += " (the last of the pile)"
        if n >= C.BONUS_SIZES[0]:
            k = min(n, C.BONUS_SIZES[-1]) - C.BONUS_SIZES[0]
            size = C.BONUS_SIZES[k]
            if obs.bonus_pile_sizes[k]:
                text += f", and a {size}-card bonus token"
            else:
                text += f"; no {size}-card bonus token is left"
        return text + "."


GAME = Jaipur()
