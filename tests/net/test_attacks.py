"""The attacks of issue 29, each against a real host on loopback, bounded in time and count.

A probe learns no hidden card from gestures or take-backs, a finished game stays
finished, a burst slows only its sender, silent and trickling connections are closed
in seconds and never lock the players out (wrong codes and churn: test_no_lockout.py).
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from aiohttp import web

from karavan_core.engine import REVEALING_GESTURE, Action
from karavan_core.games.jaipur.components import Card
from karavan_core.games.jaipur.state import JaipurState, Sell
from karavan_core.games.karakorum.rules import ALL_CARDS
from karavan_core.games.karakorum.state import Reveal, StopRevealing, Take
from karavan_core.match import Match
from karavan_core.saves import load_match, unstructure_action
from karavan_net.client import HostUnreachable, TableClient
from karavan_net.host import Host
from karavan_net.protocol import MAX_CLIENT_FRAME, Declined, Record, Update, Welcome
from karavan_net.server import MAX_STRANGERS, MESSAGE_RATE, Connection

from .helpers import CODE, Raw, free_port, hosting, joined, new_match, until

ATTACKER = "127.0.0.2"  # Linux answers on all of 127.0.0.0/8: the attacker has its own address


def decide(table: Host, number: int, *actions) -> str:
    data = [unstructure_action(table.game, action) for action in actions]
    return json.dumps({"type": "Decide", "number": number, "actions": data})


async def reply(raw: Raw, text: str):
    """Send ``text`` and return the first answer that is not an update (or, at the end, the
    game as that seat saw it)."""
    await raw.ws.send_str(text)
    while True:
        message = await raw.next()
        if not isinstance(message, Update | Record):
            return message


async def seated(port: int, name: str, **kwargs) -> Raw:
    """A hand-driven client at its seat, past its Welcome and first update."""
    raw = await Raw.hello(port, name, **kwargs)
    assert isinstance(await raw.next(), Welcome)
    assert isinstance(await raw.next(), Update)
    return raw


def played(game: str, moves) -> Match:
    """A fresh two-human ``game`` match with ``moves`` played."""
    match = new_match(game, "Ann,Bob", first=0)
    for action in moves:
        match.play(action)
    return match


# -- what a gesture or a take-back could tell --------------------------------------------


async def test_a_karakorum_gesture_past_a_reveal_reads_no_card_of_the_deck(tmp_path):
    save = tmp_path / "karakorum.json"
    match = new_match("karakorum", "Ann,Bob", first=0)
    async with hosting(match, save_path=save) as (table, server):
        bob = await joined(server.port, "Bob")
        ann = await seated(server.port, "Ann")
        await until(lambda: table.started)
        assert Reveal() in match.legal_actions()
        before = (table.number, list(match.history), save.read_text())
        cards = sorted(set(ALL_CARDS))
        answers = set()
        for card in cards:  # one probe per card: is it the top of the deck?
            probe = decide(table, table.number, Reveal(), StopRevealing(), Take(card), Reveal())
            answer = await reply(ann, probe)
            assert isinstance(answer, Declined)
            answers.add(answer.reason)
        table.referee.flush()
        assert answers == {REVEALING_GESTURE}  # one answer for all of them
        assert (table.number, match.history, save.read_text()) == before
        assert len(cards) > 30
        await ann.close()
        await bob.close()


def round_ending_sales(seeds: range):
    """Positions where Ann's sale ends a Jaipur round: (moves, sale, whether she wins it)."""
    for seed in seeds:
        match = played("jaipur", [])
        rng = random.Random(seed)
        moves: list[Action] = []
        while not match.is_over():
            state, game = match.state, match.game
            assert isinstance(state, JaipurState)
            legal = match.legal_actions()
            if match.to_move == 0:
                for sale in (a for a in legal if isinstance(a, Sell)):
                    after = game.apply(state, sale)
                    if len(after.rounds) > len(state.rounds):
                        yield list(moves), sale, after.rounds[-1].winner == 0
            action = rng.choice(legal)
            moves.append(action)
            match.play(action)


async def test_a_jaipur_round_end_answers_alike_whether_the_round_is_won_or_lost():
    found: dict[bool, tuple[list, Sell]] = {}
    for moves, sale, won in round_ending_sales(range(40)):
        found.setdefault(won, (moves, sale))
        if len(found) == 2:
            break
    assert set(found) == {True, False}, "no deal gave both a won and a lost round end"
    answers = {}
    for won, (moves, sale) in found.items():
        match = played("jaipur", moves)
        async with hosting(match) as (table, server):
            bob = await joined(server.port, "Bob")
            ann = await seated(server.port, "Ann")
            history = list(match.history)
            answer = await reply(ann, decide(table, table.number, sale, Sell(Card.LEATHER, 99)))
            assert isinstance(answer, Declined)
            answers[won] = answer.reason
            assert match.history == history
            await ann.close()
            await bob.close()
    assert answers[True] == answers[False] == REVEALING_GESTURE


def first_revealing(match: Match):
    """A decision open to the player to move that shows them something new."""
    game = match.game
    view = match.view(match.to_move)
    return next(a for a in match.legal_actions() if game.reveals(view, a))


async def test_taking_back_a_revealing_decision_needs_the_other_player_to_agree(tmp_path):
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match, save_path=tmp_path / "jaipur.json") as (table, server):
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        await until(lambda: ann.update.legal != [])
        peek = first_revealing(match)
        await ann.decide(peek)
        await until(lambda: ann.update.number == table.number == 1)
        seen = ann.update.observation
        await ann.undo()  # the card it showed stays shown: no free take-back
        await until(lambda: bob.update.takeback is not None)
        assert match.history == [peek] and ann.update.observation == seen
        await bob.answer(False)
        await until(lambda: ann.update.takeback is None and ann.update.number == table.number)
        assert match.history == [peek] and match.takebacks == [0, 0]
        # The asker is told in words; the one who declined is not told of their own answer.
        assert ann.update.notice == "Bob declined: Ann's decision stands."
        await until(lambda: bob.update.number == table.number)
        assert bob.update.notice is None
        await ann.close()
        await bob.close()


async def test_against_bots_a_take_back_past_a_reveal_is_free_but_counted(tmp_path):
    save = tmp_path / "jaipur.json"
    match = new_match("jaipur", "Ann,bot:random:Robot", first=0)
    async with hosting(match, save_path=save) as (table, server):
        ann = await joined(server.port, "Ann")
        await until(lambda: ann.update.legal != [])
        await ann.decide(first_revealing(match))
        await until(lambda: match.to_move == 0 and len(match.history) >= 2)
        await until(lambda: ann.update.number == table.number and ann.update.can_undo)
        await ann.undo()
        await until(lambda: match.history == [] and ann.update.number == table.number)
        assert match.takebacks == [1, 0]
        table.referee.flush()
        assert load_match(save).takebacks == [1, 0]
        await ann.close()


def one_decision_from_the_end() -> tuple[list[Action], object]:
    """Jaipur moves that leave Ann (seat 0) the last decision of the match, and that decision."""
    for seed in range(100):
        match = played("jaipur", [])
        rng = random.Random(seed)
        moves = []
        while not match.is_over():
            moves.append((match.to_move, rng.choice(match.legal_actions())))
            match.play(moves[-1][1])
        if moves[-1][0] == 0:
            return [action for _, action in moves[:-1]], moves[-1][1]
    raise AssertionError("no deal ends with Ann's decision")


async def test_after_the_end_no_undo_or_redo_changes_the_result(tmp_path):
    save = tmp_path / "jaipur.json"
    moves, last = one_decision_from_the_end()
    match = played("jaipur", moves)
    async with hosting(match, save_path=save) as (table, server):
        bob = await seated(server.port, "Bob")
        ann = await seated(server.port, "Ann")
        await ann.ws.send_str(decide(table, table.number, last))
        while ann.update.outcome is None:
            await ann.next()
        history = list(match.history)
        for raw, kind in ((ann, "Undo"), (bob, "Undo"), (ann, "Redo")):
            text = json.dumps({"type": kind, "number": table.number})
            answer = await reply(raw, text)
            assert isinstance(answer, Declined), answer
        assert "its result stands" in answer.reason or "nothing to redo" in answer.reason
        assert match.history == history and match.is_over()
        table.referee.flush()
        kept = load_match(save)
        assert kept.is_over() and kept.history == history
        await ann.close()
        await bob.close()


# -- bursts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rate", [1e6, pytest.param(MESSAGE_RATE, marks=pytest.mark.slow, id="default-rate")]
)
async def test_a_burst_of_undo_and_redo_drops_nobody_and_fills_no_queue(tmp_path, rate):
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match, save_path=tmp_path / "jaipur.json", rate=rate) as (table, server):
        bob = await joined(server.port, "Bob")
        ann = await seated(server.port, "Ann")
        bobs = table.links[1]
        game = match.game
        quiet = next(a for a in match.legal_actions() if not game.reveals(match.view(0), a))
        await ann.ws.send_str(decide(table, table.number, quiet))
        while not (match.history and ann.update.number == table.number):
            await ann.next()
        start = table.number
        pairs = 200
        for step in range(pairs):  # Ann takes back and replays her decision, as fast as she can
            number = start + 2 * step
            await ann.ws.send_str(json.dumps({"type": "Undo", "number": number}))
            await ann.ws.send_str(json.dumps({"type": "Redo", "number": number + 1}))
        end = start + 2 * pairs
        declines = []
        while ann.update.number != end:
            answer = await ann.next()
            if isinstance(answer, Declined):
                declines.append(answer.reason)
        await until(lambda: bob.update.number == end)
        assert declines == []  # every one was valid, and each was played
        assert table.number == end and match.history == [quiet]
        # Bob was never dropped, and no more than an update or two ever waited for him.
        assert table.links[1] is bobs and bob.connected and bob.heard.connections == []
        anns = table.links[0]
        assert isinstance(bobs, Connection) and isinstance(anns, Connection)
        assert bobs.most_waiting <= 3 and anns.most_waiting <= 3, (
            bobs.most_waiting,
            anns.most_waiting,
        )
        await ann.close()
        await bob.close()


async def test_a_client_in_a_hurry_waits_for_its_own_messages_and_nobody_else_does():
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match, rate=0.001, burst=3) as (_table, server):
        ann = await seated(server.port, "Ann")
        bob = await seated(server.port, "Bob")
        stale = json.dumps({"type": "Undo", "number": -1})
        for _ in range(6):
            await ann.ws.send_str(stale)
        declines = 0
        while declines < 3:  # the burst is answered...
            declines += isinstance(await ann.next(), Declined)
        answer = await reply(bob, stale)  # ... Bob is answered at once ...
        assert isinstance(answer, Declined)
        with pytest.raises(TimeoutError):  # ... and Ann's fourth waits (its turn is far off)
            while True:
                message = await asyncio.wait_for(ann.ws.receive(), 0.3)
                assert "Declined" not in message.data
        await ann.close()
        await bob.close()


# -- the door --------------------------------------------------------------------------

UPGRADE = (
    "GET /table HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


async def silent_websocket(port: int, source: str):
    """A connection that completes the WebSocket handshake, then never says Hello."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(UPGRADE.encode())
    await writer.drain()
    return reader, writer


async def test_three_hundred_silent_websockets_lock_nobody_out():
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        crowd = [await silent_websocket(server.port, ATTACKER) for _ in range(300)]
        crowd += [await silent_websocket(server.port, "127.0.0.1") for _ in range(50)]
        doorman = server.doorman
        assert doorman is not None
        await until(lambda: doorman.turned_away >= 350 - MAX_STRANGERS)
        assert len(doorman) <= MAX_STRANGERS
        # The players join from the crowd's own address, and Bob's connection fails and comes
        # back, while the crowd keeps coming.
        ann = await joined(server.port, "Ann")
        bob = await joined(server.port, "Bob")
        crowd += [await silent_websocket(server.port, "127.0.0.1") for _ in range(20)]
        bob.abort()
        await until(lambda: bob.heard.connections == [False, True])
        assert table.links[1] is not None and table.seat_infos()[1].status == "here"
        again = TableClient("127.0.0.1", server.port, CODE, "Ann", secret=ann.secret)
        await ann.close()
        await until(lambda: 0 not in table.links)
        await again.join()
        assert table.seat_infos()[0].status == "here"
        assert len(doorman) <= MAX_STRANGERS
        for _reader, writer in crowd:
            writer.close()
        await again.close()
        await bob.close()


async def test_a_silent_connection_from_each_of_256_addresses_locks_nobody_out():
    """A full door of one silent connection per address: newcomers from yet other addresses
    get in (a player, and one more silent connection), and every silent one is closed when
    its time is up."""
    match = new_match("jaipur", "Ann,Bob", first=0)
    sources = [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range(MAX_STRANGERS + 1)]
    async with hosting(match, hello_seconds=1.0) as (table, server):
        crowd = []
        for source in sources:
            crowd.append(
                await asyncio.open_connection("127.0.0.1", server.port, local_addr=(source, 0))
            )
        doorman = server.doorman
        assert doorman is not None
        await until(lambda: doorman.turned_away == 1)  # the last made room for itself
        assert len(doorman) == MAX_STRANGERS
        ann = await joined(server.port, "Ann")  # from 127.0.0.1, an address new at the door
        assert table.seat_infos()[0].status == "here"
        ends = await asyncio.wait_for(
            asyncio.gather(*(closed_after(reader) for reader, _ in crowd)), 30
        )
        assert ends == [b""] * len(crowd) and len(doorman) == 0
        for _reader, writer in crowd:
            writer.close()
        await ann.close()


async def closed_after(reader: asyncio.StreamReader, trickle=None) -> bytes:
    """Everything the host sends until it closes the connection (``trickle()`` meanwhile)."""
    got = b""
    while True:
        try:
            chunk = await asyncio.wait_for(reader.read(4096), 0.2)
        except TimeoutError:
            if trickle is not None:
                await trickle()
            continue
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk


@pytest.mark.parametrize("hello_seconds", [1.0, pytest.param(None, marks=pytest.mark.slow)])
async def test_silent_half_open_and_trickling_connections_are_closed_in_seconds(hello_seconds):
    limits = {} if hello_seconds is None else {"hello_seconds": hello_seconds}
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match, **limits) as (_table, server):
        port = server.port
        # Raw TCP that never sends a byte (or whose peer is gone: the host cannot tell).
        silent, silent_writer = await asyncio.open_connection("127.0.0.1", port)
        # Slowloris: a header line every 0.2 s, the request never finished.
        slow, slow_writer = await asyncio.open_connection("127.0.0.1", port)
        slow_writer.write(b"GET /table HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        lines = iter(range(10_000))

        async def trickle() -> None:
            slow_writer.write(f"X-Line-{next(lines)}: a\r\n".encode())
            await slow_writer.drain()

        # A WebSocket that never says Hello.
        mute, mute_writer = await silent_websocket(port, "127.0.0.1")
        ends = await asyncio.wait_for(
            asyncio.gather(closed_after(silent), closed_after(slow, trickle), closed_after(mute)),
            30,
        )
        assert ends[0] == b""
        assert b"101 Switching Protocols" not in ends[1]
        assert b"No hello from this client" in ends[2]  # told why, then closed
        assert next(lines) > 3  # it trickled all along
        for writer in (silent_writer, slow_writer, mute_writer):
            writer.close()
        assert len(server.doorman) == 0


# -- frames and answers ----------------------------------------------------------------


async def test_a_frame_of_64_kib_is_read_and_one_byte_more_closes_the_connection():
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (_table, server):
        bob = await seated(server.port, "Bob")
        ann = await seated(server.port, "Ann")
        undo = '{"type":"Undo","number":-1}'
        euro = '{"type":"Undo","number":-1,"x":"' + "€" * 21_833 + '"}'  # 65,533 bytes
        for frame, reason in (
            (undo + " " * (MAX_CLIENT_FRAME - len(undo)), "moved on"),
            (euro + "   ", "does not fit"),  # bytes, not characters, are counted
        ):
            assert len(frame.encode()) == MAX_CLIENT_FRAME
            answer = await reply(ann, frame)
            assert isinstance(answer, Declined) and reason in answer.reason
        for frame in (undo + " " * (MAX_CLIENT_FRAME + 1 - len(undo)), euro + "    "):
            assert len(frame.encode()) == MAX_CLIENT_FRAME + 1
            await ann.ws.send_str(frame)
            while not ann.ws.closed:
                await asyncio.wait_for(ann.ws.receive(), 5)
            assert ann.ws.close_code == 1009
            await ann.close()
            ann = await seated(server.port, "Ann", secret=ann.secret)
        await ann.close()
        await bob.close()


async def test_no_table_and_a_page_that_is_no_table_get_the_same_answer():
    async def not_a_table(request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str('{"hello": "I am some other program"}')
        await ws.close()
        return ws

    answers = []
    ports = []
    for route in (None, web.get("/other", not_a_table), web.get("/table", not_a_table)):
        port = free_port()
        ports.append(port)
        runner = None
        if route is not None:  # a web server: a 404 for /table, then another program's socket
            app = web.Application()
            app.add_routes([route])
            runner = web.AppRunner(app)
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", port).start()
        client = TableClient("127.0.0.1", port, CODE, "Ann")
        with pytest.raises(HostUnreachable) as error:
            await client.join()
        answers.append(str(error.value).replace(str(port), "PORT"))
        if runner is not None:
            await runner.cleanup()
    assert answers == ["no Karavan table answers at 127.0.0.1:PORT"] * 3


async def test_a_player_who_never_decided_is_told_so_when_asking_to_take_back():
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        await until(lambda: ann.update.legal != [])
        game = match.game
        await ann.decide(next(a for a in match.legal_actions() if game.reveals(match.view(0), a)))
        await until(lambda: bob.update.number == table.number == 1)
        assert not bob.update.can_undo
        await bob.undo()
        await until(lambda: bob.heard.declines != [])
        assert bob.heard.declines == ["Ann decided last: you have made no decision to take back."]
        assert bob.update.takeback is None and len(match.history) == 1
        await ann.close()
        await bob.close()
