"""Snapshots of the dialogs and notices not covered beside the tables: the saves, the
settings, a save's name, the whole log, joining a table and the terminal-too-small notice
(review the SVGs when they change)."""

from __future__ import annotations

import json
import time

import pytest

from karavan_core.saves import save_match
from karavan_tui.modals.opening_save import OpeningSave
from karavan_tui.modals.settings import SettingsScreen
from karavan_tui.net.served_seat import ABORT_QUESTION, confirm, rematch_question, resign_question

from .helpers import karakum_match, make_app, seeded_match, start_with
from .test_snapshots import SIZES, steady


@pytest.fixture
def utc(monkeypatch):
    """Local time is UTC, so the times the saves dialog shows are the same on every machine."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("size", SIZES)
def test_saves_dialog(snap_compare, tmp_path, utc, monkeypatch, size):
    """Two saves, newest first; the longer name and the line under it keep to their width.
    The folder is under the home folder, so it is shown as "~/saves"."""
    monkeypatch.setenv("HOME", str(tmp_path))
    folder = tmp_path / "saves"
    folder.mkdir()
    saves = [
        (karakum_match("Ann,bot:random", moves=8), "karakum-1.json", "2026-12-01T09:30:00+00:00"),
        (
            seeded_match("jaipur", "Ann,Bartholomew the Second", moves=20),
            "jaipur-a-long-evening-with-bartholomew.json",
            "2026-12-02T21:05:00+00:00",
        ),
    ]
    for match, name, stamp in saves:
        path = save_match(match, folder / name)
        data = json.loads(path.read_text())
        data["saved_at"] = stamp  # a fixed time: the dialog shows when each was last played
        path.write_text(json.dumps(data))

    async def open_saves(pilot):
        await steady(pilot)
        await pilot.press("l")
        await steady(pilot)
        await pilot.pause(0.2)  # the saves are read in a worker

    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=open_saves)


def test_settings(snap_compare, tmp_path):
    async def open_settings(pilot):
        await steady(pilot)
        pilot.app.push_screen(SettingsScreen())
        await steady(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=open_settings)


def test_opening_a_long_save(snap_compare, tmp_path):
    """The dialog over the title while a long save is replayed, 120 of 300 decisions in."""

    async def opening(pilot):
        await steady(pilot)
        dialog = OpeningSave("karakum-a-long-winter.json")
        dialog.advance(120, 300)
        pilot.app.push_screen(dialog)
        await steady(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=opening)


def test_settings_with_the_bot_pauses_open(snap_compare, tmp_path):
    """The list of bot pauses stays inside the dialog's border at 80x24."""

    async def open_pauses(pilot):
        await steady(pilot)
        pilot.app.push_screen(SettingsScreen())
        await steady(pilot)
        pilot.app.screen.query_one("#delay").focus()
        await pilot.press("enter")
        await steady(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=open_pauses)


async def test_every_list_of_the_settings_opens_inside_the_dialog_at_80x24(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await steady(pilot)
        app.push_screen(SettingsScreen())
        await steady(pilot)
        dialog = app.screen.query_one("SettingsScreen > Vertical").region
        for name in ("theme", "delay"):
            app.screen.query_one(f"#{name}").focus()
            await pilot.press("enter")
            await steady(pilot)
            shown = app.screen.query_one(f"#{name} SelectOverlay").region
            assert dialog.contains_region(shown), name
            await pilot.press("escape")
            await steady(pilot)


def after_key(key: str):
    """What a snapshot runs first: let the app settle, press ``key``, settle again."""

    async def run(pilot):
        await steady(pilot)
        await pilot.press(key)
        await steady(pilot)

    return run


def test_save_as(snap_compare, tmp_path):
    folder = tmp_path / "saves"
    folder.mkdir()
    app = make_app(tmp_path, (karakum_match(moves=6), folder / "karakum-by-the-fire.json"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_key("s"))


def test_full_log(snap_compare, tmp_path):
    app = start_with(tmp_path, karakum_match("Ann,bot:random", moves=30))
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_key("l"))


def test_join_dialog(snap_compare, tmp_path):
    app = make_app(tmp_path)
    assert snap_compare(app, terminal_size=(80, 24), run_before=after_key("j"))


def test_terminal_too_small(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path), terminal_size=(60, 16), run_before=steady)


CONFIRMS = {
    "resign": (lambda: resign_question(["Bob"], 2), "Resign", "Cancel"),
    "resign-of-three": (lambda: resign_question(["Bob", "Cid"], 3), "Resign", "Cancel"),
    "abort": (lambda: ABORT_QUESTION, "Abort", "Cancel"),
    "rematch": (lambda: rematch_question([]), "Rematch", "Cancel"),
    "rematch-agreed": (lambda: rematch_question(["Bob"]), "Rematch", "Decline"),
}


@pytest.mark.parametrize(  # one question by default (one dialog), each with the slow checks
    "which", [pytest.param(w, marks=() if w == "abort" else pytest.mark.slow) for w in CONFIRMS]
)
def test_a_server_tables_confirms(snap_compare, tmp_path, which):
    """Each of a server's table's own acts asks once, over the table (the table here is a
    hot seat's: the dialog is the same over any)."""
    question, yes, no = CONFIRMS[which]

    async def ask(pilot):
        await steady(pilot)
        pilot.app.push_screen(confirm(question(), yes, no))
        await steady(pilot)

    app = start_with(tmp_path, seeded_match("jaipur", "Ann,bot:random", moves=6))
    assert snap_compare(app, terminal_size=(80, 24), run_before=ask)
