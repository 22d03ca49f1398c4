"""Bursts of keys, as a fast typist or typeahead on a busy machine sends them: no screen
crashes, and no game is left unsaved.

Each burst (2 to 10 keys) is posted to the app at once, so the keys arrive before the
screens they open are laid out (the command palette's page move raised ``KeyError``
then); the terminal is resized between bursts.  The keys wander from the starting
screen through whatever they open: dialogs, the palette, the rules, other tables, the
title.  Only the keys that leave the app on purpose are left out.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from textual import events

from karavan_core.saves import load_match
from tests.tui.helpers import local_tables, make_app, seeded_match, settle, start_with

# Keys a player presses, the app's own among them; not q, Ctrl+Q nor Ctrl+C, which
# leave the app (a burst with one would end the run, not test it).
KEYS = (
    *"abcdefghijklmnoprstuvwxyz0123456789?",
    "enter",
    "escape",
    "tab",
    "shift+tab",
    "space",
    "backspace",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "ctrl+p",
    "f1",
)
SIZES = ((80, 24), (40, 30), (120, 40), (60, 20), (200, 50))
STARTS = ("title", "karakum", "karawane", "karakorum", "jaipur")


def _key_event(key: str) -> events.Key:
    return events.Key(key, key if len(key) == 1 else None)


async def bursts(start: str, ascii_mode: bool, count: int, seed: int, tmp_path: Path) -> None:
    """``count`` bursts from ``start`` (the title, or a game against a bot), checking after
    each run of the app that every game it played is saved as it stands.  The keys may
    quit on purpose (the palette's Quit, found by its letters): the app starts again."""
    rng = random.Random(seed)
    done = 0
    while done < count:
        if start == "title":
            app = make_app(tmp_path)
        else:
            app = start_with(tmp_path, seeded_match(start, "Ann,bot:random", moves=3))
        app.ascii_mode = ascii_mode
        async with app.run_test(size=(80, 24)) as pilot:  # an error that ended it is raised
            await settle(pilot, app)
            while done < count and app.is_running:
                for _ in range(rng.randint(2, 10)):
                    app.post_message(_key_event(rng.choice(KEYS)))
                if rng.random() < 0.3:
                    await pilot.resize_terminal(*rng.choice(SIZES))
                await pilot.pause()
                done += 1
            if app.is_running:
                await settle(pilot, app)
                with contextlib.suppress(Exception):
                    await app.workers.wait_for_complete()
                for table in local_tables(app):
                    link = table.driver.link  # type: ignore[attr-defined]
                    assert load_match(link.save_path).history == link.match.history
    for path in (tmp_path / "saves").glob("*.json"):
        load_match(path)  # every save on disk reads back whole


# The default run bursts at one table; every screen's bursts are the slow check below.
@pytest.mark.parametrize("start", [pytest.param("title", marks=pytest.mark.slow), "karakum"])
async def test_bursts_of_keys_crash_no_screen(start, tmp_path):
    # Fifteen bursts: the palette's crash took one (checked on its own below).
    await bursts(start, ascii_mode=False, count=15, seed=STARTS.index(start), tmp_path=tmp_path)


async def test_the_palette_opened_typed_in_and_paged_in_one_burst_stays_up(tmp_path):
    """Ctrl+P, a letter and PageDown together: the palette's list pages before it has lines."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for key in ("ctrl+p", "a", "pagedown", "pageup"):
            app.post_message(_key_event(key))
        await pilot.pause()
        await pilot.pause()
        assert app.is_running


@pytest.mark.slow
@pytest.mark.parametrize("ascii_mode", [False, True], ids=["unicode", "ascii"])
@pytest.mark.parametrize("start", STARTS)
async def test_thousands_of_bursts_crash_no_screen(start, ascii_mode, tmp_path):
    """200 bursts from each start in each mode: 2,000 in all."""
    seed = 100 + 2 * STARTS.index(start) + ascii_mode
    await bursts(start, ascii_mode=ascii_mode, count=200, seed=seed, tmp_path=tmp_path)


async def test_ctrl_c_says_in_words_which_key_quits(tmp_path):
    """Textual's notice is markup ("[b]ctrl+q[/b]"), which toasts here show literally."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+c")
        await pilot.pause()
        messages = [note.message for note in app._notifications]
        assert messages == ["Press Ctrl+Q to quit Karavan."]
