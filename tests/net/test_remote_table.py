"""A player at a hosted table in the app (Pilot) while another plays headless, on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random

import pytest
from textual.binding import Binding

from karavan_core.engine import Action, IllegalAction
from karavan_core.games.jaipur.components import Card
from karavan_core.games.jaipur.state import Sell
from karavan_core.match import Match
from karavan_net.client import TableClient
from karavan_net.hosting import HostControl
from karavan_tui.app import TableApp
from karavan_tui.config import AppConfig, LastJoin, Settings
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.join_screen import JoinScreen
from karavan_tui.net.remote import REMOTE_KEYS
from karavan_tui.net.remote_over import RemoteOverScreen
from karavan_tui.net.served_seat import SERVED_KEYS
from karavan_tui.screens.table import TableScreen

from ..tui.helpers import make_app, visible_characters, waiting
from .helpers import CODE, bot, free_port, hosting, joined, new_match, until


def config(tmp_path) -> AppConfig:
    return AppConfig(
        saves_dir=tmp_path / "saves",
        settings_path=tmp_path / "settings.json",
        bot_delay=0.0,
        animations=False,
    )


@contextlib.asynccontextmanager
async def in_the_app(tmp_path, port: int, name: str):
    """Join the table on ``port`` as ``name`` in the app; yield the app, its pilot and client.

    Yields once the app shows the table.
    """
    client = TableClient("127.0.0.1", port, CODE, name)
    await client.join()
    app = TableApp(config(tmp_path), client)
    async with app.run_test(size=(100, 30)) as pilot:
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
        yield app, pilot, client


@contextlib.asynccontextmanager
async def in_the_hosts_app(tmp_path, match, invitation=lambda port: [], size=(80, 24)):
    """``match`` hosted here, its first seat played in the host's own app (with its control
    of the table and the ``invitation(port)`` lines); yields the table, server, app, pilot."""
    async with hosting(match) as (table, server):
        client = TableClient("127.0.0.1", server.port, CODE, match.seats[0].name)
        await client.join()
        control = HostControl(table, invitation(server.port), server=server)
        app = TableApp(config(tmp_path), client, control=control)
        async with app.run_test(size=size, notifications=True) as pilot:
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            yield table, server, app, pilot
        await client.close()


@pytest.mark.slow
async def test_a_pilot_player_and_a_headless_bot_play_karakum(tmp_path):
    match = new_match("karakum", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        ann = TableClient("127.0.0.1", server.port, CODE, "Ann")
        await ann.join()
        bob = await bot(server.port, "Bob", seed=3)
        bob_task = asyncio.get_running_loop().create_task(bob.play())
        app = TableApp(config(tmp_path), ann)
        async with app.run_test(size=(100, 30)) as pilot:
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await waiting(pilot, lambda: screen.driver.latest is not None)
            shown = visible_characters(app)
            assert "Karakum" in shown and "Bob" in shown and f"127.0.0.1:{server.port}" in shown
            # Ann plays by keys: the move list, then the first move, until both have played a while.
            while len(match.history) < 6:
                if isinstance(app.screen, ChoiceScreen):
                    await pilot.press("enter")
                elif screen.driver._my_move():
                    await pilot.press("a")
                    await waiting(pilot, lambda: isinstance(app.screen, ChoiceScreen))
                    await pilot.press("enter")
                await pilot.pause(0.02)
                assert not match.is_over()
            actors = {match.actor(i) for i in range(len(match.history))}
            assert actors == {0, 1}
            await waiting(pilot, lambda: screen.driver.latest.number == table.number)
            # What Ann's table shows is what the host says she may see.
            assert screen.driver.seen().observation == match.game.observe(match.state, 0)
            log = visible_characters(app)
            assert "Bob" in log
            # Undo at a hosted table: refused once Bob has decided since, with the reason.
            if match.actor(len(match.history) - 1) == 1 and not screen.driver.latest.can_undo:
                await pilot.press("u")  # greyed: nothing is sent
                assert len(match.history) >= 6
            # The command palette offers the table's own commands.
            await pilot.press("ctrl+p")
            await pilot.pause()
            await pilot.press(*"leave")
            await waiting(pilot, lambda: "Leave the table" in visible_characters(app))
            await pilot.press("escape")
            await waiting(pilot, lambda: app.screen is screen)
            # Bob's connection ends: Ann's status line says he is away.
            bob_task.cancel()
            await bob.client.close()
            await waiting(pilot, lambda: "Bob is away" in visible_characters(app))
            await pilot.press("q")
            await waiting(pilot, lambda: not isinstance(app.screen, TableScreen))
        await until(lambda: 0 not in table.links)
        assert table.seat_infos()[0].status == "away"


@pytest.mark.slow
async def test_join_a_table_from_the_title_screen(tmp_path):
    match = new_match("jaipur", "Ann,bot:random:Robot", first=0)
    async with hosting(match) as (table, server):
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("j")
            await waiting(pilot, lambda: isinstance(app.screen, JoinScreen))
            nowhere = f"127.0.0.1:{free_port()}"
            app.screen.query_one("#join-address").value = nowhere
            await pilot.press(*"wrong")
            await pilot.press("tab", *"Ann", "enter")
            problem = app.screen.query_one("#join-problem")
            said = f"Cannot join: no Karavan table answers at {nowhere}."
            await waiting(pilot, lambda: str(problem.content) == said)
            app.screen.query_one("#join-address").value = f"127.0.0.1:{server.port}"
            await pilot.press("enter")
            await waiting(pilot, lambda: "Wrong table code" in visible_characters(app))
            app.screen.query_one("#join-code").value = CODE
            await pilot.press("enter")
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await waiting(pilot, lambda: screen.driver._my_move())
            # A table asks whether a gesture may be made: the engine's own words, from Ann's view.
            assert screen.check(match.legal_actions()[0]) is None
            wrong = Sell(Card.DIAMONDS, 5)
            with pytest.raises(IllegalAction) as refusal:
                match.game.apply(match.state, wrong)
            assert screen.check(wrong) == str(refusal.value)
            # Ann plays a few turns against the host's bot, always the first move listed.
            while len(match.history) < 4:
                if isinstance(app.screen, ChoiceScreen):
                    await pilot.press("enter")
                elif app.screen is screen and screen.driver._my_move():
                    await pilot.press("a")
                await pilot.pause(0.01)
            await waiting(pilot, lambda: screen.driver.latest.number == table.number)
            assert screen.driver.seen().observation == match.game.observe(match.state, 0)
            assert "Robot" in visible_characters(app)


@pytest.mark.slow
async def test_the_join_dialog_offers_the_table_last_joined_and_enter_alone_rejoins(tmp_path):
    # After a drop or a restart the player should not have to ask the host for the code again.
    match = new_match("jaipur", "Ann,bot:random:Robot", first=0)
    async with hosting(match) as (table, server):
        address = f"127.0.0.1:{server.port}"
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await waiting(pilot, lambda: isinstance(app.screen, JoinScreen))
            assert app.screen.query_one("#join-code").value == ""
            app.screen.query_one("#join-address").value = address
            await pilot.press(*CODE, "tab", *"Ann", "enter")
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
        await until(lambda: 0 not in table.links)  # the first app is closed: Ann is away
        again = make_app(tmp_path)  # the same settings file, as after a restart
        async with again.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await waiting(pilot, lambda: isinstance(again.screen, JoinScreen))
            fields = ("address", "code", "name")
            offered = [again.screen.query_one(f"#join-{field}").value for field in fields]
            assert offered == [address, CODE, "Ann"]
            await pilot.press("enter")
            await waiting(pilot, lambda: isinstance(again.screen, TableScreen))
            await until(lambda: 0 in table.links)


def test_a_remembered_table_is_checked_like_anything_read_from_a_file(tmp_path):
    path = tmp_path / "settings.json"
    fit = {"address": "127.0.0.1:7654", "code": "ABC123", "name": "Ann"}
    for unfit in (
        {**fit, "address": "no address here"},
        {**fit, "code": ""},
        {**fit, "code": "\x1b[31m"},
        {**fit, "name": "x" * 100},
        {**fit, "name": 7},
        "127.0.0.1:7654",
    ):
        path.write_text(json.dumps({"last_join": unfit}), encoding="utf-8")
        assert Settings.load(path).last_join is None, unfit
    path.write_text(json.dumps({"last_join": fit}), encoding="utf-8")
    settings = Settings.load(path)
    assert settings.last_join == LastJoin("127.0.0.1:7654", "ABC123", "Ann")
    settings.save(path)
    assert Settings.load(path) == settings


@pytest.mark.slow
async def test_the_hosts_note_on_how_to_join_goes_once_every_seat_is_taken(tmp_path):
    match = new_match("karakum", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        host_client = TableClient("127.0.0.1", server.port, CODE, "Ann")
        await host_client.join()
        invitation = [f"Each player joins with: karavan join 127.0.0.1:{server.port} {CODE}"]
        control = HostControl(table, invitation)
        app = TableApp(config(tmp_path), host_client, control=control)
        async with app.run_test(size=(80, 24)) as pilot:

            def notes() -> list[str]:
                return [note.title for note in app._notifications]

            def messages() -> list[str]:
                return [note.message for note in app._notifications]

            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.pause(0.2)
            assert "Hosting" in notes()  # Bob has not joined: the note says how
            bob = await joined(server.port, "Bob")
            try:
                await waiting(pilot, lambda: "Bob is here." in messages())
                assert "Hosting" not in notes()
            finally:
                bob.reader.cancel()
                await bob.close()


def _last_decision_is(seat: int) -> tuple[Match, Action]:
    """A Jaipur match played (by random moves) to its last decision, which is ``seat``'s."""
    for seed in range(100):
        probe = new_match("jaipur", "Ann,Bob", seed=seed, first=0)
        rng = random.Random(seed)
        moves = []
        while not probe.is_over():
            moves.append((probe.to_move, rng.choice(probe.legal_actions())))
            probe.play(moves[-1][1])
        if moves[-1][0] == seat:
            match = new_match("jaipur", "Ann,Bob", seed=seed, first=0)
            for _, action in moves[:-1]:
                match.play(action)
            return match, moves[-1][1]
    raise AssertionError("no deal ends with that seat's decision")


@pytest.mark.slow  # a whole hosted game to its end
async def test_players_who_leave_once_the_game_is_over_are_not_said_to_be_away(tmp_path):
    match, last = _last_decision_is(0)
    async with hosting(match) as (table, server):
        ann = TableClient("127.0.0.1", server.port, CODE, "Ann")
        await ann.join()
        bob = await joined(server.port, "Bob")
        app = TableApp(config(tmp_path), ann)
        async with app.run_test(size=(100, 30)) as pilot:
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await waiting(pilot, screen.driver._my_move)
            screen.decide(last)
            await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen))
            # Bob's Karavan goes, as they do at the end: nobody is "away" from a finished game.
            bob.reader.cancel()
            await bob.close()
            await waiting(pilot, lambda: 1 not in table.links)
            await waiting(pilot, lambda: screen.driver.latest.seats[1].status == "away")
            await pilot.pause(0.2)
            assert not [n.message for n in app._notifications if "away" in n.message]
            assert screen.driver.presence() == ""


async def test_a_take_back_asked_at_a_hosted_table_is_answered_on_the_other_players_screen(
    tmp_path,
):
    """Ann (headless) asks to take back past Bob's decision; Bob, in the app, is asked and
    declines by key, then agrees; Ann's status meanwhile says whom she waits for."""
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        ann = await joined(server.port, "Ann")
        async with in_the_app(tmp_path, server.port, "Bob") as (app, pilot, bob):
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await ann.decide(match.legal_actions()[0])
            await waiting(pilot, lambda: screen.driver._my_move())
            bob_move = match.legal_actions()[0]
            await bob.decide(bob_move)
            await until(lambda: len(match.history) == 2 and ann.update.number == table.number)
            await ann.undo()
            await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            shown = visible_characters(app)
            assert "Bob: Ann asks to take back 2 decisions" in shown
            # Each decision it would take back, in the log's words, and whose it is.
            words = match.log()[1:]
            assert f"- {words[0]}" in shown and f"- {words[1]} (yours)" in shown
            assert "it lapses in 30 seconds" in shown
            assert ann.update.takeback is not None and ann.update.takeback.waiting == [1]
            await pilot.press("n")
            await until(lambda: ann.update.takeback is None)
            assert len(match.history) == 2 and isinstance(app.screen, TableScreen)
            await ann.decide(match.legal_actions()[0])  # declined: asked again after a decision
            await waiting(pilot, lambda: screen.driver._my_move())
            await bob.decide(match.legal_actions()[0])
            await until(lambda: len(match.history) == 4 and ann.update.number == table.number)
            await ann.undo()
            await waiting(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.press("y")
            await until(lambda: len(match.history) == 2)
            await waiting(pilot, lambda: screen.driver.latest.number == table.number)
            assert screen.driver.latest.takeback is None and isinstance(app.screen, TableScreen)
        await ann.close()
        await bob.close()


async def one_decision_each(pilot, screen, clients, match, table) -> None:
    """Ann (in the app, played through her client ``clients[0]``), then Bob, decide once."""
    ann, bob = clients
    await waiting(pilot, lambda: screen.driver._my_move())
    await ann.decide(match.legal_actions()[0])
    await until(lambda: bob.update is not None and bob.update.to_move == 1)
    await bob.decide(match.legal_actions()[0])
    await waiting(pilot, lambda: screen.driver.latest.number == table.number)


@contextlib.asynccontextmanager
async def ann_in_the_app(tmp_path):
    """Ann in the app, Bob headless, at a Jaipur table: ``(match, table, app, pilot, ann,
    bob)``, ``ann`` being the client of Ann's app."""
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        bob = await joined(server.port, "Bob")
        async with in_the_app(tmp_path, server.port, "Ann") as (app, pilot, ann):
            yield match, table, app, pilot, ann, bob
        await ann.close()
        await bob.close()


@pytest.mark.slow
async def test_who_asked_to_take_back_sees_whom_it_waits_for(tmp_path):
    async with ann_in_the_app(tmp_path) as (match, table, app, pilot, ann, bob):
        screen = app.screen

        async def both_decide() -> None:
            await one_decision_each(pilot, screen, (ann, bob), match, table)

        async def ask() -> None:
            await pilot.press("u")
            await until(lambda: bob.update.takeback is not None)
            await waiting(pilot, lambda: screen.driver.latest.takeback is not None)

        await both_decide()
        await ask()
        assert "Your take-back waits for Bob to agree" in visible_characters(app)
        # Whatever Bob answers, Ann is told in words (the table alone would say little).
        told = lambda words: any(n.message == words for n in app._notifications)  # noqa: E731
        await bob.answer(True)
        agreed = "Bob agreed: you took back your last decision and the decision after it."
        await waiting(pilot, lambda: told(agreed))
        assert not match.history
        await waiting(pilot, lambda: screen.driver.latest.number == table.number)
        banner = str(screen.query_one("#banner").render())
        assert banner == agreed, banner
        await both_decide()
        await ask()
        await bob.answer(False)
        await waiting(pilot, lambda: told("Bob declined: Ann's decision stands."))
        # Declined: not asked again before somebody decides (the key is greyed).
        await waiting(pilot, lambda: screen.driver.latest.number == table.number)
        assert screen.driver.allows("undo") is None and not screen.driver.latest.can_undo
        await pilot.press("u")
        await pilot.pause()
        assert bob.update.takeback is None and len(match.history) == 2


@pytest.mark.slow
async def test_the_asker_withdraws_by_key_and_the_other_is_told(tmp_path):
    async with ann_in_the_app(tmp_path) as (match, table, app, pilot, ann, bob):
        screen = app.screen
        assert screen.driver.allows("withdraw") is False  # no request: no key
        await one_decision_each(pilot, screen, (ann, bob), match, table)
        await pilot.press("u")
        await until(lambda: bob.update.takeback is not None)
        await waiting(pilot, lambda: screen.driver.allows("withdraw") is True)
        assert "w withdraws it" in visible_characters(app)
        await pilot.press("w")
        await until(lambda: bob.update.takeback is None)
        assert bob.update.notice == "Ann no longer asks to take back."
        assert len(match.history) == 2


def test_the_keys_that_come_and_go_come_last_so_the_others_keep_their_places():
    for keys in (REMOTE_KEYS, SERVED_KEYS):
        shown = [key.id for key in keys if isinstance(key, Binding) and key.show]
        # Withdraw (while one's own take-back waits) and Seats (the host's, while a player is
        # missing) are the Footer's only keys that are now shown, now not.
        assert shown[-2:] == ["withdraw", "seats"], shown
