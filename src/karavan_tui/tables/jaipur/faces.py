"""Jaipur's cards in full: what a large card says beside its compact face.

A large card (widgets/cards.py: shown once the table's stylesheet gives the card
the rows for it) keeps the compact face's two lines on top, so that the letters
and symbols stay the same in every size, and adds what the card is worth: a
good's token values still on its pile, the herd's camel token, the exchange's
rule.  Each line fits 14 cells, the content of a large card: nothing wraps.  Plain
functions of public facts (the piles are on the table for both players to see).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from rich.cells import cell_len

from karavan_core.games.jaipur.components import CAMEL_TOKEN, MIN_EXCHANGE, Card
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.words import cut

WIDEST = 14  # cells in a line of a large card (its content, inside the border)
RUN = 3  # equal values in a row from which a pile too long for its line counts them


def times(g: Glyphs) -> str:
    """The multiplication sign of the symbol set."""
    return "x" if g == ASCII else "×"


def token_values(pile: Sequence[int], g: Glyphs) -> str:
    """The values on a goods pile, top first, on one line: "7 7 5 5 5", "none left".

    Where they are too many for the line (leather's nine), a run of equal values is
    counted instead ("4 3 2 1×6"), as the token chips count a pile; should even that
    not fit, the line ends in an ellipsis.
    """
    if not pile:
        return "none left"
    plain = " ".join(map(str, pile))
    if cell_len(plain) <= WIDEST:
        return plain
    runs = [(value, len(list(same))) for value, same in groupby(pile)]
    counted = " ".join(
        f"{value}{times(g)}{n}" if n >= RUN else " ".join([str(value)] * n) for value, n in runs
    )
    return cut(counted, WIDEST, g.ellipsis)


def good_card(face: str, good: Card, piles: Sequence[Sequence[int]], g: Glyphs) -> str:
    """A good in full: its compact ``face``, then the tokens a sale of it would take."""
    return f"{face}\n\ntokens left\n{token_values(piles[good.index], g)}"


def camel_card(face: str, camels: int) -> str:
    """The market's camel in full: how many there are, and that they are taken together."""
    return f"{face}\n\n{camels} in market\ntaken together"


def herd_card(face: str) -> str:
    """The herd in full: the token the largest herd wins at the end of the round."""
    return f"{face}\n\nlargest herd\nwins {CAMEL_TOKEN} points"


def exchange_card(face: str) -> str:
    """The exchange card in full: its rule in a few words."""
    return f"{face}\n\ntake {MIN_EXCHANGE} or more\ngive as many"
