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
    blank: str  # an empty place on the table (a card taken, a square free)
    hurry: str  # marks a clock in its last seconds
    plain: bool = False  # ASCII only: outside words are shown with ASCII stand-ins

    def words(self, text: str) -> str:
        """``text`` from the engine (a log line, a preview, a prompt) in this symbol set.

        The engine writes ordinary typography (a camel moves "square 3 → 5"); in
        ASCII mode each such character is shown as its ASCII stand-in.
        """
        return text.translate(STAND_INS) if self.plain else text


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
    blank="·",
    hurry="⚠",
)
# The typography the engine's words use, and what ASCII mode shows for each.
STAND_INS = str.maketrans(
    {
        "→": "->",
        "←": "<-",
        "…": "...",
        "—": "-",
        "–": "-",
        "×": "x",
        "·": "|",
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "\u00a0": " ",
    }
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
    blank=".",
    hurry="!",
    plain=True,
)


def glyphs(ascii_mode: bool) -> Glyphs:
    """The symbol set for the current mode."""
    return ASCII if ascii_mode else UNICODE
