"""A server goes on through its database's faults: its loops are told of each, wait and try
again; a table that fails to load tells everyone who waited for it; stop() lets go of all it
can; and a slow database never holds up the lobby while a table loads."""

from __future__ import annotations

import asyncio
import time

from sqlalchemy.exc import OperationalError

from karavan_net.client import JoinRefused
from karavan_net.serve import server as serve_module
from karavan_net.serve.supervision import Backoff
from karavan_net.serve.tables import ServedTable

from .faults import faulty_server, started_table, until
from .test_play_online import account, seat_client

QUICK = Backoff(first=0.1, most=0.4)


async def test_each_loop_goes_on_through_a_database_outage_and_renews_the_leases_after(
    database, monkeypatch
):
    for name in ("BEAT_SECONDS", "RENEW_SECONDS"):
        monkeypatch.setattr(serve_module, name, 0.2)
    for name in ("BEAT_BACKOFF", "LEASE_BACKOFF"):
        monkeypatch.setattr(serve_module, name, QUICK)
    async with faulty_server(database) as (server, faults, heard):
        table_id = await started_table(server.port)
        assert isinstance(await server.table(table_id), ServedTable)
        faults.down = True
        for loop in ("heartbeat", "leases"):
            await until(lambda loop=loop: len(heard.of("loop_failed", loop=loop)) >= 4, what=loop)
        faults.down = False
        back = time.monotonic()
        for loop in ("heartbeat", "leases"):
            await until(lambda loop=loop: heard.of("loop_recovered", loop=loop), what=loop)
        await until(lambda: server.upkeep.renewed > back, what="the leases renewed")
        assert table_id in server.served  # nobody else took it: this process runs it still
        # Each failure in a row waits twice as long as the one before, up to the most.
        waits = [event["retry_in"] for event in heard.of("loop_failed", loop="leases")]
        assert waits[:4] == [0.1, 0.2, 0.4, 0.4]
        assert all(server.upkeep.loops[loop].alive for loop in ("heartbeat", "leases"))


async def test_a_failed_load_fails_for_every_waiter_and_the_next_request_loads(database):
    async with faulty_server(database) as (server, faults, _):
        table_id = await started_table(server.port)
        faults.down = True
        waiters = asyncio.gather(
            server.table(table_id), server.table(table_id), return_exceptions=True
        )
        both = await asyncio.wait_for(waiters, 20)
        assert [type(error) for error in both] == [OperationalError, OperationalError]
        faults.down = False
        assert isinstance(await asyncio.wait_for(server.table(table_id), 20), ServedTable)


async def test_players_whose_table_cannot_be_loaded_are_refused_in_words(database):
    async with faulty_server(database) as (server, faults, heard):
        table_id = await started_table(server.port)
        faults.commits_fail = True  # the table's first keep fails: so does its load
        clients = [seat_client(server.port, table_id, name) for name in ("Ann", "Bob")]
        refused = await asyncio.gather(*(c.join() for c in clients), return_exceptions=True)
        for refusal in refused:
            assert isinstance(refusal, JoinRefused), refusal
            assert "cannot be opened just now" in str(refusal)
        assert heard.of("step_failed", table=table_id, step=f"load table {table_id}")
        faults.commits_fail = False
        again = seat_client(server.port, table_id, "Ann")
        await again.join()
        await again.close()


async def test_stop_lets_go_of_every_table_it_can_when_the_database_is_gone(database):
    async with faulty_server(database) as (server, faults, heard):
        first = await started_table(server.port, "Ann", "Bob")
        second = await started_table(server.port, "Cid", "Dan")
        ann = seat_client(server.port, first, "Ann")
        await ann.join()
        playing = server.served[first]
        broken = await server.table(second)
        assert isinstance(broken, ServedTable)

        async def will_not_close(*_: object) -> None:
            raise RuntimeError("this table will not close")

        broken.close = will_not_close
        faults.down = True
        await asyncio.wait_for(server.stop(), 30)
        assert server.served == {}
        assert not playing.links  # its players were let go
        assert not server.commits._thread.is_alive()  # the commit queue is closed
        failed = {(e["step"], e.get("table")) for e in heard.of("step_failed")}
        assert ("close the table", second) in failed
        assert ("give back the table's lease", first) in failed
        assert ("give back the table's lease", second) in failed
        await ann.close()


async def test_the_lobby_answers_at_once_while_a_table_loads_on_a_slow_database(
    database, monkeypatch
):
    # The loops keep still: on SQLite their writes would wait for the slow commit's lock,
    # and the lobby's reads behind them on the one database thread.
    for name in ("BEAT_SECONDS", "RENEW_SECONDS"):
        monkeypatch.setattr(serve_module, name, 60.0)
    async with faulty_server(database) as (server, faults, _):
        table_id = await started_table(server.port)
        cid = await account(server.port, "Cid")
        faults.commit_delay = 1.0  # each statement of the table's first keep
        loading = asyncio.get_running_loop().create_task(server.table(table_id))
        # A request asked and answered while one and the same slow statement was held back
        # did not wait behind it (by the order of events, not by a time a busy machine can
        # stretch).
        asked, beside = 0, 0
        while not loading.done():
            held = faults.delayed if faults.holding else None
            await cid.tables()
            asked += 1
            beside += held is not None and faults.holding and faults.delayed == held
        assert isinstance(loading.result(), ServedTable)
        assert asked >= 5 and beside >= 3, (asked, beside)
        await cid.close()
