"""The review screen as users get it: the app's own number of processes, and failures told."""

from __future__ import annotations

import os
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from karavan_core import save_match
from karavan_core.analysis.review import tasks_for
from karavan_tui.app import create_app
from karavan_tui.config import AppConfig
from karavan_tui.screens import review as review_screen
from karavan_tui.screens.review import ReviewScreen, failure_words

from .helpers import SEED, make_app, running, seeded_match, settle, visible_characters


async def review_done(pilot, screen: ReviewScreen, seconds: float = 300) -> None:
    """Wait (by the clock, generously: processes start slowly on a busy machine) for the review."""
    deadline = time.monotonic() + seconds
    while screen.review is None and screen.failure is None:
        assert time.monotonic() < deadline, "the review never finished"
        await pilot.pause(0.1)
    await pilot.pause()


def footer_keys(app) -> str:
    """The last line of the screen: the Footer."""
    return visible_characters(app).splitlines()[-1]


async def test_the_review_runs_in_the_apps_own_number_of_processes_and_finishes(
    tmp_path, monkeypatch
):
    # The default is one process a core, up to four: give a one-core machine two.
    cores = max(2, os.cpu_count() or 1)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    match = seeded_match("karawane", "Ann,bot:random", moves=8)
    save_match(match, tmp_path / "saves" / "karawane-1.json")
    config = AppConfig(
        saves_dir=tmp_path / "saves",
        settings_path=tmp_path / "settings.json",
        seed_factory=lambda: SEED,
        animations=False,
        review_budget=(40, 30),  # small searches; the processes are the app's own
    )
    assert config.review_jobs == AppConfig(saves_dir=tmp_path).review_jobs >= 2
    app = create_app(config)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("l")  # the Load dialog, then v on the save
        await settle(pilot, app)
        await pilot.pause(0.2)
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await review_done(pilot, screen)
        assert screen.failure is None, screen.failure
        judged = len(tasks_for(match, [0]))
        assert judged >= 2  # so that the review did spread over processes
        assert screen.review is not None and len(screen.review.decisions) == judged
        bar = screen.query_one(review_screen.ProgressBar)
        assert (bar.total, bar.progress) == (judged, judged)
        assert "Ann: accuracy" in visible_characters(app)


@pytest.mark.slow
async def test_a_failed_review_says_why_in_one_line_and_tries_again(tmp_path, monkeypatch):
    real = review_screen.review_match
    calls: list[int] = []

    def fails_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise ValueError("bad value(s) in fds_to_keep")
        return real(*args, **kwargs)

    monkeypatch.setattr(review_screen, "review_match", fails_once)
    match = seeded_match("karawane", "Ann,bot:random", moves=8)
    async with running(tmp_path) as (app, pilot):
        assert "Try again" not in footer_keys(app)
        app.show_review(match)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await review_done(pilot, screen)
        line = "The review stopped: bad value(s) in fds_to_keep (ValueError)."
        assert screen.failure == line
        failure = screen.query_one("#review-failure")
        assert failure.display and failure.size.height == 1
        assert line in visible_characters(app)
        assert not screen.query_one(review_screen.ProgressBar).display  # no bar standing still
        assert "r Try again" in footer_keys(app)
        await pilot.press("r")
        await review_done(pilot, screen)
        assert screen.failure is None and screen.review is not None
        assert not failure.display and "Try again" not in footer_keys(app)
        assert "Ann: accuracy" in visible_characters(app)
        assert len(calls) == 2


def test_snapshot_failed_review(snap_compare, tmp_path, monkeypatch):
    def fails(*args, **kwargs):
        raise ValueError("bad value(s) in fds_to_keep")

    monkeypatch.setattr(review_screen, "review_match", fails)
    app = make_app(tmp_path)

    async def review(pilot):
        await settle(pilot, app)
        app.show_review(seeded_match("karawane", "Ann,bot:random", moves=8))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await review_done(pilot, screen)

    assert snap_compare(app, terminal_size=(80, 24), run_before=review)


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (BrokenProcessPool("gone"), "The review stopped: a worker process ended unexpectedly."),
        (ValueError("two\nlines"), "The review stopped: two lines (ValueError)."),
        (MemoryError(), "The review stopped: MemoryError."),
    ],
)
def test_what_stopped_a_review_is_one_line(error, words):
    assert failure_words(error) == words
