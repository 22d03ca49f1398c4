"""The installed command, as a newcomer uses it: ``karavan learn karawane`` played through.

Every step of Karawane's lesson, by keys in a pseudo-terminal: a step to read
goes on with n, a step's move is chosen from the move list by typing its words
(worked out here from the lesson and the engine, as the app words them); at the
end the lesson offers a real game, declined here, and the settings remember the
lesson as finished.
"""

from __future__ import annotations

import json
import re

import pytest

from karavan_core import Match, Seat
from karavan_core.lessons import LEARNER, get_lesson

from .karavan import MOVES, TITLE, Karavan

NAME = "Learner"  # the settings hold no player name: the lesson's own


@pytest.mark.slow
def test_karawane_lesson_played_through_in_a_terminal(karavan: Karavan, tmp_path):
    lesson = get_lesson("karawane")
    match = Match(
        lesson.game, [Seat(NAME), Seat("Greedy", "bot", "greedy")], lesson.seed, lesson.options
    )
    terminal = karavan.start("learn", "karawane")
    steps = len(lesson.steps)
    for number, step in enumerate(lesson.steps, start=1):
        terminal.wait_for(f"step {number} of {steps}")
        terminal.wait_for(step.task[:30])
        for move in lesson.moves[len(match.history) : step.at]:
            match.play(move)
        terminal.settle()
        if not step.decisions:
            terminal.press("n")
            continue
        for move in lesson.moves[step.at : step.end]:
            words = lesson.game.preview(match.view(LEARNER), move)
            terminal.press("a")
            terminal.wait_for(MOVES)
            terminal.settle()
            # Every word of the move, as the list writes it: only that move stays listed.
            terminal.type(" ".join(re.findall(r"[A-Za-z0-9']+", words)))
            terminal.settle()
            terminal.press("enter")
            terminal.wait_gone(MOVES)
            match.play(move)
    terminal.wait_for("Play a real game against Greedy")
    terminal.press("n")  # not now: back to the title
    terminal.wait_for(TITLE)
    terminal.press("q")
    assert terminal.wait_exit() == 0
    settings = json.loads((tmp_path / "settings.json").read_text(encoding="utf-8"))
    assert settings["lessons"] == {"karawane": steps}
