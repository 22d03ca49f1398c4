"""How Karawane's cards look: the compact face, the card in full, the hover tip.

Plain functions of the card and the glyph set: no widget here.  The stylesheet
chooses the size (karawane.tcss); the letters and symbols are the same in every
size, in ASCII mode and without colour.
"""

from __future__ import annotations

from textwrap import wrap

from karavan_core.games.karawane.components import Card, Kind
from karavan_core.text import plural
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.widgets.cards import CardFace

# The columns the card in full is written for (a large card's content width, karawane.tcss).
LARGE_COLUMNS = 24


# What each kind of card does: in a few words for its face, then in a full sentence
# (without the card's name). {palms} is the card's number, {free} its free squares.
EFFECTS: dict[Kind, tuple[str, str]] = {
    Kind.OASIS: ("own camel +{palms}", "Move one of your camels {free} forward."),
    Kind.MIRAGE: (
        "rival camel {minus}{palms}",
        "Move a rival camel on a desert square {free} back.",
    ),
    Kind.DRIVER: (
        "past the leader",
        "Move one of your camels to the square just ahead of the leader.",
    ),
    Kind.SANDSTORM: (
        "all reshuffle",
        "Every player reshuffles all their cards and draws a new hand.",
    ),
}


def card_effect(card: Card, g: Glyphs) -> str:
    """What a card does, in a few words for its face."""
    minus = "-" if g == ASCII else "−"
    return EFFECTS[card.kind][0].format(palms=card.palms, minus=minus)


def card_rule(card: Card) -> str:
    """What a card does, in a full sentence (without its name)."""
    free = plural(card.palms, "free square")
    return EFFECTS[card.kind][1].format(free=free)


def card_tip(card: Card) -> str:
    """A card's effect in a full sentence, for its hover tip."""
    rule = card_rule(card).rstrip(".")
    return f"{card.label}: {rule[0].lower()}{rule[1:]}"


def card_large(card: Card, g: Glyphs) -> str:
    """The card in full: its name, what it does in a few words, then in a sentence."""
    return "\n".join([card.label, card_effect(card, g), "", *wrap(card_rule(card), LARGE_COLUMNS)])


def card_face(card: Card, playable: bool, g: Glyphs) -> CardFace:
    """A card of the hand, dimmed when it cannot be played now."""
    off = "" if playable else " -off"
    compact = f"{card.label}\n{card_effect(card, g)}"
    return CardFace(compact, f"-{card.kind}{off}", card_tip(card), large=card_large(card, g))
