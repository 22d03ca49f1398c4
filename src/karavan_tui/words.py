"""Small helpers for the words on screen."""

from __future__ import annotations

from collections.abc import Sequence


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an "s" unless ``n`` is one: "1 card", "3 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def listed(words: Sequence[str]) -> str:
    """Words joined as a list is said: "a", "a and b", "a, b and c"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
