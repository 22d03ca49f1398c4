"""The lobby's lists pushed to the clients that follow them, over real WebSockets."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from karavan_net.client import HostUnreachable
from karavan_net.lobby import CreateTable, Lists, SeatAsk
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Store
from tests.net.helpers import until

from .test_play_online import account, greedy, seat_client, serving

TWO = [SeatAsk("open"), SeatAsk("open")]


class Heard:
    """A lobby listener that keeps what it hears."""

    def __init__(self) -> None:
        self.lists: list[Lists] = []
        self.connection: list[bool] = []
        self.closed: list[str] = []

    def lobby_lists(self, lists: Lists) -> None:
        self.lists.append(lists)

    def lobby_connection(self, connected: bool) -> None:
        self.connection.append(connected)

    def lobby_closed(self, reason: str) -> None:
        self.closed.append(reason)

    def lobby_ids(self) -> list[int]:
        return [] if not self.lists else [line.id for line in self.lists[-1].lobby.tables]


@contextlib.asynccontextmanager
async def player(port: int, name: str):
    client = await account(port, name)
    try:
        yield client
    finally:
        await client.close()


@contextlib.asynccontextmanager
async def ann_and_bob(database):
    async with (
        serving(database) as server,
        player(server.port, "Ann") as ann,
        player(server.port, "Bob") as bob,
    ):
        yield server, ann, bob


async def test_a_table_created_is_pushed_to_another_accounts_lobby_unasked(database):
    async with ann_and_bob(database) as (_, ann, bob):
        heard = Heard()
        first = await bob.follow(heard, board="jaipur")
        assert first.lobby.tables == [] and first.board is not None and not first.pushed
        made = await ann.create(CreateTable("jaipur", TWO))
        await until(lambda: heard.lobby_ids() == [made.table])
        assert heard.lists[-1].pushed
        # Bob takes the seat: the game starts, and it is one of his tables now.
        await bob.take(made.table)
        await until(lambda: [t.status for t in heard.lists[-1].mine.tables] == ["playing"])
        # Ann does not follow: she is sent nothing unasked, and her answers are her own.
        await asyncio.sleep(1.0)
        [line] = (await ann.tables()).tables
        assert line.status == "playing"
        # Only a client that follows is told a clock's kind: an older one knows no such field.
        assert line.clock_kind == "" and heard.lists[-1].mine.tables[0].clock_kind == "none"


async def test_a_burst_of_changes_is_pushed_once_and_unchanged_lists_not_at_all(database):
    async with ann_and_bob(database) as (server, ann, bob):
        heard = Heard()
        await bob.follow(heard)
        for _ in range(4):
            await ann.create(CreateTable("jaipur", TWO))
        await until(lambda: len(heard.lobby_ids()) == 4)
        await asyncio.sleep(1.0)  # no push is on its way: four changes, at most two sent
        assert 1 <= len(heard.lists) <= 2
        pushes = len(heard.lists)
        server.news.changed()  # told a change that changed nothing: nothing is sent
        await asyncio.sleep(1.0)
        assert len(heard.lists) == pushes


async def test_a_turn_passed_at_a_turn_based_table_is_pushed_to_its_players(database):
    async with ann_and_bob(database) as (server, ann, bob):
        turn = CreateTable("jaipur", TWO, clock="turn", move_seconds=86400)
        made = await ann.create(turn)
        await bob.take(made.table)
        heard = {"Ann": Heard(), "Bob": Heard()}
        await ann.follow(heard["Ann"])
        await bob.follow(heard["Bob"])
        mover = "Ann" if (await ann.mine()).my_turns else "Bob"
        other = "Bob" if mover == "Ann" else "Ann"
        client = seat_client(server.port, made.table, mover)
        await client.join()
        bot = greedy(client, 1)
        playing = asyncio.get_running_loop().create_task(bot.play())
        try:
            # The mover decides (however many decisions a turn takes); the other hears
            # that the table waits for them, unasked.
            await until(
                lambda: bool(heard[other].lists) and heard[other].lists[-1].mine.my_turns == 1
            )
        finally:
            playing.cancel()
            await client.close()


async def test_a_following_lobby_comes_back_after_the_server_restarts(database):
    store = Store.open(database)
    server = KaravanServer(store, bot_delay=0.0)
    port = await server.start("127.0.0.1", 0)
    async with player(port, "Bob") as bob:
        heard = Heard()
        await bob.follow(heard)
        await server.stop()
        store.close()
        await until(lambda: heard.connection == [False])
        async with serving(database, port) as again, player(port, "Ann") as ann:
            await until(lambda: heard.connection == [False, True], 30)
            made = await ann.create(CreateTable("jaipur", TWO))
            await until(lambda: heard.lobby_ids() == [made.table])
            assert again.news.followers
        assert heard.closed == []


async def test_a_lobby_asked_while_its_server_is_down_asks_again_once_it_is_back(database):
    store = Store.open(database)
    server = KaravanServer(store, bot_delay=0.0)
    port = await server.start("127.0.0.1", 0)
    async with player(port, "Bob") as bob:
        await server.stop()
        store.close()
        with pytest.raises(HostUnreachable):
            await bob.tables()  # nobody answers, and the new login fails
        async with serving(database, port), player(port, "Ann") as ann:
            await ann.create(CreateTable("jaipur", TWO))
            assert [line.created_by for line in (await bob.tables()).tables] == ["Ann"]
