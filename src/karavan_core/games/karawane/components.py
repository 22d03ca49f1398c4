"""Karawane's components: the one data table for the game.

Facts marked *assumed* in docs/rulings.md are flagged here; no public source
confirms them, so they live in this one place and are easy to change.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """What a card does when played."""

    OASIS = "oasis"  # move one of your own camels forward
    MIRAGE = "mirage"  # move an opponent's desert camel back
    DRIVER = "driver"  # move one of your camels just ahead of the race leader
    SANDSTORM = "sandstorm"  # everybody reshuffles all their cards


class Card(StrEnum):
    """One card of a player's deck (every player's deck is the same)."""

    OASIS_1 = "oasis-1"
    OASIS_2 = "oasis-2"
    OASIS_3 = "oasis-3"
    OASIS_4 = "oasis-4"
    MIRAGE_1 = "mirage-1"
    MIRAGE_2 = "mirage-2"
    MIRAGE_3 = "mirage-3"
    DRIVER = "driver"
    SANDSTORM = "sandstorm"

    @property
    def kind(self) -> Kind:
        """What the card does."""
        return CARD_KIND[self]

    @property
    def palms(self) -> int:
        """How many free squares the card moves a camel (0 for driver and sandstorm)."""
        return CARD_PALMS[self]

    @property
    def label(self) -> str:
        """The card's name for people: "Oasis 3", "Mirage 1", "Camel driver"."""
        return CARD_LABELS[self]


CARD_KIND: dict[Card, Kind] = {
    Card.OASIS_1: Kind.OASIS,
    Card.OASIS_2: Kind.OASIS,
    Card.OASIS_3: Kind.OASIS,
    Card.OASIS_4: Kind.OASIS,
    Card.MIRAGE_1: Kind.MIRAGE,
    Card.MIRAGE_2: Kind.MIRAGE,
    Card.MIRAGE_3: Kind.MIRAGE,
    Card.DRIVER: Kind.DRIVER,
    Card.SANDSTORM: Kind.SANDSTORM,
}
CARD_PALMS: dict[Card, int] = {
    Card.OASIS_1: 1,
    Card.OASIS_2: 2,
    Card.OASIS_3: 3,
    Card.OASIS_4: 4,
    Card.MIRAGE_1: 1,
    Card.MIRAGE_2: 2,
    Card.MIRAGE_3: 3,
    Card.DRIVER: 0,
    Card.SANDSTORM: 0,
}
CARD_LABELS: dict[Card, str] = {
    Card.OASIS_1: "Oasis 1",
    Card.OASIS_2: "Oasis 2",
    Card.OASIS_3: "Oasis 3",
    Card.OASIS_4: "Oasis 4",
    Card.MIRAGE_1: "Mirage 1",
    Card.MIRAGE_2: "Mirage 2",
    Card.MIRAGE_3: "Mirage 3",
    Card.DRIVER: "Camel driver",
    Card.SANDSTORM: "Sandstorm",
}

# Each player's 12-card deck.  ASSUMED: the palms of the seven oasis cards.
DECK: tuple[Card, ...] = (
    Card.OASIS_1,
    Card.OASIS_1,
    Card.OASIS_2,
    Card.OASIS_2,
    Card.OASIS_3,
    Card.OASIS_3,
    Card.OASIS_4,
    Card.MIRAGE_1,
    Card.MIRAGE_2,
    Card.MIRAGE_3,
    Card.DRIVER,
    Card.SANDSTORM,
)
# Hands are kept in this order so that equal hands are equal tuples.
CARD_RANK: dict[Card, int] = {card: i for i, card in enumerate(Card)}

# The track: the city (square 0, any number of camels), the desert squares,
# then the oasis squares with their points, deepest last.  ASSUMED: both sizes
# and the points.
CITY = 0
DESERT_SQUARES = 20
OASIS_POINTS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
FIRST_OASIS = DESERT_SQUARES + 1
LAST_SQUARE = DESERT_SQUARES + len(OASIS_POINTS)

CAMELS_PER_PLAYER = 3
# The option that keeps the rule of games saved before a camel in the oasis could go
# deeper (see karavan_core.saves): with it false, a camel in the oasis never moves again.
DEEPER_RULE_OPTION = "deeper_in_oasis"
HAND_SIZE = 3
MIN_PLAYERS = 2
MAX_PLAYERS = 4
