"""Resign, abort and rematch by keys in the app (Pilot), at a `karavan serve` table on
loopback against a player whose client is heard: each asks once, and the other is told."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.protocol import Rematch, Resign
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.remote_over import RemoteOverScreen
from karavan_tui.net.served_seat import ServedSeat, open_served_table
from karavan_tui.screens.table import TableScreen

from ..tui.helpers import make_app, settle, waiting
from .at_table import Heard
from .test_play_online import account, seat_client, serving


async def seated_in_app(pilot, app, lobby, table: int) -> ServedSeat:
    """``lobby``'s player at ``table``, in the app: the seat's driver."""
    await settle(pilot, app)
    client = lobby.table(table)
    await client.join()
    open_served_table(app, client)
    await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
    driver = app.screen.driver
    assert isinstance(driver, ServedSeat)
    return driver


@contextlib.asynccontextmanager
async def ann_in_the_app(tmp_path, database):
    """Ann (in the app) and Bob (a client whose updates are heard) at a started rated Jaipur
    table of a server on loopback."""
    async with serving(database) as server:
        ann, bob = await account(server.port, "Ann"), await account(server.port, "Bob")
        seats = [SeatAsk("open"), SeatAsk("player", name="Bob")]
        made = await ann.create(CreateTable("jaipur", seats, rated=True))
        await bob.take(made.table)
        bobs = seat_client(server.port, made.table, "Bob")
        await bobs.join()
        heard = Heard()
        reading = asyncio.get_running_loop().create_task(bobs.run(heard))
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            driver = await seated_in_app(pilot, app, ann, made.table)
            await waiting(pilot, lambda: driver.latest is not None)
            yield server, app, pilot, driver, (bobs, heard), ann
        reading.cancel()
        await bobs.close()
        await ann.close()
        await bob.close()


@pytest.mark.slow
async def test_aborting_asks_once_and_the_other_player_is_told(tmp_path, database):
    async with ann_in_the_app(tmp_path, database) as (server, app, pilot, driver, bob, _):
        _, heard = bob
        table = server.served[int(driver.client.code)]
        await waiting(pilot, lambda: driver.may("abort"))
        await pilot.press("k")
        await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "no result for anyone, and is not rated" in app.screen.question
        await pilot.press("n")  # changed her mind: nothing is sent
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause(0.3)
        assert not table.finished
        await pilot.press("k")
        await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        said = "Ann aborted the game: it ends with no result, and is not rated."
        await waiting(pilot, lambda: heard.closed_with == said)
        await waiting(pilot, lambda: driver.ending == said)
        assert server.store.ratings.leaderboard("jaipur") == []


async def test_resigning_is_rated_as_a_loss_and_a_rematch_agreed_opens_a_new_table(
    tmp_path, database
):
    async with ann_in_the_app(tmp_path, database) as (server, app, pilot, driver, bob, ann):
        bobs, heard = bob
        first = int(driver.client.code)
        await pilot.press("g")
        await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question == ("Resign the game? Bob wins it, and it counts as your loss.")
        await pilot.press("y")
        said = "Ann resigns: Bob wins."
        await waiting(pilot, lambda: bool(heard.updates) and heard.last.outcome is not None)
        assert heard.last.notice == said and heard.last.outcome.result.winners == (1,)
        await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen), 30)
        [line] = (await ann.mine(over=True)).tables
        before, after = line.rating_change
        assert after < before  # a loss
        # The rematch: Ann asks on the game-over screen (once confirmed), Bob agrees.
        await pilot.press("m")
        await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question.startswith("Ask for a rematch")
        await pilot.press("y")
        await waiting(pilot, lambda: heard.last.rematch == [0])
        await bobs.send(Rematch())
        await waiting(pilot, lambda: driver.client.code != str(first), 30)
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen), 30)
        await waiting(pilot, lambda: driver.latest is not None and driver.latest.outcome is None)
        assert server.served[int(driver.client.code)].record.rated


@pytest.mark.slow
async def test_a_rematch_the_other_asked_for_is_declined_and_they_are_told(tmp_path, database):
    async with ann_in_the_app(tmp_path, database) as (_, app, pilot, driver, bob, _ann):
        bobs, heard = bob
        await bobs.send(Resign())
        await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen), 30)
        await bobs.send(Rematch())
        await waiting(pilot, lambda: driver.latest.rematch == [1])
        await pilot.press("m")
        await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert app.screen.question.startswith("Agree to the rematch Bob asked for?")
        assert app.screen.no == "Decline (n)"
        await pilot.press("n")
        await waiting(pilot, lambda: heard.last.notice == "Ann does not want a rematch.")
        assert heard.last.rematch == []
