"""The lobby steered as a list (Pilot, by keys and a click) at a `karavan serve` server on
loopback: the rows have the keys, Enter and a click ask before a seat is taken, and the
lists the server pushes show without a key."""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from karavan_net.accounts import Account, account_for, accounts_file
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.lobby_list import LobbyList
from karavan_tui.net.lobby_screen import LobbyScreen
from karavan_tui.screens.table import TableScreen

from ..tui.helpers import make_app, settle, visible_characters, waiting
from .test_online_app import calls_heard, online, remembering, serving

TWO_OPEN = [SeatAsk("open"), SeatAsk("open")]


async def test_the_lobby_is_steered_by_its_rows_and_asks_before_it_seats(tmp_path):
    async with serving(tmp_path) as server:
        app = app_at(tmp_path, server.port)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, server.port, "Ann")
            rows = lobby.query_one("#list-lobby", LobbyList)
            assert app.focused is rows  # the rows have the keys, not the tab bar
            await waiting(pilot, lambda: "No open tables yet: c creates one." in shown(app))
            # Bob creates two tables: they show in Ann's lobby without a key pressed.
            bob = LobbyClient("127.0.0.1", server.port, "Bob", "Bob-" + "x" * 40)
            await bob.connect(create=True)
            first = await bob.create(CreateTable("jaipur", TWO_OPEN, "live", 30, 300))
            second = await bob.create(CreateTable("karakum", TWO_OPEN))
            await waiting(pilot, lambda: len(lobby.lines["lobby"]) == 2, 30)
            await waiting(pilot, lambda: "karakum" in shown(app).lower())
            # The number keys switch the tabs, and the rows have the keys in each.
            # The newest first; the arrows move the rows, and the row chosen stays chosen.
            assert chosen(lobby) == second.table
            await pilot.press("down")
            assert chosen(lobby) == first.table
            await pilot.press("2")
            await waiting(pilot, lambda: lobby.query_one(TabbedContent).active == "tab-mine")
            assert app.focused is lobby.query_one("#list-mine", LobbyList)
            await pilot.press("1")
            await waiting(pilot, lambda: app.focused is rows)
            # Enter asks first; No leaves Ann unseated.
            await pilot.press("enter")
            await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            question = app.screen.question
            assert question.startswith(f"Sit at table {first.table}, Jaipur, 30 s a move")
            assert "against Bob" in question
            await pilot.press("n")
            await waiting(pilot, lambda: app.screen is lobby)
            assert (await bob.mine()).tables[0].seats[1].name is None
            # Yes seats her: the game starts and its table opens.
            await pilot.press("enter")
            await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
            seats = next(t for t in (await bob.mine()).tables if t.id == first.table).seats
            assert seats[1].name == "Ann"
            await bob.close()


@pytest.mark.slow
async def test_one_click_on_a_row_asks_for_its_table(tmp_path):
    async with serving(tmp_path) as server:
        bob = LobbyClient("127.0.0.1", server.port, "Bob", "Bob-" + "x" * 40)
        await bob.connect(create=True)
        first = await bob.create(CreateTable("jaipur", TWO_OPEN))
        await bob.create(CreateTable("karakum", TWO_OPEN))
        app = app_at(tmp_path, server.port)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, server.port, "Ann")
            await waiting(pilot, lambda: len(lobby.lines["lobby"]) == 2)
            await settle(pilot, app)
            rows = lobby.query_one("#list-lobby", LobbyList)
            # The second row's first line (the older table): below the header and the first row.
            first_row = next(iter(rows.rows.values()))
            await pilot.click(rows, offset=(2, rows.header_height + first_row.height))
            await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert app.screen.question.startswith(f"Sit at table {first.table}, Jaipur")
            await pilot.press("n")
            await waiting(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await bob.close()


def app_at(tmp_path, port):
    """The app, its Play online dialog pointed at the server on ``port``."""
    app = make_app(tmp_path)
    app.test_port = port
    return app


def shown(app) -> str:
    return visible_characters(app)


def chosen(lobby: LobbyScreen) -> int | None:
    """The table under the lobby's cursor."""
    line = lobby.chosen()
    return None if line is None else line.id


@pytest.mark.slow
async def test_f2_at_the_title_opens_the_lobby_on_my_tables(tmp_path):
    async with serving(tmp_path) as server:
        address = f"127.0.0.1:{server.port}"
        ann = Account(address, "Ann", "Ann-" + "y" * 40)
        elsewhere = LobbyClient("127.0.0.1", server.port, "Ann", ann.secret)
        await elsewhere.connect(create=True)
        made = await elsewhere.create(CreateTable("jaipur", TWO_OPEN))
        await elsewhere.close()
        app = remembering(tmp_path, ann)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await pilot.press("f2")
            await waiting(pilot, lambda: isinstance(app.screen, LobbyScreen))
            lobby = app.screen
            assert lobby.shown_tab() == "mine"
            assert app.focused is lobby.query_one("#list-mine", LobbyList)
            await waiting(pilot, lambda: chosen(lobby) == made.table)


@pytest.mark.slow
async def test_a_turn_based_table_that_starts_calls_the_player_in_the_lobby_and_waits(tmp_path):
    async with serving(tmp_path) as server:
        app = app_at(tmp_path, server.port)
        rung, titles = calls_heard(app)
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, server.port, "Ann")
            ann = account_for(accounts_file(app.config.settings_path), f"127.0.0.1:{server.port}")
            assert ann is not None
            elsewhere = LobbyClient("127.0.0.1", server.port, "Ann", ann.secret)  # another device
            await elsewhere.connect()
            made = await elsewhere.create(CreateTable("karawane", TWO_OPEN, "turn", 86400))
            await elsewhere.close()
            await waiting(pilot, lambda: [t.id for t in lobby.lines["mine"]] == [made.table])
            assert not rung  # a table of my own making is no news
            bob = LobbyClient("127.0.0.1", server.port, "Bob", "Bob-" + "x" * 40)
            await bob.connect(create=True)
            await bob.take(made.table)
            # Called where she waits: the bell and the title; a day to decide, so no table
            # opens by itself.
            await waiting(
                pilot, lambda: any(t.startswith(f"Table {made.table} starts") for t in titles)
            )
            assert rung and app.screen is lobby
            await bob.close()
