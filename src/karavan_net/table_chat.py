"""The chat of a hosted table: the lines said there, who may say one, and how often.

Players say lines at their table (and watchers too, where the table lets them); every
connection that speaks revision :data:`~karavan_net.protocol.CHAT_SINCE` of the protocol
is sent each line as it is said, and every line kept when it joins.  A line is outside
data: it is checked at the door (its length, the speaker's pace) and made safe to show
(every control or text-direction character written as an escape, ``\\x1b``), and each
client shows it as plain text all the same.  The table keeps its lines in memory; a
server's table also hands each to ``keep``, which writes it to the database with the game.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable

from karavan_core.text import printable
from karavan_net.link import Link
from karavan_net.protocol import CHAT_SINCE, Chat, ChatLine, HostMessage
from karavan_net.seat_registry import SeatRegistry

MAX_CHAT = 200
"""The most characters a chat line holds."""
CHAT_LINES, CHAT_SECONDS = 5, 10.0
"""The most lines one speaker says in so many seconds."""
KEPT = 100
"""The lines a table keeps in memory and sends to a client that joins (the newest)."""

Send = Callable[[int | None, HostMessage, Link], None]


def chat_refusal(text: str) -> str | None:
    """Why ``text`` may not be said, in words, or ``None`` if it may."""
    if not text.strip():
        return "Say something: that line is empty."
    if len(text) > MAX_CHAT:
        return f"A chat line holds at most {MAX_CHAT} characters (that one has {len(text)})."
    return None


class TableChat:
    """The chat of the table whose seats ``seats`` holds; lines go out through ``send``.

    ``watchers`` says whether watchers may say lines too (they always read them);
    ``keep`` (if given) is handed each new line, on the table's loop, to keep it elsewhere.
    ``clock`` gives seconds (tests give their own).
    """

    def __init__(
        self,
        seats: SeatRegistry,
        send: Send,
        *,
        watchers: bool = False,
        keep: Callable[[ChatLine], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seats = seats
        self.send = send
        self.watchers = watchers
        self.keep = keep
        self.clock = clock
        self.lines: deque[ChatLine] = deque(maxlen=KEPT)
        self.said = 0  # the next line's number
        self._names: dict[Link, str] = {}  # the watchers' names
        self._paces: dict[object, deque[float]] = {}  # each speaker's latest lines' times

    def resume(self, earlier: Iterable[ChatLine]) -> None:
        """Go on from the lines said ``earlier`` at this table (a server's, read from its
        store; or its last game's)."""
        self.lines.extend(earlier)
        if self.lines:
            self.said = max(self.said, self.lines[-1].number + 1)

    def joined(self, link: Link, name: str = "") -> None:
        """``link`` came to the table (a watcher's called ``name``): it is sent the lines
        kept, if it reads the chat."""
        if link.seat is None:
            self._names[link] = name
        if link.minor >= CHAT_SINCE:
            self.send(link.seat, Chat(list(self.lines), self.open_to(link)), link)

    def left(self, link: Link) -> None:
        """``link`` is gone."""
        self._names.pop(link, None)

    def open_to(self, link: Link) -> bool:
        """Whether ``link`` may say lines here."""
        return link.seat is not None or self.watchers

    def say(self, link: Link, text: str) -> None:
        """``link`` says ``text``: everyone is sent it, or ``link`` is told why not."""
        refusal = self.refusal(link, text)
        if refusal is not None:
            self.send(link.seat, Chat([], self.open_to(link), refusal), link)
            return
        seat = link.seat
        name = self._names.get(link, "") if seat is None else self.seats.match.seats[seat].name
        line = ChatLine(self.said, name or "A watcher", printable(text.strip()), seat)
        self.said += 1
        self.lines.append(line)
        if self.keep is not None:
            self.keep(line)
        for at, each in self.seats.everyone():
            if each.minor >= CHAT_SINCE:
                self.send(at, Chat([line], self.open_to(each)), each)

    def refusal(self, link: Link, text: str) -> str | None:
        """Why ``link`` may not say ``text`` now, or ``None`` (its line is counted)."""
        if not self.open_to(link):
            return "Watchers read this table's chat: only its players write in it."
        if type(text) is not str:
            return "Say something: that line is empty."
        refused = chat_refusal(text)
        if refused is not None:
            return refused
        name = self._names.get(link, "")
        speaker = link.seat if link.seat is not None else (name.casefold() or id(link))
        pace = self._paces.setdefault(speaker, deque(maxlen=CHAT_LINES))
        now = self.clock()
        if len(pace) == CHAT_LINES and now - pace[0] < CHAT_SECONDS:
            return (
                f"You chat faster than this table allows: at most {CHAT_LINES} lines "
                f"in {CHAT_SECONDS:g} seconds."
            )
        pace.append(now)
        return None
