"""Taps on a phone: a double tap plays once (the table takes no tapped decision in the moment
after one; keys are not held back), and a tap opens no tooltip."""

from __future__ import annotations

from attrs import evolve
from textual.widgets import Tooltip

from karavan_tui.screens import table as table_module

from .helpers import game_screen, local_match, make_app, running, seeded_match


async def test_a_tap_right_after_a_decision_plays_nothing(tmp_path, monkeypatch):
    # A quiet time no busy machine outlasts between two of the test's taps; then none.
    monkeypatch.setattr(table_module, "TAP_QUIET", 60.0)
    async with running(tmp_path, seeded_match("jaipur", "Ann,bot:random")) as (app, pilot):
        table = game_screen(app)
        sent = []

        def decide(*actions):  # the driver's part, which would play each gesture it is given
            sent.append(actions)
            return True

        table.driver.decide = decide
        action = local_match(app).legal_actions()[0]
        assert table.decide(action)
        assert table.decide(action)  # by keys: at once
        await pilot.mouse_down(table)
        assert table.decide(action)  # a tap after keys is nobody's second tap
        # The second tap of a double tap, on whatever the first left under the finger.
        await pilot.mouse_down(table)
        assert not table.decide(action)
        assert len(sent) == 3
        # A quick tap elsewhere is meant: it is played.
        await pilot.mouse_down(table, offset=(2, 1))
        assert table.decide(action)
        assert len(sent) == 4
        monkeypatch.setattr(table_module, "TAP_QUIET", 0.0)  # the quiet time is over
        await pilot.mouse_down(table, offset=(2, 1))
        assert table.decide(action)
        assert len(sent) == 5


async def test_on_a_touch_screen_no_tooltip_opens(tmp_path):
    for touch in (False, True):
        app = make_app(tmp_path)
        app.config = evolve(app.config, touch=touch)
        async with app.run_test(size=(80, 24), tooltips=True) as pilot:
            await pilot.pause()
            assert bool(app.screen.query(Tooltip)) is not touch
