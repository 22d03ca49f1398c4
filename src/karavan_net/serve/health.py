"""Whether a server is well (``GET /health``): its database answers, its loops run, its leases
are renewed.

The database is asked ``SELECT 1`` on a thread of its own, with a time limit:
a database that hangs makes the answer "unreachable" in that time, and never
holds up the server's own work (while one question hangs no other is asked).
A loop is well while it runs and its last round that worked is recent enough;
the leases while their last renewal is younger than a lease.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from sqlalchemy import Engine, text

from karavan_net.serve.supervision import SupervisedLoop

PING_SECONDS = 2.0  # how long the database has to answer


class DatabaseCheck:
    """Asks the database behind ``engine`` whether it answers."""

    def __init__(self, engine: Engine, timeout: float = PING_SECONDS) -> None:
        self.engine = engine
        self.timeout = timeout
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="health")
        self._asking: Future[None] | None = None

    def _select_one(self) -> None:
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    async def seconds(self) -> float | None:
        """How long the database took to answer; ``None`` if it did not (an error, no answer
        within the time limit, or the last question still waiting for one)."""
        if self._asking is not None and not self._asking.done():
            return None
        began = time.monotonic()
        try:
            self._asking = self._pool.submit(self._select_one)  # RuntimeError once closed
            await asyncio.wait_for(asyncio.wrap_future(self._asking), self.timeout)
        except Exception:
            return None
        return time.monotonic() - began

    def close(self) -> None:
        """Stop asking (a question still waiting is left to end by itself)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def loop_health(loop: SupervisedLoop, stale: float) -> dict[str, Any]:
    """How ``loop`` is: running, and its last round that worked within ``stale`` seconds."""
    age = loop.since_success()
    return {
        "alive": loop.alive,
        "healthy": loop.alive and age < stale,
        "last_success_age": round(age, 3),
        "failures": loop.failures,
    }


def report(
    database: float | None,
    loops: Mapping[str, tuple[SupervisedLoop, float]],
    lease_age: float,
    lease_seconds: float,
    counts: Mapping[str, int],
) -> tuple[bool, dict[str, Any]]:
    """Whether the server is healthy, and the report said at ``/health``.

    ``database``: the seconds ``SELECT 1`` took (``None``: no answer); ``loops``: each loop
    by name with the seconds after which its last success is stale; ``lease_age``: seconds
    since the leases were last renewed; ``counts``: tables and connections.
    """
    shown = {name: loop_health(loop, stale) for name, (loop, stale) in loops.items()}
    leases = lease_age < lease_seconds
    healthy = database is not None and leases and all(s["healthy"] for s in shown.values())
    data: dict[str, Any] = {
        "healthy": healthy,
        "database": {
            "reachable": database is not None,
            "seconds": None if database is None else round(database, 4),
        },
        "loops": shown,
        "leases": {"healthy": leases, "renewal_age": round(lease_age, 3)},
        **counts,
    }
    return healthy, data
