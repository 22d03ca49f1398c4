"""One game, one window: a save another window plays is offered to watch, never played."""

from __future__ import annotations

import pytest

from karavan_core.saves import OPEN_ELSEWHERE, SaveLock, load_match, open_elsewhere, save_match
from karavan_core.saves.lock import LOCKS
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.replay import Replay
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen

from .helpers import game_screen, karakum_match, make_app, settle

pytestmark = pytest.mark.skipif(not LOCKS, reason="no advisory locks on this platform")


def saved_game(tmp_path):
    match = karakum_match(moves=4)
    path = save_match(match, tmp_path / "saves" / "ours.json")
    return match, path


async def test_a_save_open_in_another_window_is_offered_to_watch_read_only(tmp_path):
    match, path = saved_game(tmp_path)
    other_window = SaveLock(path)
    app = make_app(tmp_path, (load_match(path), path))  # as `karavan resume ours` opens it
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.choice_title == OPEN_ELSEWHERE
        await pilot.press("enter")  # Watch it read-only
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen) and isinstance(app.screen.driver, Replay)
        assert app.screen.driver.position == len(match.history)
    other_window.release()
    assert load_match(path).history == match.history  # untouched


@pytest.mark.slow
async def test_going_back_leaves_the_other_windows_game_alone(tmp_path):
    _, path = saved_game(tmp_path)
    other_window = SaveLock(path)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.open_file(path)
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("down", "enter")  # Go back
        await settle(pilot, app)
        assert isinstance(app.screen, TitleScreen)
        assert open_elsewhere(path)  # still the other window's
    other_window.release()


async def test_a_window_holds_its_game_while_it_plays_and_lets_it_go_after(tmp_path):
    _, path = saved_game(tmp_path)
    app = make_app(tmp_path, (load_match(path), path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert game_screen(app).driver.link.save_path == path
        assert open_elsewhere(path)  # another window would be told
        await pilot.press("q")
        await settle(pilot, app)
        assert isinstance(app.screen, TitleScreen)
        assert not open_elsewhere(path)
