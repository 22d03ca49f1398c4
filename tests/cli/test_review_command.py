"""``karavan review FILE``: the table, the JSON, and every refusal in one line."""

from __future__ import annotations

import json

import pytest

from karavan_core import Match, Seat, get_game, save_match
from karavan_core.bots import make_bot
from karavan_tui.cli import main

JAIPUR = get_game("jaipur")


def played(path, seats, decisions: int = 8, hints: int = 0):
    """A Jaipur save of ``seats`` after ``decisions`` made by Greedy bots for everyone."""
    match = Match(JAIPUR, seats, seed=21, options={"first_player": 0})
    bots = [make_bot("greedy", JAIPUR, seat) for seat in range(2)]
    while len(match.history) < decisions and not match.is_over():
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(JAIPUR.observe(match.state, seat), match.legal_actions()))
    for _ in range(hints):
        match.count_hint(0)
    return save_match(match, path)


def test_review_prints_the_summary_and_writes_the_json(tmp_path, capsys):
    save = played(tmp_path / "game.json", [Seat("Ann"), Seat("Hal", "bot", "hard")], hints=2)
    out = tmp_path / "review.json"
    assert main(["review", str(save), "--json", str(out), "--jobs", "1"]) == 0
    printed = capsys.readouterr().out
    assert "Jaipur, seed 21: the review" in printed and "Ann" in printed
    assert "4 decisions judged of 8" in printed
    data = json.loads(out.read_text())
    assert data["game"] == "jaipur" and data["thresholds"]["blunder"] == 0.2
    ann, hal = data["players"]
    assert ann["name"] == "Ann" and ann["hints"] == 2 and ann["rated_decisions"] == 4
    assert hal["accuracy"] is None and hal["verdicts"] is None
    keys = {"index", "seat", "played", "best", "win_before", "win_after", "verdict"}
    assert all(keys <= set(d) and d["seat"] == 0 for d in data["decisions"])
    assert [d["index"] for d in data["decisions"]] == [0, 2, 4, 6]


def test_a_hot_seat_game_in_progress_is_reviewed_one_player_at_a_time(tmp_path, capsys):
    save = played(tmp_path / "hot.json", [Seat("Ann"), Seat("Bob")], decisions=4)
    assert main(["review", str(save)]) == 2
    assert "one player at a time (--player NAME)" in capsys.readouterr().err
    out = tmp_path / "bob.json"
    assert main(["review", str(save), "--player", "bob", "--json", str(out), "--jobs", "1"]) == 0
    assert {d["seat"] for d in json.loads(out.read_text())["decisions"]} == {1}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--player", "Zed"], "'Zed' is not a human here (Ann)"),
        (["--json", "/nonexistent/dir/r.json"], "--json: cannot write"),
    ],
)
def test_bad_arguments_are_refused_in_one_line(tmp_path, capsys, argv, message):
    save = played(tmp_path / "g.json", [Seat("Ann"), Seat("Hal", "bot", "hard")], decisions=2)
    assert main(["review", str(save), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_damaged_save_or_a_bots_only_game_is_refused_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and "not valid JSON" in err and len(err.strip().splitlines()) == 1
    bots = played(tmp_path / "bots.json", [Seat("A", "bot", "random"), Seat("B", "bot", "hard")])
    assert main(["review", str(bots)]) == 2
    assert "only bots play" in capsys.readouterr().err


def test_review_finds_a_save_by_its_name_in_the_saves_folder(tmp_path, capsys):
    folder = tmp_path / "saves"
    folder.mkdir()
    played(folder / "evening.json", [Seat("Ann"), Seat("Hal", "bot", "hard")], decisions=2)
    assert main(["--saves", str(folder), "review", "evening", "--jobs", "1"]) == 0
    assert "the review" in capsys.readouterr().out
