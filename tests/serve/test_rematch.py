"""A rematch at a server's table on loopback: asked for once the game is over, agreed to (a new
table of the same seats and settings starts, and everyone is sent there) or turned down."""

from __future__ import annotations

from karavan_net.protocol import Rematch, Resign
from karavan_net.serve.store import Status
from tests.net.helpers import until

from .at_table import at_table, heard_by_all
from .test_play_online import serving


async def test_a_rematch_everyone_agrees_to_starts_a_new_table_and_pulls_them_to_it(database):
    async with (
        serving(database) as server,
        at_table(server, "jaipur", ["Ann", "Bob"], rated=True) as seated,
    ):
        ann, bob = seated["Ann"], seated["Bob"]
        await bob.client.send(Rematch())  # before the end: refused in words
        await until(lambda: bob.heard.declined_with)
        assert bob.heard.declined_with == ["A rematch comes once the game is over."]
        await ann.client.send(Resign())
        await heard_by_all(seated, lambda update: update.outcome is not None)
        await bob.client.send(Rematch())
        asked = "Bob asks for a rematch: it waits for Ann."
        await heard_by_all(seated, lambda update: update.rematch == [bob.seat])
        assert ann.heard.last.notice == asked
        await ann.client.send(Rematch())
        # Both are sent to the new table, and play there at once.
        await until(lambda: ann.client.code != str(seated.table))
        new = int(ann.client.code)
        await until(lambda: bob.client.code == str(new))
        await heard_by_all(
            seated,
            lambda update: update.outcome is None and update.number == 0,
        )
        kept = server.store.tables.get(new)
        old = server.store.tables.get(seated.table)
        assert kept.status is Status.PLAYING and kept.rated and kept.game == "jaipur"
        assert [s.account_id for s in kept.seats] == [s.account_id for s in old.seats]
        assert kept.clock == old.clock and kept.seed != old.seed
        assert all(p.heard.closed_with is None for p in seated.players)
        assert server.served[new].match.seats[0].name == "Ann"


async def test_a_rematch_turned_down_is_said_and_nothing_starts(database):
    async with (
        serving(database) as server,
        at_table(server, "jaipur", ["Ann", "Bob"]) as seated,
    ):
        ann, bob = seated["Ann"], seated["Bob"]
        await ann.client.send(Resign())
        await heard_by_all(seated, lambda update: update.outcome is not None)
        await ann.client.send(Rematch())
        await heard_by_all(seated, lambda update: update.rematch == [ann.seat])
        await bob.client.send(Rematch(accept=False))
        await heard_by_all(seated, lambda update: update.rematch == [])
        assert ann.heard.last.notice == "Bob does not want a rematch."
        assert ann.client.code == bob.client.code == str(seated.table)
        mine = await ann.lobby.mine()
        assert mine.tables == []  # no table was made
