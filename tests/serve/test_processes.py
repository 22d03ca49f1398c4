"""Several server processes on one database: one lobby, each table run by one process at a
time (a lease in the database), clients sent to the process that runs their table, and a table
taken over when its process is lost."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

from karavan_net.bot_client import BotPlayer
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.serve import server as serve_module
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Status, Store

from .test_play_online import account, seat_client


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
        ann = await account(first.port, "Ann")  # Ann comes in at the first...
        bob = await account(second.port, "Bob")  # ... and Bob at the second
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        [line] = (await bob.tables()).tables  # the table Ann opened is in Bob's lobby
        assert line.id == made.table
        await bob.take(made.table)
        clients = [
            seat_client(first.port, made.table, "Ann"),
            seat_client(second.port, made.table, "Bob"),
        ]
        for client in clients:
            await client.join()
        # Exactly one process runs the table, and both players play there.
        runs = [server for server in (first, second) if made.table in server.served]
        assert len(runs) == 1
        assert {client.port for client in clients} == {runs[0].port}
        players = [
            BotPlayer(client, "greedy", seed=seed, out=lambda _: None)
            for seed, client in enumerate(clients)
        ]
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
            client = seat_client(first.port, made.table, name)
            await client.join()
            players.append(
                BotPlayer(
                    client,
                    "greedy",
                    seed=seed,
                    out=lambda _: None,
                    on_update=lambda u: seen.append(u.number),
                )
            )
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
