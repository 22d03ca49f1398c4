"""Door mode: behind a server's ssh door the app is that server's lobby and nothing of the
machine it runs on.  Each thing it refuses is refused by every way in (the title's menu and
keys, the command palette, the app's own commands), not only hidden."""

from __future__ import annotations

from contextlib import nullcontext

import attrs
import pytest
from textual.widgets import Button, Input, OptionList

from karavan_core.saves import save_match
from karavan_net.client import TableClient
from karavan_tui.app import KaravanApp, TableApp, create_app
from karavan_tui.cli import main
from karavan_tui.door import AT_THE_DOOR
from karavan_tui.messages import OpenLesson, OpenSave
from karavan_tui.net.online import OnlineScreen
from karavan_tui.net.remote_over import RemoteOverScreen
from karavan_tui.screens.replay import Replay
from karavan_tui.screens.review import ReviewScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen

from ..net.helpers import CODE, hosting, joined
from ..net.test_remote_table import _last_decision_is
from .helpers import make_app, seeded_match, waiting

DOOR = "127.0.0.1:7700"


def door_app(tmp_path) -> KaravanApp:
    """The app as the ssh door runs it for the server ``DOOR``."""
    return create_app(attrs.evolve(make_app(tmp_path).config, door=DOOR))


def said_why(app: KaravanApp) -> bool:
    return any(note.message == AT_THE_DOOR for note in app._notifications)


async def still_at_the_title(pilot, app: KaravanApp) -> None:
    await pilot.pause()
    assert isinstance(app.screen, TitleScreen) and len(app.screen_stack) == 1


async def test_the_title_offers_the_lobby_the_rules_and_the_settings_only(tmp_path):
    app = door_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen.query_one("#menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert ids == ["online", "rules", "settings", "quit"]
        for key in "ntclj":  # New game, Learn, Resume, Load, Join: keys that do nothing
            await pilot.press(key)
            await still_at_the_title(pilot, app)
        palette = [command.title for command in app.get_system_commands(app.screen)]
        assert "Rules" in palette and "Settings" in palette
        for refused in ("New game", "Load", "Screenshot"):
            assert refused not in palette


def test_the_doors_title_screen(snap_compare, tmp_path):
    async def steady(pilot) -> None:
        await pilot.pause()

    assert snap_compare(door_app(tmp_path), terminal_size=(80, 24), run_before=steady)


@pytest.mark.parametrize("action", ["new_game", "load", "join"])
async def test_no_new_game_no_saved_game_and_no_table_at_any_address(tmp_path, action):
    app = door_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not await app.run_action(action)  # the keys
        getattr(app, f"action_{action}")()  # the menu's and the palette's way
        await still_at_the_title(pilot, app)
        assert said_why(app)
    assert not (tmp_path / "saves").exists()


async def test_no_local_table_whatever_the_way_in(tmp_path):
    save = tmp_path / "saves" / "game.json"
    save.parent.mkdir()
    save_match(seeded_match("jaipur", "Ann,bot:random"), save)
    app = door_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_match(seeded_match("jaipur", "Ann,bot:random"))  # a rematch's way in
        app.screen.action_resume()
        app.screen.post_message(OpenSave(save))
        await still_at_the_title(pilot, app)
    assert [path.name for path in save.parent.iterdir()] == ["game.json"]


async def test_no_lesson(tmp_path):
    app = door_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not await app.screen.run_action("learn")
        app.screen.action_learn()
        await still_at_the_title(pilot, app)
        app.screen.post_message(OpenLesson("jaipur"))  # a finished lesson's way on
        await still_at_the_title(pilot, app)
        assert said_why(app)
    assert not (tmp_path / "lessons").exists()


async def test_play_online_is_the_doors_server_and_no_other(tmp_path):
    app = door_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_online("10.0.0.1:7700")
        await still_at_the_title(pilot, app)
        assert said_why(app)
        app.action_online()
        await waiting(pilot, lambda: isinstance(app.screen, OnlineScreen))
        await pilot.pause()
        server = app.screen.query_one("#online-server", Input)
        assert server.value == DOOR and server.disabled


async def test_nothing_is_saved_on_the_servers_disk(tmp_path):
    app = door_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not await app.run_action("screenshot")
        assert app.deliver_screenshot(path=str(tmp_path)) is None
        app.save_open_game()
        await pilot.pause()
    assert list(tmp_path.glob("*.svg")) == [] and not (tmp_path / "saves").exists()


@pytest.mark.slow
async def test_a_finished_games_replay_opens_but_its_review_is_not_made(tmp_path, monkeypatch):
    judged = []
    monkeypatch.setattr("karavan_tui.screens.review.review_match", lambda *a, **k: judged.append(a))
    match, last = _last_decision_is(1)
    async with hosting(match) as (_table, server):
        ann = await joined(server.port, "Ann")
        client = TableClient("127.0.0.1", server.port, CODE, "Bob")
        await client.join()
        app = TableApp(attrs.evolve(make_app(tmp_path).config, door=DOOR), client)
        async with app.run_test(size=(100, 30)) as pilot:
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            await waiting(pilot, lambda: app.screen.driver._my_move())
            app.screen.decide(last)
            await waiting(pilot, lambda: isinstance(app.screen, RemoteOverScreen))
            over = app.screen
            await waiting(pilot, lambda: over.seen() is not None)
            assert "review" not in [button.id for button in over.query(Button)]
            await pilot.press("v")
            await pilot.pause()
            assert app.screen is over
            over.action_review()
            app.show_review(over.seen())
            await pilot.pause()
            assert app.screen is over
            await pilot.press("p")
            await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
            assert isinstance(app.screen.driver, Replay)
            await pilot.press("escape")
            await waiting(pilot, lambda: app.screen is over)
            app.push_screen(ReviewScreen(over.seen(), [1]))  # however it were reached
            await pilot.pause()
            assert AT_THE_DOOR in str(app.screen.query_one("#review-failure").render())
        await ann.close()
    assert judged == []


@pytest.mark.parametrize(
    "argv",
    [
        ["online", "10.0.0.1:7700"],
        ["new", "jaipur", "--players", "Ann,bot:random"],
        ["learn", "jaipur"],
        ["saves"],
        [],
    ],
)
def test_the_command_line_runs_only_the_doors_lobby(monkeypatch, capsys, tmp_path, argv):
    monkeypatch.setenv("KARAVAN_DOOR", DOOR)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) if argv[:1] == ["online"] else nullcontext():
        assert main(argv) == 2
    assert "over ssh" in capsys.readouterr().err
    assert not (tmp_path / "saves").exists()
