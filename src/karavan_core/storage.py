"""Where a referee keeps its match: a storage interface and one coalescing writer.

A :class:`Storage` turns a match into what to keep (quickly, on the caller's
thread, while the match holds still: a save file's text, a server's row) and
writes it (slowly, with fsync, on a thread of its own).  The :class:`SaveWriter` runs the
writes: the caller never waits for the disk, and when several changes come
while a write is under way only the newest is written next, so the file
always ends up holding the latest position.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from karavan_core.match import Match
from karavan_core.saves import atomic_write, envelope

S = TypeVar("S")
Runner = Callable[[Callable[[], None]], object]
"""Runs a piece of work on another thread (a pool's ``submit``, say)."""


class Storage(Protocol[S]):
    """Somewhere a match is kept, as snapshots of type ``S``."""

    def snapshot(self, match: Match) -> S:
        """What to keep of ``match`` as it is now (called on the changing thread)."""

    def write(self, snapshot: S) -> None:
        """Keep ``snapshot``, replacing what was kept before (called on the writer's thread)."""


class SaveFile:
    """A save file on disk: the save format's envelope, written atomically."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def snapshot(self, match: Match) -> str:
        """``match`` in the save format."""
        return json.dumps(envelope(match), separators=(",", ":"))

    def write(self, snapshot: str) -> None:
        """Replace the file with ``snapshot``, its text (temp file, fsync, rename)."""
        atomic_write(self.path, snapshot)


class SaveWriter:
    """Writes a match to its storage after each change, off the caller's thread.

    :meth:`submit` snapshots the match at once and returns; one writer thread
    at a time writes the newest snapshot.  The thread is not a daemon, so the
    interpreter waits for it at exit and nothing is lost by quitting.  With
    ``runs``, the writes run there instead of on a thread started for them (a
    server of many tables keeps a pool of writers rather than starting a thread a
    change).

    ``kept`` (if set) hears, on the writer's thread, the revision of each
    snapshot once its write has ended: from then on that position is on disk
    (unless :attr:`error` says the write failed).  A host shows a position
    only once it is kept, so that no crash loses what the players saw.  It
    must not raise, and should be quick: the next write waits for it.
    """

    def __init__(
        self,
        storage: Storage[Any],
        kept: Callable[[int], None] | None = None,
        runs: Runner | None = None,
    ) -> None:
        self.storage = storage
        self.kept = kept
        self.runs = runs or _on_a_thread_of_its_own
        self.error: OSError | None = None  # the last write's failure, cleared by a success
        self._cond = threading.Condition()
        self._pending: tuple[Any, int] | None = None
        self._writing = False  # a write is under way (or about to be)

    def submit(self, match: Match) -> None:
        """Keep ``match`` as it is now; returns before the disk is touched."""
        snapshot = self.storage.snapshot(match)
        with self._cond:
            self._pending = (snapshot, match.revision)  # an older one not yet written is dropped
            if self._writing:
                return
            self._writing = True
        self.runs(self._run)

    def _run(self) -> None:
        while True:
            with self._cond:
                pending, self._pending = self._pending, None
                if pending is None:
                    self._writing = False
                    self._cond.notify_all()
                    return
            snapshot, revision = pending
            try:
                self.storage.write(snapshot)
            except OSError as error:
                self.error = error
            else:
                self.error = None
            if self.kept is not None:
                self.kept(revision)  # before flush() returns: a flushed write has been told

    def flush(self) -> None:
        """Wait until the newest snapshot is written (or has failed)."""
        with self._cond:
            self._cond.wait_for(lambda: not self._writing)


def _on_a_thread_of_its_own(work: Callable[[], None]) -> None:
    """Run ``work`` on a thread started for it (not a daemon: the interpreter waits for it)."""
    threading.Thread(target=work, name="karavan-save").start()
