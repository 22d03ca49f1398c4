"""Desktop notifications: the escape sequence that asks the terminal for one, and the news
worth one (a game of mine that has started, a table of mine that waits for me).

A terminal that understands them (iTerm2, WezTerm, kitty, foot, rxvt-unicode, GNOME's)
shows a notification on the desktop; one that does not ignores the sequence.  The app
writes it through its driver (:meth:`~karavan_tui.textual_fixes.FixedApp.write_escape`),
so it never lands in the middle of a frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from karavan_core.registry import get_game
from karavan_core.text import printable
from karavan_net.lobby import TableLine

TURN_NOTE = "Your turn at the table"  # the notification's words when it is the player's turn


def desktop_note(title: str, words: str, environ: Mapping[str, str]) -> str:
    """The escape sequence that asks the terminal for a desktop notification: OSC 777 where
    ``TERM`` (or VTE) says the terminal reads it (rxvt-unicode, foot, GNOME's), OSC 9
    elsewhere (iTerm2, WezTerm, kitty, Windows Terminal).  ``title`` and ``words`` are made
    printable (no character in them can end the sequence), and OSC 777's fields lose their
    separator."""
    title, words = printable(title), printable(words)
    term = environ.get("TERM", "")
    if term.startswith(("rxvt", "foot")) or environ.get("VTE_VERSION"):
        return f"\x1b]777;notify;{title.replace(';', ',')};{words.replace(';', ',')}\x07"
    return f"\x1b]9;{title}: {words}\x07"


def news(before: Sequence[TableLine], tables: Sequence[TableLine]) -> list[str]:
    """What ``tables`` (mine, as the lobby lists them now) hold that is worth a notification
    beside ``before`` (the same list when last seen): a game that waited for players and is
    played now, a table that waits for my decision and did not.  The first look (nothing
    seen before) tells nothing."""
    seen = {line.id: line for line in before}
    said = []
    for line in tables:
        was = seen.get(line.id)
        if was is None:
            continue
        title = get_game(line.game).title
        if was.status == "open" and line.status == "playing":
            said.append(f"Your game of {title} at table {line.id} has started")
        elif line.my_turn and not was.my_turn:
            said.append(f"Your turn at table {line.id} ({title})")
    return said
