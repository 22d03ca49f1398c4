"""Challenges in the app (Pilot, by keys) at a `karavan serve` server on loopback: one asked
for from the command line opens its table once taken up, or is taken back; one made to me
waits at the top of my lobby and is declined there, its challenger told."""

from __future__ import annotations

import contextlib

import pytest
from textual.widgets import DataTable, TabbedContent

from karavan_net.accounts import Account
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.serve.store import Status
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.challenge import challenge_request
from karavan_tui.net.served_seat import ServedSeat
from karavan_tui.screens.table import TableScreen

from ..tui.helpers import make_app, settle, visible_characters, waiting
from .test_leaving import until_told
from .test_online_app import online, remembering, serving
from .test_play_online import account


@contextlib.asynccontextmanager
async def challenging(tmp_path):
    """Ann's app as `karavan online --challenge Bob --game jaipur --clock 30s+5m --rated`
    opens it, in her lobby once the challenge is made; Bob's lobby client, and what it is
    told."""
    async with serving(tmp_path) as server:
        bob = await account(server.port, "Bob")
        told: list[str] = []
        bob.told = told.append
        app = make_app(tmp_path)
        app.test_port = server.port
        app.config.challenge = challenge_request("jaipur", ["Bob"], "30s+5m", rated=True)
        async with app.run_test(size=(100, 30)) as pilot:
            lobby = await online(pilot, app, server.port, "Ann")
            await waiting(pilot, lambda: lobby.awaiting is not None)
            yield server, app, pilot, lobby, bob, told
        await bob.close()


async def test_a_challenge_from_the_command_line_opens_its_table_once_taken_up(tmp_path):
    async with challenging(tmp_path) as (_, app, pilot, lobby, bob, told):
        table = lobby.awaiting
        await until_told(bob, told)
        assert told == [
            f"Ann challenges you to Jaipur (30 s a move + 5 min, rated) at table {table}: "
            "it is at the top of your lobby."
        ]
        assert app.config.challenge is None  # asked once
        assert (await bob.take(table)).started
        # Ann's lobby sees it started and takes her to its table.
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
        assert isinstance(app.screen.driver, ServedSeat)
        driver = app.screen.driver
        assert driver.client.code == str(table)
        await waiting(pilot, lambda: driver.latest is not None)
        await settle(pilot, app)


@pytest.mark.slow
async def test_a_challenge_waiting_is_taken_back_by_standing_up(tmp_path):
    async with challenging(tmp_path) as (server, app, pilot, lobby, bob, told):
        table = lobby.awaiting
        lobby.query_one(TabbedContent).active = "tab-mine"
        await waiting(pilot, lambda: [line.id for line in lobby.lines["mine"]] == [table])
        await pilot.press("s")
        await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = app.screen.question
        assert question.startswith(f"Stand up from table {table} (Jaipur")
        await pilot.press("y")
        await waiting(pilot, lambda: server.store.tables.get(table).status is Status.CLOSED)
        said = f"Ann stood up from table {table} (Jaipur), and it is closed."
        for _ in range(100):  # Bob's lobby hears it while it asks
            if said in told:
                break
            await bob.tables()
        assert said in told


@pytest.mark.slow
async def test_a_challenge_declined_is_said_in_the_challengers_app(tmp_path):
    async with challenging(tmp_path) as (_, app, pilot, lobby, bob, _told):
        table = lobby.awaiting
        await bob.decline(table)
        said = f"Bob declined the challenge at table {table} (Jaipur): it is closed."
        await waiting(pilot, lambda: said in [note.message for note in app._notifications], 30)


@pytest.mark.slow
async def test_a_challenge_made_to_me_is_at_the_top_of_my_lobby_and_declined_there(tmp_path):
    async with serving(tmp_path) as server:
        ann = await account(server.port, "Ann")
        told: list[str] = []
        ann.told = told.append
        app = make_app(tmp_path)
        app.test_port = server.port
        async with app.run_test(size=(100, 30)) as pilot:
            lobby = await online(pilot, app, server.port, "Bob")
            other = await ann.create(CreateTable("karawane", [SeatAsk("open"), SeatAsk("open")]))
            made = await ann.create(challenge_request("jaipur", ["Bob"], "1d"))
            await pilot.press("r")
            await waiting(pilot, lambda: len(lobby.lines["lobby"]) == 2)
            assert [line.id for line in lobby.lines["lobby"]] == [made.table, other.table]
            shown = visible_characters(app)
            assert "1 challenge for you at the top of the tables" in shown
            row = lobby.query_one("#list-lobby", DataTable).get_row_at(0)
            assert str(row[1]).splitlines() == ["Jaipur", "challenge for you"]
            assert str(row[2]).splitlines() == ["Ann (1000)", "kept for Bob"]
            # The cursor stays on the table it was on: had the Karawane table been listed
            # alone first, it is on that one's row now. To the top, where the challenge is.
            await pilot.press("ctrl+home")
            await waiting(pilot, lambda: lobby.chosen() == lobby.lines["lobby"][0])
            await pilot.press("d")
            await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            assert app.screen.question.startswith(
                f"Decline the challenge of Ann at table {made.table} (Jaipur"
            )
            await pilot.press("n")  # not yet: nothing is sent
            await pilot.press("d")
            await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await until_told(ann, told)
            assert told == [
                f"Bob declined the challenge at table {made.table} (Jaipur): it is closed."
            ]
            await waiting(
                pilot, lambda: [line.id for line in lobby.lines["lobby"]] == [other.table]
            )
        await ann.close()


async def test_the_title_counts_the_challenges_waiting_for_me(tmp_path):
    async with serving(tmp_path) as server:
        address = f"127.0.0.1:{server.port}"
        bob = Account(address, "Bob", "Bob-" + "y" * 40)
        client = LobbyClient("127.0.0.1", server.port, "Bob", bob.secret)
        await client.connect(create=True)
        await client.close()
        ann = await account(server.port, "Ann")
        await ann.create(challenge_request("jaipur", ["Bob"], "untimed"))
        app = remembering(tmp_path, bob)
        async with app.run_test(size=(100, 30)) as pilot:
            said = "Play online (1 challenge for you)"
            await waiting(pilot, lambda: said in visible_characters(app))
        await ann.close()
