"""Karawane's rules: race three camels into the oasis, one card a turn.

Plain functions over the state, so that the contract (:mod:`.game`), the words
(:mod:`.words`) and the bots' evaluation read one statement of each rule: one
predicate per kind of decision says whether it is legal and, if not, why
(:class:`Why`); :func:`apply_decision` plays one.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, auto
from functools import cache
from itertools import compress
from operator import not_

from karavan_core.engine import Action
from karavan_core.games.karawane import components as C
from karavan_core.games.karawane.components import CITY, FIRST_OASIS, LAST_SQUARE, Card, Kind
from karavan_core.games.karawane.state import (
    Cards,
    KarawaneObservation,
    KarawaneState,
    Play,
    PlaySandstorm,
    PlayWithoutEffect,
)
from karavan_core.values import replace_at

SANDSTORM = PlaySandstorm()
OASIS_SQUARES = len(C.OASIS_POINTS)
_KIND = C.CARD_KIND
_PALMS = C.CARD_PALMS
_RANK = C.CARD_RANK
# Every targeted play there can be, built once: legal_actions hands these out
# instead of building new objects on every call (random play spends its time there).
_PLAYS: dict[tuple[Card, int, int], Play] = {
    (card, owner, camel): Play(card, owner, camel)
    for card in Card
    if _KIND[card] is not Kind.SANDSTORM
    for owner in range(C.MAX_PLAYERS)
    for camel in range(C.CAMELS_PER_PLAYER)
}
_WITHOUT_EFFECT: dict[Card, PlayWithoutEffect] = {card: PlayWithoutEffect(card) for card in Card}


# -- the track --------------------------------------------------------------------------


def occupied(camels: Sequence[Sequence[int]]) -> set[int]:
    """The track squares holding a camel (the city holds any number, so it never counts)."""
    return {square for line in camels for square in line if square}


def forward(taken: set[int], start: int, palms: int) -> int | None:
    """Where a camel on ``start`` lands after ``palms`` free squares forward.

    ``None`` when the count would run past the last oasis square: the oasis is
    reached by exact count only.
    """
    square = start
    while palms:
        square += 1
        if square > LAST_SQUARE:
            return None
        if square not in taken:
            palms -= 1
    return square


def backward(taken: set[int], start: int, palms: int) -> int:
    """Where a camel on ``start`` lands after ``palms`` free squares back (the city at worst)."""
    square = start
    while palms:
        square -= 1
        if square <= CITY:
            return CITY
        if square not in taken:
            palms -= 1
    return square


def drive_to(camels: Sequence[Sequence[int]]) -> int | None:
    """The square a camel driver sends a camel to, or ``None`` if that square is in the oasis.

    It is the square directly ahead of the race leader: the frontmost camel
    outside the oasis (the city counts as square 0).
    """
    leader = max([sq for line in camels for sq in line if sq < FIRST_OASIS], default=CITY)
    return leader + 1 if leader + 1 < FIRST_OASIS else None


def first_in_city(line: Sequence[int]) -> int | None:
    """The lowest-numbered of a player's camels in the city, or ``None``."""
    return line.index(CITY) if CITY in line else None


def oasis_points(square: int) -> int:
    """The points an oasis square is worth (0 for the city and the desert)."""
    return C.OASIS_POINTS[square - FIRST_OASIS] if square >= FIRST_OASIS else 0


def score(line: Sequence[int]) -> int:
    """The points of the oasis squares one player's camels hold."""
    return sum(oasis_points(square) for square in line)


def sorted_cards(cards: Sequence[Card]) -> Cards:
    """``cards`` in hand order (``CARD_RANK``)."""
    return tuple(sorted(cards, key=_RANK.__getitem__))


# A hand in hand order, kept per hand as drawn: at most 9**3 of them exist.
_hand_order = cache(sorted_cards)


def _without(cards: Cards, card: Card) -> Cards:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


# -- what is legal: one predicate per kind of decision -----------------------------


class Why(Enum):
    """Why a decision may not be taken: the rules' answer (:mod:`.words` says it)."""

    NOT_HELD = auto()  # that card is not in the hand
    SANDSTORM_ALONE = auto()  # the Sandstorm moves no camel
    NO_SUCH_CAMEL = auto()  # the board holds no such camel
    MIRAGE_OWN = auto()  # a Mirage moves an opponent's camel, never one's own
    IN_OASIS = auto()  # a camel in the oasis never moves back (nor at all, by older rules)
    IN_CITY = auto()  # a Mirage moves only a camel on a desert square
    NOT_YOURS = auto()  # a forward card moves only one's own camels
    CITY_NOT_FIRST = auto()  # camels in the city are alike: the first of them is moved
    OVERSHOOT = auto()  # the count would run past the last oasis square
    DRIVER_OASIS = auto()  # the camel driver would send a camel into the oasis
    HAS_EFFECT = auto()  # played without effect while a card can be used
    UNKNOWN = auto()  # not a Karawane decision at all

    # Hashed by identity, in C (Enum's own hash is Python code): rows of
    # answers are the keys of the cache of plays they allow.
    __hash__ = object.__hash__


Board = tuple[tuple[int, ...], ...]  # each player's camels, by square


Row = tuple[Why | None, ...]  # [camel]: why that camel may not be the target (None: it may)
Targets = list[Row]  # [owner][camel]


def targets(
    camels: Board, seat: int, card: Card, deeper: bool, taken: set[int] | None = None
) -> Targets:
    """For each camel on the board (``[owner][camel]``): why ``seat`` may not play ``card``
    on it (``None``: it may).  ``deeper``: whether an oasis card may move a camel deeper
    into the oasis (the game's rule); ``taken``: the occupied squares, if already known."""
    kind = _KIND[card]
    if kind is Kind.SANDSTORM:
        return [_SANDSTORM_ROW] * len(camels)
    if kind is Kind.MIRAGE:
        return [_mirage_row(owner == seat, line) for owner, line in enumerate(camels)]
    rows: Targets = [_NOT_YOURS_ROW] * len(camels)
    rows[seat] = _forward_row(camels, seat, card, deeper, taken)
    return rows


def _forward_row(camels: Board, seat: int, card: Card, deeper: bool, taken: set[int] | None) -> Row:
    """Why ``seat`` may not move each of its own camels with ``card``, an oasis or driver card.

    An oasis card counts free squares from wherever the camel stands, in the oasis too
    when the game's rule lets a camel go ``deeper``; the camel driver's square is always
    before the oasis, so it never takes a camel from there (that would be back).
    """
    line = camels[seat]
    if _KIND[card] is Kind.OASIS:
        return _oasis_row(line, _PALMS[card], deeper, occupied(camels) if taken is None else taken)
    row = _movable(line, False)
    if drive_to(camels) is None:
        return tuple(why or Why.DRIVER_OASIS for why in row)
    return row


def _oasis_row(line: tuple[int, ...], palms: int, deeper: bool, taken: set[int]) -> Row:
    """:func:`_forward_row` of an oasis card of ``palms`` for the camels of ``line``, the
    squares ``taken`` already counted."""
    row = _movable(line, deeper)
    # Past a camel lie at least the squares left less those of every camel: up to
    # ``safe`` they are enough for the count, so no camel there can overshoot (most of
    # a race), and the free squares need not be counted one by one.
    safe = LAST_SQUARE - palms - len(taken)
    if max(line) <= safe:
        return row
    return tuple(
        [
            why
            if why is not None or square <= safe or forward(taken, square, palms) is not None
            else Why.OVERSHOOT
            for why, square in zip(row, line, strict=True)
        ]
    )


@cache
def _movable(line: tuple[int, ...], deeper: bool) -> Row:
    """Why each camel of ``line`` may not move forward, whatever the card (``None``: it may);
    a camel in the oasis may only if it may go ``deeper``.

    Cached (27**3 lines exist, twice): the oasis and driver cards start from it.
    """
    city = first_in_city(line)
    return tuple(
        Why.IN_OASIS
        if square >= FIRST_OASIS and not deeper
        else Why.CITY_NOT_FIRST
        if square == CITY and i != city
        else None
        for i, square in enumerate(line)
    )


def _mirage_target(own: bool, square: int) -> Why | None:
    """Why a Mirage may not move back a camel on ``square`` (``own``: the player's)."""
    if own:
        return Why.MIRAGE_OWN
    if square >= FIRST_OASIS:
        return Why.IN_OASIS
    return Why.IN_CITY if square == CITY else None


def _mirage_row(own: bool, line: tuple[int, ...]) -> Row:
    """:func:`_mirage_target` for each camel of ``line``, read from a table made by it."""
    return _OWN_MIRAGE_ROW if own else tuple(map(_MIRAGE_WHY.__getitem__, line))


@cache
def _allowed(card: Card, owner: int, row: Row) -> tuple[Play, ...]:
    """The plays of ``card`` on ``owner``'s camels that ``row`` (their answers) allows.

    Rows are few (three camels, a dozen answers), so the cache stays small.
    """
    return tuple(compress(_ROW_PLAYS[card][owner], map(not_, row)))


# A Mirage's answer for each square, and the answers that depend on no square, made once.
_MIRAGE_WHY = tuple(_mirage_target(False, square) for square in range(LAST_SQUARE + 1))
_OWN_MIRAGE_ROW = (Why.MIRAGE_OWN,) * C.CAMELS_PER_PLAYER
_NOT_YOURS_ROW = (Why.NOT_YOURS,) * C.CAMELS_PER_PLAYER
_SANDSTORM_ROW = (Why.SANDSTORM_ALONE,) * C.CAMELS_PER_PLAYER
# _ROW_PLAYS[card][owner][camel]: the play of ``card`` on that camel.
_ROW_PLAYS = {
    card: tuple(
        tuple(_PLAYS[card, owner, camel] for camel in range(C.CAMELS_PER_PLAYER))
        for owner in range(C.MAX_PLAYERS)
    )
    for card in Card
    if _KIND[card] is not Kind.SANDSTORM
}


def playing(state: KarawaneState, action: Play) -> Why | None:
    """Why ``action`` (a card played on a camel) may not be played now."""
    card, owner, i = action.card, action.owner, action.camel
    if card not in state.hands[state.current]:
        return Why.NOT_HELD
    if _KIND[card] is Kind.SANDSTORM:
        return Why.SANDSTORM_ALONE
    if not (0 <= owner < len(state.players) and 0 <= i < C.CAMELS_PER_PLAYER):
        return Why.NO_SUCH_CAMEL
    return targets(state.camels, state.current, card, state.deeper_in_oasis)[owner][i]


def storming(state: KarawaneState) -> Why | None:
    """Why the Sandstorm may not be played now."""
    return None if Card.SANDSTORM in state.hands[state.current] else Why.NOT_HELD


def without_effect(state: KarawaneState, card: Card) -> Why | None:
    """Why ``card`` may not be played without effect: only when no card can be used."""
    hand = state.hands[state.current]
    if card not in hand:
        return Why.NOT_HELD
    deeper = state.deeper_in_oasis
    return Why.HAS_EFFECT if effects(hand, state.current, state.camels, deeper) else None


def refusal(state: KarawaneState, action: object) -> Why | None:
    """Why ``action`` may not be taken in ``state`` (a game not over), or ``None`` if it may:
    the answer of the predicate for its kind."""
    if type(action) is Play:
        return playing(state, action)
    if type(action) is PlaySandstorm:
        return storming(state)
    if type(action) is PlayWithoutEffect:
        return without_effect(state, action.card)
    return Why.UNKNOWN


def effects(hand: Cards, seat: int, camels: Board, deeper: bool) -> list[Action]:
    """The plays of ``hand`` by ``seat`` that have an effect on the board ``camels``
    (``deeper``: whether an oasis card may move a camel deeper into the oasis).

    Camels in the city are alike, so only each player's first one is offered.
    The answers are the rows of :func:`targets`, cached with their plays; a
    forward card's rows of the other players allow nothing and are not built.
    """
    actions: list[Action] = []
    taken: set[int] | None = None  # counted only for an oasis card
    line = camels[seat]
    for card, kind in _distinct(hand):
        if kind is Kind.OASIS:
            if taken is None:
                taken = occupied(camels)
            actions += _allowed(card, seat, _oasis_row(line, _PALMS[card], deeper, taken))
        elif kind is Kind.MIRAGE:  # the rows of targets(), but for one's own camels
            for owner, other in enumerate(camels):
                if owner != seat:
                    actions += _allowed(card, owner, _mirage_row(False, other))
        elif kind is Kind.DRIVER:
            actions += _allowed(card, seat, _forward_row(camels, seat, card, deeper, None))
        else:
            actions.append(SANDSTORM)
    return actions


@cache
def _distinct(hand: Cards) -> tuple[tuple[Card, Kind], ...]:
    """The distinct cards of ``hand`` with their kinds, in hand order (at most 165 hands
    of three exist; a hand's equal cards would offer the same plays twice)."""
    return tuple((card, _KIND[card]) for card in dict.fromkeys(hand))


def can_go_deeper(state: KarawaneState) -> bool:
    """Whether the player to move holds an oasis card that would take one of their camels
    already in the oasis deeper (by exact count: it lands on a free oasis square)."""
    if state.over:
        return False
    line = state.camels[state.current]
    taken = occupied(state.camels)
    return any(
        forward(taken, square, _PALMS[card]) is not None
        for card in set(state.hands[state.current])
        if _KIND[card] is Kind.OASIS
        for square in line
        if square >= FIRST_OASIS
    )


def legal_decisions(state: KarawaneState) -> list[Action]:
    """Every card play with an effect; failing those, every card played without one."""
    if state.over:
        return []
    hand = state.hands[state.current]
    return effects(hand, state.current, state.camels, state.deeper_in_oasis) or [
        _WITHOUT_EFFECT[card] for card in dict.fromkeys(hand)
    ]


# -- what a decision does -------------------------------------------------------------


def destination(view: KarawaneState | KarawaneObservation, action: Play) -> int:
    """The square the camel targeted by a legal ``action`` ends on (the board is public)."""
    kind = _KIND[action.card]
    square = view.camels[action.owner][action.camel]
    if kind is Kind.DRIVER:
        target = drive_to(view.camels)
        assert target is not None
        return target
    taken = occupied(view.camels)
    if kind is Kind.MIRAGE:
        return backward(taken, square, _PALMS[action.card])
    target = forward(taken, square, _PALMS[action.card])
    assert target is not None
    return target


def oasis_full(camels: Sequence[Sequence[int]]) -> bool:
    """Whether every oasis square holds a camel (the game is then over)."""
    return sum(sq >= FIRST_OASIS for line in camels for sq in line) == OASIS_SQUARES


def apply_decision(state: KarawaneState, action: Action) -> KarawaneState:
    """The state after ``action``, a decision already known to be legal."""
    seat = state.current
    camels = state.camels
    finished = False
    if type(action) is Play:
        card = action.card
        target = destination(state, action)
        line = replace_at(camels[action.owner], action.camel, target)
        camels = replace_at(camels, action.owner, line)
        finished = target >= FIRST_OASIS and oasis_full(camels)
    elif type(action) is PlayWithoutEffect:
        card = action.card
    else:  # the sandstorm, the only other legal action
        return _sandstorm(state)
    hand = _without(state.hands[seat], card)
    deck = state.decks[seat]
    decks = state.decks
    if deck and len(hand) < C.HAND_SIZE:  # draw back up to a full hand while the deck lasts
        drawn = C.HAND_SIZE - len(hand)
        hand = _hand_order(hand + deck[:drawn])
        decks = replace_at(decks, seat, deck[drawn:])
    hands = replace_at(state.hands, seat, hand)
    current = seat if finished else _next_seat(hands, seat)
    # Built whole rather than by replace: one __init__ is quicker than a copy
    # changing seven of the ten fields, and this runs at every decision.
    return KarawaneState(
        players=state.players,
        rng=state.rng,
        first_player=state.first_player,
        current=seat if current is None else current,
        camels=camels,
        hands=hands,
        decks=decks,
        played=replace_at(state.played, seat, state.played[seat] + (card,)),
        over=finished or current is None,
        turn=state.turn + 1,
        deeper_in_oasis=state.deeper_in_oasis,
    )


def _next_seat(hands: Sequence[Cards], seat: int) -> int | None:
    """The next seat clockwise that holds a card (players without cards are skipped)."""
    n = len(hands)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if hands[other]:
            return other
    return None  # nobody holds a card: nothing more can happen


def _sandstorm(state: KarawaneState) -> KarawaneState:
    """Everyone gathers hand, deck and played pile, shuffles, and draws a new hand."""
    rng = state.rng
    hands, decks = [], []
    for player in range(len(state.players)):
        gathered = state.hands[player] + state.decks[player] + state.played[player]
        # Sorting first makes the shuffle depend on the generator alone.
        rng, cards = rng.shuffled(sorted_cards(gathered))
        hands.append(_hand_order(cards[: C.HAND_SIZE]))
        decks.append(cards[C.HAND_SIZE :])
    return KarawaneState(
        players=state.players,
        rng=rng,
        first_player=state.first_player,
        current=(state.current + 1) % len(state.players),
        camels=state.camels,
        hands=tuple(hands),
        decks=tuple(decks),
        played=((),) * len(state.players),
        over=False,
        turn=state.turn + 1,
        deeper_in_oasis=state.deeper_in_oasis,
    )
