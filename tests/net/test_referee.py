"""The host is the referee: forged, stale and illegal messages change nothing; undo has rules;
seats are taken back only with their secret; drops and host restarts are survived."""

from __future__ import annotations

import asyncio
import json
import threading

import aiohttp
import pytest

from karavan_core.games.jaipur.components import Card
from karavan_core.games.jaipur.state import Sell, TakeCamels, TakeGood
from karavan_core.games.karakorum.state import Reveal
from karavan_core.saves import load_match, unstructure_action
from karavan_net.client import JoinRefused, TableClient
from karavan_net.host import Host, host_for
from karavan_net.protocol import (
    MAX_CLIENT_FRAME,
    PROTOCOL,
    Declined,
    Hello,
    Refused,
    Update,
    Welcome,
    encode,
)
from karavan_net.seats import remember, remembered
from karavan_net.storage import TableFile

from .helpers import CODE, Raw, bot, hosting, joined, new_match, until


def decide(table: Host, number: int, *actions) -> str:
    data = [unstructure_action(table.game, action) for action in actions]
    return json.dumps({"type": "Decide", "number": number, "actions": data})


async def test_forged_messages_are_refused_and_change_nothing():
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        ann = await joined(server.port, "Ann")
        bob = await Raw.hello(server.port, "Bob")
        assert isinstance(await bob.next(), Welcome)
        assert isinstance(await bob.next(), Update)
        await until(lambda: ann.update is not None and ann.update.seats[1].status == "here")

        async def refused(text, reason: str) -> None:
            number, history = table.number, list(match.history)
            answer = await bob.answer(text)
            assert isinstance(answer, Declined), answer
            assert reason in answer.reason
            assert (table.number, match.history) == (number, history)

        annes = match.legal_actions()
        # Another seat's decision: Ann is to move.
        await refused(decide(table, table.number, annes[0]), "not your turn")
        # Garbage of every kind.
        await refused("{{{ not json", "not JSON")
        await refused(b"\x00\x01binary", "not binary")
        await refused(json.dumps({"type": "Shutdown"}), "not one of")
        await refused(json.dumps([1, 2, 3]), "not one of")
        await refused(json.dumps({"type": "Decide", "number": "0", "actions": []}), "does not fit")
        await refused(json.dumps({"type": "Undo", "number": 0, "extra": 1}), "does not fit")
        await refused(encode(Hello(PROTOCOL, CODE, "Ann")), "joined already")
        await refused("[" * 30_000 + "]" * 10, "nested")  # within the size limit, but deep
        # Ann plays; now it is Bob's turn.
        stale = table.number
        await ann.decide(TakeCamels() if TakeCamels() in annes else annes[0])
        while bob.update.number == stale:
            await bob.next()
        assert bob.update.to_move == 1
        bobs = match.legal_actions()
        await refused(decide(table, stale, bobs[0]), "moved on")
        await refused(decide(table, table.number + 5, bobs[0]), "moved on")
        assert Sell(Card.DIAMONDS, 5) not in bobs
        await refused(decide(table, table.number, Sell(Card.DIAMONDS, 5)), "")
        await refused(
            json.dumps(
                {
                    "type": "Decide",
                    "number": table.number,
                    "actions": [{"type": "Sell", "good": "mud", "count": 1}],
                }
            ),
            "not a decision",
        )
        await refused(decide(table, table.number), "1 to")
        await refused(decide(table, table.number, *bobs[:1] * 5), "1 to")
        # A gesture that runs on into Ann's turn; one that runs on past a card turned up.
        quiet = next(a for a in bobs if not table.game.reveals(match.view(1), a))
        after = table.game.apply(match.state, quiet)
        annes_next = table.game.legal_actions(after)
        await refused(decide(table, table.number, quiet, annes_next[0]), "ends your turn")
        take = next(a for a in bobs if isinstance(a, TakeGood))
        await refused(decide(table, table.number, take, annes_next[0]), "past a decision that")
        # An oversized frame closes that connection; the table does not move.
        number, history = table.number, list(match.history)
        await bob.ws.send_str("x" * (MAX_CLIENT_FRAME + 1))
        frame = await asyncio.wait_for(bob.ws.receive(), 5)
        assert frame.type in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.ERROR,
        )
        assert bob.ws.close_code == 1009
        await until(lambda: ann.update.seats[1].status == "away")
        assert (table.number, match.history) == (number, history)
        # Bob comes back with his secret and plays a legal decision: it counts.
        secret = bob.secret
        await bob.close()
        again = await Raw.hello(server.port, "Bob", secret=secret)
        assert isinstance(await again.next(), Welcome)
        assert isinstance(await again.next(), Update)
        answer = await again.answer(decide(table, table.number, bobs[0]))
        assert isinstance(answer, Update) and answer.number == number + 1
        assert match.history[-1] == bobs[0]
        await again.close()
        await ann.close()


async def test_joins_refused_by_code_name_seat_and_protocol():
    match = new_match("jaipur", "Ann,Bob")
    async with hosting(match) as (table, server):
        for kwargs, reason in (
            ({"code": "wrong-code"}, "Wrong table code"),
            ({"protocol": PROTOCOL + 1}, "protocol"),
            ({"name": "Cid"}, "no seat called Cid"),
        ):
            raw = await Raw.hello(server.port, kwargs.pop("name", "Ann"), **kwargs)
            answer = await raw.next()
            assert isinstance(answer, Refused) and reason in answer.reason, answer
            await raw.close()
        ann = await joined(server.port, "Ann")
        # The seat is taken: not without its secret, nor with a wrong one.
        for secret in (None, "guess"):
            intruder = TableClient("127.0.0.1", server.port, CODE, "ann", secret=secret)
            with pytest.raises(JoinRefused, match=r"^Ann's seat is taken: Ann is at the table now"):
                await intruder.join()
        assert table.links[0] is not None and ann.connected
        await ann.close()
        await until(lambda: 0 not in table.links)
        # Even while Ann is away, her seat waits for her secret; the refusal says what to do.
        intruder = TableClient("127.0.0.1", server.port, CODE, "Ann")
        with pytest.raises(JoinRefused, match=r"^Ann is away: ask the host to free the seat\.$"):
            await intruder.join()


async def test_take_backs_are_free_while_quiet_and_asked_for_past_another_player():
    match = new_match("jaipur", "Ann,Bob", first=0)
    game = match.game
    async with hosting(match) as (table, server):
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")

        async def numbered(n: int) -> None:
            await until(lambda: ann.update.number == n and bob.update.number == n)

        async def refused(client, words: str) -> None:
            number = table.number
            await client.undo()
            await until(lambda: client.heard.declines)
            assert words in client.heard.declines.pop()
            assert table.number == number

        await numbered(0)
        assert not ann.update.can_undo
        await refused(ann, "nothing to take back")
        quiet = [a for a in match.legal_actions() if not game.reveals(match.view(0), a)]
        assert quiet, "the deal offers Ann a decision that reveals nothing"
        await ann.decide(quiet[0])
        await numbered(1)
        assert ann.update.can_undo and not bob.update.can_undo
        await refused(bob, "Ann decided last: you have made no decision to take back")
        await ann.undo()  # quiet, and nobody has decided since: free
        await numbered(2)
        assert match.history == [] and ann.update.can_redo and not bob.update.can_redo
        await ann.redo()
        await numbered(3)
        assert len(match.history) == 1
        await bob.decide(match.legal_actions()[0])
        await numbered(4)
        # Past Bob's decision: Ann asks, Bob answers.
        await ann.undo()
        await numbered(5)
        asked = bob.update.takeback
        assert asked is not None and (asked.seat, asked.waiting) == (0, [1])
        assert ann.update.takeback == asked and len(match.history) == 2
        await bob.answer(False)
        await numbered(6)
        assert bob.update.takeback is None and len(match.history) == 2
        # Declined: Ann asks again only once somebody has decided.
        assert not ann.update.can_undo
        await refused(ann, "Your take-back request was declined: ask again once somebody")
        await ann.decide(match.legal_actions()[0])
        await numbered(7)
        await bob.decide(match.legal_actions()[0])
        await numbered(8)
        await ann.undo()
        await numbered(9)
        await bob.answer(True, bob.update.takeback.number)
        await numbered(10)
        assert len(match.history) == 2 and bob.update.takeback is None
        # Ann cannot answer for Bob.
        number = table.number
        await ann.answer(True)
        await until(lambda: ann.heard.declines)
        assert "Nobody is waiting for your answer" in ann.heard.declines.pop()
        assert table.number == number
        await ann.close()
        await bob.close()


async def test_undo_takes_back_the_bots_decisions_after_yours():
    match = new_match("karakum", "Ann,bot:random", first=0)
    async with hosting(match) as (table, server):
        ann = await joined(server.port, "Ann")
        await ann.decide(match.legal_actions()[0])  # Ann's turn: two decisions
        await until(lambda: ann.update.number == 1)
        await ann.decide(match.legal_actions()[0])
        await until(lambda: len(match.history) >= 3 and match.to_move == 0)
        await until(lambda: ann.update.number == table.number and ann.update.can_undo)
        assert match.actor(len(match.history) - 1) == 1  # the bot has played since
        kept = match.undo_target()
        await ann.undo()
        await until(lambda: len(match.history) == kept)
        assert match.to_move == 0
        await ann.close()


async def test_a_host_bot_pauses_before_its_turn_only():
    """The bot has revealed a card and goes on with its turn: the rest of the turn follows
    at once, though the table pauses a minute before each bot turn."""
    match = new_match("karakorum", "bot:random:Robot,Ann", first=0)
    match.play(Reveal())  # the bot's first decision, still its turn after it
    assert match.to_move == 0
    async with hosting(match, bot_delay=60.0) as (_, server):
        ann = await joined(server.port, "Ann")  # the table waits for her
        try:
            await until(lambda: match.to_move == 1, seconds=15)
            assert len(match.history) > 1
        finally:
            await ann.close()


async def test_a_dropped_client_comes_back_and_the_game_goes_on():
    match = new_match("karakum", "Ann,Bob", first=0)
    async with hosting(match) as (_, server):
        statuses: list[str] = []
        dropped = {"done": False}
        players = {}

        def watch(update: Update) -> None:
            statuses.append(update.seats[0].status)
            if update.number >= 10 and not dropped["done"]:
                dropped["done"] = True
                players["Ann"].client.abort()  # the network fails under Ann

        players["Ann"] = await bot(server.port, "Ann", seed=1)
        players["Bob"] = await bot(server.port, "Bob", seed=2, on_update=watch)
        heard: list[str] = []
        players["Ann"].out = heard.append
        results = await asyncio.wait_for(
            asyncio.gather(players["Ann"].play(), players["Bob"].play()), 60
        )
    assert results == [0, 0] and match.is_over()
    assert dropped["done"]
    assert "away" in statuses, "Bob never saw Ann away"
    assert statuses[-1] == "here" or match.is_over()
    assert heard[:2] == ["Lost the table: reconnecting...", "Back at the table."]


@pytest.mark.slow
async def test_a_host_restarted_from_its_save_takes_its_players_back(tmp_path):
    save = tmp_path / "jaipur.json"
    match = new_match("jaipur", "Ann,Bob")
    stop = asyncio.Event()

    def watch(update: Update) -> None:
        if update.number >= 12:
            stop.set()

    table = host_for(match, CODE, save_path=save, bot_delay=0.0)
    from karavan_net.server import HostServer

    server = HostServer([table])
    port = await server.start("127.0.0.1", 0)
    ann = await bot(port, "Ann", seed=1, on_update=watch, retry_for=30.0)
    bob = await bot(port, "Bob", seed=2, retry_for=30.0)
    games = asyncio.gather(ann.play(), bob.play())
    await asyncio.wait_for(stop.wait(), 30)
    await server.stop()  # the host goes away (a crash, a restart): no goodbye
    saved = load_match(save)
    assert len(saved.history) >= 12
    assert saved.history == match.history
    # The same host comes back from the save, with the table file beside it.
    file = TableFile.read(save)
    assert file is not None and file.code == CODE and set(file.digests) == {0, 1}
    again = host_for(saved, file.code, save_path=save, table_file=file, bot_delay=0.0)
    assert again.number == table.number >= 12  # the table's numbers go on from where they were
    server = HostServer([again])
    await server.start("127.0.0.1", port)
    try:
        results = await asyncio.wait_for(games, 60)
    finally:
        await server.stop()
    assert results == [0, 0]
    assert saved.is_over()
    assert saved.history[: len(match.history)] == match.history
    assert load_match(save).history == saved.history


async def test_a_restarted_client_takes_its_seat_back_with_the_secret_it_kept(tmp_path):
    memory = tmp_path / "seats.json"
    match = new_match("jaipur", "Ann,Bob")
    async with hosting(match) as (table, server):
        first = TableClient("127.0.0.1", server.port, CODE, "Ann", memory=memory)
        await first.join()
        await first.close()  # the terminal is closed, the browser tab reloaded
        await until(lambda: 0 not in table.links)
        again = TableClient("127.0.0.1", server.port, CODE, "Ann", memory=memory)
        await again.join()  # the same machine: its Karavan kept the secret
        assert again.seat == 0 and table.links[0] is not None
        assert oct(memory.stat().st_mode & 0o777) == "0o600"
        stranger = TableClient(
            "127.0.0.1", server.port, CODE, "Ann", memory=tmp_path / "other.json"
        )
        with pytest.raises(JoinRefused, match="taken"):
            await stranger.join()
        await again.close()


def test_karavans_joining_at_once_on_one_machine_all_keep_their_secrets(tmp_path):
    # Two terminals, or the tabs of karavan web, share one seats.json: none may lose
    # another's secret, or that player could never take the seat back after a drop.
    memory = tmp_path / "seats.json"
    names = [f"P{i}" for i in range(8)]
    start = threading.Barrier(len(names))

    def keep(name: str) -> None:
        start.wait()
        remember(memory, "127.0.0.1", 7654, CODE, name, f"secret of {name}")

    threads = [threading.Thread(target=keep, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name in names:
        assert remembered(memory, "127.0.0.1", 7654, CODE, name) == f"secret of {name}"
    assert oct(memory.stat().st_mode & 0o777) == "0o600"
