"""The server's background loops, supervised: a failing round is told, waited out and tried again.

A :class:`SupervisedLoop` runs one round of work (say the server is alive,
renew the leases...) every so many seconds for as long as the server runs.  A
round that raises does not end the loop: the error is told to the server's log,
the loop waits longer after each failure in a row (:class:`Backoff`), and goes
on; the first round that works again says so.  What the loop remembers (when a
round last worked, how many failed since) is what the health endpoint shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

import attrs

from karavan_net.serve.eventlog import EventLog, reason


@attrs.frozen
class Backoff:
    """How long a loop waits after failing: ``first`` seconds after one failure, twice as
    long after each more in a row, and never more than ``most``."""

    first: float
    most: float

    def after(self, failures: int) -> float:
        """The wait after ``failures`` failures in a row (at least one)."""
        return min(self.first * 2.0 ** (failures - 1), self.most)


class SupervisedLoop:
    """``step()`` run every ``every`` seconds (the first time after ``first_wait``), whatever
    it raises; each failure is told to ``log``, and ``failed`` (if given) hears the loop's
    name."""

    def __init__(
        self,
        name: str,
        step: Callable[[], Awaitable[None]],
        *,
        every: float,
        backoff: Backoff,
        log: EventLog,
        first_wait: float = 0.0,
        failed: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name
        self.step = step
        self.every = every
        self.backoff = backoff
        self.log = log
        self.first_wait = first_wait
        self.failed = failed
        self.failures = 0  # failed rounds in a row
        self.started = time.monotonic()
        self.last_success: float | None = None  # time.monotonic() at the end of a round
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run the loop on the running event loop."""
        self.started = time.monotonic()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)

    async def stop(self) -> None:
        """End the loop (a round under way is cancelled)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    @property
    def alive(self) -> bool:
        """Whether the loop runs."""
        return self._task is not None and not self._task.done()

    def since_success(self) -> float:
        """Seconds since a round last worked (since the start, if none has yet)."""
        return time.monotonic() - (self.last_success or self.started)

    async def _run(self) -> None:
        wait = self.first_wait
        while True:
            await asyncio.sleep(wait)
            try:
                await self.step()
            except Exception as error:  # whatever the round met, the loop goes on
                wait = self._failure(error)
            else:
                self._success()
                wait = self.every

    def _failure(self, error: Exception) -> float:
        self.failures += 1
        wait = self.backoff.after(self.failures)
        if self.failed is not None:
            self.failed(self.name)
        self.log.event(
            "loop_failed",
            f"The {self.name} loop failed ({reason(error)}): it tries again in {wait:g} s.",
            level="error",
            loop=self.name,
            failures=self.failures,
            retry_in=wait,
            error=reason(error),
        )
        return wait

    def _success(self) -> None:
        if self.failures:
            self.log.event(
                "loop_recovered",
                f"The {self.name} loop works again after {self.failures} failed rounds.",
                loop=self.name,
                failures=self.failures,
            )
        self.failures = 0
        self.last_success = time.monotonic()
