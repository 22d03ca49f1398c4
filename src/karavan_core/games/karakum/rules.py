"""Karakum's rules: gather resources or buy camels to build the strongest caravan."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from operator import floordiv
from typing import Any

from karavan_core.engine import Action, Game, Result
from karavan_core.games.karakum import components as C
from karavan_core.games.karakum.components import GOLD_INDEX, RES_INDEX, RESOURCES, Res
from karavan_core.games.karakum.state import (
    ACTION_TYPES,
    Buy,
    Camel,
    DrawCard,
    Hand,
    Join,
    KarakumObservation,
    KarakumState,
    Pass,
    Pay,
    Step,
    TakeCard,
)
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.text import plural
from karavan_core.values import copied, replace, replace_at

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


def _plus(a: Hand, b: Hand) -> Hand:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _minus(a: Hand, b: Hand) -> Hand:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def price(market: Sequence[Camel | None], slot: int) -> int:
    """Payment units for the camel in ``slot``: its value, plus the tax for the taxed colour."""
    camel = market[slot]
    assert camel is not None
    taxed = market[0] is not None and market[0].color is camel.color
    return camel.value + (C.TAX if taxed else 0)


def _payment_fault(state: KarakumState, cards: Hand) -> str | None:
    """Why ``cards`` does not pay exactly for the camel being bought (``None``: it does)."""
    assert state.slot is not None
    camel = state.market[state.slot]
    assert camel is not None
    hand = state.hands[state.current]
    if len(cards) != len(hand) or any(n < 0 or n > h for n, h in zip(cards, hand, strict=True)):
        return "You do not hold those cards."
    own = camel.color.index
    pairs = 0
    for i in range(len(C.GOODS)):
        if i != own:
            if cards[i] % 2:
                good = RESOURCES[i]
                return (
                    f"{good.good.capitalize()} pays for the {camel} only in pairs (two alike "
                    f"make a unit), and this payment holds {good.counted(cards[i])}."
                )
            pairs += cards[i] // 2
    paid, cost = cards[own] + cards[GOLD_INDEX] + pairs, price(state.market, state.slot)
    if paid == cost:
        return None
    tax = f", {C.TAX} of them tax" if cost > camel.value else ""
    return (
        f"That payment gives {plural(paid, 'unit')}, and the {camel} costs exactly "
        f"{plural(cost, 'unit')}{tax} (one {camel.color.good} or one gold is a unit, and so "
        "are two alike of another good)."
    )


def taxed_color(market: Sequence[Camel | None]) -> Res | None:
    """The colour that pays the tax now (that of the camel next to the deck)."""
    return None if market[0] is None else market[0].color


def units(hand: Hand, color: Res) -> int:
    """The most payment units ``hand`` can give towards a camel of ``color``."""
    return _units_of(hand, RES_INDEX[color], _pairs(hand))


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
    return tuple(mine + gold + pairs - mine // 2 for mine in hand[: len(C.GOODS)])  # _units_of


def _units_of(hand: Hand, own: int, pairs: int) -> int:
    """``units`` for the good at index ``own``, given ``hand``'s ``pairs``."""
    mine = hand[own]
    return mine + hand[GOLD_INDEX] + pairs - mine // 2  # the own good pays one unit a card


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
def _pay_actions(hand: Hand, color: Res, cost: int) -> tuple[Pay, ...]:
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


def describe_cards(cards: Hand) -> str:
    """``(3, 0, 0, 0, 0, 1)`` as "3 jewelry + 1 gold"."""
    parts = [res.counted(n) for res, n in zip(RESOURCES, cards, strict=True) if n]
    return " + ".join(parts) if parts else "nothing"


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
def _join(index: int) -> Join:
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


# -- the game ---------------------------------------------------------------------


class Karakum(Game[KarakumState, KarakumObservation, Action]):
    """Karakum for 2 to 4 players."""

    name = "karakum"
    title = "Karakum"
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    action_types = ACTION_TYPES

    # -- setup --------------------------------------------------------------------
    def deal(self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]) -> KarakumState:
        """Deal a new game: camels removed by player count, market, hands and row."""
        n = len(players)
        rng, camels = rng.shuffled(ALL_CAMELS)
        removed_count = C.CAMELS_REMOVED[n]
        removed, camels = camels[:removed_count], camels[removed_count:]
        market, camel_deck = camels[: C.MARKET_SIZE], camels[C.MARKET_SIZE :]
        rng, deck = rng.shuffled(cards_of(C.RESOURCE_COUNTS))
        hands = tuple(
            hand_from(deck[i * C.STARTING_HAND : (i + 1) * C.STARTING_HAND]) for i in range(n)
        )
        deck = deck[n * C.STARTING_HAND :]
        row, deck = deck[: C.ROW_SIZE], deck[C.ROW_SIZE :]
        rng, first = self.first_player(options, n, rng)
        refills = options.get(C.ROW_RULE_OPTION, True)
        if not isinstance(refills, bool):
            raise ValueError(f"The option {C.ROW_RULE_OPTION} is true or false.")
        return KarakumState(
            players=players,
            rng=rng,
            first_player=first,
            current=first,
            step=Step.CHOOSE,
            camel_deck=camel_deck,
            removed=removed,
            market=market,
            resource_deck=deck,
            row=row,
            discard=NO_CARDS,
            hands=hands,
            caravans=((),) * n,
            lefts=((),) * n,
            payment_refills_row=refills,
        )

    # -- decisions ------------------------------------------------------------------
    def legal_actions(self, state: KarakumState) -> list[Action]:
        """Every decision open to the player to move."""
        step = state.step
        if step is Step.CHOOSE:
            row = state.row
            actions: list[Action] = [TAKE_CARD[i] for i, card in enumerate(row) if card is not None]
            if _can_draw(state):
                actions.append(DRAW)
            market = state.market
            hand = state.hands[state.current]
            pairs = _pairs(hand)
            taxed = taxed_color(market)
            for slot, camel in enumerate(market):
                if camel is None:
                    continue
                cost = camel.value + (C.TAX if camel.color is taxed else 0)  # its price()
                if _units_of(hand, RES_INDEX[camel.color], pairs) >= cost:
                    actions.append(BUY[slot])
            return actions or [PASS]
        if step is Step.SECOND_CARD:
            actions = [
                TAKE_CARD[i]
                for i, card in enumerate(state.row)
                if card is not None and card is not Res.GOLD
            ]
            if _can_draw(state):
                actions.append(DRAW)
            return actions
        if step is Step.PAY:
            assert state.slot is not None
            camel = state.market[state.slot]
            assert camel is not None
            cost = price(state.market, state.slot)
            hand = _usable(state.hands[state.current], camel.color, cost)
            return list(_pay_actions(hand, camel.color, cost))
        if step is Step.JOIN:
            caravan = state.caravans[state.current]
            left = state.lefts[state.current]
            return [_join(i) for i, camel in enumerate(left) if fits(caravan, camel)]
        if step is Step.BONUS:
            actions = [TAKE_CARD[i] for i, card in enumerate(state.row) if card is not None]
            if _can_draw(state):
                actions.append(DRAW)
            return actions
        return []

    def is_legal(self, state: KarakumState, action: object) -> bool:
        """Whether ``action`` is allowed now (cheaper than searching ``legal_actions``)."""
        step = state.step
        if type(action) is TakeCard:
            slot = action.slot
            if step in (Step.PAY, Step.JOIN, Step.OVER) or not 0 <= slot < len(state.row):
                return False
            card = state.row[slot]
            return card is not None and not (step is Step.SECOND_CARD and card is Res.GOLD)
        if type(action) is DrawCard:
            return step in (Step.CHOOSE, Step.SECOND_CARD, Step.BONUS) and _can_draw(state)
        if type(action) is Buy:
            slot = action.slot
            if step is not Step.CHOOSE or not 0 <= slot < len(state.market):
                return False
            camel = state.market[slot]
            hand = state.hands[state.current]
            return camel is not None and units(hand, camel.color) >= price(state.market, slot)
        if type(action) is Pay:
            return step is Step.PAY and self._pays(state, action.cards)
        if type(action) is Join:
            index = action.index
            left = state.lefts[state.current]
            return (
                step is Step.JOIN
                and 0 <= index < len(left)
                and fits(state.caravans[state.current], left[index])
            )
        if type(action) is Pass:
            return step is Step.CHOOSE and not self._can_anything(state)
        return False

    def _pays(self, state: KarakumState, cards: Hand) -> bool:
        """Whether ``cards`` is a valid payment for the camel being bought."""
        return _payment_fault(state, cards) is None

    def why_illegal(self, state: KarakumState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``."""
        step = state.step
        if step is Step.OVER:
            return "The game is over."
        if type(action) not in ACTION_TYPES:
            return "That is not a Karakum move."
        if self.is_legal(state, action):
            return None
        if isinstance(action, TakeCard):
            if step in (Step.PAY, Step.JOIN):
                return f"You cannot take a card now: {self._must(state)}."
            if not 0 <= action.slot < len(state.row) or state.row[action.slot] is None:
                return "There is no face-up card in that place."
            if step is Step.SECOND_CARD:
                return (
                    "A face-up gold can only be taken as your whole gathering, "
                    "not as a second card."
                )
            if step is Step.CHOOSE and not self._can_anything(state):
                return "No move is possible: you must pass."
        if isinstance(action, DrawCard):
            if step in (Step.PAY, Step.JOIN):
                return f"You cannot draw now: {self._must(state)}."
            return "The resource deck and the discard pile are both empty."
        if isinstance(action, Buy):
            if step is not Step.CHOOSE:
                return f"You cannot buy a camel now: {self._must(state)}."
            if not 0 <= action.slot < len(state.market) or state.market[action.slot] is None:
                return "There is no camel in that market place."
            camel = state.market[action.slot]
            assert camel is not None  # the place was just found to hold one
            cost = price(state.market, action.slot)
            return (
                f"You cannot afford the {camel}: it costs {plural(cost, 'unit')} "
                f"of {camel.color.good}."
            )
        if isinstance(action, Pay):
            if step is not Step.PAY:
                return "There is nothing to pay for now."
            return _payment_fault(state, action.cards)
        if isinstance(action, Join):
            if step is not Step.JOIN:
                return "No left-side camel is waiting to join now."
            return "That camel cannot join your caravan: it matches neither colour nor number."
        if isinstance(action, Pass):
            return "You can only pass when no other move is possible."
        return f"That is not possible now: {self._must(state)}."

    def _can_anything(self, state: KarakumState) -> bool:
        return self.legal_actions(state) != [PASS]

    def _must(self, view: KarakumState | KarakumObservation) -> str:
        step = view.step
        if step is Step.PAY:
            assert view.slot is not None
            return f"first choose how to pay for the {view.market[view.slot]}"
        if step is Step.JOIN:
            return "first choose which camel joins your caravan"
        if step is Step.SECOND_CARD:
            return "take your second card"
        if step is Step.BONUS:
            return "take your free resource card"
        return "gather resources or buy a camel"

    def prompt(self, observation: KarakumObservation) -> str:
        """What the player to move must decide now."""
        obs = observation
        if obs.step is Step.OVER:
            return "The game is over."
        name = obs.players[obs.current]
        if obs.step is Step.PAY:
            assert obs.slot is not None
            camel = obs.market[obs.slot]
            cost = price(obs.market, obs.slot)
            return f"{name}: choose how to pay {plural(cost, 'unit')} for the {camel}"
        if obs.step is Step.CHOOSE and obs.player == obs.current and _stuck(obs):
            return f"{name}: no move is possible, pass"
        return f"{name}: {self._must(obs)}"

    def disclose(self, state: KarakumState) -> tuple[tuple[str, str], ...]:
        """Every hand, both decks in order and the camels set aside unseen, in words."""
        rows = [
            (f"{name}'s hand", describe_cards(hand))
            for name, hand in zip(state.players, state.hands, strict=True)
        ]
        resources = ", ".join(res.good for res in state.resource_deck)
        rows.append(("Resource deck, top first", resources or "empty"))
        rows.append(("Camel deck, top first", ", ".join(map(str, state.camel_deck)) or "empty"))
        rows.append(("Set aside unseen", ", ".join(map(str, state.removed)) or "none"))
        return tuple(rows)

    # -- applying ---------------------------------------------------------------------
    def _apply(self, state: KarakumState, action: Action) -> KarakumState:
        step = state.step
        if isinstance(action, TakeCard):
            card = state.row[action.slot]
            assert card is not None
            changes, replacement = _top_card(state)
            changes["row"] = replace_at(state.row, action.slot, replacement)
            first = step is Step.CHOOSE and card is not Res.GOLD
            return self._gathered(state, card, first, changes)
        if isinstance(action, DrawCard):
            changes, drawn = _top_card(state)
            assert drawn is not None
            return self._gathered(state, drawn, step is Step.CHOOSE, changes)
        if isinstance(action, Buy):
            return replace(state, step=Step.PAY, slot=action.slot, passes=0)
        if isinstance(action, Pay):
            return self._pay(state, action.cards)
        if isinstance(action, Join):
            return self._settle(evolve_join(state, action.index))
        if isinstance(action, Pass):
            state = replace(state, passes=state.passes + 1)
            if state.passes >= len(state.players):
                return replace(state, step=Step.OVER, turn=state.turn + 1)
            return self._end_turn(state)
        raise AssertionError(f"unhandled action {action!r}")

    def _gathered(
        self, state: KarakumState, card: Res, first: bool, changes: dict[str, Any]
    ) -> KarakumState:
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
        return self._end_turn(state, **changes)

    def _pay(self, state: KarakumState, cards: Hand) -> KarakumState:
        seat, slot = state.current, state.slot
        assert slot is not None
        camel = state.market[slot]
        assert camel is not None
        hands = replace_at(state.hands, seat, _minus(state.hands[seat], cards))
        discard = _plus(state.discard, cards)
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
        return self._settle(state)

    def _settle(self, state: KarakumState) -> KarakumState:
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
            if self.legal_actions(state):
                return state
        return self._end_turn(state)

    def _end_turn(self, state: KarakumState, **changes: Any) -> KarakumState:
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

    # -- scoring ------------------------------------------------------------------------
    def score(self, state: KarakumState, seat: int) -> int:
        """Caravan points plus half the left-side points, rounded down."""
        caravan = sum(c.value for c in state.caravans[seat])
        return caravan + sum(c.value for c in state.lefts[seat]) // 2

    def result(self, state: KarakumState) -> Result:
        """Scores, winners (tie-break: the longest caravan) and each player's breakdown."""
        n = len(state.players)
        scores = tuple(self.score(state, seat) for seat in range(n))
        lengths = tuple(len(state.caravans[seat]) for seat in range(n))
        best = max(scores)
        tied = [seat for seat in range(n) if scores[seat] == best]
        longest = max(lengths[seat] for seat in tied)
        winners = tuple(seat for seat in tied if lengths[seat] == longest)
        breakdown = []
        for seat in range(n):
            caravan, left = state.caravans[seat], state.lefts[seat]
            left_points = sum(c.value for c in left)
            chain = f"{plural(len(caravan), 'camel')}, {sum(c.value for c in caravan)} points"
            breakdown.append(
                (
                    ("Caravan", chain),
                    ("Left of the master", f"{left_points} points, half is {left_points // 2}"),
                    ("Total", str(scores[seat])),
                    ("Tie-break: caravan length", str(lengths[seat])),
                )
            )
        names = [state.players[seat] for seat in winners]
        notes: list[str] = []
        if len(tied) > 1:
            tied_names = " and ".join(state.players[s] for s in tied)
            notes.append(f"{tied_names} tie on {best} points; the longest caravan breaks the tie.")
        if len(winners) > 1:
            notes.append(f"{' and '.join(names)} share the victory.")
        else:
            notes.append(f"{names[0]} wins with {best} points.")
        return Result(scores, winners, tuple(breakdown), tuple(notes))

    # -- information ----------------------------------------------------------------------
    def observe(self, state: KarakumState, player: int | None) -> KarakumObservation:
        """The public table plus ``player``'s own hand (no hand in the public view)."""
        return copied(
            KarakumObservation,
            state,
            player=player,
            camel_deck_size=len(state.camel_deck),
            resource_deck_size=len(state.resource_deck),
            hand=None if player is None else state.hands[player],
            hand_sizes=tuple(sum(hand) for hand in state.hands),
        )

    def reveals(self, observation: KarakumObservation, action: Action) -> bool:
        """Taking or drawing a card (the row refills from the deck), paying (a camel comes up)."""
        return isinstance(action, TakeCard | DrawCard | Pay)

    def sample_state(self, observation: KarakumObservation, rng: random.Random) -> KarakumState:
        """Deal the unseen camels and resources at random, consistent with ``observation``."""
        return self.sampler(observation)(rng)

    def sampler(self, observation: KarakumObservation) -> Callable[[random.Random], KarakumState]:
        """``sample_state`` for many deals: the unseen cards are found once, then shuffled."""
        obs = observation
        assert obs.hand is not None, "a state is sampled from a player's observation"
        seen = Counter(c for c in obs.market if c is not None)
        for line in obs.caravans + obs.lefts:
            seen.update(line)
        unseen = [camel for camel in ALL_CAMELS if not seen[camel]]
        deck_size = obs.camel_deck_size
        known = _plus(_plus(obs.hand, obs.discard), hand_from([c for c in obs.row if c]))
        hidden = cards_of(_minus(C.RESOURCE_COUNTS, known))
        # Every deal is this state with the hidden parts (and the generator) replaced.
        table = copied(
            KarakumState, obs, rng=Rng(0), camel_deck=(), removed=(), resource_deck=(), hands=()
        )

        def deal(rng: random.Random) -> KarakumState:
            camels = unseen.copy()
            shuffle(rng, camels)
            cards = hidden.copy()
            shuffle(rng, cards)
            hands = []
            start = 0
            for seat, size in enumerate(obs.hand_sizes):
                if seat == obs.player:
                    hands.append(obs.hand)
                else:
                    hands.append(hand_from(cards[start : start + size]))
                    start += size
            return replace(
                table,
                rng=fresh_rng(rng),
                camel_deck=tuple(camels[:deck_size]),
                removed=tuple(camels[deck_size:]),
                resource_deck=tuple(cards[start:]),
                hands=tuple(hands),
            )

        return deal

    def unfilled(self, state: KarakumState) -> str | None:
        """An empty face-up place while the deck or discards hold a card; an empty market
        place while the camel deck holds one."""
        if None in state.row and (state.resource_deck or any(state.discard)):
            return "A face-up resource place is empty while the deck or discards hold cards."
        if None in state.market and state.camel_deck:
            return "A market place is empty while the camel deck holds camels."
        return None

    def inventory(self, state: KarakumState) -> Counter[str]:
        """Every camel and resource card in the state."""
        counts: Counter[str] = Counter()
        camels = list(state.camel_deck) + list(state.removed)
        camels += [c for c in state.market if c is not None]
        for line in state.caravans + state.lefts:
            camels += line
        counts.update(f"camel {c}" for c in camels)
        cards = _plus(state.discard, hand_from(state.resource_deck))
        cards = _plus(cards, hand_from([c for c in state.row if c is not None]))
        for hand in state.hands:
            cards = _plus(cards, hand)
        for res, n in zip(RESOURCES, cards, strict=True):
            counts[f"resource {res.value}"] += n
        return counts

    # -- words ----------------------------------------------------------------------------
    def preview(self, observation: KarakumObservation, action: Action) -> str:
        """``action`` before it is taken: a card drawn or a camel revealed stays unnamed."""
        obs = observation
        if isinstance(action, Pay):
            text = self._payment(obs, action)
            camel, seat = obs.market[obs.slot or 0], obs.current
            assert camel is not None
            caravan, left = obs.caravans[seat], obs.lefts[seat]
            if fits(caravan, camel):
                joined = _auto_joins(caravan + (camel,), left)
                text += _joined_words(joined)
            if None in obs.row:
                text += (
                    " The cards paid are shuffled into a new deck to fill the empty face-up places."
                    if obs.payment_refills_row
                    else " The empty face-up places stay empty: this game, saved by an older"
                    " Karavan, keeps the rule it was played with."
                )
            if obs.camel_deck_size:
                text += " A new camel is revealed in the market."
            else:
                text += " The camel deck is empty: the game ends after this turn."
            if camel.value == C.BONUS_VALUE:
                text += " A value-1 camel earns a free resource card."
            return text
        if isinstance(action, Join):
            seat = obs.current
            left = obs.lefts[seat]
            camel = left[action.index]
            caravan = obs.caravans[seat] + (camel,)
            rest = left[: action.index] + left[action.index + 1 :]
            return self._sentence(obs, action) + _joined_words(_auto_joins(caravan, rest))
        return self._sentence(obs, action)

    def describe(
        self, before: KarakumObservation, action: Action, after: KarakumObservation
    ) -> str:
        """``action`` in the log's words (a card drawn unseen stays unnamed)."""
        if isinstance(action, Pay):
            text = self._payment(before, action)
            text += _joined_text(before, after)
            text += _refilled_text(before, after)
            if after.market[0] is not None:
                text += f" The {after.market[0]} is revealed in the market."
            else:
                text += " The camel deck is empty: the game ends after this turn."
            return text
        if isinstance(action, Join):
            return self._sentence(before, action) + _joined_text(before, after)
        return self._sentence(before, action)

    def _payment(self, obs: KarakumObservation, action: Pay) -> str:
        """ "Ann pays 3 silk; the purple 3 joins the caravan." """
        assert obs.slot is not None
        camel = obs.market[obs.slot]
        assert camel is not None
        seat = obs.current
        where = (
            "joins the caravan"
            if fits(obs.caravans[seat], camel)
            else "goes left of the caravan master"
        )
        name = obs.players[seat]
        return f"{name} pays {describe_cards(action.cards)}; the {camel} {where}."

    def _sentence(self, obs: KarakumObservation, action: Action) -> str:
        """The words for a decision other than a payment, from the table before it."""
        name = obs.players[obs.current]
        if isinstance(action, TakeCard):
            card = obs.row[action.slot]
            assert card is not None
            what = f"the face-up {card.good}"
            if obs.step is Step.BONUS:
                return f"{name} takes {what} as the bonus for a value-1 camel."
            if card is Res.GOLD and obs.step is Step.CHOOSE:
                return f"{name} takes {what} as the whole gathering."
            return f"{name} takes {what}."
        if isinstance(action, DrawCard):
            if obs.step is Step.BONUS:
                return f"{name} draws a card from the deck as the bonus for a value-1 camel."
            return f"{name} draws a card from the deck."
        if isinstance(action, Buy):
            camel = obs.market[action.slot]
            assert camel is not None
            cost = price(obs.market, action.slot)
            tax = " (taxed)" if cost > camel.value else ""
            return f"{name} buys the {camel} for {plural(cost, 'unit')}{tax}."
        if isinstance(action, Join):
            camel = obs.lefts[obs.current][action.index]
            return f"{name} moves the {camel} from the left side into the caravan."
        if isinstance(action, Pass):
            return f"{name} passes: no move is possible."
        return f"{name} plays {action!r}."


def evolve_join(state: KarakumState, index: int) -> KarakumState:
    """``state`` with only the chosen left-side camel moved into the caravan."""
    seat = state.current
    left = state.lefts[seat]
    return replace(
        state,
        caravans=replace_at(state.caravans, seat, state.caravans[seat] + (left[index],)),
        lefts=replace_at(state.lefts, seat, left[:index] + left[index + 1 :]),
    )


def _stuck(obs: KarakumObservation) -> bool:
    """Whether the player to move, whose hand ``obs`` shows, can neither gather nor buy."""
    assert obs.hand is not None
    if any(card is not None for card in obs.row) or obs.resource_deck_size or any(obs.discard):
        return False
    return not any(
        camel is not None and units(obs.hand, camel.color) >= price(obs.market, slot)
        for slot, camel in enumerate(obs.market)
    )


def _auto_joins(caravan: tuple[Camel, ...], left: tuple[Camel, ...]) -> list[Camel]:
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


def _joined_words(joined: Sequence[Camel]) -> str:
    """ " From the left side, the red 5 joins the caravan." for camels that joined on their own."""
    if not joined:
        return ""
    names = ", then the ".join(map(str, joined))
    verb = "joins" if len(joined) == 1 else "join"
    return f" From the left side, the {names} {verb} the caravan."


def _refilled_text(before: KarakumObservation, after: KarakumObservation) -> str:
    """ " The cards paid, shuffled into a new deck, fill the empty face-up places: silk, gold." """
    filled = [
        card.good
        for was, card in zip(before.row, after.row, strict=True)
        if was is None and card is not None
    ]
    if not filled:
        return ""
    places = "place" if len(filled) == 1 else "places"
    return (
        f" The cards paid, shuffled into a new deck, fill the empty face-up {places}: "
        f"{', '.join(filled)}."
    )


def _joined_text(before: KarakumObservation, after: KarakumObservation) -> str:
    """The words for the left-side camels that joined the caravan on their own between two views.

    The first camel added (the one bought, or the one chosen to join) is the
    decision's own and is left out.
    """
    seat = before.current
    added = after.caravans[seat][len(before.caravans[seat]) + 1 :]
    return _joined_words([c for c in added if c in before.lefts[seat]])


GAME = Karakum()
