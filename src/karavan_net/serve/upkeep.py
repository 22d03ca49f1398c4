"""A server's upkeep: its background loops supervised, its health and measures served, and the
steps that must not stop it tried whatever they meet.

The server hands its :class:`Upkeep` the rounds of its loops (each run by a
:class:`~karavan_net.serve.supervision.SupervisedLoop`), says when it renewed
its leases, and asks it for the ``/health`` and ``/metrics`` pages; a step that
may fail without stopping the server (stopping a loop, closing a table, giving
back a lease) goes through :meth:`Upkeep.tried`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Mapping

from aiohttp import web
from sqlalchemy import Engine

from karavan_net.serve import health
from karavan_net.serve.eventlog import EventLog, reason
from karavan_net.serve.metrics import CONTENT_TYPE, ServerMetrics
from karavan_net.serve.supervision import Backoff, SupervisedLoop


class Upkeep:
    """The loops, health and measures of a server whose database is behind ``engine``; what
    fails is told to ``log``, ``metrics`` (if given) is measured, and ``counts`` says how
    many tables and connections the server has (see :meth:`ServerMetrics.read_from`)."""

    def __init__(
        self,
        engine: Engine,
        log: EventLog,
        metrics: ServerMetrics | None,
        counts: Callable[[], Mapping[str, int]],
    ) -> None:
        self.log = log
        self.metrics = metrics
        self.counts = counts
        self.database = health.DatabaseCheck(engine)
        self.loops: dict[str, SupervisedLoop] = {}  # the background loops, by name
        self.renewed = time.monotonic()  # when the leases were last renewed
        if metrics is not None:
            metrics.read_from(counts)

    def run(
        self,
        name: str,
        step: Callable[[], Awaitable[None]],
        every: float,
        backoff: Backoff,
        first_wait: float = 0.0,
    ) -> None:
        """Run ``step`` every ``every`` seconds (first after ``first_wait``), supervised."""
        failed = None if self.metrics is None else self.metrics.loop_failed
        loop = SupervisedLoop(
            name,
            step,
            every=every,
            backoff=backoff,
            log=self.log,
            first_wait=first_wait,
            failed=failed,
        )
        self.loops[name] = loop
        loop.start()

    def leases_renewed(self) -> None:
        """The leases were renewed just now."""
        self.renewed = time.monotonic()
        if self.metrics is not None:
            self.metrics.lease_renewals.inc()

    async def tried(self, what: str, step: Awaitable[object], table: int | None = None) -> None:
        """Await ``step``; if it fails, tell the log (the server goes on)."""
        try:
            await step
        except Exception as error:
            self.failed(what, error, table)

    def failed(self, what: str, error: Exception, table: int | None = None) -> None:
        """Tell the log that the server could not do ``what`` (about ``table``, if one)."""
        self.log.event(
            "step_failed",
            f"Could not {what} ({reason(error)}).",
            level="error",
            table=table,
            step=what,
            error=reason(error),
        )

    async def stop(self) -> None:
        """End every loop, and the database's checks."""
        for loop in self.loops.values():
            await self.tried(f"stop the {loop.name} loop", loop.stop())
        self.database.close()

    async def page(self, request: web.BaseRequest, lease_seconds: float) -> web.Response | None:
        """The answer to ``GET /health`` or ``GET /metrics`` (``None``: another request, or
        /metrics when nothing is measured)."""
        if request.method != "GET":
            return None
        if request.path == "/health":
            return await self.health(lease_seconds)
        if request.path == "/metrics" and self.metrics is not None:
            return web.Response(body=self.metrics.text(), headers={"Content-Type": CONTENT_TYPE})
        return None

    async def health(self, lease_seconds: float) -> web.Response:
        """The ``/health`` page: 200 when healthy, 503 when not (see :mod:`health`); a loop
        is late once two rounds and its longest back-off have gone by without a success,
        the leases once a lease of ``lease_seconds`` has."""
        healthy, data = health.report(
            await self.database.seconds(),
            {name: (loop, 2 * loop.every + loop.backoff.most) for name, loop in self.loops.items()},
            time.monotonic() - self.renewed,
            lease_seconds,
            self.counts(),
        )
        return web.Response(
            status=200 if healthy else 503, text=json.dumps(data), content_type="application/json"
        )
