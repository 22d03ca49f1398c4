"""The symbols the app draws with, in a Unicode and a plain ASCII set."""

from __future__ import annotations

from attrs import frozen


@frozen
class Glyphs:
    """One set of symbols; every colour on screen is also carried by a letter or one of these."""

    master: str
    turn: str
    tax: str
    deck: str
    sep: str
    saved: str
    thinking: str
    winner: str
    left: str
    bar: str
    changed: str  # marks what other players changed since your last decision
    ellipsis: str


UNICODE = Glyphs(
    master="♛",
    turn="▶",
    tax="✱",
    deck="▤",
    sep="·",
    saved="✓ saved",
    thinking="⧗ thinking…",
    winner="★",
    left="◂",
    bar="│",
    changed="•",
    ellipsis="…",
)
ASCII = Glyphs(
    master="M",
    turn=">",
    tax="*",
    deck="#",
    sep="|",
    saved="saved",
    thinking="thinking...",
    winner="*",
    left="<",
    bar="|",
    changed="!",
    ellipsis="...",
)


def glyphs(ascii_mode: bool) -> Glyphs:
    """The symbol set for the current mode."""
    return ASCII if ascii_mode else UNICODE
