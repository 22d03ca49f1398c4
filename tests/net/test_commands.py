"""``karavan host`` and ``karavan join`` as a user runs them: real processes on loopback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from karavan_core.saves import load_match
from karavan_net import client as client_module
from karavan_net.hosting import CLOSED_MIDGAME
from karavan_tui import cli

from .helpers import CODE, free_port, hosting_in_thread, new_match

KARAVAN = [sys.executable, "-m", "karavan_tui"]


def as_from_a_terminal() -> None:
    """In the child: Ctrl+C's signal handled as in a terminal.  A test run started in the
    background (``cmd &`` in a script, as CI may) hands its children SIGINT ignored, which
    Python then leaves ignored: a Ctrl+C test would wait for a signal that never comes."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(*args: str, cwd) -> subprocess.Popen[str]:
    env = dict(os.environ, KARAVAN_SETTINGS=str(cwd / "settings.json"))
    return subprocess.Popen(
        [*KARAVAN, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=as_from_a_terminal,
    )


@pytest.mark.slow
def test_a_host_and_two_headless_bots_play_a_whole_jaipur_match(tmp_path):
    port = str(free_port())
    host = start(
        "host", "jaipur", "--players", "Ann,Bob", "--headless", "--port", port,
        "--code", "jaipur-test", "--saves", "saves", "--bot-delay", "0", "--seed", "3",
        cwd=tmp_path,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        first = host.stdout.readline()
        assert first.startswith("Hosting Jaipur for Ann, Bob at 127.0.0.1:"), first
        invitation = [host.stdout.readline() for _ in range(4)]
        assert f"  karavan join 127.0.0.1:{port} jaipur-test --name Bob\n" in invitation
        joins = [
            start("join", f"127.0.0.1:{port}", "jaipur-test", "--name", name, "--bot", "random",
                  cwd=tmp_path)
            for name in ("Ann", "Bob")
        ]  # fmt: skip
        outputs = [join.communicate(timeout=120)[0] for join in joins]
        assert [join.returncode for join in joins] == [0, 0], outputs
        for output in outputs:
            assert "The game is over:" in output.splitlines()[-1]
        rest = host.communicate(timeout=30)[0]
        assert host.returncode == 0, rest
    finally:
        host.kill()
    assert "Ann joined." in rest and "Bob joined." in rest
    assert rest.rstrip().splitlines()[-1].startswith("The game is over:")
    saves = list((tmp_path / "saves").glob("*.json"))
    assert len(saves) == 1
    assert load_match(saves[0]).is_over()
    assert oct((saves[0].with_suffix(".table")).stat().st_mode & 0o777) == "0o600"


def join(capsys, *args: str) -> tuple[int, str]:
    status = cli.main(["join", *args])
    return status, capsys.readouterr().err


def test_refused_joins_are_one_line_and_exit_2(capsys, monkeypatch, tmp_path):
    # Ann's Karavan and this one remember seats in different places: two machines.
    monkeypatch.setenv("KARAVAN_SETTINGS", str(tmp_path / "here" / "settings.json"))
    with hosting_in_thread(new_match("jaipur", "Ann,Bob")) as (table, port):
        where = f"127.0.0.1:{port}"
        ann = subprocess.Popen(
            [*KARAVAN, "join", where, CODE, "--name", "Ann", "--bot", "random"],
            stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, KARAVAN_SETTINGS=str(tmp_path / "ann" / "settings.json")),
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 20
            while 0 not in table.links and time.monotonic() < deadline:
                time.sleep(0.02)
            nowhere = f"127.0.0.1:{free_port()}"
            cases = {
                "a third player": ((where, CODE, "--name", "Cid"), "no seat called Cid"),
                "a taken seat": ((where, CODE, "--name", "Ann", "--bot", "random"), "is taken"),
                "a wrong code": ((where, "guessed-code", "--name", "Bob"), "Wrong table code"),
                "no host": ((nowhere, CODE, "--name", "Bob"), "no Karavan table answers at"),
            }
            for case, (args, words) in cases.items():
                status, err = join(capsys, *args)
                assert status == 2, case
                assert err.count("\n") == 1 and err.startswith("karavan: cannot join: "), err
                assert words in err, (case, err)
            monkeypatch.setattr(client_module, "PROTOCOL", 99)
            status, err = join(capsys, where, CODE, "--name", "Bob")
            assert status == 2 and "protocol" in err and err.count("\n") == 1
        finally:
            ann.kill()
            ann.wait()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("nowhere:port", CODE, "--name", "Bob"), "not a port"),
        (("127.0.0.1:7654", CODE, "--name", "\x1b[31mBob"), "control"),
        (("127.0.0.1:7654", CODE, "--name", "Bob", "--bot", "genius"), "no bot level"),
    ],
)
def test_bad_join_arguments_exit_2(capsys, monkeypatch, tmp_path, args, words):
    monkeypatch.setenv("KARAVAN_SETTINGS", str(tmp_path / "settings.json"))
    with pytest.raises(SystemExit) as stop:
        cli.main(["join", *args])
    assert stop.value.code == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("jaipur",), "--players"),
        (("jaipur", "--players", "Ann,Bob", "--code", "a b"), "--code"),
        (("jaipur", "--players", "Ann,Bob", "--code", "nine-char"), "10 to 64"),
        (("--resume", "missing.json"), "no such file"),
        (("jaipur", "--players", "bot:random,bot:random", "--headless"), "human seat"),
        (("jaipur", "--players", "Ann,Bob", "--takeback-time", "2"), "5 to 600 seconds"),
    ],
)
def test_bad_host_arguments_exit_2(capsys, monkeypatch, tmp_path, args, words):
    monkeypatch.setenv("KARAVAN_SETTINGS", str(tmp_path / "settings.json"))
    try:
        status = cli.main(["host", *args, "--saves", str(tmp_path)])
    except SystemExit as stop:
        status = stop.code
    assert status == 2
    assert words in capsys.readouterr().err


@pytest.mark.slow
def test_a_stopped_host_resumed_from_its_save_takes_its_players_back(tmp_path):
    """The host stops: the bots lent from afar are told and end; reopened (at the port its
    table file kept), the same players join again with the secrets their Karavan kept."""
    port = str(free_port())
    common = ["--headless", "--saves", "saves", "--bot-delay", "0"]
    host = start("host", "karakum", "--players", "Ann,Bob", "--code", "resume-test", *common,
                 "--port", port, "--seed", "5", cwd=tmp_path)  # fmt: skip
    assert host.stdout is not None
    lines = [host.stdout.readline() for _ in range(5)]
    save = lines[-1].split("Saving to ", 1)[1].split(" (", 1)[0]

    def bots() -> list[subprocess.Popen[str]]:
        return [
            start("join", f"127.0.0.1:{port}", "resume-test", "--name", name, "--bot", "random",
                  cwd=tmp_path)
            for name in ("Ann", "Bob")
        ]  # fmt: skip

    joins = bots()
    try:
        seen = 0
        while seen < 20:  # twenty decisions, then the host is stopped
            line = host.stdout.readline()
            assert line, "the host ended early"
            seen += " joined." not in line and not line.startswith("Type help")
        host.terminate()
        rest = host.communicate(timeout=30)[0]
        assert host.returncode == 0
        assert (
            f"Stopped. karavan host --resume {save} reopens the table at 127.0.0.1:{port}." in rest
        )
        outputs = [join.communicate(timeout=60)[0] for join in joins]
        assert [join.returncode for join in joins] == [0, 0], outputs
        for output in outputs:
            assert output.splitlines()[-1] == CLOSED_MIDGAME
        again = start("host", "--resume", save, *common, cwd=tmp_path)
        assert again.stdout is not None
        opening = again.stdout.readline()  # listening: the players may come
        assert f"at 127.0.0.1:{port} (table code resume-test)" in opening
        joins = bots()
        outputs = [join.communicate(timeout=120)[0] for join in joins]
        assert [join.returncode for join in joins] == [0, 0], outputs
        for output in outputs:
            assert output.splitlines()[-1].startswith("The game is over:")
        final = again.communicate(timeout=60)[0]
        assert again.returncode == 0, final
        assert "Ann is back." in final
    finally:
        for process in (host, *joins):
            process.kill()
    assert load_match(tmp_path / save).is_over()
