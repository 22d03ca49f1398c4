"""Karawane's rules: race three camels into the oasis, one card a turn."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from karavan_core.engine import Action, Game, Result
from karavan_core.games.karawane import components as C
from karavan_core.games.karawane.components import CITY, FIRST_OASIS, LAST_SQUARE, Card, Kind
from karavan_core.games.karawane.state import (
    ACTION_TYPES,
    Cards,
    KarawaneObservation,
    KarawaneState,
    Play,
    PlaySandstorm,
    PlayWithoutEffect,
)
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.text import plural
from karavan_core.values import copied, replace_at

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
    leader = max((sq for line in camels for sq in line if sq < FIRST_OASIS), default=CITY)
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


def square_name(square: int) -> str:
    """``0`` as "the city", ``9`` as "square 9", ``23`` as "oasis square 3 (3 points)"."""
    if square == CITY:
        return "the city"
    if square < FIRST_OASIS:
        return f"square {square}"
    points = oasis_points(square)
    return f"oasis square {square - FIRST_OASIS + 1} ({plural(points, 'point')})"


def _move_words(start: int, end: int) -> str:
    if CITY < start < FIRST_OASIS and CITY < end < FIRST_OASIS:
        return f"square {start} → {end}"
    return f"{square_name(start)} → {square_name(end)}"


def _sorted(cards: Sequence[Card]) -> Cards:
    return tuple(sorted(cards, key=_RANK.__getitem__))


def _without(cards: Cards, card: Card) -> Cards:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _label(card: Card) -> str:
    # A malformed action may carry anything as its card: the label falls back on its str.
    return C.CARD_LABELS.get(card, str(card))


# -- the game -----------------------------------------------------------------------------


class Karawane(Game[KarawaneState, KarawaneObservation, Action]):
    """Karawane for 2 to 4 players."""

    name = "karawane"
    title = "Karawane"
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    action_types = ACTION_TYPES

    # -- setup ----------------------------------------------------------------------------
    def deal(self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]) -> KarawaneState:
        """Every camel in the city; each player shuffles their own deck and draws a hand."""
        n = len(players)
        hands, decks = [], []
        for _ in range(n):
            rng, deck = rng.shuffled(C.DECK)
            hands.append(_sorted(deck[: C.HAND_SIZE]))
            decks.append(deck[C.HAND_SIZE :])
        rng, first = self.first_player(options, n, rng)
        return KarawaneState(
            players=players,
            rng=rng,
            first_player=first,
            current=first,
            camels=((CITY,) * C.CAMELS_PER_PLAYER,) * n,
            hands=tuple(hands),
            decks=tuple(decks),
            played=((),) * n,
        )

    # -- decisions ---------------------------------------------------------------------------
    def legal_actions(self, state: KarawaneState) -> list[Action]:
        """Every card play with an effect; failing those, every card played without one."""
        if state.over:
            return []
        actions = self._effects(state.hands[state.current], state.current, state.camels)
        if actions:
            return actions
        return [_WITHOUT_EFFECT[card] for card in dict.fromkeys(state.hands[state.current])]

    def _effects(self, hand: Cards, seat: int, camels: tuple[tuple[int, ...], ...]) -> list[Action]:
        """The plays of ``hand`` by ``seat`` that have an effect on the board ``camels``.

        Camels in the city are alike, so only each player's first one is offered.
        """
        actions: list[Action] = []
        taken: set[int] | None = None
        previous = None
        for card in hand:
            if card is previous:  # hands are sorted, so equal cards sit together
                continue
            previous = card
            kind = _KIND[card]
            if kind is Kind.SANDSTORM:
                actions.append(SANDSTORM)
            elif kind is Kind.MIRAGE:
                # Any opponent camel on a desert square goes back at least one square.
                for owner, line in enumerate(camels):
                    if owner != seat:
                        for i, square in enumerate(line):
                            if CITY < square < FIRST_OASIS:
                                actions.append(_PLAYS[card, owner, i])
            else:
                line = camels[seat]
                city = first_in_city(line)
                if kind is Kind.OASIS:
                    if taken is None:
                        taken = occupied(camels)
                    palms = _PALMS[card]
                    for i, square in enumerate(line):
                        if (
                            (square != CITY or i == city)
                            and square < FIRST_OASIS
                            and forward(taken, square, palms) is not None
                        ):
                            actions.append(_PLAYS[card, seat, i])
                elif drive_to(camels) is not None:  # the driver never enters the oasis
                    for i, square in enumerate(line):
                        if (square != CITY or i == city) and square < FIRST_OASIS:
                            actions.append(_PLAYS[card, seat, i])
        return actions

    def why_illegal(self, state: KarawaneState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``."""
        if state.over:
            return "The game is over."
        hand = state.hands[state.current]
        if type(action) is Play:
            if action.card not in hand:
                return f"You have no {_label(action.card)} in your hand."
            return self._why_not_play(state, action)
        if type(action) is PlaySandstorm:
            return None if Card.SANDSTORM in hand else "You have no Sandstorm in your hand."
        if type(action) is PlayWithoutEffect:
            if action.card not in hand:
                return f"You have no {_label(action.card)} in your hand."
            if self._effects(hand, state.current, state.camels):
                return (
                    "A card may be played without effect only when no card in your hand "
                    "can be used; play one for its effect."
                )
            return None
        return "That is not a Karawane move."

    def _why_not_play(self, state: KarawaneState, action: Play) -> str | None:
        card, owner, i = action.card, action.owner, action.camel
        kind = _KIND[card]
        label = card.label
        if kind is Kind.SANDSTORM:
            return "The Sandstorm moves no camel: play it on its own."
        if not (0 <= owner < len(state.players) and 0 <= i < C.CAMELS_PER_PLAYER):
            return "There is no such camel."
        seat = state.current
        square = state.camels[owner][i]
        if kind is Kind.MIRAGE:
            if owner == seat:
                return "A Mirage moves an opponent's camel back, never your own."
            if square >= FIRST_OASIS:
                return "That camel is in the oasis, and a camel in the oasis never moves again."
            if square == CITY:
                return "That camel is in the city: a Mirage only moves a camel on a desert square."
            return None
        if owner != seat:
            return f"The {label} card moves only your own camels."
        if square >= FIRST_OASIS:
            return "That camel is in the oasis, and a camel in the oasis never moves again."
        city = first_in_city(state.camels[seat])
        if square == CITY and i != city:
            assert city is not None  # this camel is in the city, so the first one there is known
            return f"Your camels in the city are alike: move camel {city + 1}, the first of them."
        if kind is Kind.OASIS:
            if forward(occupied(state.camels), square, _PALMS[card]) is None:
                return (
                    f"{label} would carry that camel past the last oasis square: "
                    "the oasis must be reached by an exact count of free squares."
                )
            return None
        if drive_to(state.camels) is None:
            return (
                "The square ahead of the leading camel is in the oasis, "
                "and the camel driver may never move a camel into the oasis."
            )
        return None

    def prompt(self, observation: KarawaneObservation) -> str:
        """What the player to move must decide now."""
        obs = observation
        if obs.over:
            return "The game is over."
        name = obs.players[obs.current]
        mine = obs.hand is not None and obs.player == obs.current
        if mine and not self._effects(obs.hand or (), obs.current, obs.camels):
            return f"{name}: no card can be used, so play one without effect"
        return f"{name}: play a card and choose its camel"

    def disclose(self, state: KarawaneState) -> tuple[tuple[str, str], ...]:
        """Every hand and every deck in order, in words."""
        rows = []
        for name, hand, deck in zip(state.players, state.hands, state.decks, strict=True):
            rows.append((f"{name}'s hand", ", ".join(map(_label, hand)) or "empty"))
            rows.append((f"{name}'s deck, top first", ", ".join(map(_label, deck)) or "empty"))
        return tuple(rows)

    # -- applying -------------------------------------------------------------------------------
    def destination(self, view: KarawaneState | KarawaneObservation, action: Play) -> int:
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

    def _apply(self, state: KarawaneState, action: Action) -> KarawaneState:
        seat = state.current
        camels = state.camels
        finished = False
        if type(action) is Play:
            card = action.card
            target = self.destination(state, action)
            line = replace_at(camels[action.owner], action.camel, target)
            camels = replace_at(camels, action.owner, line)
            finished = target >= FIRST_OASIS and self._oasis_full(camels)
        elif type(action) is PlayWithoutEffect:
            card = action.card
        else:  # the sandstorm, the only other legal action
            return self._sandstorm(state)
        hand = _without(state.hands[seat], card)
        deck = state.decks[seat]
        decks = state.decks
        if deck and len(hand) < C.HAND_SIZE:  # draw back up to a full hand while the deck lasts
            drawn = C.HAND_SIZE - len(hand)
            hand = _sorted(hand + deck[:drawn])
            decks = replace_at(decks, seat, deck[drawn:])
        hands = replace_at(state.hands, seat, hand)
        current = seat if finished else self._next_seat(hands, seat)
        return KarawaneState(
            state.players,
            state.rng,
            state.first_player,
            seat if current is None else current,
            camels,
            hands,
            decks,
            replace_at(state.played, seat, state.played[seat] + (card,)),
            finished or current is None,
            state.turn + 1,
        )

    @staticmethod
    def _oasis_full(camels: Sequence[Sequence[int]]) -> bool:
        return sum(sq >= FIRST_OASIS for line in camels for sq in line) == OASIS_SQUARES

    @staticmethod
    def _next_seat(hands: Sequence[Cards], seat: int) -> int | None:
        """The next seat clockwise that holds a card (players without cards are skipped)."""
        n = len(hands)
        for step in range(1, n + 1):
            other = (seat + step) % n
            if hands[other]:
                return other
        return None  # nobody holds a card: nothing more can happen

    def _sandstorm(self, state: KarawaneState) -> KarawaneState:
        """Everyone gathers hand, deck and played pile, shuffles, and draws a new hand."""
        seat = state.current
        rng = state.rng
        hands, decks = [], []
        for player in range(len(state.players)):
            gathered = state.hands[player] + state.decks[player] + state.played[player]
            # Sorting first makes the shuffle depend on the generator alone.
            rng, cards = rng.shuffled(_sorted(gathered))
            hands.append(_sorted(cards[: C.HAND_SIZE]))
            decks.append(cards[C.HAND_SIZE :])
        return KarawaneState(
            state.players,
            rng,
            state.first_player,
            (seat + 1) % len(state.players),
            state.camels,
            tuple(hands),
            tuple(decks),
            ((),) * len(state.players),
            False,
            state.turn + 1,
        )

    # -- scoring --------------------------------------------------------------------------------
    def result(self, state: KarawaneState) -> Result:
        """Points of the oasis squares held; everyone on the top score wins."""
        n = len(state.players)
        scores = tuple(score(state.camels[seat]) for seat in range(n))
        best = max(scores)
        winners = tuple(seat for seat in range(n) if scores[seat] == best)
        breakdown = tuple(
            tuple((f"Camel {i + 1}", square_name(square)) for i, square in enumerate(line))
            + (("Total", plural(scores[seat], "point")),)
            for seat, line in enumerate(state.camels)
        )
        names = " and ".join(state.players[seat] for seat in winners)
        if not state.over:
            if len(winners) > 1:
                note = f"{names} share the lead with {plural(best, 'point')} so far."
            else:
                note = f"{names} leads with {plural(best, 'point')} so far."
        elif len(winners) > 1:
            note = f"{names} tie on {plural(best, 'point')} and share the victory."
        else:
            note = f"{names} wins with {plural(best, 'point')}."
        return Result(scores, winners, breakdown, (note,))

    # -- information ------------------------------------------------------------------------------
    def observe(self, state: KarawaneState, player: int | None) -> KarawaneObservation:
        """The board, every played pile and all counts, plus ``player``'s own hand."""
        return copied(
            KarawaneObservation,
            state,
            player=player,
            hand=None if player is None else state.hands[player],
            hand_sizes=tuple(len(hand) for hand in state.hands),
            deck_sizes=tuple(len(deck) for deck in state.decks),
        )

    def reveals(self, observation: KarawaneObservation, action: Action) -> bool:
        """Every card played is replaced from the deck: each decision shows a new card."""
        return True

    def sample_state(self, observation: KarawaneObservation, rng: random.Random) -> KarawaneState:
        """Deal every unseen card at random: others' hands and every deck's order."""
        obs = observation
        assert obs.hand is not None, "a state is sampled from a player's observation"
        hands, decks = [], []
        for seat, played in enumerate(obs.played):
            unseen = list(C.DECK)
            known = played + obs.hand if seat == obs.player else played
            for card in known:
                unseen.remove(card)
            shuffle(rng, unseen)
            if seat == obs.player:
                hands.append(obs.hand)
                decks.append(tuple(unseen))
            else:
                size = obs.hand_sizes[seat]
                hands.append(_sorted(unseen[:size]))
                decks.append(tuple(unseen[size:]))
        return copied(
            KarawaneState, obs, rng=fresh_rng(rng), hands=tuple(hands), decks=tuple(decks)
        )

    def unfilled(self, state: KarawaneState) -> str | None:
        """A hand short of its cards while its owner's deck still holds some."""
        for name, hand, deck in zip(state.players, state.hands, state.decks, strict=True):
            if len(hand) < C.HAND_SIZE and deck:
                return f"{name} holds {len(hand)} cards while their deck holds {len(deck)}."
        return None

    def inventory(self, state: KarawaneState) -> Counter[str]:
        """Every player's camels and cards, wherever they are."""
        counts: Counter[str] = Counter()
        for seat in range(len(state.players)):
            counts[f"seat {seat} camel"] += len(state.camels[seat])
            for pile in (state.hands[seat], state.decks[seat], state.played[seat]):
                counts.update(f"seat {seat} {card.value}" for card in pile)
        return counts

    # -- words ------------------------------------------------------------------------------------
    def preview(self, observation: KarawaneObservation, action: Action) -> str:
        """``action`` before it is played: where its camel goes (the board is public)."""
        obs = observation
        if isinstance(action, Play):
            start = obs.camels[action.owner][action.camel]
            return self._play_words(obs, action, start, self.destination(obs, action))
        return self._sentence(obs, action)

    def describe(
        self, before: KarawaneObservation, action: Action, after: KarawaneObservation
    ) -> str:
        """``action`` as the log tells it, with the end of the game or the seats skipped."""
        if isinstance(action, Play):
            start = before.camels[action.owner][action.camel]
            end = after.camels[action.owner][action.camel]
            text = self._play_words(before, action, start, end)
        else:
            text = self._sentence(before, action)
        if after.over:
            if self._oasis_full(after.camels):
                return f"{text} All {OASIS_SQUARES} oasis squares are taken: the game is over."
            return f"{text} Nobody holds a card any more: the game is over."
        n = len(before.players)
        gap = (after.current - before.current) % n or n  # n: everyone else was skipped
        skipped = [before.players[(before.current + step) % n] for step in range(1, gap)]
        for other in skipped:
            text += f" {other} has no cards left and is skipped."
        return text

    def _play_words(self, obs: KarawaneObservation, action: Play, start: int, end: int) -> str:
        name = obs.players[obs.current]
        whose = "their" if action.owner == obs.current else f"{obs.players[action.owner]}'s"
        return (
            f"{name} plays {action.card.label} on {whose} camel {action.camel + 1}: "
            f"{_move_words(start, end)}."
        )

    def _sentence(self, obs: KarawaneObservation, action: Action) -> str:
        name = obs.players[obs.current]
        if isinstance(action, PlaySandstorm):
            return (
                f"{name} plays the Sandstorm: everyone gathers all {len(C.DECK)} of their cards, "
                f"shuffles them and draws {C.HAND_SIZE}."
            )
        if isinstance(action, PlayWithoutEffect):
            return f"{name} plays {action.card.label} without effect, as no card could be used."
        return f"{name} plays {action!r}."


GAME = Karawane()
