"""Several server processes on one database: one lobby, each table run by one process at a
time (a lease in the database), clients sent to the process that runs their table, and a table
taken over when its process is lost."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import AsyncIterator

import pytest

from karavan_net.bot_client import BotPlayer
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.serve import server as serve_module
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Status, Store
from tests.net.helpers import free_port, until

from .test_play_online import account, greedy
from .test_serve_command import Process


@contextlib.asynccontextmanager
async def two_servers(database: str) -> AsyncIterator[tuple[KaravanServer, KaravanServer]]:
    """Two servers, as two processes would be, on one database."""
    stores = [Store.open(database) for _ in range(2)]
    servers = [KaravanServer(store, bot_delay=0.0) for store in stores]
    for server in servers:
        await server.start("127.0.0.1", 0)
    try:
        yield servers[0], servers[1]
    finally:
        for server in servers:
            await server.stop()
        for store in stores:
            store.close()


async def test_two_servers_share_one_lobby_and_send_players_to_the_table_s_process(database):
    async with two_servers(database) as (first, second):
        await until(lambda: bool(first.peers and second.peers))  # each has heard of the other
        ann = await account(first.port, "Ann")  # Ann comes in at the first...
        bob = await account(second.port, "Bob")  # ... and Bob at the second
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        [line] = (await bob.tables()).tables  # the table Ann opened is in Bob's lobby
        assert line.id == made.table
        await bob.take(made.table)
        clients = [ann.table(made.table), bob.table(made.table)]
        for client in clients:
            await client.join()
        # Exactly one process runs the table, and both players play there.
        runs = [server for server in (first, second) if made.table in server.served]
        assert len(runs) == 1
        assert {client.port for client in clients} == {runs[0].port}
        players = [greedy(client, seed) for seed, client in enumerate(clients)]
        assert await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120) == [0, 0]
        # The result is the lobby's, whichever process is asked.
        for lobby in (ann, bob):
            [over] = (await lobby.mine(over=True)).tables
            assert over.status == Status.OVER.value and over.result
        await ann.close()
        await bob.close()


async def test_a_table_whose_process_stops_is_run_by_another_at_once(database, monkeypatch):
    """A process that stops lets go of its tables; another takes them over and their players
    come back by themselves, there."""
    monkeypatch.setattr(serve_module, "RENEW_SECONDS", 0.2)
    async with two_servers(database) as (first, second):
        ann, bob = await account(first.port, "Ann"), await account(first.port, "Bob")
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        while not first.peers:  # each process learns of the others as it renews its leases
            await asyncio.sleep(0.05)
        seen: list[int] = []
        players = []
        for name, seed in (("Ann", 1), ("Bob", 2)):
            client = (ann if name == "Ann" else bob).table(made.table)
            await client.join()
            players.append(greedy(client, seed, seen))
        assert made.table in first.served
        playing = [asyncio.get_running_loop().create_task(p.play()) for p in players]
        while max(seen, default=0) < 10:
            await asyncio.sleep(0.01)
        await first.stop()  # its clients are dropped; its lease is given back
        deadline = time.monotonic() + 10
        while made.table not in second.served:
            assert time.monotonic() < deadline, "nobody took the table over"
            await asyncio.sleep(0.05)
        assert await asyncio.wait_for(asyncio.gather(*playing), 120) == [0, 0]
        await ann.close()
        await bob.close()


@pytest.mark.slow
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_a_table_survives_kill_9_of_its_process_on_postgresql(database):
    """Two `karavan serve` processes on one PostgreSQL; the one that runs a game is killed
    with SIGKILL mid-game: the other takes the table over from the stored decisions within
    10 s, the players' clients come back to it by themselves, and the game ends with nothing
    that was shown lost."""
    servers = [Process(database, free_port()) for _ in range(2)]
    try:
        for server in servers:
            await server.wait_for("Karavan server at")
        await asyncio.sleep(serve_module.RENEW_SECONDS + 0.5)  # each has heard of the other
        port = servers[0].port
        ann, bob = await account(port, "Ann"), await account(servers[1].port, "Bob")
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        seen: list[tuple[float, int]] = []
        clients = [ann.table(made.table), bob.table(made.table)]
        players = []
        for seed, client in enumerate(clients):
            await client.join()
            players.append(
                BotPlayer(
                    client,
                    "greedy",
                    seed=seed,
                    out=lambda _: None,
                    on_update=lambda u: seen.append((time.monotonic(), u.number)),
                )
            )
        [owner] = {client.port for client in clients}  # both play where the table runs
        lost = next(server for server in servers if server.port == owner)
        survivor = next(server for server in servers if server is not lost)
        assert lost.said(f"Table {made.table} taken over") is None
        playing = [asyncio.get_running_loop().create_task(p.play()) for p in players]
        while max((number for _, number in seen), default=0) < 12:
            await asyncio.sleep(0.01)
        os.kill(lost.popen.pid, signal.SIGKILL)
        killed = time.monotonic()
        lost.popen.wait()
        shown = max(number for _, number in seen)
        store = Store.open(database)
        kept = store.tables.get(made.table)
        store.close()
        assert kept is not None and kept.revision >= shown  # nothing shown was lost
        taken = await survivor.wait_for(f"Table {made.table} taken over", 30) - killed
        assert await asyncio.wait_for(asyncio.gather(*playing), 120) == [0, 0]
        back = min(when for when, number in seen if when > killed) - killed
        print(f"taken over {taken:.1f} s after the kill; the players were back {back:.1f} s after")
        assert taken < 10
        assert {client.port for client in clients} == {survivor.port}
        await ann.close()
        await bob.close()
    finally:
        for server in servers:
            server.stop()
