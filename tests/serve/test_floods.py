"""Floods at a real server on loopback: whoever asks as fast as they can is capped, and the
lobby keeps answering everyone else."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from karavan_core.version import __version__
from karavan_net import lobby as wire
from karavan_net.guard import Allowance
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError, LobbyRefusedError
from karavan_net.protocol import PROTOCOL
from karavan_net.serve.limits import (
    ADDRESS_FULL,
    NEW_ACCOUNTS_REFUSED,
    NEW_TABLES_REFUSED,
    REPLACED,
    Limits,
)

from .test_lobby_server import SECRET, player, serving

TWO_SEATS = CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")])


async def test_an_account_opening_tables_as_fast_as_it_can_is_capped_and_slows_nobody(database):
    async with (
        serving(database) as (_, port),
        player(port, "Bob") as bob,
        player(port, "Cid") as cid,
        player(port, "Mallory") as mallory,
    ):
        honest = await bob.create(TWO_SEATS)
        refusals: set[str] = set()
        opened = 0

        async def flood() -> None:
            nonlocal opened
            until = time.monotonic() + 3
            while time.monotonic() < until:
                try:
                    await mallory.create(TWO_SEATS)
                    opened += 1
                except LobbyDeclinedError as declined:
                    refusals.add(str(declined))

        async def look() -> list[float]:
            waits = []
            for _ in range(10):
                began = time.monotonic()
                listed = await cid.tables()
                waits.append(time.monotonic() - began)
                assert honest.table in [line.id for line in listed.tables]
            return waits

        _, waits = await asyncio.gather(flood(), look())
        assert max(waits) < 0.5, waits
        assert opened == 5  # waiting for players: no more
        assert any("5 tables waiting for players" in refusal for refusal in refusals)
        listed = await cid.tables()
        assert honest.table in [line.id for line in listed.tables]


async def test_tables_against_bots_are_opened_at_a_bounded_rate(database):
    limits = Limits(new_tables=Allowance(rate=1 / 60, burst=3))
    async with serving(database, limits=limits) as (_, port), player(port, "Ann") as ann:
        against_bots = CreateTable("jaipur", [SeatAsk("open"), SeatAsk("bot", level="random")])
        for _ in range(3):
            assert (await ann.create(against_bots)).started
        with pytest.raises(LobbyDeclinedError, match=NEW_TABLES_REFUSED):
            await ann.create(against_bots)


async def test_accounts_from_one_address_come_at_a_bounded_rate(database):
    few = Allowance(rate=1 / 3600, burst=3)
    async with serving(database, limits=Limits(new_local_accounts=few)) as (_, port):
        for name in ("Ann", "Bob", "Cid"):
            async with player(port, name):
                pass
        with pytest.raises(LobbyRefusedError, match=NEW_ACCOUNTS_REFUSED):
            async with player(port, "Dan"):
                pass
        async with player(port, "Ann", create=False) as ann:  # known accounts come in
            assert ann.account == "Ann"


async def test_an_accounts_newest_lobby_connection_sends_its_oldest_away(database):
    async with serving(database, limits=Limits(lobby_per_account=2)) as (_, port):
        clients = [LobbyClient("127.0.0.1", port, "Ann", f"Ann-{SECRET}") for _ in range(3)]
        try:
            await clients[0].connect(create=True)
            for client in clients[1:]:
                await client.connect()
            with pytest.raises(LobbyRefusedError, match=REPLACED):
                await clients[0].tables()
            for client in clients[1:]:
                assert (await client.tables()).kind == "lobby"
        finally:
            for client in clients:
                await client.close()


async def login_from(port: int, name: str, forwarded_for: str) -> wire.LobbyServerMessage:
    """A login of a new account through a proxy that says it comes from ``forwarded_for``."""
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(
            f"ws://127.0.0.1:{port}{wire.LOBBY_PATH}", headers={"X-Forwarded-For": forwarded_for}
        )
        login = wire.Login(PROTOCOL, name, f"{name}-{SECRET}", True, __version__)
        await ws.send_str(wire.CLIENT.encode(login))
        answer = wire.SERVER.decode((await ws.receive(timeout=10)).data)
        await ws.close()
        return answer


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_behind_a_proxy_each_client_counts_as_the_address_it_forwards(database):
    one = Allowance(rate=1 / 3600, burst=1)
    few = Limits(new_accounts=one, new_local_accounts=one)
    async with serving(database, limits=few, behind_proxy=True) as (_, port):
        assert isinstance(await login_from(port, "Ann", "203.0.113.7"), wire.LoggedIn)
        refused = await login_from(port, "Bob", "203.0.113.7")
        assert isinstance(refused, wire.LobbyRefused) and refused.reason == NEW_ACCOUNTS_REFUSED
        assert isinstance(await login_from(port, "Cid", "198.51.100.9"), wire.LoggedIn)
    # Without --behind-proxy the header is nobody's word: both come from loopback.
    async with serving(database, limits=few) as (_, port):
        assert isinstance(await login_from(port, "Dan", "203.0.113.8"), wire.LoggedIn)
        refused = await login_from(port, "Eve", "198.51.100.10")
        assert isinstance(refused, wire.LobbyRefused) and refused.reason == NEW_ACCOUNTS_REFUSED


async def test_an_address_past_its_share_of_lobby_connections_is_refused(database):
    async with (
        serving(database, limits=Limits(lobby_per_address=2)) as (_, port),
        player(port, "Ann"),
        player(port, "Bob"),
    ):
        with pytest.raises(LobbyRefusedError, match=ADDRESS_FULL):
            async with player(port, "Cid"):
                pass
