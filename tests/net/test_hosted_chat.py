"""The chat of a table hosted on its own (`karavan host`): kept in memory while it runs, said
to every client that reads it, and never sent to an older Karavan, which plays on."""

from __future__ import annotations

import aiohttp

from karavan_net.protocol import Chat, Declined, Say, Undo, Update, decode_host, encode

from .helpers import Raw, hosting, joined, new_match, until


async def test_players_chat_at_a_hosted_table_and_an_older_karavan_plays_on_without_it():
    async with hosting(new_match("karakum", "Ann,Bob,Cid")) as (table, server):
        ann, bob = await joined(server.port, "Ann"), await joined(server.port, "Bob")
        heard: list[Chat] = []
        bob.on_chat = heard.append
        old = await Raw.hello(server.port, "Cid", minor=4)  # before the chat
        while not isinstance(await old.next(), Update):
            pass
        await until(lambda: bob.chat_open is True)
        await ann.say("Hello")
        await bob.say("Hi, Ann")
        await until(lambda: [line.text for line in ann.chat] == ["Hello", "Hi, Ann"])
        assert [(line.name, line.seat) for line in bob.chat] == [("Ann", 0), ("Bob", 1)]
        assert [line.text for line in table.chat.lines] == ["Hello", "Hi, Ann"]
        # The older client was sent no chat, its own line neither (it would send none, but
        # one is a line all the same); a message refused after it comes back as it did.
        await old.ws.send_str(encode(Say("hi"), 4))
        await old.ws.send_str(encode(Undo(-1), 4))
        while True:
            frame = await old.ws.receive(timeout=5)
            assert frame.type == aiohttp.WSMsgType.TEXT and '"Chat"' not in frame.data
            if isinstance(decode_host(frame.data), Declined):
                break
        await until(lambda: len(ann.chat) == 3)
        assert ann.chat[2].name == "Cid"
        for client in (ann, bob):
            client.reader.cancel()
            await client.close()
        await old.close()


async def test_the_chat_stays_for_the_next_game_at_the_same_table():
    async with hosting(new_match("jaipur", "Ann,Bob")) as (table, server):
        ann = await joined(server.port, "Ann")
        await until(lambda: ann.chat_open is True)
        await ann.say("Good luck")
        await until(lambda: len(table.chat.lines) == 1)
        again = table.rematch(None, 5)
        assert [line.text for line in again.chat.lines] == ["Good luck"] and again.chat.said == 1
        ann.reader.cancel()
        await ann.close()
