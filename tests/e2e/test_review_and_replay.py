"""The review and the replay of a finished game, in the installed command.

The review runs as every player gets it: the app's own number of worker
processes and the Expert's full searches.  So the finished game is a short
one — four players racing in Karawane, Ann the only human, with few decisions
of her own — played to its end here by bots through the core API and saved.
"""

from __future__ import annotations

import re

import pytest

from karavan_core import Match, Seat, get_game, save_match
from karavan_core.analysis.review import tasks_for
from karavan_core.bots import make_bot

from .karavan import PLAYER, TITLE, Karavan, last_logged, quit_app, wait_for_review
from .terminal import Terminal

SAVE = "finished race"


def finished_race(seed: int = 152) -> Match:
    """Ann and three bots race to the end (Greedy plays for Ann: her decisions are rated)."""
    game = get_game("karawane")
    seats = [Seat(PLAYER), *(Seat(f"Bot {i}", "bot", "greedy") for i in (2, 3, 4))]
    match = Match(game, seats, seed)
    bots = [make_bot("greedy", game, seed + seat) for seat in range(len(seats))]
    while not match.is_over():
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(game.observe(match.state, seat), match.legal_actions()))
    return match


@pytest.fixture
def race(karavan: Karavan) -> Match:
    """The finished race, saved in the saves folder as ``finished race.json``."""
    match = finished_race()
    karavan.saves.mkdir(parents=True, exist_ok=True)
    save_match(match, karavan.saves / f"{SAVE}.json")
    return match


def info_line(terminal: Terminal) -> str:
    """The replay's line over the table: which decision, whose, seen as whom."""
    found = re.search(r"(?:Decision \d+ of \d+|After all \d+ decisions) .*", terminal.text())
    assert found is not None, terminal.text()
    return found.group(0).strip()


def review_then_replay(terminal: Terminal, race: Match) -> None:
    """On the review screen: the accuracy line comes, then ``p`` and one step on."""
    wait_for_review(terminal, len(tasks_for(race)))
    terminal.settle()
    terminal.press("p")
    terminal.wait_for(f"Decision 1 of {len(race.history)}")
    terminal.settle()
    assert last_logged(terminal) == 0  # the deal, before any decision
    assert PLAYER in info_line(terminal)
    table = terminal.boxes()
    log = " ".join(race.log()[1].split())  # the first decision, as the log tells it

    terminal.press("right")
    terminal.wait_for(f"Decision 2 of {len(race.history)}")
    terminal.settle()
    assert last_logged(terminal) == 1
    shown = " ".join(" ".join(terminal.boxes()["Log"].inside).split())
    assert f"1. {log}" in shown
    moved = terminal.boxes()
    assert moved.keys() == table.keys()
    assert [name for name in table if table[name] != moved[name] and name != "Log"], (
        "the first decision changed nothing on the table"
    )


@pytest.mark.slow
def test_a_finished_save_is_reviewed_from_the_load_dialog_and_replayed(karavan, race):
    terminal = karavan.start(size=(80, 24))
    terminal.wait_for(TITLE)
    terminal.press("l")
    terminal.wait_for(SAVE)
    terminal.settle()
    terminal.press("v")
    terminal.wait_for("Review of Karawane")
    review_then_replay(terminal, race)
    quit_app(terminal)


@pytest.mark.slow
def test_a_finished_game_is_reviewed_from_its_results_and_replayed(karavan, race):
    terminal = karavan.start("resume", f"{SAVE}.json", size=(200, 50))
    terminal.wait_for("Review")  # the results screen's Footer offers it
    terminal.settle()
    terminal.press("v")
    terminal.wait_for("Review of Karawane")
    review_then_replay(terminal, race)
    quit_app(terminal)
