"""A server's measures, in Prometheus's text format (``GET /metrics``).

Each server has a :class:`ServerMetrics` with a registry of its own (several
servers in one process, as in the tests, keep apart).  The parts that measure
are handed it, or ``None`` when measuring is off: the commit queue counts the
changes it keeps and times its commits, the table connections time their
answers, the lease loop counts its rounds, the notifier counts its calls.  What
is counted on scrape (tables in memory, connections) is read from the server
through functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The HTTP content type of :meth:`ServerMetrics.text`."""
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
BATCH_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200)
LEASES = "leases"  # the name of the loop that renews the leases


class ServerMetrics:
    """The measures of one server, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        where = self.registry
        self.decisions = Counter(
            "karavan_decisions",
            "Changes of the tables (decisions, undos, take-backs) kept in the database.",
            registry=where,
        )
        self.update_latency = Histogram(
            "karavan_update_latency_seconds",
            "Seconds from a frame a table connection sent (a decision, an undo...) being read "
            "to the next update sent back to that connection: the change kept, then shown.",
            buckets=LATENCY_BUCKETS,
            registry=where,
        )
        self.commit_batch = Histogram(
            "karavan_commit_batch_size",
            "Changes kept in one commit of the commit queue.",
            buckets=BATCH_BUCKETS,
            registry=where,
        )
        self.commit_seconds = Histogram(
            "karavan_commit_seconds",
            "Seconds one commit of the commit queue took.",
            buckets=LATENCY_BUCKETS,
            registry=where,
        )
        self.lease_renewals = Counter(
            "karavan_lease_renewals",
            "Rounds in which this process renewed the leases of its tables.",
            registry=where,
        )
        self.lease_renewal_failures = Counter(
            "karavan_lease_renewal_failures",
            "Rounds of the lease loop that failed (the leases were not renewed then).",
            registry=where,
        )
        self.loop_failures = Counter(
            "karavan_loop_failures",
            "Failed rounds of each background loop.",
            ["loop"],
            registry=where,
        )
        self.notifications = Counter(
            "karavan_notifications",
            "Calls on the players' web hooks (a turn-based table waits for them), by outcome: "
            "sent, failed, refused (a private address) or dropped (too many under way).",
            ["outcome"],
            registry=where,
        )
        self._tables = Gauge("karavan_tables_loaded", "Tables in memory.", registry=where)
        self._connections = Gauge(
            "karavan_connections",
            "Open connections: lobby (logged in) and table (every other WebSocket).",
            ["kind"],
            registry=where,
        )

    def read_from(self, counts: Callable[[], Mapping[str, int]]) -> None:
        """Read the tables in memory and the connections from ``counts()`` at each scrape: a
        mapping with ``tables``, ``lobby_connections`` and ``table_connections``."""

        def count(key: str) -> Callable[[], float]:
            return lambda: counts()[key]

        self._tables.set_function(count("tables"))
        for kind in ("lobby", "table"):
            self._connections.labels(kind).set_function(count(f"{kind}_connections"))

    def committed(self, changes: int, kept: int, seconds: float) -> None:
        """One commit of ``changes`` changes, ``kept`` of them kept, took ``seconds``."""
        self.commit_batch.observe(changes)
        self.commit_seconds.observe(seconds)
        self.decisions.inc(kept)

    def loop_failed(self, name: str) -> None:
        """A round of the loop ``name`` failed."""
        self.loop_failures.labels(name).inc()
        if name == LEASES:
            self.lease_renewal_failures.inc()

    def notified(self, outcome: str) -> None:
        """A call on a player's web hook ended with ``outcome``."""
        self.notifications.labels(outcome).inc()

    def text(self) -> bytes:
        """Every measure, in Prometheus's text format."""
        return generate_latest(self.registry)
