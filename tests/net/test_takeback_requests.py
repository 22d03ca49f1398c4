"""Take-back requests cannot stall a hosted table (issue 57), each against a real host on
loopback: one open request at a time, none asked again before somebody decides, a
withdrawal, a lapse, bots that play on and remote bots that answer by the fixed rule."""

from __future__ import annotations

import asyncio
import contextlib
import json

from karavan_net.client import TableClient
from karavan_net.protocol import Declined, Update

from .helpers import Raw, bot, hosting, joined, new_match, until


def number_of(client: TableClient) -> int | None:
    """The table's revision as ``client`` last heard it (``None``: nothing heard yet)."""
    return None if client.update is None else client.update.number


def asked(client: TableClient) -> bool:
    """Whether ``client`` has heard of a take-back request."""
    return client.update is not None and client.update.takeback is not None


async def play_turn(client, match, table, reveal: bool = False) -> None:
    """``client``'s seat plays its whole turn (a decision that shows it something, first)."""
    seat = client.seat
    await until(lambda: match.to_move == seat and client.update.number == table.number)
    while match.to_move == seat:
        await until(lambda: client.update.number == table.number and client.update.legal != [])
        view = match.view(seat)
        choices = [client.action(choice.action) for choice in client.update.legal]
        shows = [a for a in choices if match.game.reveals(view, a)]
        number = table.number
        await client.decide(shows[0] if reveal and shows else choices[0])
        reveal = False

        def moved_on(before: int = number) -> bool:
            return table.number > before and number_of(client) == table.number

        await until(moved_on)


async def test_a_player_who_asks_again_and_again_opens_one_request_and_the_table_plays_on():
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        bob = await joined(server.port, "Bob")
        ann = await Raw.hello(server.port, "Ann")
        while not isinstance(await ann.next(), Update) or ann.update.legal == []:
            pass
        await ann.ws.send_str(
            json.dumps({"type": "Decide", "number": 0, "actions": [ann.update.legal[0].action]})
        )
        await until(lambda: bob.update.to_move == 1 and bob.update.number == table.number)
        asked: set[int] = set()
        declines: list[str] = []

        async def spam() -> None:  # Ann asks to take back every 20 ms, 150 times
            for _ in range(150):
                await ann.ws.send_str(json.dumps({"type": "Undo", "number": table.number}))
                await asyncio.sleep(0.02)

        async def read() -> None:
            while True:
                message = await ann.next()
                if isinstance(message, Declined):
                    declines.append(message.reason)

        spamming = asyncio.ensure_future(spam())
        reading = asyncio.ensure_future(read())
        bob_moves = 0
        while not spamming.done():
            await until(lambda: bob.update.takeback is not None or spamming.done())
            request = bob.update.takeback
            if request is None:
                break
            asked.add(request.number)
            await bob.answer(False, request.number)
            await until(lambda: bob.update.takeback is None)
            if bob.update.to_move == 1 and bob.update.legal:
                await bob.decide(bob.action(bob.update.legal[0].action))
                bob_moves += 1
                await until(lambda: bob.update.to_move != 1)
        await spamming
        reading.cancel()
        # One request per decision Bob made, at most: every other Undo was refused in words.
        assert 1 <= len(asked) <= bob_moves + 1, (asked, bob_moves)
        assert bob_moves >= 1 and match.to_move == 0
        assert "Your take-back request was declined: ask again once somebody" in " ".join(
            declines
        ) or "waits for its answers" in " ".join(declines)
        await ann.close()
        await bob.close()


@contextlib.asynccontextmanager
async def ann_asks(seconds: float = 30.0):
    """Ann and Bob at a Jaipur table, one decision each, then Ann asks to take hers back."""
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        table.referee.takeback_seconds = seconds
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        await play_turn(ann, match, table)
        await play_turn(bob, match, table)
        await until(lambda: number_of(ann) == table.number)
        await ann.undo()
        await until(lambda: asked(bob) and asked(ann))
        yield match, ann, bob
        await ann.close()
        await bob.close()


async def test_an_unanswered_request_lapses_and_everyone_is_told():
    async with ann_asks(seconds=0.5) as (match, ann, bob):
        assert bob.update.takeback.seconds == 1 and len(bob.update.takeback.taken) == 2
        lapsed = "Ann's take-back request lapsed: it was not answered in time."
        await until(lambda: ann.update.notice == lapsed and bob.update.notice == lapsed, 10)
        assert bob.update.takeback is None and len(match.history) == 2


async def test_the_asker_withdraws_and_the_others_are_told():
    async with ann_asks() as (_match, ann, bob):
        number = ann.update.takeback.number
        await bob.withdraw(number)  # not Bob's to withdraw
        await until(lambda: bob.heard.declines != [])
        assert bob.heard.declines == ["You have no take-back request to withdraw."]
        await ann.withdraw(number)
        await until(lambda: bob.update.takeback is None)
        assert bob.update.notice == "Ann no longer asks to take back."
        await until(lambda: ann.update.takeback is None and not ann.update.can_undo)


async def test_the_hosts_bots_play_on_while_a_remote_bot_answers_by_the_rule():
    """Ann asks while the host's bot is to move: it plays on and its reply joins the
    request; the remote bot agrees (only Ann's and bots' decisions), Cid too, and all of it
    goes back.  Past Cid's decision the remote bot declines, by the same rule.

    Cid sits before the remote bot: a person who decides while a request is open ends it,
    and the remote bot, having agreed, would decide as soon as its turn came."""
    match = new_match("karakum", "Ann,bot:random:Robot,Cid,Rem", first=0)
    async with hosting(match) as (table, server):
        # Time for Ann's request to come while Robot is to move, even on a busy machine.
        table.bot_delay = 1.5
        rem = await bot(server.port, "Rem", seed=3)
        playing = asyncio.ensure_future(rem.play())
        cid = await joined(server.port, "Cid")
        ann = await joined(server.port, "Ann")
        await play_turn(ann, match, table, reveal=True)
        assert match.to_move == 1  # Robot thinks: Ann asks now
        before = match.history[: match.undo_target(0)]
        await ann.undo()
        await until(lambda: cid.update.takeback is not None and 2 in cid.update.takeback.waiting)
        await until(lambda: any(t.seat == 1 for t in cid.update.takeback.taken))  # Robot played
        await until(lambda: 3 not in cid.update.takeback.waiting)  # Rem agreed
        await cid.answer(True, cid.update.takeback.number)
        await until(lambda: match.history == before)
        await until(lambda: ann.update.number == table.number)
        assert ann.update.notice.startswith("Cid and Rem agreed:"), ann.update.notice
        # Ann plays, then Robot, Rem and Cid: a take-back past Cid's decision.
        await play_turn(ann, match, table, reveal=True)
        await play_turn(cid, match, table)
        await until(lambda: match.to_move == 0 and ann.update.number == table.number)
        await ann.undo()
        await until(lambda: ann.update.notice == "Rem declined: Ann's decision stands.")
        assert cid.update.takeback is None
        await ann.close()
        await cid.close()
        playing.cancel()
