"""A game of bots alone: the keyboard only watches, so the keys that decide are not offered."""

from __future__ import annotations

import pytest
from textual.widgets import Button

from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.table import TableScreen

from .helpers import play_to_end, running, seeded_match, settle, start_with


def offered(app) -> set[str]:
    """The actions of the keys the footer shows now."""
    return {active.binding.action for active in app.screen.active_bindings.values()}


async def test_a_game_of_bots_alone_offers_no_deciding_keys(tmp_path):
    app = start_with(tmp_path, seeded_match("karakum", "bot:random,bot:random", moves=4))
    app.config.bot_delay = 60.0  # the bots wait: look at the footer between moves
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert isinstance(app.screen, TableScreen)
        keys = offered(app)
        for hidden in ("undo", "redo", "hint", "actions"):
            assert hidden not in keys
        assert "choose" not in keys
        assert "save_as" in keys and "leave" in keys


@pytest.mark.slow
async def test_a_game_with_a_player_offers_them(tmp_path):
    match = seeded_match("karakum", "Ann,bot:random", moves=0)
    async with running(tmp_path, match) as (app, _pilot):
        keys = offered(app)
        assert {"undo", "hint", "actions", "choose"} <= keys


@pytest.mark.slow
async def test_after_a_game_of_bots_alone_there_is_no_review(tmp_path):
    match = play_to_end(seeded_match("karakum", "bot:random,bot:random"))
    async with running(tmp_path, match) as (app, pilot):
        assert isinstance(app.screen, GameOverScreen)
        buttons = {str(button.id) for button in app.screen.query(Button)}
        assert "review" not in buttons and {"rematch", "replay"} <= buttons
        assert "review" not in offered(app)
        await pilot.press("v")  # nothing happens: no review, no note
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        assert not app._notifications
