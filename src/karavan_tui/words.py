"""Small helpers for the words on screen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from karavan_core.text import listed as listed  # the engine's words, on screen too

# The chess-style marks of the verdicts below good.
VERDICT_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def verdict_mark(verdict: str) -> str:
    """The chess-style mark of a verdict: ?! inaccuracy, ? mistake, ?? blunder ("" for good)."""
    return VERDICT_SIGNS.get(verdict, "")


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes: a wide character (an emoji, a CJK letter) two."""
    return cell_len(text)


def widest(names: Iterable[str]) -> int:
    """The cells of the widest of ``names`` (0 for none): a column that holds them all."""
    return max((cell_len(name) for name in names), default=0)


def padded(text: str, width: int) -> str:
    """``text`` with spaces after it to fill ``width`` cells (measured in cells, not characters)."""
    return text + " " * max(0, width - cell_len(text))


def cut(text: str, width: int, mark: str) -> str:
    """``text`` in at most ``width`` cells: if longer, cut and ended with ``mark`` (the
    symbol set's ellipsis)."""
    if cell_len(text) <= width:
        return text
    # set_cell_size pads with a space where a wide character would be split in two.
    return set_cell_size(text, max(0, width - cell_len(mark))) + mark


def short_name(name: str, room: int, ellipsis: str) -> str:
    """``name`` in ``room`` cells: whole, else its first and last words, else the first word
    cut before the last ("Ran… 2"), else cut.

    The bots' names differ only at their ends ("Random bot 2", "Random bot 3"):
    cut, they would read alike ("Random b…"); "Random 2" tells them apart.
    """
    if cell_len(name) <= room:
        return name
    words = name.split()
    if len(words) > 1:
        first, last = words[0], words[-1]
        if cell_len(short := f"{first} {last}") <= room:
            return short
        left = room - cell_len(last) - 1  # for the first word: a letter and the ellipsis
        if left > cell_len(ellipsis) and cell_len(first) > left:
            return f"{cut(first, left, ellipsis)} {last}"
    return cut(name, room, ellipsis)


def name_column(names: Sequence[str], most: int, mark: str) -> tuple[list[str], int]:
    """``names`` as a column of at most ``most`` cells shows them, and the column's width.

    A tight zone shortens a long name (:func:`short_name`: its first and last words, else cut
    with ``mark``, the ellipsis) rather than let its line wrap and push what follows the name
    under it; each name fits whole where there is room.
    """
    shown = [short_name(name, max(most, cell_len(mark) + 1), mark) for name in names]
    return shown, widest(shown)


def wrap_tokens(text: Text, tokens: Sequence[Text], used: int, room: int, indent: int) -> None:
    """Append ``tokens`` to ``text`` a space apart, never splitting one.

    ``used`` is how many cells of ``room`` the current line has taken already;
    a token that would pass ``room`` starts a new line, ``indent`` spaces in.
    The tables' lines of tokens (caravans, expeditions, goals) wrap through it.
    """
    for index, token in enumerate(tokens):
        if index and used + 1 + token.cell_len > room:
            text.append("\n" + " " * indent)
            used = indent
        elif index:
            text.append(" ")
            used += 1
        text.append_text(token)
        used += token.cell_len
