"""One game, one window: the advisory lock a window holds on the save it plays."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_core.saves import (
    OPEN_ELSEWHERE,
    OpenElsewhere,
    SaveLock,
    list_saves,
    open_elsewhere,
    resumable,
    save_match,
)
from karavan_core.saves.lock import LOCKS, lock_path

pytestmark = pytest.mark.skipif(not LOCKS, reason="no advisory locks on this platform")


def a_save(path):
    match = Match(get_game("jaipur"), [Seat("Ann"), Seat("Bob")], seed=3)
    match.play(match.legal_actions()[0])
    return save_match(match, path)


def test_a_save_played_in_one_window_is_refused_to_another_until_let_go(tmp_path):
    save = a_save(tmp_path / "game.json")
    first = SaveLock(save)
    with pytest.raises(OpenElsewhere) as refused:
        SaveLock(save)
    assert refused.value.strerror == OPEN_ELSEWHERE == "This game is open in another window."
    assert isinstance(refused.value, OSError)  # reported wherever a file cannot be written
    assert open_elsewhere(save)
    first.release()
    assert not open_elsewhere(save) and not lock_path(save).exists()
    SaveLock(save).release()  # free again


def test_a_lock_file_left_behind_locks_nothing(tmp_path):
    save = a_save(tmp_path / "game.json")
    lock_path(save).write_text("")  # as a crash leaves it
    assert not open_elsewhere(save)
    SaveLock(save).release()


def test_a_killed_window_lets_its_save_go(tmp_path):
    """The operating system releases a dead process's lock: no stale file keeps it."""
    save = a_save(tmp_path / "game.json")
    holder = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from karavan_core.saves import SaveLock
        lock = SaveLock(Path({str(save)!r}))
        print("held", flush=True)
        time.sleep(600)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        assert open_elsewhere(save)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        child.kill()
    deadline = time.monotonic() + 30
    while open_elsewhere(save) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not open_elsewhere(save)
    SaveLock(save).release()  # another window takes it


def test_resume_skips_a_game_open_in_another_window(tmp_path):
    older = a_save(tmp_path / "older.json")
    newer = a_save(tmp_path / "newer.json")
    os.utime(older, (1, 1))
    summaries, _ = list_saves(tmp_path)
    assert resumable(summaries).path == newer
    held = SaveLock(newer)
    assert resumable(list_saves(tmp_path)[0]).path == older
    held.release()
