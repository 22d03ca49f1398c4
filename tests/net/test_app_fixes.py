"""Two app fixes network play needed: a picker answered twice, a toast shown after its time."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.table import TableScreen

from ..tui.helpers import karakum_match, settle, start_with


@pytest.mark.slow
async def test_a_double_enter_on_a_picker_leaves_the_table_open(tmp_path):
    app = start_with(tmp_path, karakum_match("Ann,Bob", moves=0))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")  # the curtain
            await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        await pilot.press("a")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ChoiceScreen)
        options = picker.query_one(OptionList)
        options.action_select()
        options.action_select()  # the second Enter, before the first one's pop is done
        await settle(pilot, app)
        assert any(isinstance(screen, TableScreen) for screen in app.screen_stack)


def test_a_toast_whose_time_ran_out_before_it_showed_gets_a_timer_that_ends():
    from textual.notifications import Notification
    from textual.widgets import _toast

    from karavan_tui.textual_fixes import SafeToast

    assert _toast.Toast is SafeToast  # the rack builds ours
    late = Notification("Bob is away.", timeout=-3.0)  # a negative timer would loop forever
    assert SafeToast(late)._timeout > 0


async def test_a_title_set_while_the_header_is_taken_down_raises_nothing(tmp_path):
    """As the app closes, a screen may set its title after its header's title is gone."""
    from textual.widgets._header import HeaderTitle

    from karavan_tui.widgets.chrome import AppHeader

    from ..tui.helpers import make_app

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        header = app.screen.query_one(AppHeader)
        await header.query_one(HeaderTitle).remove()
        app.screen.title = "A title nobody will see"
        app.screen.sub_title = "Nor this"
        await pilot.pause()
        await pilot.pause()
        assert app.is_running  # the watcher did not fail the app
