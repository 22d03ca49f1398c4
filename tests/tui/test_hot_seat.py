"""Hot-seat play: several humans at one terminal, the curtain between them, undo among them."""

from __future__ import annotations

from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.screens.game import GameScreen

from .helpers import game_screen, karakum_match, settle, start_with


async def lift(pilot, app) -> None:
    """Lift the curtain with Enter, as its words say."""
    assert isinstance(app.screen, CurtainScreen)
    await pilot.press("enter")
    await settle(pilot, app)
    assert isinstance(app.screen, GameScreen)


async def test_undo_on_your_first_turn_does_not_take_back_anothers_move(tmp_path):
    app = start_with(tmp_path, karakum_match("Ann,Bob"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await lift(pilot, app)
        await pilot.press("enter", "enter")  # Ann draws her two cards
        await settle(pilot, app)
        await lift(pilot, app)  # Bob's turn
        match = game_screen(app).match
        played = list(match.history)
        assert len(played) == 2 and match.to_move == 1
        await pilot.press("u")
        await settle(pilot, app)
        assert match.history == played and isinstance(app.screen, GameScreen)
        messages = [n.message for n in app._notifications]
        assert messages[-1] == "Ann decided last: you have made no decision to take back."
        await pilot.press("enter")  # Bob's own first card: that one is his to take back
        await settle(pilot, app)
        assert len(match.history) == 3
        await pilot.press("u")
        await settle(pilot, app)
        assert match.history == played and match.to_move == 1
        await pilot.press("r")
        await settle(pilot, app)
        assert len(match.history) == 3


async def test_while_a_bot_moves_the_last_human_may_take_back_their_move(tmp_path):
    app = start_with(tmp_path, karakum_match("Ann,bot:random,Bob"))
    app.config.bot_delay = 30.0  # the bot waits: the keys reach the table meanwhile
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter", "enter")  # Ann's two cards; now the bot thinks
        await pilot.pause()
        screen = game_screen(app)
        assert screen.thinking and screen.viewer is None
        await pilot.press("u")
        await pilot.pause()
        assert len(screen.match.history) == 1 and screen.match.to_move == 0
