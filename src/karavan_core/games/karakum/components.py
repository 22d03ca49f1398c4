"""Karakum's components: the one data table for the game.

Facts marked *assumed* in docs/rulings.md are flagged here; no public source
confirms them, so they live in this one place and are easy to change.
"""

from __future__ import annotations

from enum import StrEnum

from karavan_core.text import plural


class Res(StrEnum):
    """A resource card: one of the five goods (named by colour) or gold."""

    BLUE = "blue"
    PURPLE = "purple"
    RED = "red"
    ORANGE = "orange"
    GREEN = "green"
    GOLD = "gold"

    @property
    def index(self) -> int:  # type: ignore[override]  # hides str.index on purpose
        """Position of this resource in a hand's count tuple."""
        return RES_INDEX[self]

    @property
    def good(self) -> str:
        """The good's name ("jewelry" for blue, …; "gold" for gold)."""
        return GOOD_NAMES[self]

    def counted(self, n: int) -> str:
        """``n`` cards of this resource in words: "1 spice", "2 spices", "3 jewelry"."""
        return plural(n, GOOD_SINGULAR.get(self, GOOD_NAMES[self]), GOOD_NAMES[self])


RESOURCES: tuple[Res, ...] = tuple(Res)
GOODS: tuple[Res, ...] = RESOURCES[:5]
RES_INDEX: dict[Res, int] = {res: i for i, res in enumerate(RESOURCES)}
GOLD_INDEX = RES_INDEX[Res.GOLD]
GOOD_NAMES: dict[Res, str] = {
    Res.BLUE: "jewelry",
    Res.PURPLE: "silk",
    Res.RED: "spices",
    Res.ORANGE: "honey",
    Res.GREEN: "paper",
    Res.GOLD: "gold",
}
GOOD_SINGULAR: dict[Res, str] = {Res.RED: "spice"}  # the other names are uncountable
# One letter per resource so that colour is never the only cue.
RES_LETTERS: dict[Res, str] = {
    Res.BLUE: "B",
    Res.PURPLE: "P",
    Res.RED: "R",
    Res.ORANGE: "O",
    Res.GREEN: "G",
    Res.GOLD: "$",
}

GOODS_PER_TYPE = 13
GOLD_CARDS = 6
RESOURCE_COUNTS: tuple[int, ...] = (GOODS_PER_TYPE,) * len(GOODS) + (GOLD_CARDS,)

# ASSUMED: values 1 to 7, one camel of each per colour.
CAMEL_VALUES: tuple[int, ...] = tuple(range(1, 8))

CAMELS_REMOVED: dict[int, int] = {2: 12, 3: 8, 4: 0}
MARKET_SIZE = 5
ROW_SIZE = 5
STARTING_HAND = 5
TAX = 1  # extra payment units for camels of the colour in the slot next to the deck
BONUS_VALUE = 1  # buying a camel of this value grants a free resource card
# The option that keeps the rule of games saved before a payment refilled the face-up row
# (see karavan_core.saves): with it false, a place left empty stays empty to the end.
ROW_RULE_OPTION = "payment_refills_row"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
