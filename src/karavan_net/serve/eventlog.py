"""What a server prints: one line per event, a plain sentence or one JSON object.

Each event has a kind (``login``, ``loop_failed``, ``table``...), a sentence and
fields (the table it is about, the loop that failed...).  By default a line is
the sentence alone, as a person reads it; with ``json`` it is one JSON object
(``time``, ``level``, ``event``, ``message``, and the fields), as a log
collector reads it.  The fields are chosen by the server, never a key or a
password; the sentence goes through :func:`~karavan_core.text.printable`, as
names from outside are in it.

A :class:`LineWriter` writes the lines on a thread of its own, so that a slow
reader of the server's output never holds up its event loop.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TextIO

from karavan_core.text import printable

Field = str | int | float | bool | None
LEVELS = ("info", "warning", "error")


class EventLog:
    """Where a server's events go: ``write`` hears each line (``json``: as a JSON object)."""

    def __init__(self, write: Callable[[str], None], *, json: bool = False) -> None:
        self.write = write
        self.json = json

    def event(
        self,
        kind: str,
        message: str,
        *,
        level: str = "info",
        table: int | None = None,
        **fields: Field,
    ) -> None:
        """Tell of one event of ``kind``, in the sentence ``message``, about ``table`` (if
        one), with ``fields``; ``level`` is one of :data:`LEVELS`."""
        self.write(self.format(kind, message, level=level, table=table, **fields))

    def format(
        self,
        kind: str,
        message: str,
        *,
        level: str = "info",
        table: int | None = None,
        **fields: Field,
    ) -> str:
        """The line :meth:`event` writes."""
        message = printable(message)
        if not self.json:
            return message
        data: dict[str, Field] = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "level": level,
            "event": kind,
        }
        if table is not None:
            data["table"] = table
        data.update(fields)
        data["message"] = message
        return json.dumps(data, ensure_ascii=False)

    def line(self, message: str) -> None:
        """Tell a sentence of a part that only says sentences (the doorman, the ssh door)."""
        self.event("said", message)

    def about_table(self, table_id: int) -> Callable[[str], None]:
        """What table ``table_id`` says (who comes and goes, how its game ends), each
        sentence told as that table's."""
        return lambda message: self.event("table", f"Table {table_id}: {message}", table=table_id)


def quiet() -> EventLog:
    """A log that tells nobody."""
    return EventLog(lambda _: None)


def reason(error: BaseException) -> str:
    """``error`` in a few words for the log: its kind and its first line (a database's
    error goes on with the statement and its parameters, which stay out)."""
    lines = str(error).strip().splitlines()
    first = lines[0][:200] if lines else ""
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


class LineWriter:
    """Writes lines to ``stream`` on a thread of its own, flushing each.

    At most ``most`` lines wait; past that a line is dropped and counted, and
    the line ``note(count)`` makes is written once there is room again.
    """

    def __init__(self, stream: TextIO, most: int = 10_000) -> None:
        self.stream = stream
        self.note: Callable[[int], str] = lambda count: f"({count} lines of output were dropped)"
        self.dropped = 0
        self._waiting: queue.Queue[str | None] = queue.Queue(most)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="karavan-log", daemon=True)
        self._thread.start()

    def __call__(self, line: str) -> None:
        """Write ``line`` soon; never waits."""
        try:
            self._waiting.put_nowait(line)
        except queue.Full:
            with self._lock:
                self.dropped += 1

    def close(self) -> None:
        """Write every line waiting, then stop the thread."""
        self._waiting.put(None)
        self._thread.join()

    def _run(self) -> None:
        while (line := self._waiting.get()) is not None:
            with self._lock:
                dropped, self.dropped = self.dropped, 0
            if dropped:
                self._write(self.note(dropped))
            self._write(line)

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # the output is closed: nothing more can be said there
