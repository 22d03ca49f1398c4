"""Karawane's state, decisions and observations (plain frozen values)."""

from __future__ import annotations

from attrs import frozen

from karavan_core.engine import Action, Observation, State, UntilOver
from karavan_core.games.karawane.components import Card

Cards = tuple[Card, ...]


@frozen(slots=False, kw_only=True)  # see values.replace
class KarawaneState(UntilOver, State):
    """A whole Karawane table, hidden parts included.

    ``camels[seat][i]`` is the square of that player's camel ``i``: 0 is the
    city, then the desert squares, then the oasis squares (see the components).
    """

    first_player: int
    current: int
    camels: tuple[tuple[int, ...], ...]
    hands: tuple[Cards, ...]  # kept in CARD_RANK order
    decks: tuple[Cards, ...]  # top first
    played: tuple[Cards, ...]  # each player's face-up pile, oldest first
    over: bool = False
    turn: int = 0  # cards played so far
    deeper_in_oasis: bool = True  # an oasis card may move a camel deeper into the oasis


@frozen(kw_only=True)
class KarawaneObservation(UntilOver, Observation):
    """What one player knows: the board, every played pile, their own hand, the counts."""

    first_player: int
    current: int
    camels: tuple[tuple[int, ...], ...]
    hand: Cards | None  # None in the public view
    hand_sizes: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    played: tuple[Cards, ...]
    over: bool
    turn: int
    deeper_in_oasis: bool


@frozen(cache_hash=True)  # the search looks every decision up in a dict at every node
class Play(Action):
    """Play ``card`` (oasis, mirage or camel driver) on camel ``camel`` (0-2) of seat ``owner``."""

    card: Card
    owner: int
    camel: int


@frozen
class PlaySandstorm(Action):
    """Play the sandstorm: every player reshuffles all their cards and draws a new hand."""


@frozen
class PlayWithoutEffect(Action):
    """Play ``card`` for nothing; allowed only when no card in hand has any effect."""

    card: Card


ACTION_TYPES: tuple[type[Action], ...] = (Play, PlaySandstorm, PlayWithoutEffect)
