"""Leaving a server's table through the lobby and the table protocol on loopback: standing up
before the game starts, aborting it before everyone has decided, resigning it."""

from __future__ import annotations

import asyncio

import pytest

from karavan_net.bot_client import BotPlayer
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyDeclinedError
from karavan_net.protocol import Abort, Resign
from karavan_net.serve.store import Status
from tests.net.helpers import until

from .at_table import at_table, decide_once, heard_by_all
from .test_play_online import account, serving


async def test_a_player_stands_up_from_a_table_that_has_not_started(database):
    async with serving(database) as server:
        ann, bob = await account(server.port, "Ann"), await account(server.port, "Bob")
        told: list[str] = []
        ann.told = told.append
        seats = [SeatAsk("open"), SeatAsk("open"), SeatAsk("open")]
        made = await ann.create(CreateTable("karakum", seats))
        await bob.take(made.table)
        said = await bob.stand_up(made.table)
        assert said == f"You stood up from table {made.table} (Karakum): the seat is free again."
        [line] = (await bob.tables()).tables
        assert [seat.name for seat in line.seats] == ["Ann", None, None]
        assert (await bob.mine()).tables == []
        await until_told(ann, told)
        assert told == [f"Bob stood up from table {made.table} (Karakum): the seat is free again."]
        with pytest.raises(LobbyDeclinedError, match="no seat at this table"):
            await bob.stand_up(made.table)
        # Once the game has started, standing up is no way out: it is resigned.
        await bob.take(made.table)
        cid = await account(server.port, "Cid")
        await cid.take(made.table)
        with pytest.raises(LobbyDeclinedError, match="resign it at its table"):
            await cid.stand_up(made.table)
        for client in (ann, bob, cid):
            await client.close()


async def until_told(client, told: list[str]) -> None:
    """A lobby hears what it is told unasked while it asks: ask until it has heard it."""
    for _ in range(100):
        if told:
            return
        await client.tables()
        await asyncio.sleep(0.05)
    raise AssertionError("nothing was told")


async def test_a_table_its_creator_leaves_with_nobody_else_seated_is_closed(database):
    async with serving(database) as server:
        ann, bob = await account(server.port, "Ann"), await account(server.port, "Bob")
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        assert [line.id for line in (await bob.tables()).tables] == [made.table]
        said = await ann.stand_up(made.table)
        assert said == f"You stood up from table {made.table} (Jaipur): it is closed."
        assert (await bob.tables()).tables == [] and (await ann.mine()).tables == []
        assert server.store.tables.get(made.table).status is Status.CLOSED
        with pytest.raises(LobbyDeclinedError, match=r"not free|started"):
            await bob.take(made.table)
        await ann.close()
        await bob.close()


async def test_a_rated_game_aborted_before_everyone_decided_ends_unrated(database):
    async with (
        serving(database) as server,
        at_table(server, "jaipur", ["Ann", "Bob"], rated=True) as seated,
    ):
        await heard_by_all(seated, lambda update: update.abortable)
        first = await decide_once(server, seated)
        other = seated.players[1 - first]
        await heard_by_all(seated, lambda update: update.abortable and update.number > 0)
        await other.client.send(Abort())
        said = f"{other.name} aborted the game: it ends with no result, and is not rated."
        await until(lambda: all(p.heard.closed_with == said for p in seated.players))
        kept = server.store.tables.get(seated.table)
        assert kept.status is Status.OVER and kept.result["aborted"] == other.seat
        assert kept.result["sentence"] == said
        assert server.store.ratings.changes({seated.table}) == {}
        assert server.store.ratings.leaderboard("jaipur") == []
        [line] = (await other.lobby.mine(over=True)).tables
        assert line.result == said and line.rating_change == []


async def test_once_everyone_has_decided_the_game_may_no_longer_be_aborted(database):
    async with (
        serving(database) as server,
        at_table(server, "jaipur", ["Ann", "Bob"]) as seated,
    ):
        first = await decide_once(server, seated)
        second = await decide_once(server, seated)
        assert {first, second} == {0, 1}
        await heard_by_all(seated, lambda update: not update.abortable)
        player = seated.players[first]
        await player.client.send(Abort())
        await until(lambda: player.heard.declined_with)
        assert player.heard.declined_with == [
            "Everyone has decided: the game can no longer be aborted, only resigned."
        ]
        assert not server.served[seated.table].finished


async def test_a_two_player_game_resigned_ends_there_and_is_rated_as_a_loss(database):
    async with (
        serving(database) as server,
        at_table(server, "jaipur", ["Ann", "Bob"], rated=True) as seated,
    ):
        await decide_once(server, seated)
        ann, bob = seated["Ann"], seated["Bob"]
        await ann.client.send(Resign())
        said = "Ann resigns: Bob wins."
        await heard_by_all(seated, lambda update: update.outcome is not None)
        for player in seated.players:
            ending = player.heard.last
            assert ending.notice == said and not ending.legal
            assert ending.outcome.result.winners == (bob.seat,)
            assert ending.outcome.result.notes == (said,)
            assert player.heard.closed_with is None  # still at the table: a rematch may follow
        kept = server.store.tables.get(seated.table)
        assert kept.status is Status.OVER and kept.result["resigned"] == [ann.seat]
        assert kept.result["winners"] == [bob.seat]
        changes = server.store.ratings.changes({seated.table})
        ann_before, ann_after = changes[(seated.table, _account(server, "Ann"))]
        bob_before, bob_after = changes[(seated.table, _account(server, "Bob"))]
        assert ann_after < ann_before and bob_after > bob_before
        await bob.client.send(Resign())
        await until(lambda: bob.heard.declined_with)
        assert bob.heard.declined_with == ["The game is over."]


def _account(server, name: str) -> int:
    found = server.store.accounts.named(name)
    assert found is not None
    return found.id


async def test_in_a_game_of_three_the_resigner_is_played_by_a_bot_and_ranked_last(database):
    async with (
        serving(database) as server,
        at_table(server, "karakum", ["Ann", "Bob", "Cid"], rated=True, stand_in="random") as seated,
    ):
        ann = seated["Ann"]
        await ann.client.send(Resign())
        said = "Ann resigns: a random bot plays Ann's seat to the end, and is ranked last."
        await heard_by_all(seated, lambda update: update.resigned == [ann.seat])
        assert any(update.notice == said for update in seated["Bob"].heard.updates)

        # Read the store as the server does, off its event loop: a read on the loop every few
        # milliseconds held up the server itself, which keeps the resignation meanwhile.
        async def kept() -> bool:
            record = await asyncio.to_thread(server.store.tables.get, seated.table)
            return record.seats[ann.seat].resigned == 1

        end = asyncio.get_running_loop().time() + 20
        while not await kept():
            assert asyncio.get_running_loop().time() < end, "the resignation was never kept"
            await asyncio.sleep(0.05)
        await ann.client.send(Resign())
        await until(lambda: ann.heard.declined_with)
        assert ann.heard.declined_with == [
            "You have resigned this game already: a bot plays your seat."
        ]
        # The others play on to the end; the bot plays Ann's seat.
        bots = []
        for seed, player in enumerate((seated["Bob"], seated["Cid"])):
            player.reading.cancel()
            bots.append(BotPlayer(player.client, "greedy", seed=seed, out=lambda _: None))
        assert await asyncio.wait_for(asyncio.gather(*(b.play() for b in bots)), 240) == [0, 0]
        kept = server.store.tables.get(seated.table)
        assert kept.status is Status.OVER and kept.result["resigned"] == [ann.seat]
        changes = server.store.ratings.changes({seated.table})
        after = {
            name: changes[(seated.table, _account(server, name))][1]
            for name in seated_names(seated)
        }
        assert after["Ann"] < 1000 and after["Ann"] < min(after["Bob"], after["Cid"])


def seated_names(seated) -> list[str]:
    return [player.name for player in seated.players]
