"""A picker answered twice before it is gone (a quick double Enter) closes only itself."""

from __future__ import annotations

from textual.widgets import OptionList

from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.game import GameScreen

from ..tui.helpers import karakum_match, settle, start_with


async def test_a_double_enter_on_a_picker_leaves_the_table_open(tmp_path):
    app = start_with(tmp_path, karakum_match("Ann,Bob", moves=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        if not isinstance(app.screen, GameScreen):
            await pilot.press("enter")  # the curtain
            await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        await pilot.press("a")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ChoiceScreen)
        options = picker.query_one(OptionList)
        options.action_select()
        options.action_select()  # the second Enter, before the first one's pop is done
        await settle(pilot, app)
        assert any(isinstance(screen, GameScreen) for screen in app.screen_stack)
