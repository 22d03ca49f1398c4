"""Jaipur's cards in full: what a large card says beside its compact face.

A large card (widgets/cards.py: shown once the table's stylesheet gives the card
the rows for it) keeps the compact face's two lines on top, so that the letters
and symbols stay the same in every size, and adds what the card is worth: a
good's token values still on its pile, the herd's camel token, the exchange's
rule.  Each line fits 14 cells, the content of a large card.  Plain functions
of public facts (the piles are on the table for both players to see).
"""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.games.jaipur.components import CAMEL_TOKEN, MIN_EXCHANGE, Card

WIDEST = 14  # cells in a line of a large card (its content, inside the border)
SHOWN_TOKENS = 6  # the top values a card lists; more are said with an ellipsis


def token_values(pile: Sequence[int], ellipsis: str) -> str:
    """The values on a goods pile, top first: "7 7 5 5 5", "4 3 2 1 1 1…", "none left"."""
    if not pile:
        return "none left"
    values = " ".join(map(str, pile[:SHOWN_TOKENS]))
    return values + (ellipsis if len(pile) > SHOWN_TOKENS else "")


def good_card(face: str, good: Card, piles: Sequence[Sequence[int]], ellipsis: str) -> str:
    """A good in full: its compact ``face``, then the tokens a sale of it would take."""
    return f"{face}\n\ntokens left\n{token_values(piles[good.index], ellipsis)}"


def camel_card(face: str, camels: int) -> str:
    """The market's camel in full: how many there are, and that they are taken together."""
    return f"{face}\n\n{camels} in market\ntaken together"


def herd_card(face: str) -> str:
    """The herd in full: the token the largest herd wins at the end of the round."""
    return f"{face}\n\nlargest herd\nwins {CAMEL_TOKEN} points"


def exchange_card(face: str) -> str:
    """The exchange card in full: its rule in a few words."""
    return f"{face}\n\ntake {MIN_EXCHANGE} or more\ngive as many"
