"""The table's chat at a `karavan serve` server on loopback: two players and a watcher, the
caps, hostile text, and the lines kept with the table across a restart."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from karavan_net.client import TableClient
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.protocol import Chat
from karavan_net.table_chat import CHAT_LINES, MAX_CHAT

from .test_play_online import _Collect, account, seat_client, serving


class Listening(_Collect):
    """A client at the table, reading it in a task of its own, with every Chat it hears."""

    def __init__(self, client: TableClient) -> None:
        super().__init__([])
        self.client = client
        self.heard: list[Chat] = []
        client.on_chat = self.heard.append
        self.task: asyncio.Task[None] | None = None

    async def join(self) -> Listening:
        await self.client.join()
        self.task = asyncio.get_running_loop().create_task(self.client.run(self))
        return self

    def said(self) -> list[tuple[str, str]]:
        """The chat's lines this client keeps: who said what."""
        return [(line.name, line.text) for line in self.client.chat]

    def refusals(self) -> list[str]:
        return [chat.refused for chat in self.heard if chat.refused]

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        await self.client.close()


async def until(check: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


async def seated_table(port: int, **options) -> tuple[int, list[Listening]]:
    """A started Jaipur table of Ann and Bob, with Cid watching: the three clients."""
    ann, bob = await account(port, "Ann"), await account(port, "Bob")
    await account(port, "Cid")
    made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")], **options))
    await bob.take(made.table)
    await ann.close()
    await bob.close()
    clients = [
        await Listening(seat_client(port, made.table, "Ann")).join(),
        await Listening(seat_client(port, made.table, "Bob")).join(),
        await Listening(seat_client(port, made.table, "Cid", watch=True)).join(),
    ]
    return made.table, clients


async def test_players_chat_and_a_watcher_reads_but_may_not_write(database):
    async with serving(database) as server:
        _, (ann, bob, cid) = await seated_table(server.port)
        await until(lambda: cid.client.chat_open is not None, "the watcher was told of no chat")
        assert ann.client.chat_open is bob.client.chat_open is True
        assert cid.client.chat_open is False
        await ann.client.say("Hello")
        await bob.client.say("Good game")
        both = [("Ann", "Hello"), ("Bob", "Good game")]
        for one in (ann, bob, cid):
            await until(lambda one=one: one.said() == both, f"{one.client.name} heard {one.said()}")
        await cid.client.say("Psst, Ann")
        await until(lambda: cid.refusals(), "the watcher's line was not refused")
        assert cid.refusals() == ["Watchers read this table's chat: only its players write in it."]
        await asyncio.sleep(0.2)
        assert ann.said() == both
        for one in (ann, bob, cid):
            await one.close()


async def test_a_table_may_let_its_watchers_chat(database):
    async with serving(database) as server:
        _, (ann, bob, cid) = await seated_table(server.port, watchers_chat=True)
        await until(lambda: cid.client.chat_open is True, "the watcher may not chat")
        await cid.client.say("Well played, both")
        for one in (ann, bob, cid):
            await until(lambda one=one: one.said() == [("Cid", "Well played, both")], "unheard")
        assert ann.client.chat[0].seat is None  # a watcher's line
        for one in (ann, bob, cid):
            await one.close()


async def test_a_line_is_capped_in_length_and_a_player_in_pace(database):
    async with serving(database) as server:
        _, (ann, bob, cid) = await seated_table(server.port)
        await until(lambda: ann.client.chat_open is not None, "no chat")
        await ann.client.say("x" * (MAX_CHAT + 1))
        await ann.client.say("   ")
        for number in range(CHAT_LINES + 1):
            await ann.client.say(f"line {number}")
        await until(lambda: len(ann.refusals()) == 3, f"refusals: {ann.refusals()}")
        too_long, empty, too_fast = ann.refusals()
        assert too_long == f"A chat line holds at most {MAX_CHAT} characters (that one has 201)."
        assert empty == "Say something: that line is empty."
        assert too_fast == "You chat faster than this table allows: at most 5 lines in 10 seconds."
        await until(lambda: len(bob.said()) == CHAT_LINES, f"Bob heard {bob.said()}")
        # Bob's pace is his own.
        await bob.client.say("My turn to speak")
        await until(lambda: bob.said()[-1] == ("Bob", "My turn to speak"), "Bob was refused")
        for one in (ann, bob, cid):
            await one.close()


async def test_hostile_text_arrives_written_out_never_as_control_characters(database):
    hostile = "\x1b[2J\x1b]0;owned\x07red \x1b[31mtext\x9b1m \u202egnirts\u202c bell\x07"
    async with serving(database) as server:
        _, (ann, bob, cid) = await seated_table(server.port)
        await until(lambda: bob.client.chat_open is not None, "no chat")
        await ann.client.say(hostile)
        for one in (bob, cid):
            await until(lambda one=one: one.said() != [], "the line never came")
            [(_, text)] = one.said()
            assert text == (
                "\\x1b[2J\\x1b]0;owned\\x07red \\x1b[31mtext\\x9b1m \\u202egnirts\\u202c bell\\x07"
            )
            assert text.isprintable()
        for one in (ann, bob, cid):
            await one.close()


async def test_the_chat_is_kept_with_the_table_across_a_restart(database):
    from tests.net.helpers import free_port

    port = free_port()
    async with serving(database, port) as server:
        table, (ann, bob, cid) = await seated_table(server.port)
        await until(lambda: ann.client.chat_open is not None, "no chat")
        await ann.client.say("Hello")
        await bob.client.say("Hi Ann")
        await until(lambda: len(cid.said()) == 2, "the lines were not said")
        for one in (ann, bob, cid):
            await one.close()
        # Each line is written on a writer's thread: wait until both are in the store.
        await until(lambda: len(server.store.chats.of_table(table, 10)) == 2, "not kept")
    async with serving(database, port):
        back = await Listening(seat_client(port, table, "Bob")).join()
        await until(lambda: back.said() == [("Ann", "Hello"), ("Bob", "Hi Ann")], "forgotten")
        await back.client.say("Still here")
        await until(lambda: len(back.said()) == 3, "the chat did not go on")
        assert [line.number for line in back.client.chat] == [0, 1, 2]
        await back.close()
