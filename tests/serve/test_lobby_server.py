"""The lobby over real WebSockets: a `karavan serve` server on loopback with an SQLite file."""

from __future__ import annotations

import contextlib

import pytest

from karavan_net.client import HostUnreachable
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError, LobbyRefusedError
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Store
from tests.net.helpers import until

SECRET = "k" * 43


@contextlib.asynccontextmanager
async def serving(database, **options):
    store = Store.open(database)
    server = KaravanServer(store, **options)
    port = await server.start("127.0.0.1", 0)
    try:
        yield server, port
    finally:
        await server.stop()
        store.close()


@contextlib.asynccontextmanager
async def player(port: int, name: str, create: bool = True):
    client = LobbyClient("127.0.0.1", port, name, f"{name}-{SECRET}")
    await client.connect(create=create)
    try:
        yield client
    finally:
        await client.close()


async def test_two_accounts_meet_at_a_table_through_the_lobby(database):
    async with (
        serving(database) as (_, port),
        player(port, "Ann") as ann,
        player(port, "Bob") as bob,
    ):
        assert ann.account == "Ann"
        seated = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        assert (seated.seat, seated.started) == (0, False)
        listed = await bob.tables("jaipur")
        [line] = listed.tables
        assert line.id == seated.table and line.created_by == "Ann" and line.status == "open"
        assert [s.name for s in line.seats] == ["Ann", None]
        taken = await bob.take(seated.table)
        assert (taken.seat, taken.started) == (1, True)
        mine = await ann.mine()
        assert [t.status for t in mine.tables] == ["playing"]
        assert mine.my_turns == (1 if mine.tables[0].to_move == 0 else 0)


async def test_a_known_key_logs_in_again_and_an_unknown_one_is_refused(database):
    async with serving(database) as (_, port):
        async with player(port, "Ann"):
            pass
        again = LobbyClient("127.0.0.1", port, "Ann", f"Ann-{SECRET}")
        assert await again.connect() == "Ann"
        await again.close()
        stranger = LobbyClient("127.0.0.1", port, "Ann", f"Zed-{SECRET}")
        with pytest.raises(LobbyRefusedError, match="No account here"):
            await stranger.connect(create=False)
        taken = LobbyClient("127.0.0.1", port, "ann", f"Zed-{SECRET}")
        with pytest.raises(LobbyRefusedError, match="taken"):
            await taken.connect(create=True)


async def test_a_request_the_lobby_cannot_grant_is_declined_in_words(database):
    async with serving(database) as (_, port), player(port, "Ann") as ann:
        with pytest.raises(LobbyDeclinedError, match="no game called"):
            await ann.create(CreateTable("chess", [SeatAsk("open"), SeatAsk("open")]))
        with pytest.raises(LobbyDeclinedError, match="no such table"):
            await ann.take(99)
        assert (await ann.tables()).tables == []


async def test_nothing_answers_where_no_server_is():
    from tests.net.helpers import free_port

    client = LobbyClient("127.0.0.1", free_port(), "Ann", SECRET)
    with pytest.raises(HostUnreachable):
        await client.connect()


async def test_a_lobby_whose_connection_dropped_while_idle_logs_in_again_to_ask(database):
    async with serving(database) as (server, port), player(port, "Ann") as ann:
        gate = server.lobby_sockets.gate
        for connection in gate.everyone():
            await connection.finish()  # as a heartbeat missed while idle ends it
        await until(lambda: not gate.everyone())
        listed = await ann.tables()
        assert listed.tables == [] and ann.account == "Ann"
        assert gate.everyone()
