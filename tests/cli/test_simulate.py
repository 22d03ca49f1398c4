"""``karavan simulate``: the subcommand end to end, with tiny tournaments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from karavan_tui.cli import build_parser, main
from karavan_tui.cli.common import Context
from karavan_tui.cli.simulate import run


def parse(argv):
    return build_parser().parse_args(argv)


def context(argv):
    parser = build_parser()
    return Context(parser, parser.parse_args(argv), Path("saves"))


def test_parser_reads_every_option():
    args = parse(
        [
            "simulate",
            "karakum",
            "--players",
            "3",
            "--seats",
            "greedy,random,hard",
            "--games",
            "6",
            "--seed",
            "9",
            "--jobs",
            "2",
            "--json",
            "out.json",
        ]
    )
    assert (args.command, args.game, args.players, args.seats) == (
        "simulate",
        "karakum",
        3,
        "greedy,random,hard",
    )
    assert (args.games, args.seed, args.jobs, args.json) == (6, 9, 2, "out.json")


def test_simulate_runs_and_writes_json(tmp_path, capsys):
    out = tmp_path / "tournament.json"
    status = main(
        ["simulate", "karawane", "--seats", "greedy,random", "--games", "4", "--json", str(out)]
    )
    assert status == 0
    printed = capsys.readouterr().out
    assert "Win rate" in printed and "greedy" in printed and "Mean game length" in printed
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["game"] == "karawane" and data["games"] == 4 and data["seed"] == 1
    assert len(data["records"]) == 4
    levels = {level["level"]: level for level in data["summary"]["levels"]}
    assert set(levels) == {"greedy", "random"}
    for level in levels.values():
        assert 0.0 <= level["ci_low"] <= level["win_rate"] <= level["ci_high"] <= 1.0
    assert [r["levels"][0] for r in data["records"]] == ["greedy", "random"] * 2


def test_default_seats_are_greedy_against_random(capsys):
    assert main(["simulate", "karawane", "--players", "3", "--games", "3"]) == 0
    assert "3 players, 3 games" in capsys.readouterr().out


def test_worker_processes_play_the_same_games(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    common = ["simulate", "karawane", "--seats", "random,greedy", "--games", "4", "--seed", "5"]
    assert main([*common, "--json", str(one)]) == 0
    assert main([*common, "--jobs", "2", "--json", str(two)]) == 0

    def games(path):
        records = json.loads(path.read_text(encoding="utf-8"))["records"]
        return [(r["levels"], r["scores"], r["winners"], r["decisions"]) for r in records]

    assert games(one) == games(two)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "chess"], "No game called"),
        (["simulate", "karakum", "--seats", "greedy"], "one level per seat"),
        (["simulate", "karakum", "--seats", "greedy,genius"], "levels are"),
        (["simulate", "karakum", "--players", "7"], "2 to 4 players"),
        (["simulate", "karakum", "--games", "0"], "--games"),
        (["simulate", "karakum", "--jobs", "0"], "--jobs"),
    ],
)
def test_bad_settings_exit_with_status_2(argv, message, capsys):
    assert run(context(argv)) == 2
    assert message in capsys.readouterr().err
