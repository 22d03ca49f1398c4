"""The new game dialog offers the last table again: its game, how many played, every seat."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Input, Select

from karavan_core.match import BOT, Seat
from karavan_tui.config import Settings

from .helpers import local_match, make_app, open_new_game_dialog, settle


def seats_shown(dialog) -> list[tuple[str, str]]:
    """Each visible seat's kind and name, as the dialog shows them."""
    return [
        (
            str(dialog.query_one(f"#kind-{index}", Select).value),
            dialog.query_one(f"#name-{index}", Input).value,
        )
        for index in range(dialog.count)
    ]


@pytest.mark.slow
async def test_the_dialog_offers_the_last_tables_seats_in_this_run_and_the_next(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, app)
        count = dialog.query_one("#count", Select)
        count.focus()
        await pilot.press("enter", "down", "enter")  # two players, then three
        await pilot.pause()
        assert dialog.count == 3
        kind = dialog.query_one("#kind-2", Select)
        kind.focus()
        await pilot.press("enter", "end", "enter")  # the strongest level there is
        await pilot.pause()
        expert = str(kind.value)
        name = dialog.query_one("#name-0", Input)
        name.focus()
        name.value = ""
        await pilot.press(*"Zoe", "ctrl+s")
        await settle(pilot, app)
        match = local_match(app)
        assert match.seats[0].name == "Zoe"
        assert [seat.level for seat in match.seats] == [None, "hard", expert.split(":")[1]]
        await pilot.press("q")
        await pilot.pause()
        dialog = await open_new_game_dialog(pilot, app)
        remembered = seats_shown(dialog)
        assert remembered == [
            ("human", "Zoe"),
            ("bot:hard", "Hard bot"),
            (expert, f"{expert.split(':')[1].capitalize()} bot"),
        ]
    again = make_app(tmp_path)  # the next run of the app, from the same settings file
    async with again.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, again)
        assert seats_shown(dialog) == remembered


async def test_remembered_seats_beyond_a_games_table_are_left_out(tmp_path):
    seats = [{"name": f"P{n}", "bot": None if n == 0 else "greedy"} for n in range(4)]
    (tmp_path / "settings.json").write_text(
        json.dumps({"last_game": "jaipur", "last_seats": seats})
    )
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, app)
        assert dialog.game.name == "jaipur"  # two players only
        assert seats_shown(dialog) == [("human", "P0"), ("bot:greedy", "P1")]


def test_remembered_seats_are_outside_data_all_valid_or_none(tmp_path):
    path = tmp_path / "settings.json"
    good = [{"name": "Ann", "bot": None}, {"name": "Bo", "bot": "expert"}]
    path.write_text(json.dumps({"last_seats": good}))
    assert Settings.load(path).last_seats == (Seat("Ann"), Seat("Bo", BOT, "expert"))
    for bad in [
        [{"name": "Ann\x1b[2J", "bot": None}],  # a terminal code in a name
        [{"name": "Ann", "bot": "grandmaster"}],  # no such level
        [{"name": "Ann", "bot": "hard-v1"}],  # a benchmark level, not offered at the table
        [{"name": "Ann", "bot": None}, {"name": "ann", "bot": "hard"}],  # the same name
        [{"name": f"P{n}", "bot": None} for n in range(5)],  # more than any game seats
        [],
        "Ann",
        [["Ann", None]],
    ]:
        path.write_text(json.dumps({"last_seats": bad}))
        assert Settings.load(path).last_seats == (), bad


def test_remembered_seats_survive_a_save_and_load(tmp_path):
    path = tmp_path / "settings.json"
    settings = Settings(last_seats=(Seat("Ann"), Seat("Hard bot 2", BOT, "hard")))
    settings.save(path)
    assert Settings.load(path).last_seats == settings.last_seats
