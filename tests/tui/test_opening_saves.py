"""A save is loaded off the UI thread: a long one shows how far its replay is."""

from __future__ import annotations

import threading

from textual.widgets import Label, ProgressBar

from karavan_core.saves import format as save_format
from karavan_core.saves import save_match
from karavan_tui import opening
from karavan_tui.modals.opening_save import OpeningSave
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen

from .helpers import karakum_match, make_app, settle, waiting


async def test_a_long_save_loads_off_the_ui_thread_and_shows_its_replay_going(
    tmp_path, monkeypatch
):
    match = karakum_match(moves=30)
    path = save_match(match, tmp_path / "saves" / "long [b]game.json")
    total = len(match.history) + len(match.undone)
    release = threading.Event()
    load_match = opening.load_match

    def held_at_the_end(source, expect_game=None, progress=None):
        """The real load, which waits for the test once every decision is replayed."""

        def told(done: int, of: int) -> None:
            progress(done, of)
            if done == of:
                release.wait(60)

        return load_match(source, expect_game, told)

    monkeypatch.setattr(opening, "load_match", held_at_the_end)
    monkeypatch.setattr(opening, "PROGRESS_AFTER", 0.01)
    monkeypatch.setattr(save_format, "PROGRESS_EVERY", 1)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.open_file(path)
        # The app draws the dialog and its bar while the save is still being loaded.
        await waiting(pilot, lambda: isinstance(app.screen, OpeningSave))
        dialog = app.screen
        assert isinstance(dialog, OpeningSave)
        bar = dialog.query_one("#replayed", ProgressBar)
        # One trip to the app per decision replayed: generous on a busy machine.
        await waiting(pilot, lambda: bar.total == total and bar.progress == total, seconds=60)
        words = dialog.query_one("#opening-name", Label).render()
        assert str(words).startswith("Opening long [b]game.json")  # literally, not as markup
        release.set()
        await waiting(pilot, lambda: isinstance(app.screen, TableScreen))
        await settle(pilot, app)
        assert app.screen.driver.link.match.history == match.history


async def test_a_damaged_save_is_refused_in_one_line_and_left_as_it_was(tmp_path):
    path = save_match(karakum_match(moves=4), tmp_path / "saves" / "bent.json")
    path.write_text(path.read_text().replace('"history"', '"histroy"'))
    before = path.read_bytes()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.open_file(path)
        await waiting(pilot, lambda: app._notifications)
        (told,) = list(app._notifications)
        assert told.title == "Cannot open the save" and "bent.json" in told.message
        assert "\n" not in told.message
        assert isinstance(app.screen, TitleScreen)
    assert path.read_bytes() == before
