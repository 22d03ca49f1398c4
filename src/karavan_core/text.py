"""Text from outside — player names, file names, arguments — checked at the door and shown safely.

A name is shown in tables, logs and file listings, so it may not hold what
a terminal would act on (control characters, escape sequences) or what
would reorder the text around it (bidirectional overrides).  Names typed
today are refused with a sentence; names read from saves of older versions
have such characters replaced.  Anything else from outside (a file name, an
argument) is shown through :func:`printable`.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from typing import Any

MAX_NAME_LENGTH = 24
"""The longest player name, in characters: enough for a full first name and more."""

# Characters that change the direction of the text around them.
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Control characters, lone surrogates, and line or paragraph separators.
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
REPLACEMENT = "\ufffd"


def is_unsafe(char: str) -> bool:
    """Whether ``char`` may not be shown as it is (a terminal would act on it or reorder text)."""
    return char in _BIDI_CONTROLS or unicodedata.category(char) in _UNSAFE_CATEGORIES


def _escaped(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every unsafe character written as an escape (``\\x1b``, ``\\u202e``)."""
    if not any(is_unsafe(char) for char in text):
        return text
    return "".join(_escaped(char) if is_unsafe(char) else char for char in text)


def check_name(text: str) -> str:
    """The player name ``text`` (outer spaces removed); ``ValueError`` with a sentence if unfit."""
    name = text.strip()
    if not name:
        raise ValueError("A player name cannot be empty.")
    unsafe = [char for char in name if is_unsafe(char)]
    if unsafe:
        raise ValueError(
            "A player name cannot hold control or text-direction characters "
            f"(it holds {_escaped(unsafe[0])})."
        )
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(
            f"A player name can have at most {MAX_NAME_LENGTH} characters "
            f"({printable(name[:MAX_NAME_LENGTH])}… has {len(name)})."
        )
    return name


def clean_name(text: str) -> str:
    """A name read from an older save, made fit: unsafe characters replaced, length cut."""
    name = "".join(REPLACEMENT if is_unsafe(char) else char for char in text).strip()
    return name[:MAX_NAME_LENGTH].rstrip() or REPLACEMENT


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number too large to hold")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def parse_json(text: str) -> Any:
    """``text`` as JSON from outside (a save, a network message), with no number that is not one.

    ``json.loads`` accepts ``NaN``, ``Infinity`` and ``1e999`` (infinite once
    read); no Karavan file or message holds them, so they are refused with
    ``ValueError`` like any other malformed JSON.
    """
    return json.loads(text, parse_float=_finite, parse_constant=_no_constant)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, in the plural unless ``n`` is one: "1 card", "3 cards", "0 cards".

    The plural is ``word`` with an "s" unless ``many`` gives another ("process",
    "processes"; a good that is not counted, such as "silk", gives ``word`` itself).
    Every count in words goes through here.
    """
    return f"{n} {word}" if n == 1 else f"{n} {word + 's' if many is None else many}"


_SPELLED = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def spelled(n: int) -> str:
    """A small count in letters, as a sentence says it ("three"); digits past ten."""
    return _SPELLED[n] if 0 <= n < len(_SPELLED) else str(n)


def listed(words: Sequence[str]) -> str:
    """Words joined as a list is said: "a", "a and b", "a, b and c"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def local_time(stamp: str) -> str:
    """An ISO time stamp (a save's) as local ``YYYY-MM-DD HH:MM``; a stamp that is not one
    is shown as it is ("?" if empty)."""
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp or "?"
