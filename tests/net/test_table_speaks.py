"""The table speaks up (issue 57), a player in the app at a real host on loopback: a bell
and the title when it is your turn, prompts worded for you only, no toast told twice, a
second connection that says so, the invitation shown again, and the Join dialog that
remembers a table joined from the command line."""

from __future__ import annotations

from karavan_net.client import TableClient
from karavan_tui import cli
from karavan_tui.app import TableApp
from karavan_tui.cli import join as join_command
from karavan_tui.cli.common import Context
from karavan_tui.config import LastJoin, Settings
from karavan_tui.net.join_screen import JoinScreen

from ..tui.helpers import make_app, visible_characters, waiting
from .helpers import CODE, hosting, joined, new_match, until
from .test_remote_table import in_the_app, in_the_hosts_app
from .test_takeback_requests import ann_asks


async def test_your_turn_rings_the_bell_once_the_others_have_moved(tmp_path):
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (_table, server):
        bob = await joined(server.port, "Bob")
        async with in_the_app(tmp_path, server.port, "Ann") as (app, pilot, ann):
            rung: list[bool] = []
            app.bell = lambda: rung.append(True)  # the terminal's bell, counted
            screen = app.screen
            await waiting(pilot, lambda: screen.driver._my_move())
            assert app.turn_told  # the title says it is Ann's turn
            await ann.decide(match.legal_actions()[0])
            await until(lambda: bob.update is not None and bob.update.to_move == 1)
            await waiting(pilot, lambda: not app.turn_told)
            # Bob's turn: the others are told whose it is, not Bob's own prompt.
            await waiting(pilot, lambda: "Bob's turn" in visible_characters(app))
            assert "Bob: " not in visible_characters(app)
            rung.clear()
            await bob.decide(match.legal_actions()[0])
            await waiting(pilot, lambda: app.turn_told)
            assert rung == [True]
            app.settings.bell = False  # the setting turns the bell off
            await ann.decide(match.legal_actions()[0])
            await waiting(pilot, lambda: not app.turn_told)
            await bob.decide(match.legal_actions()[0])
            await waiting(pilot, lambda: app.turn_told)
            assert rung == [True]


async def test_a_take_back_told_once_is_not_told_again_after_a_reconnect():
    async with ann_asks() as (_match, ann, bob):
        await bob.answer(False, bob.update.takeback.number)
        await until(lambda: ann.update.notice == "Bob declined: Ann's decision stands.")
        again = TableClient("127.0.0.1", ann.port, CODE, "Ann", secret=ann.secret)
        await again.join()  # another Karavan of Ann's, or the same after a drop
        assert again.update is not None and again.update.notice is None
        await again.close()


async def test_a_second_connection_tells_the_first_its_seat_was_taken_and_shows_no_prompt(
    tmp_path,
):
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (_table, server):
        bob = await joined(server.port, "Bob")
        async with in_the_app(tmp_path, server.port, "Ann") as (app, pilot, ann):
            screen = app.screen
            await waiting(pilot, lambda: screen.driver._my_move())
            other = TableClient("127.0.0.1", server.port, CODE, "Ann", secret=ann.secret)
            await other.join()
            taken = "Your seat was taken from another connection."
            await waiting(pilot, lambda: screen.driver.ending == taken)
            notes = [(n.title, n.message) for n in app._notifications]
            assert ("Seat taken elsewhere", taken) in notes
            shown = visible_characters(app)
            assert taken in shown and "The table is closed" not in shown
            assert not screen.driver._my_move() and screen.driver.status().prompt == taken
            await other.close()
        await bob.close()


async def test_the_host_sees_how_to_join_in_the_side_panel_and_in_the_palette(tmp_path):
    match = new_match("karakum", "Ann,Bob,Cid", first=0)

    def lines(port: int) -> list[str]:
        return [
            "Each player joins from their own terminal with:",
            *(f"  karavan join 127.0.0.1:{port} {CODE} --name {name}" for name in ("Bob", "Cid")),
        ]

    async with in_the_hosts_app(tmp_path, match, lines, (120, 40)) as (_, server, app, pilot):
        screen = app.screen
        shown = lambda: str(screen.query_one("#invite").render())  # noqa: E731
        await waiting(pilot, lambda: screen.query_one("#invite").display)
        assert "--name Bob" in shown() and "--name Cid" in shown()
        bob = await joined(server.port, "Bob")
        await waiting(pilot, lambda: "--name Bob" not in shown())
        assert "--name Cid" in shown()
        app.clear_notifications()
        assert "Invitation" in [command.title for command in screen.driver.commands()]
        screen.driver.do_invite()
        await pilot.pause()
        assert any(lines(server.port)[1] in note.message for note in app._notifications)
        bob.reader.cancel()
        await bob.close()


async def test_the_join_dialog_offers_a_table_joined_from_the_command_line(tmp_path, monkeypatch):
    settings_path = tmp_path / "settings.json"
    monkeypatch.setenv("KARAVAN_SETTINGS", str(settings_path))
    match = new_match("jaipur", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        address = f"127.0.0.1:{server.port}"
        opened: list[str] = []

        async def run_async(app: TableApp) -> None:  # the table would open here
            opened.append(app.client.name)

        monkeypatch.setattr(TableApp, "run_async", run_async)
        parser = cli.build_parser()
        args = parser.parse_args(["join", address, CODE, "--name", "Ann"])
        ctx = Context(parser, args, tmp_path / "saves")
        # karavan join ADDRESS CODE --name Ann, as the command runs it (on this test's loop)
        assert await join_command._join(ctx, "127.0.0.1", server.port, "Ann", None) == 0
        assert opened == ["Ann"]
        assert Settings.load(settings_path).last_join == LastJoin(address, CODE, "Ann")
        await until(lambda: 0 not in table.links)
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("j")
            await waiting(pilot, lambda: isinstance(app.screen, JoinScreen))
            fields = [app.screen.query_one(f"#join-{f}").value for f in ("address", "code", "name")]
            assert fields == [address, CODE, "Ann"]
