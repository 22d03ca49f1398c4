"""Karakum's state, decisions and observations (plain frozen values)."""

from __future__ import annotations

from enum import StrEnum

from attrs import frozen

from karavan_core.engine import Action, Observation, State, UntilOverStep
from karavan_core.games.karakum.components import Res


@frozen(order=True)
class Camel:
    """A camel card: its colour names the good that pays for it; its value is cost and points."""

    color: Res
    value: int

    def __str__(self) -> str:
        return f"{self.color.value} {self.value}"


class Step(StrEnum):
    """Which decision the player to move faces."""

    CHOOSE = "choose"  # start of a turn: gather or buy
    SECOND_CARD = "second_card"  # gathering: the second card
    PAY = "pay"  # buying: choose the payment
    JOIN = "join"  # several left-side camels could join: which one first
    BONUS = "bonus"  # a value-1 camel was bought: take a free resource
    OVER = "over"


Hand = tuple[int, ...]  # counts per resource, in RESOURCES order


@frozen(slots=False, kw_only=True)  # see values.replace
class KarakumState(UntilOverStep, State):
    """A whole Karakum table, hidden parts included."""

    over_step = Step.OVER

    first_player: int
    current: int
    step: Step
    camel_deck: tuple[Camel, ...]  # top first
    removed: tuple[Camel, ...]  # set aside unseen at setup
    market: tuple[Camel | None, ...]  # slot 0 lies next to the camel deck and sets the tax
    resource_deck: tuple[Res, ...]  # top first
    row: tuple[Res | None, ...]  # the face-up resources
    discard: Hand
    hands: tuple[Hand, ...]
    caravans: tuple[tuple[Camel, ...], ...]  # right of each caravan master, in order
    lefts: tuple[tuple[Camel, ...], ...]  # left of each caravan master
    slot: int | None = None  # the market slot being bought (PAY step)
    bonus_due: bool = False  # a value-1 camel was bought this turn
    passes: int = 0  # consecutive turns passed because no move was possible
    turn: int = 0  # turns completed
    # A payment refills the face-up places left empty (RULINGS.md). False only in a game
    # saved before that ruling whose table it changes: such a game replays as it was played.
    payment_refills_row: bool = True


@frozen(kw_only=True)
class KarakumObservation(UntilOverStep, Observation):
    """What one player knows: everything public plus their own hand."""

    over_step = Step.OVER

    first_player: int
    current: int
    step: Step
    camel_deck_size: int
    market: tuple[Camel | None, ...]
    resource_deck_size: int
    row: tuple[Res | None, ...]
    discard: Hand
    hand: Hand | None  # None in the public view
    hand_sizes: tuple[int, ...]
    caravans: tuple[tuple[Camel, ...], ...]
    lefts: tuple[tuple[Camel, ...], ...]
    slot: int | None
    bonus_due: bool
    passes: int
    turn: int
    payment_refills_row: bool


@frozen
class TakeCard(Action):
    """Take the face-up resource in ``slot`` (0-based) of the row."""

    slot: int


@frozen
class DrawCard(Action):
    """Take the top card of the resource deck, unseen."""


@frozen
class Buy(Action):
    """Buy the market camel in ``slot`` (0 is next to the camel deck); payment follows."""

    slot: int


@frozen
class Pay(Action):
    """Pay for the camel being bought with these cards (counts per resource)."""

    cards: Hand


@frozen
class Join(Action):
    """Move the left-side camel at ``index`` into the caravan."""

    index: int


@frozen
class Pass(Action):
    """Do nothing: offered only when no other move is possible."""


ACTION_TYPES: tuple[type[Action], ...] = (TakeCard, DrawCard, Buy, Pay, Join, Pass)
