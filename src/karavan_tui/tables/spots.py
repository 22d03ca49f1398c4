"""Where a decision's cards lie on the table, for the hint to mark them (``hint_places``).

Every game's table names a card by its spot, the id of its row and its index in
that row; these find the spots of a decision's cards in a row's cards.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

# A card on the table: the id of its row and its index in that row.
Spot = tuple[str, int]


def spots_of(
    row: str, cards: Sequence[Hashable], card: Hashable, most: int | None = None
) -> list[Spot]:
    """The spots of ``row`` (its ``cards`` in order) holding ``card``: the first ``most``."""
    found = [(row, index) for index, there in enumerate(cards) if there == card]
    return found if most is None else found[:most]


def spot_of(row: str, cards: Sequence[Hashable], card: Hashable, offset: int = 0) -> list[Spot]:
    """The first spot of ``row`` holding ``card``, or none; ``offset`` cards precede ``cards``."""
    return [(row, offset + index) for _, index in spots_of(row, cards, card, 1)]


def counted_spots(row: str, counts: Sequence[int]) -> list[Spot]:
    """The spots of ``row`` whose count is not zero (a hand by good, a payment's cards)."""
    return [(row, index) for index, n in enumerate(counts) if n]
