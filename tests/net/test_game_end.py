"""The end of a hosted game (issue 57), against a real host on loopback: each player gets
the game as they saw it and opens its review and replay in the app, and the host offers a
rematch with the same seats, which every player's Karavan joins by itself."""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
import pytest

from karavan_net.client import TableClient
from karavan_net.hosting import REMATCH
from karavan_net.protocol import Refused, Welcome, observation_data
from karavan_tui.net.remote_over import RemoteOverScreen
from karavan_tui.screens.replay import Replay
from karavan_tui.screens.review import ReviewScreen
from karavan_tui.screens.table import TableScreen

from ..tui.helpers import noted, waiting
from .helpers import CODE, Heard, Raw, hosting, joined, until
from .test_remote_table import _last_decision_is, in_the_app, in_the_hosts_app


async def test_each_player_gets_the_game_as_they_saw_it_and_nothing_more():
    match, last = _last_decision_is(0)
    async with hosting(match) as (_table, server):
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        await until(lambda: ann.update.legal != [])
        await ann.decide(last)
        await until(lambda: ann.record is not None and bob.record is not None)
        game = match.game
        for client, seat in ((ann, 0), (bob, 1)):
            record = client.record
            assert record.seat == seat and record.seed != match.seed
            views = [observation_data(game, match.view(seat, i)) for i in range(len(match.states))]
            assert record.observations == views  # only that seat's own view of each position
            seen = client.seen(match.seats)
            assert seen is not None and seen.seen_by == seat and seen.log() == match.log()
        late = TableClient("127.0.0.1", server.port, CODE, "Bob", secret=bob.secret)
        await late.join()  # a player who comes back after the end gets it too
        late.heard = Heard()
        reading = asyncio.ensure_future(late.run(late.heard))
        await until(lambda: late.record is not None)
        assert late.record.observations == bob.record.observations
        reading.cancel()
        await ann.close()
        await bob.close()
        await late.close()


@pytest.mark.slow
async def test_after_the_end_the_review_and_the_replay_are_of_the_game_as_seen(tmp_path):
    match, last = _last_decision_is(1)
    async with hosting(match) as (_table, server):
        ann = await joined(server.port, "Ann")
        async with in_the_app(tmp_path, server.port, "Bob") as (app, pilot, bob):
            screen = app.screen
            await waiting(pilot, lambda: screen.driver._my_move())
            screen.decide(last)
            await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen))
            await waiting(pilot, lambda: bob.record is not None)
            await pilot.press("p")
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            replay = app.screen.driver
            assert isinstance(replay, Replay) and replay.viewer == 1
            assert replay.viewers == [None, 1] and not replay.allows("face_up")
            assert "seed" not in app.screen.shown.log_title
            await pilot.press("escape")
            await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen))
            await pilot.press("v")
            await waiting(pilot, lambda: isinstance(app.screen, ReviewScreen))
            review = app.screen
            assert review.seats == [1] and review.match.seen_by == 1
            assert review.viewers() == [None, 1]
            await pilot.press("escape")
        await ann.close()


async def refusals(raw: Raw) -> list[str]:
    """The reasons of the refusals ``raw`` is sent until its connection ends."""
    said = []
    with contextlib.suppress(aiohttp.ClientError):
        while not raw.ws.closed:
            message = await raw.next()
            if isinstance(message, Refused):
                said.append(message.reason)
    return said


async def test_the_host_offers_a_rematch_with_the_same_seats(tmp_path):
    """Ann hosts in the app, Bob plays an older Karavan (protocol revision 0)."""
    match, last = _last_decision_is(0)
    async with in_the_hosts_app(tmp_path, match) as (table, server, app, pilot):
        bob = await Raw.hello(server.port, "Bob", minor=0)
        assert isinstance(await bob.next(), Welcome)
        screen = app.screen
        await waiting(pilot, lambda: screen.driver._my_move())
        screen.decide(last)
        await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen))
        assert app.screen.rematch is not None
        noted_now = noted(app)  # every toast kept, even one gone before a busy test looks
        # Bob reads as the host writes: once his connection has ended, what it brought and
        # was not read yet is lost (a busy test may come to read it only after the end).
        refused = asyncio.ensure_future(refusals(bob))
        await pilot.press("m")
        await until(lambda: server.tables[CODE] is not table)
        new = server.tables[CODE]
        assert new.match.seats == match.seats and new.match.history == []
        assert new.match.seed != match.seed and new.claimed(1)  # Bob's secret still holds
        # Ann's Karavan takes her seat in the new game by itself, without a word of a drop.
        await until(lambda: 0 in new.links)
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
        await waiting(pilot, lambda: screen.driver.latest.outcome is None)
        told = [message for _title, message in noted_now]
        assert told.count("A rematch: a new game with the same seats.") == 1
        assert not any("dropped" in message for message in told)
        assert REMATCH in await refused  # the older Karavan is told to join again...
        await bob.close()
        again = await Raw.hello(server.port, "Bob", secret=bob.secret, minor=0)
        assert isinstance(await again.next(), Welcome)  # ... and does, with its secret
        await again.close()
