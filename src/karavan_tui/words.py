"""Small helpers for the words on screen."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an "s" unless ``n`` is one: "1 card", "3 cards"."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
