"""Worker processes: quiet on the host's terminal, and a dead worker is an error, not a hang."""

from __future__ import annotations

import os
import sys
from concurrent.futures.process import BrokenProcessPool

import pytest

from karavan_core.processes import has_real_stderr, process_pool


def noisy(value: int) -> int:
    """A task that writes on both standard streams, then answers."""
    print("noise on stdout")
    print("noise on stderr", file=sys.stderr)
    os.write(2, b"noise on descriptor 2\n")
    return value * 2


def test_workers_write_nothing_on_the_hosts_terminal(capfd):
    with process_pool(2) as pool:
        assert list(pool.map(noisy, [1, 2, 3])) == [2, 4, 6]
    out, err = capfd.readouterr()
    assert "noise" not in out and "noise" not in err


def test_a_worker_that_dies_breaks_its_tasks_instead_of_leaving_them_waiting():
    with process_pool(2) as pool, pytest.raises(BrokenProcessPool):
        pool.submit(os._exit, 3).result(timeout=120)


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
