"""`karavan online SERVER --challenge NAME --game GAME --clock CLOCK`: the table the lobby
asks for once it opens."""

from __future__ import annotations

import pytest

from karavan_net.clocks import ClockKind
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_tui import cli
from karavan_tui.net.challenge import parse_clock


@pytest.fixture
def opened(monkeypatch):
    """Catch the app's configuration instead of running it."""
    calls = []

    def fake_open(config, start, lesson=None, online=None):
        calls.append((config, online))
        return 0

    monkeypatch.setattr(cli.common, "open_app", fake_open)
    return calls


def test_a_challenge_on_the_command_line_is_asked_for_in_the_lobby(tmp_path, opened):
    argv = ["--saves", str(tmp_path), "online", "127.0.0.1:7700", "--challenge", " Bob "]
    argv += ["--game", "jaipur", "--clock", "30s+5m", "--rated"]
    assert cli.main(argv) == 0
    [(config, online)] = opened
    assert online == "127.0.0.1:7700"
    assert config.challenge == CreateTable(
        "jaipur",
        [SeatAsk("open"), SeatAsk("player", name="Bob")],
        clock="live",
        move_seconds=30,
        bank_seconds=300,
        rated=True,
        challenge=True,
    )


def test_without_a_challenge_the_lobby_asks_for_nothing(tmp_path, opened):
    assert cli.main(["--saves", str(tmp_path), "online", "127.0.0.1:7700"]) == 0
    [(config, _)] = opened
    assert config.challenge is None


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--challenge", "Bob", "--clock", "5x"], "name the game with --game"),
        (["--challenge", "Bob", "--game", "jaipur", "--clock", "5x"], "is not a clock"),
        (["--game", "jaipur"], "go with --challenge NAME"),
        (["--challenge", "Bob", "--game", "chess"], "invalid choice"),
        (["--challenge", "", "--game", "jaipur"], "cannot be empty"),
    ],
)
def test_a_challenge_s_arguments_are_checked(tmp_path, opened, capsys, extra, said):
    with pytest.raises(SystemExit) as exited:
        cli.main(["--saves", str(tmp_path), "online", "127.0.0.1:7700", *extra])
    assert exited.value.code == 2 and opened == []
    assert said in capsys.readouterr().err


def test_clocks_read_as_the_lobby_writes_them():
    assert parse_clock("untimed") == (ClockKind.NONE, 0, 0)
    assert parse_clock("60s+10m") == (ClockKind.LIVE, 60, 600)
    assert parse_clock("1d") == (ClockKind.TURN, 86400, 0)
    assert parse_clock(" 3H ") == (ClockKind.TURN, 3 * 3600, 0)
    with pytest.raises(ValueError, match="is not a clock"):
        parse_clock("30s+")
