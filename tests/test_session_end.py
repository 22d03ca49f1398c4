"""The end of a test session: an xdist worker is done in time for its controller."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAP = 300_000  # objects a session leaves alive, as the engines' and Textual's caches do

SESSION = f"""
KEPT = [[n] for n in range({HEAP})]  # survivors: module globals live to the end


def test_fills_the_heap():
    assert len(KEPT) == {HEAP}
"""

WATCH = """
import gc, os


def pytest_unconfigure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        with open(os.environ["FROZEN_OUT"], "w") as out:
            out.write(str(gc.get_freeze_count()))
"""


@pytest.mark.slow  # a whole pytest run of its own, guarding the suite's own end
def test_a_workers_survivors_are_set_aside_before_pytest_collects_five_times(tmp_path):
    """pytest collects garbage five times as it unconfigures, after a worker has told its
    controller it is done, and execnet interrupts a worker still busy five seconds later
    ("Exception ignored ... KeyboardInterrupt" at the end of the run).  The project's
    session end collects once and freezes what survives, so those five walk none of it."""
    (tmp_path / "test_heap.py").write_text(SESSION)
    (tmp_path / "conftest.py").write_text(WATCH)
    out = tmp_path / "frozen.txt"
    root = Path(__file__).parent.parent
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "1", "-p", "no:cacheprovider"]
        + ["-p", "tests.conftest", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=root,
        env={**clean_environment(), "FROZEN_OUT": str(out)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert int(out.read_text()) > HEAP


def clean_environment() -> dict[str, str]:
    """This process's environment without xdist's marks (run inside a worker, the inner
    run's controller would otherwise take itself for a worker too) and without
    PYTEST_ADDOPTS (CI's coverage options, whose floor the inner run of one test is not)."""
    return {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("PYTEST_XDIST") and k != "PYTEST_ADDOPTS"
    }
