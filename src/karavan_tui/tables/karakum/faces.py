"""Karakum's cards in full: what a large card says beside its compact face.

A large card (widgets/cards.py: shown once the table's stylesheet gives the card
the rows for it) keeps the compact face's first line, so that the letters and
symbols stay the same in every size, and says in words what the compact face
abbreviates: a camel's colour and its cost ("costs 2 spices", not "2 spice"),
the tax and the bonus card it brings, what a resource card pays for.  Each line
fits 16 cells, the content of a large card.  Plain functions of public facts.
"""

from __future__ import annotations

from karavan_core.games.karakum import components as C
from karavan_core.games.karakum.components import Res
from karavan_core.games.karakum.state import Camel

WIDEST = 16  # cells in a line of a large card (its content, inside the border)


def camel_card(token: str, camel: Camel, cost: int, taxed: bool) -> str:
    """A market camel in full: its colour, its cost in its good, the tax, the bonus card."""
    lines = [token, f"{camel.color.value} camel", f"costs {camel.color.counted(cost)}"]
    if taxed:
        lines.append(f"taxed +{C.TAX}")
    if camel.value == C.BONUS_VALUE:
        lines.append("+1 free card")
    return "\n".join(lines)


def pays_for(res: Res) -> str:
    """The camels a resource card pays for, on two lines: "pays for\\nblue camels"."""
    return "pays for\nany camel" if res is Res.GOLD else f"pays for\n{res.value} camels"


def resource_card(face: str, res: Res) -> str:
    """A resource card (face up, or in the hand) in full: its compact face, what it pays for."""
    return f"{face}\n\n{pays_for(res)}"


def deck_card(face: str) -> str:
    """The resource deck in full: its compact face, and what drawing takes."""
    return f"{face}\n\nthe top card,\nunseen"
