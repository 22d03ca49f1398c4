"""Challenges through a server's lobby on loopback: a table made for named players, shown at
the top of their lobby and counted for them, taken up or declined (its challenger told)."""

from __future__ import annotations

import pytest

from karavan_net import lobby as wire
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError
from karavan_net.serve.store import Status

from .test_leaving import until_told
from .test_play_online import SECRET, account, serving


def challenge(game: str = "jaipur", *names: str, rated: bool = True) -> CreateTable:
    seats = [SeatAsk("open"), *(SeatAsk("player", name=name) for name in names)]
    return CreateTable(
        game, seats, clock="live", move_seconds=30, bank_seconds=300, rated=rated, challenge=True
    )


async def test_a_challenge_waits_at_the_top_of_its_players_lobby_and_starts_when_taken(database):
    async with serving(database) as server:
        port = server.port
        ann, bob, cid = [await account(port, name) for name in ("Ann", "Bob", "Cid")]
        told: list[str] = []
        bob.told = told.append
        open_table = await cid.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        made = await ann.create(challenge("jaipur", "bob"))  # the name in any case
        await until_told(bob, told)
        assert told == [
            f"Ann challenges you to Jaipur (30 s a move + 5 min, rated) at table {made.table}: "
            "it is at the top of your lobby."
        ]
        listed = await bob.tables()
        assert [line.id for line in listed.tables] == [made.table, open_table.table]
        first = listed.tables[0]
        assert first.challenge and first.seats[1].reserved_for == "Bob"
        assert listed.challenges == 1 and (await bob.mine()).challenges == 1
        # Nobody else sees it in the lobby; its challenger has it among their tables.
        assert [line.id for line in (await cid.tables()).tables] == [open_table.table]
        assert [line.challenge for line in (await ann.mine()).tables] == [True]
        with pytest.raises(LobbyDeclinedError, match="not free"):
            await cid.take(made.table)
        seated = await bob.take(made.table)
        assert seated.started
        assert (await bob.mine()).challenges == 0
        for client in (ann, bob, cid):
            await client.close()


async def test_a_challenge_declined_is_closed_and_its_challenger_told(database):
    async with serving(database) as server:
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        told: list[str] = []
        ann.told = told.append
        made = await ann.create(challenge("jaipur", "Bob", rated=False))
        said = await bob.decline(made.table)
        assert said == "You declined the challenge of Ann."
        await until_told(ann, told)
        assert told == [f"Bob declined the challenge at table {made.table} (Jaipur): it is closed."]
        assert (await bob.tables()).tables == [] and (await bob.mine()).challenges == 0
        assert (await ann.mine()).tables == []
        [over] = (await ann.mine(over=True)).tables
        assert over.id == made.table and over.result == "Bob declined the challenge."
        assert server.store.tables.get(made.table).status is Status.OVER
        with pytest.raises(LobbyDeclinedError, match="no challenge waiting"):
            await bob.decline(made.table)
        with pytest.raises(LobbyDeclinedError, match=r"not free|started"):
            await bob.take(made.table)
        await ann.close()
        await bob.close()


async def test_a_challenge_names_real_players_in_every_seat(database):
    async with serving(database) as server:
        ann = await account(server.port, "Ann")
        with pytest.raises(LobbyDeclinedError, match="Nobody called Zed plays here"):
            await ann.create(challenge("jaipur", "Zed"))
        with pytest.raises(LobbyDeclinedError, match="cannot challenge yourself"):
            await ann.create(challenge("jaipur", "ann"))
        await account(server.port, "Bob")
        seats = [SeatAsk("open"), SeatAsk("player", name="Bob"), SeatAsk("open")]
        with pytest.raises(LobbyDeclinedError, match="none is open"):
            await ann.create(CreateTable("karakum", seats, challenge=True))
        own = await ann.create(challenge("jaipur", "Bob", rated=False))
        bob = await account(server.port, "Bob")
        with pytest.raises(LobbyDeclinedError, match="You made that challenge"):
            await ann.decline(own.table)
        await ann.close()
        await bob.close()


async def test_a_lobby_client_of_the_first_revision_reads_a_challenge_as_a_kept_seat(database):
    """An older Karavan names no lobby revision: it is sent no field nor message it does not
    know, and reads the lists as it always has."""
    async with serving(database) as server:
        ann = await account(server.port, "Ann")
        older = LobbyClient("127.0.0.1", server.port, "Bob", f"Bob-{SECRET}")
        older.minor = 0
        await older.connect(create=True)
        told: list[str] = []
        older.told = told.append
        made = await ann.create(challenge("jaipur", "Bob"))
        frames: list[str] = []
        ws = older._ws
        await ws.send_str(wire.CLIENT.encode(wire.ListTables()))
        frames.append((await ws.receive()).data)
        assert '"challenge"' not in frames[0] and '"challenges"' not in frames[0]
        listed = wire.SERVER.decode(frames[0])
        assert [line.id for line in listed.tables] == [made.table]
        assert listed.tables[0].seats[1].reserved_for == "Bob"
        assert told == []
        await ann.close()
        await older.close()
