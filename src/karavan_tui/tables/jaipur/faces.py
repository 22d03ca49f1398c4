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
LINE_TOKENS = 7  # the values a line of a large card holds: seven one-digit values in 13 cells
TOKEN_LINES = 2  # the lines a card gives the values; more are said with an ellipsis


def token_values(pile: Sequence[int], ellipsis: str) -> str:
    """The values on a goods pile, top first, seven a line: "7 7 5 5 5", "none left".

    The longest pile (leather's nine) takes two lines; a longer one would end in
    ``ellipsis``.
    """
    if not pile:
        return "none left"
    shown = LINE_TOKENS * TOKEN_LINES
    lines = [
        " ".join(map(str, pile[start : start + LINE_TOKENS]))
        for start in range(0, min(len(pile), shown), LINE_TOKENS)
    ]
    return "\n".join(lines) + (ellipsis if len(pile) > shown else "")


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
