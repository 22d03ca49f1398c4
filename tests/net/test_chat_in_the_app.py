"""The table's chat in the app (Pilot), a player at a real host on loopback with another
playing headless: writing a line and a quick phrase, hostile text shown harmlessly, a mute,
the chat turned off; and a desktop notification of the turn when the terminal is not in
front."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from karavan_net.protocol import Chat, ChatLine
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.net.chat_panel import ChatPanel
from karavan_tui.screens.table import TableScreen

from ..tui.helpers import visible_characters, waiting
from .helpers import hosting, joined, new_match, until
from .test_remote_table import in_the_app

HOSTILE = "\x1b[2J\x1b]0;owned\x07red \x1b[31mtext\x9b1m \u202egnirts\u202c\x07"
SHOWN = "\\x1b[2J\\x1b]0;owned\\x07red \\x1b[31mtext\\x9b1m \\u202egnirts\\u202c\\x07"


def texts(client) -> list[str]:
    return [line.text for line in client.chat]


async def test_a_player_writes_a_line_and_a_quick_phrase_and_reads_the_others(tmp_path):
    match = new_match("jaipur", "Ann,Bob", first=1)
    async with hosting(match) as (_table, server):
        bob = await joined(server.port, "Bob")
        async with in_the_app(tmp_path, server.port, "Ann") as (app, pilot, _ann):
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await waiting(pilot, lambda: screen.active_bindings.get("c") is not None)
            await pilot.press("c")
            panel = screen.query_one(ChatPanel)
            assert panel.is_open and isinstance(app.focused, Input)
            await pilot.press(*"hi Bob", "enter")
            await until(lambda: texts(bob) == ["hi Bob"])
            await pilot.press("tab")
            assert isinstance(app.screen, ChoiceScreen)
            await pilot.press("enter")  # the first phrase: Good game
            await until(lambda: texts(bob) == ["hi Bob", "Good game"])
            await bob.say("Thanks, Ann")
            await waiting(pilot, lambda: "Bob: Thanks, Ann" in visible_characters(app))
            await pilot.press("escape")
            assert not panel.is_open and not isinstance(app.focused, Input)
            # Closed, the newest line stays in sight.
            await pilot.pause()
            assert "Bob: Thanks, Ann" in visible_characters(app)
        bob.reader.cancel()
        await bob.close()


async def test_hostile_text_is_shown_written_out_and_never_reaches_the_terminal(tmp_path):
    match = new_match("jaipur", "Ann,Bob", first=1)
    async with hosting(match) as (_table, server):
        bob = await joined(server.port, "Bob")
        async with in_the_app(tmp_path, server.port, "Ann") as (app, pilot, ann):
            await waiting(pilot, lambda: ann.chat_open is True)
            await bob.say(HOSTILE)
            await waiting(pilot, lambda: SHOWN in visible_characters(app))
            # A host that sent the control characters as they are: written out all the same.
            line = ChatLine(7, "Mal\x1b[5mlory", HOSTILE, 1)
            ann._heard(Chat([line]))
            await pilot.pause()
            shown = visible_characters(app)
            assert f": {SHOWN}" in shown
            for raw in ("\x07", "\x9b", "\u202e", "\x1b]"):
                assert raw not in shown
        bob.reader.cancel()
        await bob.close()


@pytest.mark.slow
async def test_a_player_mutes_another_and_may_turn_the_chat_off(tmp_path):
    match = new_match("jaipur", "Ann,Bob", first=1)
    async with hosting(match) as (_table, server):
        bob = await joined(server.port, "Bob")
        async with in_the_app(tmp_path, server.port, "Ann") as (app, pilot, ann):
            screen = app.screen
            await waiting(pilot, lambda: screen.active_bindings.get("c") is not None)
            await bob.say("first")
            await waiting(pilot, lambda: "Bob: first" in visible_characters(app))
            await pilot.press("c", "tab")
            picker = app.screen
            assert isinstance(picker, ChoiceScreen)
            await pilot.press("end", "enter")  # the last entry: Mute Bob
            await waiting(pilot, lambda: "Bob: first" not in visible_characters(app))
            await bob.say("spam")
            await until(lambda: texts(ann) == ["first", "spam"])
            await pilot.pause()
            assert "spam" not in visible_characters(app)
            # The chat command shows him again.
            await pilot.press(*"/unmute Bob", "enter")
            await waiting(pilot, lambda: "Bob: spam" in visible_characters(app))
            assert texts(bob) == ["first", "spam"]  # the command was not said
            await pilot.press("escape")
            # Off in the settings: no chat, no key.
            app.settings.chat = False
            screen.driver.resumed()
            await pilot.pause()
            assert "spam" not in visible_characters(app)
            assert screen.active_bindings.get("c") is None
        bob.reader.cancel()
        await bob.close()


@pytest.mark.slow
async def test_the_turn_is_told_on_the_desktop_when_the_terminal_is_not_in_front(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("TERM", "xterm-256color")  # a terminal of OSC 9
    monkeypatch.delenv("VTE_VERSION", raising=False)
    match = new_match("jaipur", "Ann,Bob", first=1)
    async with hosting(match) as (_table, server):
        bob = await joined(server.port, "Bob")
        async with in_the_app(tmp_path, server.port, "Ann") as (app, pilot, ann):
            written: list[str] = []
            app.write_escape = written.append  # what the terminal would be sent
            screen = app.screen
            app.app_focus = False  # the terminal says it is not in front
            await bob.decide(match.legal_actions()[0])
            await waiting(pilot, lambda: screen.driver._my_move())
            assert "\x1b]9;Karavan: Your turn at the table\x07" in written
            # In front, at the table: the title says it, and no notification.
            app.app_focus = True
            written.clear()
            await ann.decide(ann.action(ann.update.legal[0].action))
            await waiting(pilot, lambda: not app.turn_told)
            await bob.decide(bob.action(bob.update.legal[0].action))
            await waiting(pilot, lambda: app.turn_told)
            assert written and not any(seq.startswith("\x1b]9;") for seq in written)
        bob.reader.cancel()
        await bob.close()
