"""`karavan saves`, `--version` and argument errors (the foundation's command line)."""

from __future__ import annotations

import hashlib
import random

import pytest

from karavan_core import Match, Seat, get_game, save_match
from karavan_core.version import __version__
from karavan_tui.cli import main


def make_save(folder, name="game.json", decisions=30):
    match = Match(get_game("karakum"), [Seat("Ann"), Seat("Bob"), Seat("Cid")], seed=3)
    rng = random.Random(2)
    for _ in range(decisions):
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
    return save_match(match, folder / name)


def test_saves_lists_game_players_and_decisions(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    make_save(tmp_path)
    assert main(["--saves", str(tmp_path), "saves"]) == 0
    out = capsys.readouterr().out
    assert "game.json" in out and "Karakum" in out and "Ann, Bob, Cid" in out and "30" in out


def test_saves_reports_a_corrupt_file_in_one_line_and_leaves_it_alone(tmp_path, capsys):
    make_save(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "karavan-save", "version": 1, "game": "karakum", "seats": [')
    before = hashlib.sha256(bad.read_bytes()).hexdigest()
    assert main(["--saves", str(tmp_path), "saves"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.json" in err[0] and "not valid JSON" in err[0]
    assert hashlib.sha256(bad.read_bytes()).hexdigest() == before


def test_saves_in_an_empty_folder(tmp_path, capsys):
    assert main(["--saves", str(tmp_path / "none"), "saves"]) == 0
    assert "No saves" in capsys.readouterr().out


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and __version__ in capsys.readouterr().out
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0 and "saves" in capsys.readouterr().out


def test_bad_arguments_exit_with_status_two(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--no-such-flag"])
    assert done.value.code == 2
    assert "unrecognized arguments: --no-such-flag" in capsys.readouterr().err


def test_saves_prints_each_name_as_the_shell_takes_it(tmp_path, capsys, monkeypatch):
    """A name with spaces or quotes is printed quoted: pasted after `karavan resume`, the
    shell hands the command the name itself."""
    import shlex

    from karavan_tui.cli.common import find_save

    monkeypatch.setenv("COLUMNS", "160")
    names = ["Ann and Bob.json", "it's mine.json", "plain.json"]
    for name in names:
        make_save(tmp_path, name, decisions=3)
    assert main(["--saves", str(tmp_path), "saves"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    printed = [line for line in lines if not line.startswith(" ")]
    assert sorted(printed) == sorted(shlex.quote(name) for name in names)
    for line in printed:
        (word,) = shlex.split(line)
        assert find_save(tmp_path, word) == tmp_path / word
