"""Autosave without making the player wait for the disk.

The save text is made on the UI thread (about half a millisecond: a snapshot
of the match as it is), and written with fsync on a background thread (ten
milliseconds or more).  Writes are numbered and only ever move forward, so the
file always ends up holding the newest position; :meth:`flush` waits for them.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from karavan_core.match import Match
from karavan_core.saves import atomic_write, envelope


class BackgroundSaver:
    """Writes ``match`` to its save file after every change, off the UI thread."""

    def __init__(self) -> None:
        self.error: OSError | None = None  # the last failed write, for the UI to report
        self._lock = threading.Lock()
        self._issued = 0
        self._written = 0
        self._threads: list[threading.Thread] = []

    def save(self, match: Match, path: Path) -> None:
        """Snapshot ``match`` now and write it to ``path`` in the background."""
        text = json.dumps(envelope(match), separators=(",", ":"))
        self._issued += 1
        self._threads = [t for t in self._threads if t.is_alive()]
        # Not a daemon: the interpreter waits for it, so quitting loses nothing.
        thread = threading.Thread(target=self._write, args=(path, text, self._issued))
        self._threads.append(thread)
        thread.start()

    def _write(self, path: Path, text: str, number: int) -> None:
        with self._lock:
            if number <= self._written:  # a newer position is on disk already
                return
            try:
                atomic_write(path, text)
            except OSError as error:
                self.error = error
                return
            self.error = None
            self._written = number

    def flush(self) -> None:
        """Wait until every save asked for is on disk."""
        for thread in list(self._threads):
            thread.join()
        self._threads.clear()
