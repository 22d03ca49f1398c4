"""Fixtures for the end-to-end tests: the installed command, each run in its own home."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from .karavan import Karavan


@pytest.fixture
def karavan(tmp_path: Path) -> Iterator[Karavan]:
    """Starts ``karavan`` in pseudo-terminals with a fresh home, settings file and saves folder.

    The settings file holds one setting, the computer's pause between moves set
    to none (as a player may choose in Settings); everything else is the app's
    own default.  Every command still running at the end of the test is killed.
    """
    home = tmp_path / "home"
    home.mkdir()
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"bot_delay": 0}), encoding="utf-8")
    runner = Karavan(home, settings, tmp_path / "saves", tmp_path)
    try:
        yield runner
    finally:
        runner.kill_all()
