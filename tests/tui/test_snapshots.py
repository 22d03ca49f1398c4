"""Snapshots of every screen at 80x24 and 120x40, the tables and the results at 200x50 too
(review the SVGs when they change)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from karavan_core.games.karakum.state import Buy
from karavan_tui.screens.rules import RulesScreen

from .helpers import karakum_match, make_app, play_to_end, settle, start_with

# Every screen at 80x24 in the default run; the larger terminals with the slow checks.
SIZES = [
    pytest.param((80, 24), id="80x24"),
    pytest.param((120, 40), id="120x40", marks=pytest.mark.slow),
]
# Every table (and the results, the review) also at the largest size it is laid out for.
TABLE_SIZES = [*SIZES, pytest.param((200, 50), id="200x50", marks=pytest.mark.slow)]


async def steady(pilot) -> None:
    """Let bots finish and freeze the blinking cursors."""
    await settle(pilot, pilot.app)
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


def snap_table(snap_compare, tmp_path, match, size=(80, 24)) -> bool:
    """Whether the app opening ``match`` at ``size`` looks as its snapshot, once bots are done."""
    return snap_compare(start_with(tmp_path, match), terminal_size=size, run_before=steady)


@pytest.mark.parametrize("size", SIZES)
def test_title(snap_compare, tmp_path, size):
    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=steady)


@pytest.mark.parametrize("size", SIZES)
def test_new_game_dialog(snap_compare, tmp_path, size):
    async def open_dialog(pilot):
        await pilot.press("n")
        await steady(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=open_dialog)


@pytest.mark.slow
def test_new_game_dialog_as_remembered(snap_compare, tmp_path):
    """The game and the name of the last game started come back in the dialog."""
    (tmp_path / "settings.json").write_text('{"last_game": "jaipur", "player_name": "Zoe"}')

    async def open_dialog(pilot):
        await pilot.press("n")
        await steady(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=open_dialog)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_karakum_table_start(snap_compare, tmp_path, size):
    assert snap_table(snap_compare, tmp_path, karakum_match(), size)


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_karakum_table_mid_game(snap_compare, tmp_path, size):
    match = karakum_match("Ann,bot:random,bot:random", moves=60)
    assert snap_table(snap_compare, tmp_path, match, size)


def affordable_match():
    """A game in which Ann, to move, can buy a camel."""
    for moves in range(0, 200, 2):
        match = karakum_match(moves=moves)
        if match.to_move == 0 and any(isinstance(a, Buy) for a in match.legal_actions()):
            return match
    raise AssertionError("no position to buy from")


@pytest.mark.parametrize("size", SIZES)
def test_payment_picker(snap_compare, tmp_path, size):
    match = affordable_match()
    slot = next(a.slot for a in match.legal_actions() if isinstance(a, Buy))

    async def open_picker(pilot):
        await steady(pilot)
        await pilot.press("up", "home", *["right"] * slot, "enter", "p")
        await steady(pilot)

    app = start_with(tmp_path, match)
    assert snap_compare(app, terminal_size=size, run_before=open_picker)


@pytest.mark.parametrize("size", SIZES)
def test_curtain(snap_compare, tmp_path, size):
    assert snap_table(snap_compare, tmp_path, karakum_match("Ann,Bob"), size)


@pytest.mark.parametrize("size", SIZES)
def test_rules(snap_compare, tmp_path, size):
    async def open_rules(pilot):
        await pilot.press("f1")
        await steady(pilot)
        assert isinstance(pilot.app.screen, RulesScreen)
        while pilot.app.screen.pending:  # laid out a section at a time
            await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=open_rules)


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_game_over(snap_compare, tmp_path, size):
    match = play_to_end(karakum_match("Ann,bot:random", moves=10))
    assert snap_table(snap_compare, tmp_path, match, size)
