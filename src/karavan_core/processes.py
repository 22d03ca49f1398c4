"""Worker processes that start from any host and stay off its terminal.

Reviews and tournaments spread their work over processes started with
"spawn" (forking a process that runs threads is unsafe).  Two things about
the host matter, and neither may break the work:

- ``multiprocessing`` starts its resource tracker once per process, passing
  it ``sys.stderr.fileno()``.  A host that replaces ``sys.stderr`` by an
  object without a real descriptor — a terminal app capturing what is
  printed, whose ``fileno()`` is -1 — makes that start fail ("bad value(s) in
  fds_to_keep").  The tracker is therefore started here, under a lock, with a
  real file standing in for such a stderr for that moment only.
- Workers inherit the host's descriptors 1 and 2, which in a terminal app are
  the terminal it draws on; each worker points them at the null device
  before it does anything else, so no stray warning can land on the screen.
  What a task raises still comes back to the caller through its future.

A review stopped half way (its screen closed, the app quit) must not keep the
host waiting for the decisions still being judged: its workers are ended.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import resource_tracker
from multiprocessing.queues import Queue
from typing import Any

_STARTING = threading.Lock()  # one thread at a time lends sys.stderr a real file


def has_real_stderr() -> bool:
    """Whether ``sys.stderr`` stands on an open file descriptor."""
    try:
        os.fstat(sys.stderr.fileno())
    except (AttributeError, OSError, ValueError):  # no stderr, no descriptor, or a closed one
        return False
    return True


def start_resource_tracker() -> None:
    """Make sure multiprocessing's resource tracker runs, whatever ``sys.stderr`` is now."""
    with _STARTING:
        if has_real_stderr():
            resource_tracker.ensure_running()
            return
        with open(os.devnull, "w", encoding="utf-8") as stand_in:
            host = sys.stderr
            sys.stderr = stand_in
            try:
                resource_tracker.ensure_running()
            finally:
                if sys.stderr is stand_in:  # unless the host changed it meanwhile
                    sys.stderr = host


def quiet_worker() -> None:
    """Point this process's standard output and error at the null device (a worker's start)."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
    finally:
        os.close(null)


def start_worker(setup: Callable[..., object] | None, args: tuple[Any, ...]) -> None:
    """A worker's start: quiet (see :func:`quiet_worker`), then the pool's own ``setup``."""
    quiet_worker()
    if setup is not None:
        setup(*args)


_SPAWN = multiprocessing.get_context("spawn")


def worker_queue() -> Queue[Any]:
    """A queue on which worker processes can tell the host something while they work.

    Handed to the workers through :func:`worker_pool`'s ``setup``; the host only reads it.
    """
    start_resource_tracker()  # the queue's lock needs the tracker, whatever stderr is
    return _SPAWN.Queue()


@contextmanager
def worker_pool(
    jobs: int, setup: Callable[..., object] | None = None, *args: Any
) -> Iterator[ProcessPoolExecutor]:
    """``jobs`` quiet "spawn" worker processes for the ``with`` block.

    Each worker runs ``setup(*args)`` before its first task, where given (a
    module-level function, as "spawn" pickles it).  A worker that dies fails
    the futures of the work it held, instead of leaving them waiting.  Leaving
    the block normally waits for the work given; leaving it by an exception (a
    task's error, Ctrl+C) ends the workers at once.
    """
    start_resource_tracker()
    pool = ProcessPoolExecutor(
        jobs, mp_context=_SPAWN, initializer=start_worker, initargs=(setup, args)
    )
    try:
        yield pool
    except BaseException:
        stop_workers(pool)
        raise
    pool.shutdown()


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: nothing more starts, and its workers drop what they are doing."""
    # What ProcessPoolExecutor.terminate_workers does from Python 3.14 on.
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()
    for worker in workers:
        worker.join()
