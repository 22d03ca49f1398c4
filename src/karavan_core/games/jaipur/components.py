"""Jaipur's components: the one data table for the game.

Every number here comes from the Jaipur section of docs/rulings.md; none is
marked *assumed* there.  The one choice of our own (who starts after a round
with no seal) is flagged below.
"""

from __future__ import annotations

from enum import StrEnum

from karavan_core.text import plural


class Card(StrEnum):
    """A card of the deck: one of the six goods, or a camel."""

    DIAMONDS = "diamonds"
    GOLD = "gold"
    SILVER = "silver"
    CLOTH = "cloth"
    SPICE = "spice"
    LEATHER = "leather"
    CAMEL = "camel"

    @property
    def index(self) -> int:  # type: ignore[override]  # hides str.index on purpose
        """Position of this card in a count tuple (the market has all seven, a hand six)."""
        return CARD_INDEX[self]

    def amount(self, n: int) -> str:
        """``n`` cards of this kind in words: "1 diamond", "3 spices", "2 camels"."""
        singular, many = NOUNS[self]
        return plural(n, singular, many)


CARDS: tuple[Card, ...] = tuple(Card)
GOODS: tuple[Card, ...] = CARDS[:6]
CARD_INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
CAMEL = CARD_INDEX[Card.CAMEL]  # index of camels in a market count tuple
PRECIOUS: frozenset[Card] = frozenset({Card.DIAMONDS, Card.GOLD, Card.SILVER})
NOUNS: dict[Card, tuple[str, str]] = {
    Card.DIAMONDS: ("diamond", "diamonds"),
    Card.GOLD: ("gold", "gold"),
    Card.SILVER: ("silver", "silver"),
    Card.CLOTH: ("cloth", "cloth"),
    Card.SPICE: ("spice", "spices"),
    Card.LEATHER: ("leather", "leather"),
    Card.CAMEL: ("camel", "camels"),
}
# One letter per card so that colour is never the only cue.
LETTERS: dict[Card, str] = {
    Card.DIAMONDS: "D",
    Card.GOLD: "G",
    Card.SILVER: "S",
    Card.CLOTH: "C",
    Card.SPICE: "P",
    Card.LEATHER: "L",
    Card.CAMEL: "K",
}

# The deck of 55, counted in CARDS order.
CARD_COUNTS: tuple[int, ...] = (6, 6, 6, 8, 8, 10, 11)

# Goods tokens per good (GOODS order), top of the pile first.
GOODS_TOKENS: tuple[tuple[int, ...], ...] = (
    (7, 7, 5, 5, 5),
    (6, 6, 5, 5, 5),
    (5, 5, 5, 5, 5),
    (5, 3, 3, 2, 2, 1, 1),
    (5, 3, 3, 2, 2, 1, 1),
    (4, 3, 2, 1, 1, 1, 1, 1, 1),
)

# Bonus piles, each shuffled face down: the sale size that earns it and its tokens.
BONUS_SIZES: tuple[int, ...] = (3, 4, 5)  # a sale of 5 or more takes from the last pile
BONUS_TOKENS: tuple[tuple[int, ...], ...] = (
    (3, 3, 2, 2, 2, 1, 1),
    (6, 6, 5, 5, 4, 4),
    (10, 10, 9, 8, 8),
)

CAMEL_TOKEN = 5
SEALS_TO_WIN = 2
MARKET_SIZE = 5
MARKET_CAMELS = 3  # camels put in the market at the start of each round
HAND_SIZE = 5  # cards dealt to each player
HAND_LIMIT = 7
PRECIOUS_MIN_SALE = 2
EMPTY_PILES_TO_END = 3
MIN_EXCHANGE = 2  # goods taken in an exchange, at least
PLAYERS = 2

# Our own ruling (the rules are silent; see docs/rulings.md): after a round with no
# seal, the player who did not start it starts the next, as if the start alternated.
TIED_ROUND_ALTERNATES_START = True
