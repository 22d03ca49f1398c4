"""Defects users met playing online (issue 65), each tested at a `karavan serve` server on
loopback, by keys (Pilot)."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from karavan_net.lobby_client import LobbyClient
from karavan_net.serve.server import KaravanServer
from karavan_tui.app import KaravanApp
from karavan_tui.modals.new_game import NewGameScreen
from karavan_tui.net.create_table import CreateTableScreen
from karavan_tui.net.lobby_screen import LobbyFooter, LobbyScreen
from karavan_tui.net.online import OnlineScreen
from karavan_tui.net.remote_over import RemoteOverScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen

from ..tui.helpers import make_app, settle, visible_characters, waiting
from .test_online_app import online, serving


class Frozen(Exception):
    """The event loop did not come back in time."""


@contextlib.contextmanager
def alarm(seconds: int) -> Iterator[None]:
    """Raise :class:`Frozen` in the main thread if the block takes over ``seconds`` (even
    where the event loop never gets control back)."""

    def ring(signum: int, frame: object) -> None:
        raise Frozen(f"still busy after {seconds} s")

    before = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


@contextlib.asynccontextmanager
async def in_the_lobby(
    tmp_path, size: tuple[int, int] = (100, 30), name: str = "Ann"
) -> AsyncIterator[tuple[KaravanServer, KaravanApp, Pilot[Any], LobbyScreen]]:
    """A server on loopback, and the app (``size``) in its lobby as ``name``."""
    async with serving(tmp_path) as server:
        app = make_app(tmp_path)
        app.test_port = server.port  # type: ignore[attr-defined]  # where online() logs in
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, server.port, name)
            yield server, app, pilot, lobby


@pytest.mark.slow
async def test_new_game_from_the_palette_in_the_lobby_opens_the_dialog(tmp_path):
    async with in_the_lobby(tmp_path) as (_, app, pilot, lobby):
        await pilot.press("ctrl+p")
        await pilot.press(*"New game")
        await waiting(pilot, lambda: "Set up a new game" in visible_characters(app))
        # It froze the app (each try closed nothing above the lobby and tried again, never
        # giving the event loop back): a frozen loop is stopped by an alarm.
        with alarm(20):
            await pilot.press("enter")
            await waiting(pilot, lambda: isinstance(app.screen, NewGameScreen), 10)
        # Going back from the dialog finds the lobby as it was.
        await pilot.press("escape")
        await waiting(pilot, lambda: app.screen is lobby)
        assert isinstance(app.screen, LobbyScreen)


async def bot_table(pilot, app) -> TableScreen:
    """From the lobby: a table against a Hard bot, open."""
    await pilot.press("c")
    await waiting(pilot, lambda: isinstance(app.screen, CreateTableScreen))
    app.screen.query_one("#kind-1").value = "bot:hard"
    await pilot.press("ctrl+s")
    await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
    return app.screen


def notes(app) -> list[str]:
    """The toasts the app has put up, oldest first."""
    return [note.message for note in app._notifications]


@pytest.mark.slow
async def test_a_decision_while_reconnecting_is_refused_in_words_and_nothing_changes(tmp_path):
    from tests.net.helpers import free_port

    port = free_port()
    app = make_app(tmp_path)
    app.test_port = port
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        async with serving(tmp_path, port):
            await online(pilot, app, port, "Ann")
            driver = (await bot_table(pilot, app)).driver
            await waiting(pilot, lambda: driver.latest is not None and driver._my_move(), 30)
            number = driver.latest.number
        await waiting(pilot, lambda: "Reconnecting" in visible_characters(app))
        before = len(notes(app))
        await pilot.press("a")
        await pilot.pause(0.2)
        await pilot.press("enter")
        await pilot.pause(0.2)
        said = notes(app)[before:]
        assert "Not sent: reconnecting to the server." in said, said
        async with serving(tmp_path, port) as again:
            await waiting(pilot, lambda: driver.online, 30)
            served = again.served[next(iter(again.served))]
            # Nothing was played behind the player's back: it is still their decision.
            await waiting(pilot, lambda: driver._my_move())
            assert driver.latest.number == number
            assert served.match.to_move == driver.viewer


@pytest.mark.slow
async def test_the_rated_box_is_drawn_on_and_off_apart_and_the_table_says_so_in_words(tmp_path):
    async with in_the_lobby(tmp_path, (100, 40)) as (_, app, pilot, _lobby):
        await pilot.press("c")
        await waiting(pilot, lambda: isinstance(app.screen, CreateTableScreen))
        box = app.screen.query_one("#rated")
        drawn = {}
        for ascii_mode in (False, True):
            app.set_ascii(ascii_mode)
            for value in (False, True):
                box.value = value
                words = "Rated: the result changes" if value else "Not rated: the result"
                await waiting(pilot, lambda words=words: words in visible_characters(app))
                drawn[ascii_mode, value] = box.render().plain
        # On and off differ by their symbol, whatever the theme's colours.
        assert drawn[False, False] != drawn[False, True]
        assert drawn[True, False].startswith("[ ]") and drawn[True, True].startswith("[X]")
        assert box.value is True


@pytest.mark.slow
async def test_the_game_over_screen_of_a_rated_game_says_what_it_did_to_my_rating(tmp_path):
    async with in_the_lobby(tmp_path) as (server, app, pilot, lobby):
        await pilot.press("c")
        await waiting(pilot, lambda: isinstance(app.screen, CreateTableScreen))
        app.screen.query_one("#rated").value = True
        await pilot.press("ctrl+s")
        await waiting(pilot, lambda: [t.status for t in lobby.lines["mine"]] == ["open"])
        bob = LobbyClient("127.0.0.1", server.port, "Bob", "Bob-" + "x" * 40)
        await bob.connect(create=True)
        table = lobby.lines["mine"][0].id
        await bob.take(table)
        await pilot.press("r")
        await waiting(pilot, lambda: [t.status for t in lobby.lines["mine"]] == ["playing"])
        lobby.sit(table, watch=False)  # what Enter on its row does (a worker)
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
        await waiting(pilot, lambda: app.screen.driver.latest is not None)
        # Ann gives the game up (g, then yes): Bob wins, and her rating falls.
        await pilot.press("g")
        await waiting(pilot, lambda: "Resign the game?" in visible_characters(app))
        await pilot.press("y")
        await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen), 30)
        account = server.store.accounts.named("Ann")
        before, after = server.store.ratings.changes({table})[(table, account.id)]
        assert after < before
        said = f"Your rating: {before} → {after} ({after - before})"
        await waiting(pilot, lambda: said in visible_characters(app))
        await bob.close()


async def test_play_online_focuses_the_first_empty_field_and_keys_after_tab_land_there(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("o")
        await waiting(pilot, lambda: isinstance(app.screen, OnlineScreen))
        server = app.screen.query_one("#online-server", Input)
        name = app.screen.query_one("#online-name", Input)
        await waiting(pilot, lambda: app.focused is not None)
        assert server.value  # a server is offered: the name is the first field to fill
        assert app.focused is name
        # Back to the server, then Tab and a name typed at once: every key in the name.
        server.focus()
        await pilot.pause()
        offered = server.value
        # As a terminal sends them when typed quickly: all queued before the first is read.
        for key, character in (("tab", None), ("V", "V"), ("e", "e"), ("e", "e")):
            app.post_message(events.Key(key, character))
        await waiting(pilot, lambda: name.value == "Vee")
        assert app.focused is name and server.value == offered


async def test_on_a_phone_the_lobby_is_left_by_a_tap(tmp_path):
    async with in_the_lobby(tmp_path, (40, 30)) as (_, app, pilot, lobby):
        footer = lobby.query_one(LobbyFooter)
        await waiting(pilot, lambda: footer.narrow)
        await settle(pilot, app)  # its keys composed again for the narrow screen

        def leave_key():
            keys = [key for key in footer.query("*") if getattr(key, "action", "") == "leave"]
            return next((key for key in keys if key.region.width), None)

        await waiting(pilot, lambda: leave_key() is not None)
        leave = leave_key()
        assert leave is not None and leave.region.right <= 40  # whole on the narrow screen
        await pilot.click(leave)
        await waiting(pilot, lambda: isinstance(app.screen, TitleScreen), 60)
