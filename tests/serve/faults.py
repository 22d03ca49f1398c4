"""Faults put into a server's database from outside, by its engine (whatever the store calls
its methods): every statement failing as a lost database's do, or the commit thread's
statements failing or slow."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import OperationalError

from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.serve.eventlog import EventLog
from karavan_net.serve.metrics import ServerMetrics
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Store

from .test_play_online import account

COMMITS = "karavan-commits"  # the commit queue's thread


class DatabaseFaults:
    """While ``down``, every statement fails; while ``commits_fail``, those of the commit
    thread do; ``commit_delay`` seconds pass before each of the commit thread's."""

    def __init__(self, engine: Engine) -> None:
        self.down = False
        self.commits_fail = False
        self.commit_delay = 0.0
        self.delayed = 0  # the commit thread's statements held back by commit_delay so far
        self.holding = False  # whether one is held back now
        event.listen(engine, "before_cursor_execute", self._before)

    def _before(self, _conn, _cursor, statement, parameters, _context, _many) -> None:
        committing = threading.current_thread().name == COMMITS
        if self.down or (committing and self.commits_fail):
            raise OperationalError(statement, parameters, ConnectionError("the database is gone"))
        if committing and self.commit_delay:
            self.delayed += 1
            self.holding = True
            time.sleep(self.commit_delay)
            self.holding = False


class Heard:
    """The events a server's log told, each as the JSON object it wrote."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.log = EventLog(lambda line: self.events.append(json.loads(line)), json=True)

    def of(self, kind: str, **fields: Any) -> list[dict[str, Any]]:
        """The events of ``kind`` with these ``fields``."""
        return [
            e
            for e in self.events
            if e["event"] == kind and all(e.get(k) == v for k, v in fields.items())
        ]


async def until(done: Callable[[], bool], seconds: float = 30, what: str = "") -> None:
    """Wait until ``done()``, at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what or done}"
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def faulty_server(
    database: str,
) -> AsyncIterator[tuple[KaravanServer, DatabaseFaults, Heard]]:
    """A server on ``database``, measured, with faults to put in and its log heard."""
    store = Store.open(database)
    faults = DatabaseFaults(store.engine)
    heard = Heard()
    server = KaravanServer(store, bot_delay=0.0, log=heard.log, metrics=ServerMetrics())
    await server.start("127.0.0.1", 0)
    try:
        yield server, faults, heard
    finally:
        faults.down = faults.commits_fail = False
        faults.commit_delay = 0.0
        await server.stop()
        store.close()


async def started_table(port: int, first: str = "Ann", second: str = "Bob") -> int:
    """A new untimed Jaipur table of two new accounts, started (nobody at it yet)."""
    one, two = await account(port, first), await account(port, second)
    made = await one.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
    await two.take(made.table)
    await one.close()
    await two.close()
    return made.table
