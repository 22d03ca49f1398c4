"""`karavan account`: an account exported on one machine plays as the same player on another."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from karavan_net.accounts import Account, account_for, accounts_file, keep, new_secret

KARAVAN = str(Path(sys.executable).with_name("karavan"))


def karavan(settings: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KARAVAN_SETTINGS": str(settings)}
    return subprocess.run([KARAVAN, "account", *args], capture_output=True, text=True, env=env)


def test_an_account_travels_by_export_and_import_and_stays_private(tmp_path):
    here, there = tmp_path / "here" / "settings.json", tmp_path / "there" / "settings.json"
    account = Account("127.0.0.1:7700", "Ann", new_secret())
    keep(accounts_file(here), account)
    assert stat.S_IMODE(accounts_file(here).stat().st_mode) == 0o600
    shown = karavan(here, "show")
    assert shown.returncode == 0 and shown.stdout.strip() == "Ann on 127.0.0.1:7700"
    assert account.secret not in shown.stdout
    moved = tmp_path / "ann.account"
    assert karavan(here, "export", str(moved)).returncode == 0
    assert stat.S_IMODE(moved.stat().st_mode) == 0o600
    done = karavan(there, "import", str(moved))
    assert done.returncode == 0 and "You play as Ann on 127.0.0.1:7700" in done.stdout
    assert account_for(accounts_file(there), "127.0.0.1") == account


@pytest.mark.slow
def test_a_file_that_is_no_account_is_refused_in_one_line(tmp_path):
    settings = tmp_path / "settings.json"
    bad = tmp_path / "bad.account"
    bad.write_text('{"format": "something else"}')
    done = karavan(settings, "import", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "not a Karavan account file" in done.stderr
    missing = karavan(settings, "show", "--server", "example.org:7700")
    assert missing.returncode == 2 and "no account on example.org:7700" in missing.stderr


@pytest.mark.slow
def test_without_a_server_the_account_is_that_of_the_server_last_played_on(tmp_path):
    from karavan_tui.config import Settings

    settings_path = tmp_path / "settings.json"
    for server, name in (("127.0.0.1:7700", "Ann"), ("example.org:7654", "ann2")):
        keep(accounts_file(settings_path), Account(server, name, new_secret()))
    settings = Settings()
    settings.last_server = "example.org:7654"
    settings.save(settings_path)
    shown = karavan(settings_path, "show")
    assert shown.returncode == 0 and shown.stdout.strip() == "ann2 on example.org:7654"
    # A server named still wins; and without a last server, the local one is meant.
    named = karavan(settings_path, "show", "--server", "127.0.0.1:7700")
    assert named.stdout.strip() == "Ann on 127.0.0.1:7700"
    settings.last_server = None
    settings.save(settings_path)
    assert karavan(settings_path, "show").stdout.strip() == "Ann on 127.0.0.1:7700"
