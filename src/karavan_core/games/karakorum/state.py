"""Karakorum's state, decisions and observations (plain frozen values)."""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

from karavan_core.engine import Action, Observation, State, UntilOverStep
from karavan_core.games.karakorum.components import GoalKind, Peak
from karavan_core.text import plural


@frozen(order=True, cache_hash=True)
class Card:
    """A summit card: its peak (colour), its height and the ice axes drawn on it."""

    color: Peak
    value: int
    axes: int

    def __str__(self) -> str:
        axes = plural(self.axes, "axe") if self.axes else "no axes"
        return f"{self.color.value} {self.value} ({axes})"


@frozen(order=True, cache_hash=True)
class Goal:
    """An expedition goal card of one peak."""

    color: Peak
    kind: GoalKind

    def __str__(self) -> str:
        return f"{self.color.value} {self.kind.label} goal (+{self.kind.points})"


@frozen
class Expedition:
    """A pile of summit cards of one peak, bottom first, values never decreasing.

    ``fresh`` marks an expedition that received a card during its owner's
    current placing turn: only those may be scored.
    """

    cards: tuple[Card, ...]
    fresh: bool = False

    @property
    def color(self) -> Peak:
        """The expedition's peak."""
        return self.cards[0].color

    @property
    def top(self) -> int:
        """The value of the top card: the next card must be at least this high."""
        return self.cards[-1].value

    @property
    def axes(self) -> int:
        """The ice axes visible on all its cards."""
        return sum(card.axes for card in self.cards)

    def __str__(self) -> str:
        values = ", ".join(str(card.value) for card in self.cards)
        return f"{self.color.value} expedition ({values})"


class Step(StrEnum):
    """Which decision the player to move faces."""

    REVEAL = "reveal"  # the active player: reveal another card or stop
    TAKE = "take"  # the active player: take a first card from the table
    TAKE_MORE = "take_more"  # the active player: another card of the same peak, or stop
    OTHERS = "others"  # another player: take one card or pass
    PLACE = "place"  # a taker: place the taken cards, remove and score expeditions
    OVER = "over"


Tracks = tuple[int, ...]  # marker position per peak, in PEAKS order


@frozen(slots=False, kw_only=True)  # see values.replace
class KarakorumState(UntilOverStep, State):
    """A whole Karakorum table, hidden parts included."""

    over_step = Step.OVER

    first_player: int  # who held the first-player marker in the first round
    active: int  # who holds the first-player marker now
    current: int  # who decides now
    step: Step
    deck: tuple[Card, ...]  # face down, top first
    table: tuple[Card, ...]  # revealed this round and not yet taken
    held: tuple[tuple[Card, ...], ...]  # taken this round, waiting to be placed, per seat
    expeditions: tuple[tuple[Expedition, ...], ...]
    tracks: tuple[Tracks, ...]
    goals: tuple[Goal, ...]  # goal cards still available to anyone
    claimed: tuple[tuple[Goal, ...], ...]  # goal cards each seat has completed
    discard: tuple[Card, ...]
    round: int = 0  # rounds completed
    instant_winner: int | None = None  # reached the top of all three tracks
    before_final: tuple[Tracks, ...] = ()  # the tracks before the final cancelling
    final_expeditions: tuple[tuple[Expedition, ...], ...] = ()  # the expeditions it closed


@frozen(kw_only=True)
class KarakorumObservation(UntilOverStep, Observation):
    """What one player knows: the whole table except the order of the face-down deck."""

    over_step = Step.OVER

    first_player: int
    active: int
    current: int
    step: Step
    deck_size: int
    table: tuple[Card, ...]
    held: tuple[tuple[Card, ...], ...]
    expeditions: tuple[tuple[Expedition, ...], ...]
    tracks: tuple[Tracks, ...]
    goals: tuple[Goal, ...]
    claimed: tuple[tuple[Goal, ...], ...]
    discard: tuple[Card, ...]
    round: int
    instant_winner: int | None
    before_final: tuple[Tracks, ...]


@frozen
class Reveal(Action):
    """Reveal one more card from the deck."""


@frozen
class StopRevealing(Action):
    """Stop revealing: the cards on the table are the ones to take from."""


@frozen(cache_hash=True)
class Take(Action):
    """Take this card from the table."""

    card: Card


@frozen
class StopTaking(Action):
    """The active player takes no more cards."""


@frozen
class Pass(Action):
    """Another player declines to take a card."""


@frozen(cache_hash=True)
class Place(Action):
    """Put a taken card on top of expedition ``expedition`` (an index), or start one (None)."""

    card: Card
    expedition: int | None


@frozen(cache_hash=True)
class Remove(Action):
    """Discard the 1- or 2-card expedition at this index, moving its marker back."""

    expedition: int


@frozen(cache_hash=True)
class Score(Action):
    """Score the expedition at this index with a goal card of its peak, or by its axes (None)."""

    expedition: int
    goal: GoalKind | None


@frozen
class Done(Action):
    """End the placing turn: every taken card is placed; nothing more to score or remove."""


ACTION_TYPES: tuple[type[Action], ...] = (
    Reveal,
    StopRevealing,
    Take,
    StopTaking,
    Pass,
    Place,
    Remove,
    Score,
    Done,
)
