"""Worker processes: quiet on the host's terminal, a dead worker is an error, not a hang, and
a stopped pool (or review) keeps nobody waiting."""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from karavan_core.analysis import review_match
from karavan_core.processes import has_real_stderr, stop_workers, worker_pool

from .test_analysis import short_game


def noisy(value: int) -> int:
    """A task that writes on both standard streams, then answers."""
    print("noise on stdout")
    print("noise on stderr", file=sys.stderr)
    os.write(2, b"noise on descriptor 2\n")
    return value * 2


def test_workers_write_nothing_on_the_hosts_terminal(capfd):
    with worker_pool(1) as pool:
        assert list(pool.map(noisy, [1, 2, 3])) == [2, 4, 6]
    out, err = capfd.readouterr()
    assert "noise" not in out and "noise" not in err


def test_a_worker_that_dies_breaks_its_tasks_instead_of_leaving_them_waiting():
    with worker_pool(1) as pool, pytest.raises(BrokenProcessPool):
        pool.submit(os._exit, 3).result(timeout=120)


def sleeper(seconds: float) -> float:
    """A task that takes its time."""
    time.sleep(seconds)
    return seconds


def children_since(earlier: set[multiprocessing.process.BaseProcess]) -> list[str]:
    """The names of this process's live children that were not among ``earlier``.

    Each test judges its own workers only: xdist runs many tests in one process,
    and another's child may still be ending when this one looks.
    """
    return [child.name for child in multiprocessing.active_children() if child not in earlier]


def test_stopped_workers_are_gone_at_once_with_their_work_undone():
    earlier = set(multiprocessing.active_children())
    with worker_pool(1) as pool:
        started = [pool.submit(sleeper, 600) for _ in range(4)]
        stop_workers(pool)
    assert children_since(earlier) == []
    # Each was cancelled before it started, or failed with its worker: none finished.
    for future in started:
        assert future.cancelled() or isinstance(future.exception(timeout=60), BrokenProcessPool)


def test_an_error_in_the_block_ends_the_workers_too():
    earlier = set(multiprocessing.active_children())
    with pytest.raises(KeyboardInterrupt), worker_pool(1) as pool:
        pool.submit(sleeper, 600)
        raise KeyboardInterrupt
    assert children_since(earlier) == []


def test_a_review_closed_half_way_leaves_no_worker_judging(tmp_path):
    match = short_game(tmp_path)
    steps: list[float] = []
    earlier = set(multiprocessing.active_children())
    review = review_match(
        match,
        jobs=2,
        progress=lambda done, total: steps.append(done),
        cancelled=lambda: len(steps) > 1,  # closed once the review has moved
    )
    # It stopped in the middle of the first decision, without waiting for its end.
    assert review is None and steps[0] == 0 and all(0 < done < 1 for done in steps[1:])
    # A worker the pool was still starting when it stopped finds it shut and ends itself.
    end = time.monotonic() + 30
    while children_since(earlier):
        assert time.monotonic() < end, "a worker of the closed review lives on"
        time.sleep(0.05)


def test_a_stderr_without_a_descriptor_is_told_apart(monkeypatch, tmp_path):
    class Captured:
        def fileno(self) -> int:
            return -1

    with open(tmp_path / "err.txt", "w", encoding="utf-8") as real:
        monkeypatch.setattr(sys, "stderr", real)
        assert has_real_stderr()
    monkeypatch.setattr(sys, "stderr", real)  # closed now
    assert not has_real_stderr()
    monkeypatch.setattr(sys, "stderr", Captured())
    assert not has_real_stderr()
    monkeypatch.setattr(sys, "stderr", None)
    assert not has_real_stderr()
