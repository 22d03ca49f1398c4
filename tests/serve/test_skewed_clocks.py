"""A process whose clock is wrong, beside a healthy one on the same database: leases, the
processes' list and every deadline go by the database's clock, so it takes no table the
healthy one runs, moves no deadline, writes none off by its error, and neither process
loses sight of the other."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

import pytest

from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.serve import server as serve_module
from karavan_net.serve.database_clock import DatabaseClock
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.server import LEASE_SECONDS, KaravanServer
from karavan_net.serve.store import AccountInfo, Store
from karavan_net.serve.tables import ServedTable

SECRET = "k" * 43
MOVE = 600  # seconds a move at the live tables here: nobody runs out of time in this test


def off_by(seconds: float) -> Callable[[], datetime]:
    """A process's clock that is ``seconds`` ahead (behind, if negative) of the true time."""
    return lambda: datetime.now(UTC) + timedelta(seconds=seconds)


@contextlib.asynccontextmanager
async def started(
    store: Store, clock: Callable[[], datetime] | None = None
) -> AsyncIterator[KaravanServer]:
    server = KaravanServer(store, bot_delay=0.0, clock=clock or off_by(0))
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


def counting_rounds(server: KaravanServer) -> list[int]:
    """A list that grows by one each time ``server`` has looked for tables to take over."""
    rounds: list[int] = []
    adopt = server._adopt

    async def counted() -> None:
        await adopt()
        rounds.append(1)

    server._adopt = counted  # type: ignore[method-assign]
    return rounds


async def until(check: Callable[[], bool], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "it never came"
        await asyncio.sleep(0.05)


def live_table_run_by(
    lobby: LobbyService, server: KaravanServer, ann: AccountInfo, bob: AccountInfo
) -> int:
    """A live table started with ``server`` holding its lease from the first moment (so
    neither process takes it over as nobody's)."""
    ask = CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")], clock="live", move_seconds=MOVE)
    made = lobby.create(ann, ask)
    assert server.address is not None
    assert lobby.store.leases.take(made.id, server.owner, server.address, LEASE_SECONDS).held
    lobby.take(bob, made.id, None)
    return made.id


def deadlines(store: Store, table_id: int) -> list[datetime | None]:
    record = store.tables.get(table_id, with_save=False)
    assert record is not None
    return [seat.deadline for seat in record.seats]


@pytest.mark.parametrize("skew", [20, -20], ids=["20 s ahead", "20 s behind"])
async def test_a_process_with_a_wrong_clock_takes_nothing_moves_nothing_and_is_seen(
    database, monkeypatch, skew
):
    monkeypatch.setattr(serve_module, "RENEW_SECONDS", 0.2)
    stores = [Store.open(database) for _ in range(3)]
    lobby = LobbyService(stores[2])
    ann, bob = (lobby.login(n, f"{n}-{SECRET}", create=True) for n in ("Ann", "Bob"))
    try:
        async with started(stores[0]) as healthy:
            # A turn-based table nobody runs: its deadline waits for its players.
            ask = CreateTable(
                "jaipur", [SeatAsk("open"), SeatAsk("open")], clock="turn", move_seconds=86400
            )
            waiting = lobby.take(bob, lobby.create(ann, ask).id, None).id
            await until(lambda: stores[2].marks.stamped(serve_module.ALIVE) is not None)
            async with started(stores[1], clock=off_by(skew)) as wrong:
                rounds = [counting_rounds(server) for server in (healthy, wrong)]
                mine, its = (
                    live_table_run_by(lobby, server, ann, bob) for server in (healthy, wrong)
                )
                for server, table_id in ((healthy, mine), (wrong, its)):
                    assert isinstance(await server.table(table_id), ServedTable)
                kept = {t: deadlines(stores[2], t) for t in (waiting, mine, its)}
                # Each looks for tables to take over, and renews its leases, five times.
                await until(lambda: min(len(r) for r in rounds) >= 5)
                assert set(healthy.served) == {mine} and set(wrong.served) == {its}
                assert {t: deadlines(stores[2], t) for t in kept} == kept
                assert wrong.peers == (healthy.address,) and healthy.peers == (wrong.address,)
                # A decision at the table the wrong clock runs: the next deadline it writes is
                # the database's now and a move's time.
                played = wrong.served[its]
                seat = played.match.to_move
                assert seat is not None
                played.referee.play(seat, [played.referee.legal()[0]])
                await until(lambda: stores[2].tables.get(its, with_save=False).revision == 1)
                now = stores[2].now()
                record = stores[2].tables.get(its, with_save=False)
                assert record is not None and record.to_move is not None
                written = record.seats[record.to_move].deadline
                assert written is not None
                assert abs((written - now).total_seconds() - MOVE) < 5
    finally:
        for store in stores:
            store.close()


@pytest.mark.parametrize("skew", [-3600, 0, 20])
def test_the_database_clock_is_followed_whatever_the_process_s_own_says(database, skew):
    store = Store.open(database)
    try:
        clock = DatabaseClock(off_by(skew))
        clock.sample(store.now)
        assert abs((clock.now() - store.now()).total_seconds()) < 1
    finally:
        store.close()
