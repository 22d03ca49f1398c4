"""Whole games at a `karavan serve` server on loopback: accounts, a watcher, ratings, restarts."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from karavan_core.registry import all_games
from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.protocol import Update
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Status, Store

SECRET = "s" * 43


@contextlib.asynccontextmanager
async def serving(path, port: int = 0, **options):
    store = Store.open(str(path))
    server = KaravanServer(store, bot_delay=0.0, **options)
    await server.start("127.0.0.1", port)
    try:
        yield server
    finally:
        await server.stop()
        store.close()


async def account(port: int, name: str) -> LobbyClient:
    client = LobbyClient("127.0.0.1", port, name, f"{name}-{SECRET}")
    await client.connect(create=True)
    return client


def greedy(client: TableClient, seed: int, seen: list[int] | None = None) -> BotPlayer:
    """A quiet greedy bot at ``client``'s seat, noting in ``seen`` (if given) the number of
    every update it is sent."""
    noted = None if seen is None else (lambda update: seen.append(update.number))
    return BotPlayer(client, "greedy", seed=seed, out=lambda _: None, on_update=noted)


def seat_client(port: int, table: int, name: str, **options) -> TableClient:
    return TableClient("127.0.0.1", port, str(table), name, secret=f"{name}-{SECRET}", **options)


@pytest.mark.parametrize(  # one game by default, every game with the slow checks
    "game",
    [
        pytest.param(g.name, marks=() if g.name == "jaipur" else pytest.mark.slow)
        for g in all_games()
    ],
)
async def test_two_accounts_play_a_whole_rated_game_while_a_third_watches(database, game):
    async with serving(database) as server:
        port = server.port
        ann, bob, cid = [await account(port, name) for name in ("Ann", "Bob", "Cid")]
        seats = [SeatAsk("open"), SeatAsk("player", name="Bob")]
        made = await ann.create(CreateTable(game, seats, rated=True))
        await bob.take(made.table)
        watcher = seat_client(port, made.table, "Cid", watch=True)
        await watcher.join()
        public: list[Update] = []
        players = []
        for name, seed in (("Ann", 1), ("Bob", 2)):
            client = seat_client(port, made.table, name)
            await client.join()
            players.append(greedy(client, seed))
        watching = asyncio.get_running_loop().create_task(watcher.run(_Collect(public)))
        results = await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120)
        assert results == [0, 0]
        await asyncio.sleep(0.2)
        watching.cancel()
        await watcher.close()
        # The watcher saw the public view only, to the end.
        assert public and public[-1].outcome is not None
        assert all(u.legal == [] and u.observation.get("hand") is None for u in public)
        finished = await ann.mine(over=True)
        [line] = finished.tables
        assert line.status == Status.OVER.value and line.result
        before, after = line.rating_change
        assert before == 1000 and after != before
        board = await cid.board(game)
        assert sorted(entry.name for entry in board.lines) == ["Ann", "Bob"]
        for client in (ann, bob, cid):
            await client.close()


class _Collect:
    def __init__(self, updates: list[Update]) -> None:
        self.updates = updates

    def table_updated(self, update: Update) -> None:
        self.updates.append(update)

    def declined(self, reason: str) -> None:
        raise AssertionError(reason)

    def connection_changed(self, connected: bool) -> None:
        pass

    def closed(self, reason: str) -> None:
        pass


async def test_a_game_goes_on_across_a_restart_of_the_server_with_nothing_lost(database):
    """The server stops mid-game (its tables kept in the database) and starts again on the same
    port; the players' clients come back by themselves and finish the game."""
    from tests.net.helpers import free_port

    port = free_port()
    db = database
    seen: list[int] = []
    async with serving(db, port):
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        await ann.close()
        await bob.close()
        players = []
        for name, seed in (("Ann", 1), ("Bob", 2)):
            client = seat_client(port, made.table, name)
            await client.join()
            players.append(greedy(client, seed, seen))
        playing = [asyncio.get_running_loop().create_task(p.play()) for p in players]
        while max(seen, default=0) < 12:
            await asyncio.sleep(0.01)
        shown = max(seen)
    # The server is down: nothing shown was lost.
    store = Store.open(str(db))
    kept = store.tables.get(made.table)
    store.close()
    assert kept is not None and kept.revision >= shown
    async with serving(db, port):
        results = await asyncio.wait_for(asyncio.gather(*playing), 120)
    assert results == [0, 0]


async def test_when_a_players_time_runs_out_a_bot_decides_for_them_until_they_decide(database):
    from karavan_net.clocks import Clock, ClockKind

    from .at_table import quick_table

    async with serving(database) as server:
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        # A clock far quicker than the lobby offers.
        table = quick_table(server, Clock(kind=ClockKind.LIVE, move_seconds=3, bank_seconds=0))
        clients = {}
        for name in ("Ann", "Bob"):
            clients[name] = seat_client(port, table, name)
            await clients[name].join()
        served = server.served[table]
        first = served.match.to_move
        late = ("Ann", "Bob")[first]
        # Nobody decides: the stand-in does, once the move's time is up (the next seat's
        # time runs as long again: the table is looked at before it runs out too).
        deadline = time.monotonic() + 20
        while not served.match.history:
            assert time.monotonic() < deadline, "no stand-in decided"
            await asyncio.sleep(0.02)
        told = f"{late}'s time ran out: a hard bot decided for them."
        # Looked at under keys of their own: the seats' clients are still to be sent it.
        assert served.update_for(0, -1).notice == served.update_for(1, -2).notice == told
        lobby = ann if late == "Ann" else bob
        while not (await lobby.mine()).tables[0].seats[first].stood_in:  # once it is kept
            assert time.monotonic() < deadline, "the stand-in's mark was not kept"
            await asyncio.sleep(0.02)
        # The late player decides in time on a turn of theirs: the mark goes.  (A decision
        # made as the time runs out may meet the table moved on: it is made again.)
        client = clients[late]
        reader = asyncio.get_running_loop().create_task(client.run(_Collect([])))
        deadline = time.monotonic() + 60
        while served.clocks.seats[first].stood_in:
            assert time.monotonic() < deadline, "the late player's decision never counted"
            update = client.update
            if update is None or update.to_move != first or update.number != served.number:
                await asyncio.sleep(0.02)
                continue
            await client.decide(client.action(update.legal[0].action))
            while served.number == update.number and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
        reader.cancel()
        for c in clients.values():
            await c.close()
        await ann.close()
        await bob.close()


async def test_a_lent_bot_takes_an_open_seat_and_plays_its_games(database):
    """karavan join SERVER --bot LEVEL --games N: the bot takes the free seat it finds."""
    from karavan_net.accounts import Account
    from karavan_net.lobby_bot import lend_bot

    async with serving(database) as server:
        port = server.port
        ann = await account(port, "Ann")
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        lines: list[str] = []
        robot = Account(f"127.0.0.1:{port}", "Robo", "r" * 43)
        lending = asyncio.get_running_loop().create_task(
            lend_bot(robot, "greedy", 1, lines.append, create=True)
        )
        while (await ann.mine()).tables[0].status != "playing":
            await asyncio.sleep(0.1)
        client = seat_client(port, made.table, "Ann")
        await client.join()
        mine = greedy(client, 3)
        assert await asyncio.wait_for(mine.play(), 120) == 0
        assert await asyncio.wait_for(lending, 30) == 0
        assert lines[0] == f"Playing at table {made.table} (jaipur) as a greedy bot."
        assert lines[-1] == "1 game played."
        await ann.close()
