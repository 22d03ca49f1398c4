"""Group commit: the decisions of every table of a server kept together, one commit for many.

Each table's save writer (see :class:`karavan_core.storage.SaveWriter`), running on one of the
queue's pool of writer threads, hands its table's change to the server's one
:class:`CommitQueue` and waits.  The queue's
thread writes every change that came while the last commit was being written in one
transaction, so a hundred live tables cost a few commits a second instead of a hundred: the
commit's flush to disk is what a decision waits for, and it is paid once for all of them.
Nothing is shown before it is kept: each writer returns only once its change is committed.

On SQLite this also keeps the server to one writer: tables writing each on their own
would take turns at the database file's lock, each waiting in SQLite's back-off sleeps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from karavan_net.serve.metrics import ServerMetrics
from karavan_net.serve.store import Decision, Store

WRITERS = 32  # tables' writes waiting for a commit at once (more wait for a writer)
BATCH_MOST = 200  # changes in one transaction: a commit stays short whatever the load


class CommitQueue:
    """One thread committing the tables' changes to ``store``, those waiting together;
    ``metrics`` (if given) hears each commit."""

    def __init__(self, store: Store, metrics: ServerMetrics | None = None) -> None:
        self.store = store
        self.metrics = metrics
        self._waiting: list[tuple[Decision, Future[bool]]] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="karavan-commits", daemon=True)
        self._thread.start()
        # The tables' save writers, each waiting here for its change's commit: a pool, so
        # that a change costs no thread started for it.
        self._writers = ThreadPoolExecutor(WRITERS, thread_name_prefix="karavan-save")

    def run_write(self, write: Callable[[], None]) -> None:
        """Run a table's ``write`` on one of the writers (on a thread of its own once the
        queue has closed)."""
        try:
            self._writers.submit(write)
        except RuntimeError:  # shut down: the server is stopping, and its tables with it
            threading.Thread(target=write, name="karavan-save").start()

    def record(self, decision: Decision) -> bool:
        """Keep ``decision`` (see :meth:`~karavan_net.serve.store.tables.Tables.record_all`)
        and wait until it is committed; whether it was kept.  The database's own errors are
        raised here."""
        done: Future[bool] = Future()
        with self._cond:
            if self._closed:
                return self.store.tables.record_all([decision])[0]
            self._waiting.append((decision, done))
            self._cond.notify()
        return done.result()

    def close(self) -> None:
        """Let the writers finish, commit what is waiting, then stop the thread (changes after
        that are written at once, each on its own)."""
        self._writers.shutdown(wait=True)
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join()

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._waiting or self._closed)
                batch, self._waiting = self._waiting[:BATCH_MOST], self._waiting[BATCH_MOST:]
                if not batch and self._closed:
                    return
            self._commit(batch)

    def _commit(self, batch: Sequence[tuple[Decision, Future[bool]]]) -> None:
        began = time.monotonic()
        try:
            kept = self.store.tables.record_all([decision for decision, _ in batch])
        except Exception:  # one change the database refuses: each alone
            for decision, done in batch:
                self._commit_alone(decision, done)
            return
        if self.metrics is not None:
            self.metrics.committed(len(batch), sum(kept), time.monotonic() - began)
        for (_, done), one in zip(batch, kept, strict=True):
            done.set_result(one)

    def _commit_alone(self, decision: Decision, done: Future[bool]) -> None:
        began = time.monotonic()
        try:
            kept = self.store.tables.record_all([decision])[0]
        except Exception as error:  # the writer waiting for it reports it
            done.set_exception(error)
            return
        if self.metrics is not None:
            self.metrics.committed(1, int(kept), time.monotonic() - began)
        done.set_result(kept)
