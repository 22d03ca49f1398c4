"""A snapshot of a timed table's clocks at 80x24 and on a narrow screen (review the SVGs when
they change): Ann, to move, in her last seconds, and Bob's clock waiting.

The table is hosted from a thread on loopback and joined by keys; the clocks are a server's
(a plain host has none), put into the update the app last had, and the clocks' time is
fixed, so that the picture holds still.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from attrs import evolve

from karavan_net.client import TableClient
from karavan_net.protocol import SeatTime, TableClock
from karavan_tui.screens.table import TableScreen
from karavan_tui.widgets.clocks import ClockBoard
from tests.tui.helpers import make_app
from tests.tui.test_snapshots import steady

from .helpers import CODE, hosting_in_thread, new_match
from .test_remote_snapshots import join_by_keys

SNAPSHOT_PORTS = {(80, 24): 29661, (44, 30): 29662}  # the title names it (29651-3: others)
NOW = datetime(2026, 12, 7, 12, 0, 0, tzinfo=UTC)


class Quiet:
    """Bob's client: it reads its updates and does nothing."""

    def table_updated(self, update: object) -> None:
        pass

    def declined(self, reason: str) -> None:
        pass

    def connection_changed(self, connected: bool) -> None:
        pass

    def closed(self, reason: str) -> None:
        pass


@contextlib.contextmanager
def bob_at(port: int) -> Iterator[None]:
    """Bob seated at the table on ``port`` from a thread of his own, until the end."""
    seated, leave = threading.Event(), threading.Event()

    async def sit() -> None:
        bob = TableClient("127.0.0.1", port, CODE, "Bob")
        await bob.join()
        reading = asyncio.get_running_loop().create_task(bob.run(Quiet()))
        seated.set()
        while not leave.is_set():
            await asyncio.sleep(0.05)
        reading.cancel()
        await bob.close()

    thread = threading.Thread(target=asyncio.run, args=(sit(),), daemon=True)
    thread.start()
    assert seated.wait(20), "Bob never sat down"
    try:
        yield
    finally:
        leave.set()
        thread.join(20)


def with_clocks(port: int):
    """Ann joins by keys; then the clocks of a live table, at a fixed time."""
    joining = join_by_keys(port, "Ann")

    async def run(pilot):
        await joining(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, TableScreen)
        driver = screen.driver
        due = (NOW + timedelta(seconds=7)).isoformat()
        clock = TableClock("live", 30, 300, (SeatTime(0, 4.0, due), SeatTime(1, 251.0)))
        driver.link.latest = evolve(driver.link.latest, clock=clock)
        for board in screen.query(ClockBoard):
            board.now = lambda: NOW
            board.ring = None  # no bell in a picture
        screen.redraw()
        await steady(pilot)

    return run


@pytest.mark.parametrize(  # 80x24 by default, the narrow one with the slow checks
    "size",
    [pytest.param(s, marks=() if s == (80, 24) else pytest.mark.slow) for s in SNAPSHOT_PORTS],
)
def test_a_live_tables_clocks(snap_compare, tmp_path, size):
    match = new_match("jaipur", "Ann,Bob", first=0)
    with hosting_in_thread(match, port=SNAPSHOT_PORTS[size]) as (_table, port), bob_at(port):
        app = make_app(tmp_path)
        assert snap_compare(app, terminal_size=size, run_before=with_clocks(port))
