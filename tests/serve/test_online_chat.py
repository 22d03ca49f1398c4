"""The table's chat in the app at a `karavan serve` server on loopback (Pilot, by keys): two
players chat both ways (a line, a quick phrase, a mute), hostile text is shown written out,
the chat may be off, and a watcher writes only where the table lets watchers write."""

from __future__ import annotations

import contextlib

import pytest

from karavan_net.table_chat import CHAT_LINES
from karavan_tui.app import TableApp
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.net.create_table import CreateTableScreen
from karavan_tui.net.table_talk import WATCHERS_READ
from karavan_tui.screens.table import TableScreen

from ..net.test_remote_table import config
from ..tui.helpers import make_app, visible_characters, waiting
from .test_play_online import seat_client, serving
from .test_table_chat import Listening, seated_table, until

HOSTILE = "[bold]big[/] \x1b[31mred\x07 \u202eevil"
SHOWN = "[bold]big[/] \\x1b[31mred\\x07 \\u202eevil"


@contextlib.asynccontextmanager
async def in_the_app(tmp_path, client):
    """``client``'s place at the table, in the app; yields the app and its pilot."""
    app = TableApp(config(tmp_path), client.client)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
        await waiting(pilot, lambda: app.screen.active_bindings.get("c") is not None)
        yield app, pilot


def said(client: Listening) -> list[str]:
    return [text for _, text in client.said()]


@pytest.mark.slow  # by default the chat is played in the app at a hosted table (tests/net)
async def test_two_players_chat_both_ways_and_one_mutes_the_other(database, tmp_path):
    async with serving(database) as server:
        table, (ann, bob, cid) = await seated_table(server.port)
        await cid.close()
        await ann.close()  # Ann's place is the app's
        ann = Listening(seat_client(server.port, table, "Ann"))
        await ann.client.join()
        async with in_the_app(tmp_path, ann) as (app, pilot):
            await pilot.press("c", *"Hello Bob", "enter")
            await until(lambda: said(bob) == ["Hello Bob"], "Bob did not hear Ann")
            await pilot.press("tab")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("down", "enter")  # the second phrase: Thinking
            await until(lambda: said(bob) == ["Hello Bob", "Thinking"], "no quick phrase")
            await bob.client.say("Hi Ann")
            await bob.client.say(HOSTILE)
            await waiting(pilot, lambda: f"Bob: {SHOWN}" in visible_characters(app))
            assert "Bob: Hi Ann" in visible_characters(app)
            assert "\x1b" not in visible_characters(app) and "\u202e" not in visible_characters(app)
            # Muted by one key (ctrl+o: who spoke last): Bob's lines go from the screen.
            await pilot.press("ctrl+o")
            await waiting(pilot, lambda: "Hi Ann" not in visible_characters(app))
            await bob.client.say("still there?")
            await until(lambda: "still there?" in said(ann), "Ann's client did not hear Bob")
            await pilot.pause()
            assert "still there?" not in visible_characters(app)
            await pilot.press("escape")
            # Off in the settings: no chat shown, no key for it.
            assert "Ann: Thinking" in visible_characters(app)  # the newest line not muted
            app.settings.chat = False
            app.screen.driver.resumed()
            await pilot.pause()
            assert "Ann: Thinking" not in visible_characters(app)
            assert app.screen.active_bindings.get("c") is None
        await ann.client.close()
        await bob.close()


@pytest.mark.slow
@pytest.mark.parametrize("watchers_chat", [False, True])
async def test_a_watcher_writes_only_where_the_table_lets_watchers(
    database, tmp_path, watchers_chat
):
    async with serving(database) as server:
        table, (ann, bob, cid) = await seated_table(server.port, watchers_chat=watchers_chat)
        await cid.close()
        cid = Listening(seat_client(server.port, table, "Cid", watch=True))
        await cid.client.join()
        async with in_the_app(tmp_path, cid) as (app, pilot):
            await ann.client.say("Welcome, Cid")
            await waiting(pilot, lambda: "Ann: Welcome, Cid" in visible_characters(app))
            await pilot.press("c", *"Nice move", "enter")
            if watchers_chat:
                await until(lambda: said(bob)[-1:] == ["Nice move"], "Bob did not hear Cid")
                await waiting(pilot, lambda: "Cid (watching): Nice move" in visible_characters(app))
            else:
                await waiting(pilot, lambda: WATCHERS_READ in visible_characters(app))
                assert said(bob) == ["Welcome, Cid"]
        await cid.client.close()
        await ann.close()
        await bob.close()


@pytest.mark.slow
async def test_the_new_table_dialog_asks_whether_watchers_write_in_the_chat(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        dialog = CreateTableScreen()
        app.push_screen(dialog)
        await waiting(pilot, lambda: app.screen is dialog and bool(dialog.query("#watchers-chat")))
        assert dialog.request().watchers_chat is False
        await pilot.click("#watchers-chat")
        await waiting(pilot, lambda: dialog.request().watchers_chat is True)


@pytest.mark.slow
async def test_the_servers_caps_are_said_in_words(database, tmp_path):
    async with serving(database) as server:
        table, (ann, bob, cid) = await seated_table(server.port)
        await cid.close()
        await ann.close()
        ann = Listening(seat_client(server.port, table, "Ann"))
        await ann.client.join()
        async with in_the_app(tmp_path, ann) as (app, pilot):
            await pilot.press("c")
            for number in range(CHAT_LINES + 1):
                await pilot.press(*f"line {number}", "enter")
            await waiting(pilot, lambda: "You chat faster than" in visible_characters(app))
            await until(lambda: len(said(bob)) == CHAT_LINES, f"Bob heard {said(bob)}")
        await ann.client.close()
        await bob.close()
