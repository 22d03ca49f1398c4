"""The clocks of a timed online table, beside the scores: every person's, always in sight.

A :class:`ClockBoard` draws one line per person (the side panel's box) or all of them on
one row (``compact``: over the table on a narrow screen, where the side panel is a key
away).  The seat to move counts down: twice a second the board is drawn again from the
deadline the server sent and ``now`` (a source the tests fix), never from a count of its
own, so a slow or suspended terminal shows the true time as soon as it draws.  The last
seconds of a live clock are marked by a style and a glyph (ASCII mode has its own), and the
player's own clock rings the bell once as they begin, if the settings say so.  While the
connection is down the running clock says it is paused rather than tick on.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from attrs import frozen
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from karavan_net.protocol import TableClock
from karavan_tui.clock_words import PAUSED, PAUSED_WORDS, Face, face
from karavan_tui.glyphs import Glyphs
from karavan_tui.words import cells, cut, name_column, padded

TICK = 0.5  # seconds between drawings: a second's change is never shown late by more
HURRY_STYLE = "bold reverse red"  # reverse: still marked where colours are off


def system_now() -> datetime:
    """This machine's clock, in UTC."""
    return datetime.now(UTC)


@frozen
class Timing:
    """What the clocks show: the table's ``clock``, the seats' ``names``, who is to move,
    who is at the keyboard (``viewer``; ``None``: a watcher), whether the connection is
    up (``online``), and how many seconds the server's clock is ahead of ours (``skew``:
    the deadlines are the server's)."""

    clock: TableClock
    names: tuple[str, ...]
    to_move: int | None
    viewer: int | None
    online: bool
    glyphs: Glyphs
    skew: float = 0.0


class ClockBoard(Widget):
    """Each person's clock at a timed table; hidden at an untimed one.

    ``now`` tells the time the clocks count from; ``ring`` (if given) is called once when
    the viewer's own live clock enters its last seconds (the bell, where the settings
    want it).
    """

    timing: reactive[Timing | None] = reactive(None, layout=True)

    def __init__(
        self,
        *,
        compact: bool = False,
        now: Callable[[], datetime] = system_now,
        ring: Callable[[], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.compact = compact
        self.now = now
        self.ring = ring
        self._rung: str | None = None  # the deadline the bell rang for

    DEFAULT_CLASSES = "-untimed"  # the stylesheet hides the clocks of an untimed table

    def on_mount(self) -> None:
        """Start ticking."""
        self.set_interval(TICK, self.tick)

    def show(self, timing: Timing | None) -> None:
        """Show ``timing`` (``None``: an untimed table, no clocks)."""
        self.timing = timing
        self.set_class(timing is None, "-untimed")

    def tick(self) -> None:
        """Draw the running clock again, and ring for the viewer's last seconds once."""
        timing = self.timing
        if timing is None or not timing.online:
            return
        faces = self.faces()
        if any(f.running for f in faces.values()):
            self.refresh()
        viewer = timing.viewer
        own = faces.get(viewer) if viewer is not None else None
        deadline = next(
            (t.deadline for t in timing.clock.seats if t.seat == viewer and t.deadline), None
        )
        if own is not None and own.hurry and deadline != self._rung:
            self._rung = deadline
            if self.ring is not None:
                self.ring()

    def faces(self) -> dict[int, Face]:
        """Each person's clock now, by seat."""
        return {} if self.timing is None else faces_at(self.timing, self.now())

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """A line per person (one in all, compact), and one saying the clock is paused."""
        timing = self.timing
        if timing is None or self.compact:
            return 1
        return max(1, len(timing.clock.seats)) + (0 if timing.online else 1)

    def render(self) -> Text:
        """The clocks, laid out for the width there is."""
        timing = self.timing
        if timing is None:
            return Text()
        room = self.content_region.width or 80
        faces = self.faces()
        if self.compact:
            return strip(timing, faces, room)
        return board(timing, faces, room)


def faces_at(timing: Timing, now: datetime) -> dict[int, Face]:
    """Each person's clock at ``now`` (ours: the server's is ahead by the timing's skew), by
    seat (the running one paused while offline)."""
    now += timedelta(seconds=timing.skew)
    shown: dict[int, Face] = {}
    for time in timing.clock.seats:
        if not 0 <= time.seat < len(timing.names):
            continue  # outside data that names no seat
        seen = face(timing.clock, time, now)
        shown[time.seat] = PAUSED if seen.running and not timing.online else seen
    return shown


def shown_words(face: Face, g: Glyphs) -> str:
    """A clock's words, its last seconds marked by the glyph, a seat a bot stands in for
    said to be late (as the lobby says it)."""
    words = f"{g.hurry} {face.words}" if face.hurry else face.words
    return f"{words}, late" if face.late else words


def board(timing: Timing, faces: dict[int, Face], room: int) -> Text:
    """A line per person: the mark of the one to move, the name (cut to fit), the clock."""
    g = timing.glyphs
    words = {seat: shown_words(f, g) for seat, f in faces.items()}
    column = max((cells(w) for w in words.values()), default=0)
    seats = sorted(faces)
    names, width = name_column([timing.names[s] for s in seats], room - 3 - column, g.ellipsis)
    text = Text()
    for index, seat in enumerate(seats):
        if index:
            text.append("\n")
        running = faces[seat].running or seat == timing.to_move
        text.append(f"{g.turn if running else ' '} ", style="bold")
        text.append(padded(names[index], width), style="bold" if seat == timing.viewer else "")
        text.append(" " + " " * (column - cells(words[seat])))
        text.append(words[seat], style=HURRY_STYLE if faces[seat].hurry else "")
    if not timing.online:
        text.append("\n" + cut(PAUSED_WORDS, room, g.ellipsis), style="italic")
    return text


def strip(timing: Timing, faces: dict[int, Face], room: int) -> Text:
    """Every person's clock on one row (the one to move and the viewer's alone, where all
    do not fit), names cut before clocks are."""
    g = timing.glyphs
    seats = sorted(faces)
    sep = f" {g.sep} "

    def entries(chosen: list[int], most: int) -> list[tuple[str, Face]]:
        """Each chosen seat's name (cut to ``most`` cells, the one to move marked), clock."""
        marks = {s: g.turn if s == timing.to_move else "" for s in chosen}
        return [(marks[s] + cut(timing.names[s], most, g.ellipsis), faces[s]) for s in chosen]

    def width(parts: list[tuple[str, Face]]) -> int:
        """The cells the row takes."""
        clocks = sum(cells(name) + 1 + cells(shown_words(f, g)) for name, f in parts)
        return clocks + cells(sep) * (len(parts) - 1)

    chosen = seats
    if width(entries(seats, 4)) > room:
        chosen = [s for s in seats if s in (timing.to_move, timing.viewer)] or seats[:1]
    most = max((cells(timing.names[s]) for s in chosen), default=1)
    parts = entries(chosen, most)
    while most > 2 and width(parts) > room:
        most -= 1
        parts = entries(chosen, most)
    text = Text(no_wrap=True, overflow="ellipsis")
    for index, (name, clock) in enumerate(parts):
        if index:
            text.append(sep, style="dim")
        text.append(name + " ", style="bold" if clock.running else "")
        text.append(shown_words(clock, g), style=HURRY_STYLE if clock.hurry else "")
    if not timing.online:
        text.append(f"{sep}{PAUSED_WORDS}", style="italic")
    return text
