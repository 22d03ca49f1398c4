"""The karavan command: listing saves, version, bad arguments, new and resume."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_core.saves import save_match
from karavan_core.version import __version__
from karavan_tui import cli

KARAVAN = Path(sys.executable).with_name("karavan")


def saved_match(folder: Path, name: str = "game.json", over: bool = False) -> Path:
    match = Match(get_game("karakum"), [Seat("Ann"), Seat("Bob")], 3, {"first_player": 0})
    for _ in range(4):
        match.play(match.legal_actions()[0])
    return save_match(match, folder / name)


@pytest.fixture
def opened(monkeypatch):
    """Catch what the command would open instead of running the app."""
    calls = []

    def fake_open(config, start, lesson=None):
        calls.append((config, start) if lesson is None else (config, start, lesson))
        return 0

    monkeypatch.setattr(cli.common, "open_app", fake_open)
    return calls


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"karavan {__version__}"


def test_help_names_the_commands(capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("saves", "new", "resume", "learn"):
        assert command in out


@pytest.mark.parametrize("command", ["new", "simulate"])
def test_help_of_the_commands_that_seat_bots_lists_the_levels(capsys, command):
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    listing = out[out.index("bot levels, weakest first:") :].splitlines()[1:]
    # One line per level, each starting with its name, weakest first.
    assert [line.split(":")[0] for line in listing if ":" in line] == [
        "random",
        "greedy",
        "hard",
        "expert",
    ]
    assert "picks any legal move at random" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--bogus"],
        ["frobnicate"],
        ["new"],
        ["new", "karakum"],
        ["new", "nosuchgame", "--players", "Ann,Bob"],
        ["new", "karakum", "--players", "Ann"],
        ["new", "karakum", "--players", "Ann,Ann"],
        ["new", "karakum", "--players", "Ann,bot:nosuchlevel"],
        ["new", "karakum", "--players", "Ann,Bob", "--first", "Cleo"],
        ["new", "karakum", "--players", "Ann,Bob", "--seed", "x"],
        ["resume", "a", "b"],
        ["learn"],
        ["learn", "chess"],
    ],
)
def test_bad_arguments_exit_2(argv, capsys, opened, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--saves", str(tmp_path), *argv])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.strip()
    assert opened == []


def test_learn_names_the_lessons_when_it_has_none_for_the_game(capsys, opened, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--saves", str(tmp_path), "learn", "chess"])
    assert exit_info.value.code == 2
    assert "No lesson for 'chess'; the lessons are: karakum, karawane, karakorum, jaipur." in (
        capsys.readouterr().err
    )
    assert opened == []


def test_bad_arguments_exit_2_as_a_process(tmp_path):
    done = subprocess.run(
        [str(KARAVAN), "--saves", str(tmp_path), "--bogus"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr == "karavan: unrecognized arguments: --bogus (see karavan --help)\n"


def test_a_commands_bad_arguments_are_one_line_naming_the_command(tmp_path):
    for args, said in [
        (("new", "chess", "--players", "A,B"), "karavan new: No game called 'chess'"),
        (("new", "jaipur", "--players", "A,B,C"), "karavan new: Jaipur is for exactly 2 players"),
        (("new",), "karavan new: the following arguments are required: GAME, --players"),
    ]:
        done = subprocess.run(
            [str(KARAVAN), "--saves", str(tmp_path), *args], capture_output=True, text=True
        )
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(said), done.stderr
        assert done.stderr.endswith("(see karavan new --help)\n")


def test_saves_lists_the_saved_games(tmp_path, capsys):
    saved_match(tmp_path)
    (tmp_path / "broken.json").write_text("{not json")
    assert cli.main(["--saves", str(tmp_path), "saves"]) == 0
    captured = capsys.readouterr()
    assert "Karakum" in captured.out and "Ann, Bob" in captured.out
    assert "broken.json" in captured.err
    # Into a pipe each save's details are one line, not wrapped and padded to 80 columns.
    details = next(line for line in captured.out.splitlines() if "Karakum" in line)
    assert details.startswith("    Karakum · Ann, Bob · ") and "last played 20" in details
    assert details == details.rstrip()


def test_saves_folder_may_follow_the_command(tmp_path, capsys, monkeypatch):
    saved_match(tmp_path)
    monkeypatch.chdir(tmp_path.parent)  # so ./saves is not the folder that gets listed
    assert cli.main(["saves", "--saves", str(tmp_path)]) == 0
    assert "Karakum" in capsys.readouterr().out
    assert cli.main(["resume", "--saves", str(tmp_path / "none")]) == 2
    assert "none" in capsys.readouterr().err


def test_saves_in_an_empty_folder(tmp_path, capsys):
    assert cli.main(["--saves", str(tmp_path / "none"), "saves"]) == 0
    assert "No saves" in capsys.readouterr().out


def test_new_opens_the_table_with_the_seats_seed_and_first_player(tmp_path, opened):
    assert (
        cli.main(
            [
                "--saves",
                str(tmp_path),
                "new",
                "Karakum",
                "--players",
                "Ann,bot:random,Bob",
                "--seed",
                "17",
                "--first",
                "bob",
            ]
        )
        == 0
    )
    [(config, (match, path))] = opened
    assert config.saves_dir == tmp_path
    assert [seat.name for seat in match.seats] == ["Ann", "Random bot", "Bob"]
    assert match.seats[1].is_bot and match.seats[1].level == "random"
    assert match.seed == 17 and match.to_move == 2
    assert path.parent == tmp_path and not path.exists()


@pytest.mark.parametrize("given", ["karawane", " Jaipur"])
def test_learn_opens_the_app_at_the_lesson_of_the_game(tmp_path, opened, given):
    assert cli.main(["--saves", str(tmp_path), "learn", given]) == 0
    [(config, start, lesson)] = opened
    assert config.saves_dir == tmp_path and start is None
    assert lesson == given.strip().lower()


def test_resume_a_file(tmp_path, opened):
    save = saved_match(tmp_path)
    assert cli.main(["--saves", str(tmp_path), "resume", str(save)]) == 0
    [(_, (match, path))] = opened
    assert path == save and len(match.history) == 4


def test_resume_without_a_file_opens_the_latest_game(tmp_path, opened):
    save = saved_match(tmp_path)
    assert cli.main(["--saves", str(tmp_path), "resume"]) == 0
    assert opened[0][1][1] == save


def test_resume_with_nothing_to_resume(tmp_path, capsys, opened):
    assert cli.main(["--saves", str(tmp_path), "resume"]) == 2
    assert "no game in progress" in capsys.readouterr().err
    assert opened == []


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{not json",
        b'{"format": "something else"}',
        b"\x00\x01\x02",
        b'{"format": "karavan-save", "version": 1, "game": "karakum"}',
    ],
)
def test_resume_a_corrupt_save_exits_2_with_one_line_and_leaves_it(
    tmp_path, capsys, opened, content
):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    assert cli.main(["--saves", str(tmp_path), "resume", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"karavan: {bad}: ")
    assert err.count("\n") == 1
    assert bad.read_bytes() == content
    assert opened == []


def test_resume_a_corrupt_save_as_a_process(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    done = subprocess.run(
        [str(KARAVAN), "--saves", str(tmp_path), "resume", str(bad)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.startswith(f"karavan: {bad}: ") and done.stderr.count("\n") == 1
    assert bad.read_text() == "[1, 2"


@pytest.mark.parametrize("given", ["my game", "my game.json"])
def test_resume_takes_a_name_as_the_saves_list_shows_it(tmp_path, capsys, opened, given):
    saved_match(tmp_path, "my game.json")
    assert cli.main(["saves", "--saves", str(tmp_path)]) == 0
    assert "my game.json" in capsys.readouterr().out
    assert cli.main(["resume", given, "--saves", str(tmp_path)]) == 0
    _config, (match, path) = opened[-1]
    assert path == tmp_path / "my game.json" and len(match.history) == 4


def test_ascii_on_the_command_line_opens_the_app_in_ascii_mode(tmp_path, opened):
    assert (
        cli.main(["new", "karakum", "--players", "Ann,Bob", "--ascii", "--saves", str(tmp_path)])
        == 0
    )
    assert cli.main(["--ascii", "--saves", str(tmp_path)]) == 0
    assert [config.ascii for config, _ in opened] == [True, True]
    assert cli.main(["--saves", str(tmp_path)]) == 0
    assert opened[-1][0].ascii is False
