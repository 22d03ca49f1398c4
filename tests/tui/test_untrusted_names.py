"""Names and file names from outside are shown literally in the app, and checked at entry."""

from __future__ import annotations

import pytest

from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_core.saves import save_match
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.curtain import CurtainScreen, TurnOverScreen
from karavan_tui.modals.save_as import SaveAsScreen
from karavan_tui.modals.saves import SavesScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen

from .helpers import (
    make_app,
    open_new_game_dialog,
    press_to,
    running,
    settle,
    start_with,
    visible_characters,
)

NAMES = ("[/]", "[bold red]x[/]", "[link=x.io]Ann[/link]")


def saves_in(folder) -> list[str]:
    """The files of ``folder`` but the hidden ones (a save's lock, held while it is played)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def markup_match(game: str = "karakum") -> Match:
    seats = [Seat(name) for name in NAMES]
    return Match(get_game(game), seats, seed=12, options={"first_player": 0})


async def test_markup_in_names_is_shown_literally_at_the_table_curtain_and_move_list(tmp_path):
    match = markup_match()
    async with running(tmp_path, match, (120, 40)) as (app, pilot):
        assert isinstance(app.screen, CurtainScreen)
        assert "Pass to [/]" in visible_characters(app)
        await press_to(pilot, "enter", TableScreen)
        table = visible_characters(app)
        assert "[/]'s hand" in table and "[bold red]x[/]" in table
        await press_to(pilot, "a", ChoiceScreen)
        assert "[/] takes the face-up" in visible_characters(app)
        await pilot.press("escape", "enter")  # draw a card: the log names the player
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        if isinstance(app.screen, TurnOverScreen):  # two cards drawn blind: named to her
            assert "[/], your turn is over" in visible_characters(app)
            await pilot.press("enter")
            await settle(pilot, app)
        assert isinstance(app.screen, CurtainScreen)
        assert "Pass to [bold red]x[/]" in visible_characters(app)


async def test_the_title_and_the_load_dialog_show_saved_names_and_files_literally(tmp_path):
    folder = tmp_path / "saves"
    match = markup_match("karawane")
    match.play(match.legal_actions()[0])
    save_match(match, folder / "[b]odd[i] name.json")
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        title = visible_characters(app)
        assert "Resume Karawane: [/], [bold red]x[/]," in title and "[link=x.io]Ann[/link]" in title
        assert "1 decision," in title
        await pilot.press("l")
        await settle(pilot, app)  # the saves are read in a worker
        assert isinstance(app.screen, SavesScreen)
        listing = visible_characters(app)
        assert "[/], [bold red]x[/]" in listing and "[b]odd[i] name.json" in listing


@pytest.mark.slow
async def test_the_new_game_dialog_refuses_control_characters_and_long_names(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        dialog = await open_new_game_dialog(pilot, app)
        for bad, said in (
            ("Ev\x1bil", "control"),
            ("\u202eAnn", "text-direction"),
            ("N" * 30, "at most 24"),
        ):
            dialog.query_one("#name-0").value = bad
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is dialog  # refused: still in the dialog
            assert any(said in note.message for note in app._notifications)
        dialog.query_one("#name-0").value = "[b]Ann[/b]"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        screens = [s for s in app.screen_stack if isinstance(s, TableScreen)]
        assert screens and screens[0].driver.link.match.seats[0].name == "[b]Ann[/b]"


@pytest.mark.slow
async def test_save_as_checks_the_name_before_touching_any_file_and_moves_the_save(tmp_path):
    match = markup_match()
    app = start_with(tmp_path, match)
    folder = tmp_path / "saves"
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # lift the curtain
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        first = screen.driver.save_path
        for bad in ("../escape", "x" * 70, "a/b", "\x1b[2J"):
            await press_to(pilot, "s", SaveAsScreen)
            app.screen.query_one("#save-name").value = bad
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, SaveAsScreen)  # refused; the dialog stays
            await pilot.press("escape")
            await pilot.pause()
        assert saves_in(folder) == [first.name]
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one("#save-name").value = "Our game"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.driver.save_path == folder / "Our game.json"
        assert saves_in(folder) == ["Our game.json"]  # moved, not copied


@pytest.mark.slow
async def test_the_load_dialog_is_plain_ascii_in_ascii_mode(tmp_path):
    """Its separators follow the symbol set, as the table's do."""
    match = Match(get_game("karakum"), [Seat("Ann"), Seat("Bob")], seed=3)
    match.play(match.legal_actions()[0])
    save_match(match, tmp_path / "saves" / "plain.json")
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.set_ascii(True)
        await pilot.press("l")
        await settle(pilot, app)  # the saves are read in a worker
        assert isinstance(app.screen, SavesScreen)
        drawn = visible_characters(app)
        assert "Karakum | Ann, Bob | 1 decision | 20" in drawn  # then when: "2026-12-05 ..."
        assert sorted({ch for ch in drawn if not ch.isascii()}) == []
