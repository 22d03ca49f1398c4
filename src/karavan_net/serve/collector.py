"""Python's cycle collector, paced for a process that holds many live tables.

Every live table holds its game in memory, each state and decision so far: at a
thousand tables that is hundreds of thousands of objects, and CPython's full
collection walks every one of them, half a second and more in which no table
answers, every few seconds as the games grow.  A game's objects make no cycles
that become garbage decision by decision, so walking them again and again finds
nothing.  :class:`Collector` moves what has lived a while out of the
collector's way (:func:`gc.freeze`), so that the automatic collections look only
at what is younger, and once in a long while looks at everything (unfreezing
it) for the cycles that did become garbage since: a table let go, a connection
closed.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

FREEZE_SECONDS = 10.0
"""How often what is alive is moved out of the automatic collections' way."""
FULL_SECONDS = 900.0
"""How often everything is looked at once: one pause of the server, a short one."""


class Collector:
    """Freezes the process's objects every ``freeze_seconds`` and collects everything every
    ``full_seconds`` (``clock`` tells the time: tests give their own)."""

    def __init__(
        self,
        freeze_seconds: float = FREEZE_SECONDS,
        full_seconds: float = FULL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.clock = clock
        self._full_at = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Freeze what the program is made of now, then keep freezing (on the running loop)."""
        self._full_at = self.clock() + self.full_seconds
        gc.freeze()
        self._timer = asyncio.get_running_loop().call_later(self.freeze_seconds, self.tick)

    def tick(self) -> None:
        """Freeze what is alive now; every ``full_seconds``, collect everything first."""
        now = self.clock()
        if now >= self._full_at:
            self._full_at = now + self.full_seconds
            gc.unfreeze()
            gc.collect()
        gc.freeze()
        if self._timer is not None:  # running: the next tick, and only that one
            self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(self.freeze_seconds, self.tick)

    def stop(self) -> None:
        """Freeze no more, and give everything back to the collector."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        gc.unfreeze()
