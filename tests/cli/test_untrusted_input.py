"""Untrusted input on the command line: names, folders, files and crashes.

Text from outside is shown literally (never as markup or terminal codes);
what cannot be used is refused in one line with exit status 2; a crash
exits 1 with a report, and the game is never lost.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

import pytest
from textual.app import App

from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_core.saves import list_saves, load_match, save_match
from karavan_tui import cli
from karavan_tui.app import KaravanApp

MARKUP_NAMES = ["[/]", "[bold red]x[/]", "[link=x.io]Ann[/link]"]


@pytest.fixture
def opened(monkeypatch):
    """Catch what the command would open instead of running the app."""
    calls = []
    monkeypatch.setattr(cli.common, "open_app", lambda config, start: calls.append(start) or 0)
    return calls


def test_markup_in_names_is_a_name_like_any_other(tmp_path, opened):
    players = ",".join(MARKUP_NAMES[:2])
    assert cli.main(["new", "karakum", "--players", players, "--saves", str(tmp_path)]) == 0
    match, _ = opened[0]
    assert [seat.name for seat in match.seats] == MARKUP_NAMES[:2]


@pytest.mark.parametrize(
    ("players", "said"),
    [
        ("Ann,B\x1b]0;pwned\x07ob", "control or text-direction"),
        ("Ann,\u202eboB", "control or text-direction"),
        ("Ann,bot:hard:Evil\x1b[2J", "control or text-direction"),
        ("Ann," + "B" * 40, "at most 24 characters"),
    ],
)
def test_names_with_terminal_codes_or_too_long_are_refused_in_one_line(
    tmp_path, capsys, opened, players, said
):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["new", "karakum", "--players", players, "--saves", str(tmp_path)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "\x1b" not in err and "\u202e" not in err
    assert opened == []


def test_the_saves_listing_shows_names_and_file_names_literally(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # as on a real terminal: styles and links would show
    monkeypatch.setenv("COLUMNS", "200")
    game = get_game("karawane")
    seats = [Seat(name) for name in MARKUP_NAMES]
    save_match(Match(game, seats, 5), tmp_path / "plain.json")
    save_match(Match(game, seats[:2], 6), tmp_path / "odd\x1b]0;title\x07name.json")
    assert cli.main(["saves", "--saves", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for name in MARKUP_NAMES:
        assert name in out
    assert "\x1b]8;" not in out  # no live terminal link
    assert "\x1b]0;" not in out and "\\x1b]0;title\\x07name.json" in out


def test_a_save_with_an_escape_code_in_its_file_name_is_reported_safely(tmp_path, capsys):
    bad = tmp_path / "evil\x1b[2J.json"
    bad.write_text("{not json")
    assert cli.main(["saves", "--saves", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "evil\\x1b[2J.json" in err


@pytest.mark.parametrize("command", ["new", "resume"])
def test_an_unusable_saves_folder_is_one_line_and_exit_2(tmp_path, capsys, opened, command):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    argv = [command, "--saves", str(blocker / "saves")]
    if command == "new":
        argv[1:1] = ["karakum", "--players", "Ann,Bob"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("karavan: cannot keep saves in") and err.count("\n") == 1
    assert opened == []


@pytest.mark.parametrize("target", ["missing-folder/report.json", "."])
def test_simulate_refuses_an_unwritable_json_file_before_playing(tmp_path, capsys, target):
    start = time.perf_counter()
    argv = ["simulate", "karakum", "--games", "400", "--json", str(tmp_path / target)]
    assert cli.main(argv) == 2
    assert time.perf_counter() - start < 2  # refused at once, not after 400 games
    err = capsys.readouterr().err
    assert "--json: cannot write" in err and err.count("\n") == 1


def crash_on_mount(monkeypatch, screen_class) -> None:
    def boom(self) -> None:
        raise RuntimeError("something unexpected")

    monkeypatch.setattr(screen_class, "on_mount", boom)
    monkeypatch.setattr(KaravanApp, "run", lambda self: App.run(self, headless=True))


def test_a_crash_exits_1_with_one_line_and_a_report_and_the_game_stays_saved(
    tmp_path, capsys, monkeypatch
):
    from karavan_tui.config import AppConfig
    from karavan_tui.screens.table import TableScreen

    folder = tmp_path / "saves"
    match = Match(get_game("jaipur"), [Seat("Ann"), Seat.parse("bot:random")], 8)
    match.play(match.legal_actions()[0])
    path = folder / "kept.json"
    crash_on_mount(monkeypatch, TableScreen)
    status = cli.common.open_app(AppConfig(saves_dir=folder, bot_delay=0.0), (match, path))
    assert status == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("karavan: an unexpected error stopped Karavan; the report is in ")
    reports = list(folder.glob("crash-*.txt"))
    assert len(reports) == 1 and str(reports[0]) in err
    report = reports[0].read_text()
    assert "RuntimeError: something unexpected" in report and "karavan " in report
    assert "game: Jaipur" in report and str(path) in report
    assert load_match(path).history == match.history  # the game is not lost


WRITER = """
import random, sys
from pathlib import Path
from karavan_core import Match, Seat, get_game
from karavan_core.saves import save_match
path = Path(sys.argv[1])
match = Match(get_game("karakorum"), [Seat("Ann"), Seat("Bob"), Seat("Cleo")], 3)
rng = random.Random(int(sys.argv[2]))
save_match(match, path)  # a save exists before the first kill can come, however busy the machine
print("ready", flush=True)
while True:  # a save after every change, as a table keeps it
    if match.is_over() or rng.random() < 0.2:
        match.undo()
    else:
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
    save_match(match, path)
"""


@pytest.mark.slow
def test_kill_9_during_autosave_never_loses_the_save_and_leaves_no_temp_file(tmp_path, capsys):
    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "game.json"
    rng = random.Random(1)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for round_ in range(12):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(round_)],
            stdout=subprocess.PIPE,
            env=env,
        )
        assert writer.stdout is not None and writer.stdout.readline().strip() == b"ready"
        time.sleep(0.05 + rng.random() * 0.25)
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        # About a third of the kills land inside a write and leave its temporary file.
        load_match(path)  # the newest save always loads
        # The next start (here: listing the saves) removes what the killed writer left.
        good, bad = list_saves(folder)
        assert [s.path for s in good] == [path] and not bad
        assert list(folder.glob(".*")) == []
    assert cli.main(["saves", "--saves", str(folder)]) == 0
    assert "game.json" in capsys.readouterr().out
