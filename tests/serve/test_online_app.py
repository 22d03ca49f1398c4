"""Play online in the app (Pilot, by keys) at a `karavan serve` server on loopback."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from textual.command import CommandPalette
from textual.widgets import DataTable, Input

from karavan_net.accounts import Account, account_for, accounts_file, keep
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Store
from karavan_tui.app import KaravanApp
from karavan_tui.config import Settings
from karavan_tui.net.create_table import CreateTableScreen
from karavan_tui.net.lobby_screen import LobbyScreen
from karavan_tui.net.online import OnlineScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen

from ..tui.helpers import make_app, settle, visible_characters, waiting
from .test_play_online import greedy


@contextlib.asynccontextmanager
async def serving(tmp_path, port: int = 0):
    store = Store.open(str(tmp_path / "server.db"))
    server = KaravanServer(store, bot_delay=0.0)
    await server.start("127.0.0.1", port)
    try:
        yield server
    finally:
        await server.stop()
        store.close()


async def online(pilot, app, port: int, name: str) -> LobbyScreen:
    """From the title: o, the server, a name, Enter; the lobby."""
    await pilot.press("o")
    await waiting(pilot, lambda: isinstance(app.screen, OnlineScreen))
    app.screen.query_one("#online-server", Input).value = f"127.0.0.1:{app.test_port}"
    app.screen.query_one("#online-name", Input).value = name
    await pilot.press("enter")
    await waiting(pilot, lambda: isinstance(app.screen, LobbyScreen))
    return app.screen


async def palette_offers(pilot, app, words: str) -> str:
    """What the command palette shows once ``words`` are typed in it (then closed)."""
    await pilot.press("ctrl+p")
    await waiting(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*words)
    await pilot.pause(0.5)
    shown = visible_characters(app)
    await pilot.press("escape")
    await waiting(pilot, lambda: not isinstance(app.screen, CommandPalette))
    return shown


def calls_heard(app) -> tuple[list[str], list[str]]:
    """The bells ``app`` rings and the terminal's titles it writes, as they come."""
    rung: list[str] = []
    titles: list[str] = []
    app.bell = lambda: rung.append("bell")
    app.write_title = titles.append
    return rung, titles


def remembering(tmp_path, account: Account) -> KaravanApp:
    """The app, with ``account`` kept and its server the one last played on."""
    app = make_app(tmp_path)
    keep(accounts_file(app.config.settings_path), account)
    settings = Settings.load(app.config.settings_path)
    settings.last_server = account.server
    settings.save(app.config.settings_path)
    return make_app(tmp_path)


async def test_from_the_title_to_a_move_at_an_online_table_and_back_to_the_lobby(tmp_path):
    async with serving(tmp_path) as server:
        app = make_app(tmp_path)
        app.test_port = server.port
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            assert isinstance(app.screen, TitleScreen)
            assert "Play online" in visible_characters(app)
            lobby = await online(pilot, app, server.port, "Ann")
            # The account is kept beside the settings, only for this server, with the
            # server's identity pinned.
            kept = account_for(accounts_file(app.config.settings_path), f"127.0.0.1:{server.port}")
            assert kept is not None and kept.name == "Ann"
            assert kept.identity == server.identity.fingerprint
            await waiting(pilot, lambda: "Ann on 127.0.0.1" in visible_characters(app))
            # A table against a Hard bot: it starts at once, and its table opens.
            await pilot.press("c")
            await waiting(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            app.screen.query_one("#kind-1").value = "bot:hard"
            await pilot.press("ctrl+s")
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
            table = app.screen
            await waiting(pilot, lambda: table.driver.latest is not None)
            # Play moves by keys until one of Ann's decisions has been made.
            served = next(iter(server.served.values()))
            while not any(served.match.actor(i) == 0 for i in range(len(served.match.history))):
                if table.driver.latest.legal:
                    await pilot.press("a")
                    await pilot.pause(0.2)
                    await pilot.press("enter")
                await pilot.pause(0.1)
            # Leaving the table goes back to the lobby, where it is one of my tables.
            await pilot.press("q")
            await waiting(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert app.screen is lobby
            await pilot.press("r")
            await waiting(pilot, lambda: lobby.lines["mine"] != [])


@pytest.mark.slow
async def test_a_watcher_sees_the_public_table_and_no_hand(tmp_path):
    async with serving(tmp_path) as server:
        port = server.port
        players = []
        for name in ("bob", "cid"):  # names as typed, never re-capitalised (issue 65)
            client = LobbyClient("127.0.0.1", port, name, f"{name}-" + "x" * 40)
            await client.connect(create=True)
            players.append(client)
        made = await players[0].create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await players[1].take(made.table)
        app = make_app(tmp_path)
        app.test_port = port
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, port, "Ann")
            await waiting(pilot, lambda: lobby.lines["lobby"] != [])
            lobby.query_one(DataTable).focus()
            await pilot.press("w")
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            screen = app.screen
            await waiting(pilot, lambda: screen.driver.latest is not None)
            assert screen.driver.latest.legal == []
            assert screen.driver.seen().observation.player is None
            # Told they watch (and who is away, as their names are written), and offered none
            # of a player's keys (issue 65).
            first = screen.driver.seat_name(screen.driver.latest.to_move)
            status = f"bob and cid are away · You are watching · {first}'s turn"
            await waiting(pilot, lambda: status in visible_characters(app))
            await waiting(pilot, lambda: "Leave" in visible_characters(app).splitlines()[-1])
            footer = visible_characters(app).splitlines()[-1]
            for offered in ("Undo", "Redo", "Moves", "Choose"):
                assert offered not in footer, footer
            assert "Take back your last decision" not in await palette_offers(pilot, app, "undo")
            assert "Every legal decision" not in await palette_offers(pilot, app, "moves")
        for client in players:
            await client.close()


async def test_the_title_says_when_online_tables_wait_for_the_players_move(tmp_path):
    async with serving(tmp_path) as server:
        port = server.port
        accounts = {}
        for name in ("Ann", "Bob"):
            accounts[name] = Account(f"127.0.0.1:{port}", name, f"{name}-" + "y" * 40)
            client = LobbyClient("127.0.0.1", port, name, accounts[name].secret)
            await client.connect(create=True)
            accounts[name] = (accounts[name], client)
        ann, bob = accounts["Ann"][1], accounts["Bob"][1]
        made = await ann.create(CreateTable("karawane", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        mover = "Ann" if (await ann.mine()).my_turns else "Bob"
        account = accounts[mover][0]
        app = remembering(tmp_path, account)
        async with app.run_test(size=(100, 30)) as pilot:
            waited = "Play online (1 table waiting for your move)"
            await waiting(pilot, lambda: waited in visible_characters(app))
        await ann.close()
        await bob.close()


@pytest.mark.slow
async def test_a_finished_game_opens_from_the_lobby_with_its_review_as_the_player_saw_it(
    tmp_path,
):
    from karavan_net.client import TableClient
    from karavan_tui.net.remote_over import RemoteOverScreen
    from karavan_tui.screens.review import ReviewScreen

    async with serving(tmp_path) as server:
        port = server.port
        app = make_app(tmp_path)
        app.test_port = port
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, port, "Ann")
            # Ann's game against Bob is played to its end elsewhere, by bots in their seats.
            ann = account_for(accounts_file(app.config.settings_path), f"127.0.0.1:{port}")
            assert ann is not None
            bob = LobbyClient("127.0.0.1", port, "Bob", "Bob-" + "x" * 40)
            await bob.connect(create=True)
            elsewhere = LobbyClient("127.0.0.1", port, "Ann", ann.secret)  # Ann, on another device
            await elsewhere.connect()
            seats = [SeatAsk("open"), SeatAsk("player", name="Bob")]
            made = await elsewhere.create(CreateTable("jaipur", seats))
            await elsewhere.close()
            await bob.take(made.table)
            players = []
            for seed, (name, secret) in enumerate((("Ann", ann.secret), ("Bob", bob.secret))):
                client = TableClient("127.0.0.1", port, str(made.table), name, secret=secret)
                await client.join()
                players.append(greedy(client, seed))
            assert await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120)
            await bob.close()
            # In the lobby's Finished tab, Enter opens it at its end; v reviews it.
            await pilot.press("r")
            await waiting(pilot, lambda: lobby.lines["over"] != [])
            lobby.query_one("TabbedContent").active = "tab-over"
            await settle(pilot, app)
            lobby.query_one("#list-over", DataTable).focus()
            await pilot.press("enter")
            await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen), 30)
            over = app.screen
            await waiting(pilot, lambda: over.seen() is not None)
            await pilot.press("v")
            await waiting(pilot, lambda: isinstance(app.screen, ReviewScreen), 30)


@pytest.mark.slow
async def test_a_live_table_opens_by_itself_for_its_creator_once_the_second_player_sits(
    tmp_path,
):
    async with serving(tmp_path) as server:
        app = make_app(tmp_path)
        app.test_port = server.port
        rung, titles = calls_heard(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, server.port, "Ann")
            await pilot.press("c")
            await waiting(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            app.screen.query_one("#clock").value = "30s+5m"
            await pilot.press("ctrl+s")
            await waiting(pilot, lambda: [t.status for t in lobby.lines["mine"]] == ["open"])
            # Bob sits elsewhere: the game starts, and Ann, waiting in the lobby, is called
            # (the bell, the title) and taken to the table without a key.
            bob = LobbyClient("127.0.0.1", server.port, "Bob", "Bob-" + "x" * 40)
            await bob.connect(create=True)
            await bob.take(lobby.lines["mine"][0].id)
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
            assert rung  # the bell rang
            table = lobby.lines["mine"][0].id
            assert any(title.startswith(f"Table {table} starts") for title in titles)
            # My tables are one key away from the table: F2, shown in its Footer.
            await waiting(pilot, lambda: "F2 My tables" in visible_characters(app))
            await pilot.press("f2")
            await waiting(pilot, lambda: app.screen is lobby)
            assert lobby.shown_tab() == "mine"
            await bob.close()


@pytest.mark.slow
async def test_the_title_calls_the_player_to_a_live_table_of_theirs_that_starts(tmp_path):
    async with serving(tmp_path) as server:
        port = server.port
        ann = Account(f"127.0.0.1:{port}", "Ann", "Ann-" + "y" * 40)
        elsewhere = LobbyClient("127.0.0.1", port, "Ann", ann.secret)  # Ann, on another device
        await elsewhere.connect(create=True)
        made = await elsewhere.create(
            CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")], "live", 30, 300)
        )
        await elsewhere.close()
        app = remembering(tmp_path, ann)
        rung, titles = calls_heard(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            title = app.screen
            await waiting(pilot, lambda: title.follower is not None)
            bob = LobbyClient("127.0.0.1", port, "Bob", "Bob-" + "x" * 40)
            await bob.connect(create=True)
            await bob.take(made.table)
            # Called from the title: the bell, the title, and the table in the server's lobby.
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
            assert rung  # the bell rang
            assert any(title.startswith(f"Table {made.table} starts") for title in titles)
            assert isinstance(app.screen_stack[-2], LobbyScreen)
            await bob.close()


@pytest.mark.slow
async def test_an_open_lobby_follows_the_server_across_a_restart(tmp_path):
    store = Store.open(str(tmp_path / "server.db"))
    server = KaravanServer(store, bot_delay=0.0)
    port = await server.start("127.0.0.1", 0)
    app = make_app(tmp_path)
    app.test_port = port
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        lobby = await online(pilot, app, port, "Ann")
        await waiting(pilot, lambda: "Ann on 127.0.0.1" in visible_characters(app))
        await server.stop()
        store.close()
        await waiting(pilot, lambda: "reconnecting" in visible_characters(app))
        await pilot.press("r")  # asked while the server is down: said, and nothing breaks
        async with serving(tmp_path, port) as again:
            bob = LobbyClient("127.0.0.1", again.port, "Bob", "Bob-" + "x" * 40)
            await bob.connect(create=True)
            made = await bob.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
            # Pushed to the lobby that came back, without a key.
            await waiting(pilot, lambda: [t.id for t in lobby.lines["lobby"]] == [made.table], 30)
            await pilot.press("r")
            await settle(pilot, app)
            assert "Ann on 127.0.0.1" in visible_characters(app)
            await bob.close()
