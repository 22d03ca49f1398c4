"""Seats come back (issue 57), against a real host on loopback: a taken seat's refusal says
what to do, the host frees an absent player's seat or hands it to a bot (by a key in the app
and by a command headless), the bot gives it back when the player returns, and an away
limit hands an absent player's seat to a bot by itself, told to everyone."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest

from karavan_core.engine import IllegalAction
from karavan_net.client import JoinRefused, TableClient
from karavan_net.hosting import HostControl, command
from karavan_net.protocol import Welcome
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.net.presence import presence_change

from ..tui.helpers import waiting
from .helpers import CODE, Raw, hosting, joined, new_match, until
from .test_remote_table import in_the_hosts_app


async def away(table, client) -> None:
    """``client`` leaves (its terminal closed): its seat is away."""
    seat = client.seat
    client.reader.cancel()
    await client.close()
    await until(lambda: seat not in table.links)


async def test_the_host_frees_an_absent_players_seat_and_a_new_karavan_takes_it():
    match = new_match("karakum", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        control = HostControl(table, [])
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        await until(lambda: ann.update.legal != [])
        await ann.decide(ann.action(ann.update.legal[0].action))
        await until(lambda: match.history != [])
        old_secret = bob.secret
        with pytest.raises(IllegalAction, match="Bob is at the table"):
            table.free(1)
        await away(table, bob)
        # Bob's new browser has no secret: it is told what to do.
        with pytest.raises(JoinRefused, match=r"^Bob is away: ask the host to free the seat\.$"):
            await TableClient("127.0.0.1", server.port, CODE, "Bob").join()
        assert command(control, "free bob") == []  # the headless host's command
        await until(lambda: ann.update.seats[1].status == "empty")
        assert table.referee.held == "The game goes on once Bob has taken the seat."
        assert command(control, "free Bob") == [
            "Bob's seat is free already: it waits for Bob to join."
        ]
        newcomer = TableClient("127.0.0.1", server.port, CODE, "Bob")
        await newcomer.join()
        assert newcomer.seat == 1 and newcomer.secret != old_secret
        await until(lambda: ann.update.seats[1].status == "here" and table.referee.held is None)
        with pytest.raises(JoinRefused, match="Bob's seat is taken"):  # the old secret is void
            await TableClient("127.0.0.1", server.port, CODE, "Bob", secret=old_secret).join()
        await newcomer.close()
        await ann.close()


async def test_a_bot_plays_an_absent_players_seat_until_the_player_is_back():
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        control = HostControl(table, [])
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        secret = bob.secret
        await away(table, bob)
        assert command(control, "bot Bob genius")[0].startswith("No bot level genius")
        assert command(control, "bot Bob random") == []
        await until(lambda: ann.update.seats[1].stand_in == "random")
        for _ in range(3):  # Ann plays, and the bot answers for Bob
            await until(lambda: ann.update.legal != [] and ann.update.number == table.number)
            moves = len(match.history)
            await ann.decide(ann.action(ann.update.legal[0].action))
            await until(lambda m=moves: len(match.history) >= m + 2)
        assert {match.actor(i) for i in range(len(match.history))} == {0, 1}
        back = TableClient("127.0.0.1", server.port, CODE, "Bob", secret=secret)
        await back.join()  # Bob is back: the bot gives his seat back
        await until(lambda: ann.update.seats[1].status == "here")
        assert ann.update.seats[1].stand_in is None and 1 not in table.referee.stand_ins
        await back.close()
        await ann.close()


async def test_an_away_limit_hands_the_seat_to_a_bot_and_everyone_is_told():
    events: list[str] = []
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match, events=events) as (table, server):
        table.away_limit, table.away_level = 0.3, "random"
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        await away(table, bob)
        await until(lambda: ann.update.seats[1].stand_in == "random")
        assert "Bob has been away too long: a random bot plays the seat until Bob is back." in (
            events
        )
        said = presence_change("Bob", ("away", None), ("away", "random"))
        assert said == "A random bot plays Bob's seat until Bob is back."
        await ann.close()


async def test_the_host_frees_a_seat_by_a_key_in_the_app(tmp_path):
    match = new_match("karakum", "Ann,Bob", first=0)
    async with in_the_hosts_app(tmp_path, match) as (table, server, app, pilot):
        screen = app.screen
        bob = await joined(server.port, "Bob")
        await waiting(pilot, lambda: screen.driver.latest.seats[1].status == "here")
        assert not screen.driver.allows("seats")  # everybody is here: no key
        await away(table, bob)
        await waiting(pilot, lambda: screen.driver.allows("seats"))
        await pilot.press("e")
        await waiting(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.press("enter")  # Bob's seat
        await waiting(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        await pilot.pause()
        await pilot.press("enter")  # free it
        await until(lambda: not table.claimed(1))
        await waiting(pilot, lambda: screen.driver.latest.seats[1].status == "empty")
        told = [note.message for note in app._notifications]
        assert any("The host freed Bob's seat" in message for message in told), told


@pytest.mark.parametrize("verb", ["free Cid", "bot Cid random", "back Ann"])
async def test_a_headless_hosts_command_that_cannot_be_done_says_why(verb):
    match = new_match("karakum", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        ann = await joined(server.port, "Ann")
        control = HostControl(table, [])
        answer = command(control, verb)
        assert len(answer) == 1 and ("No player's seat" in answer[0] or "at the table" in answer[0])
        assert command(control, "hello")[0].startswith("Commands")
        await asyncio.sleep(0)
        await ann.close()


async def test_an_older_karavan_is_written_to_in_the_shapes_it_knows():
    """A client of protocol revision 0 at a table with a take-back request, a stand-in bot and
    an end: none of revision 1's fields or messages reach it."""
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        frames: list[tuple[int | None, str]] = []
        table.observer = lambda seat, text: frames.append((seat, text))
        old = await Raw.hello(server.port, "Ann", minor=0)
        assert isinstance(await old.next(), Welcome)
        reading = asyncio.ensure_future(keep_reading(old))
        bob = await joined(server.port, "Bob")
        await until(lambda: old.update is not None and old.update.legal != [])
        await old.ws.send_str(decide_first(old))
        await until(lambda: bob.update.legal != [] and bob.update.number == table.number)
        await bob.decide(bob.action(bob.update.legal[0].action))
        await until(lambda: match.to_move == 0)
        await bob.undo()  # past Ann's decision: she is asked
        await until(lambda: table.referee.request is not None)
        await away(table, bob)
        HostControl(table, []).host.hand_to_bot(1, "random")
        await until(lambda: table.referee.request is None or len(frames) > 12)
        reading.cancel()
        await old.close()
        sent = [text for seat, text in frames if seat == 0]
        assert any('"takeback":{"seat":1' in text for text in sent)  # asked, the old way
        assert not any(word in text for text in sent for word in REVISION_1)


REVISION_1 = ('"stand_in"', '"taken"', '"seconds"', '"type":"Closed"', '"type":"Record"')


async def keep_reading(raw) -> None:
    """Read what the host sends ``raw`` (its latest update kept) until it is stopped."""
    while not raw.ws.closed:
        with contextlib.suppress(TimeoutError):
            await raw.next()


def decide_first(raw) -> str:
    choice = raw.update.legal[0].action
    return json.dumps({"type": "Decide", "number": raw.update.number, "actions": [choice]})
