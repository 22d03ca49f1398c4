"""A hint asked just before a picker opens, in the installed command as a terminal draws it.

The Expert works the hint out while the picker opens: when it comes, the
picker flags it and the status line beneath the picker says it (a covered
screen is drawn again only when asked; a Pilot test reads every screen afresh
and cannot see this).
"""

from __future__ import annotations

import random
import re

import pytest

from karavan_core import Match, Seat, get_game, save_match
from karavan_core.engine import Action
from karavan_core.games.karakorum.state import KarakorumState, Place, Step
from karavan_tui.tables.karakorum.gestures import EXP_ROW, turn_places

from .karavan import PLAYER, Karavan, prompt_pattern

SAVE = "scoring"


def scoring_position() -> tuple[Match, list[Action]]:
    """Ann (against Hard) placing in Karakorum, the table's cursor on an expedition of hers
    that has two decisions or more: Enter there opens its picker."""
    game = get_game("karakorum")
    for seed in range(200):
        match = Match(game, [Seat(PLAYER), Seat("Hal", "bot", "hard")], seed, {"first_player": 0})
        rng = random.Random(seed)
        while not match.is_over() and len(match.history) < 400:
            legal = match.legal_actions()
            state = match.state
            assert isinstance(state, KarakorumState)
            if match.to_move == 0 and state.step is Step.PLACE and not state.held[0]:
                row, index = turn_places(game.observe(state, 0), legal)[0]
                on = [a for a in legal if getattr(a, "expedition", None) == index]
                if row == EXP_ROW and len(on) >= 2:
                    return match, on
            grow = [a for a in legal if isinstance(a, Place) and a.expedition is not None]
            match.play(rng.choice(grow or legal))
    raise AssertionError("no such position")


@pytest.mark.slow
def test_a_hint_that_comes_as_a_picker_opens_shows_in_it_and_beneath_it(karavan: Karavan):
    match, options = scoring_position()
    karavan.saves.mkdir(parents=True, exist_ok=True)
    save_match(match, karavan.saves / f"{SAVE}.json")
    terminal = karavan.start("resume", f"{SAVE}.json")
    terminal.wait_for(prompt_pattern())
    terminal.settle()
    terminal.press("h", "enter")  # the hint is worked out while the picker opens
    terminal.wait_for("what now?")
    terminal.wait_for(re.compile(r"^ Hint \(\d+% to win\)", re.M))  # beneath the picker
    assert "Looking for a hint" not in terminal.text()
    terminal.wait_for("(hint)")
    terminal.press("enter")  # the picker's cursor is on the hint
    terminal.wait_gone("what now?")
    saved = terminal.wait_until(
        lambda _: (game := karavan.autosave()) and len(game.history) > len(match.history) and game,
        "the hinted decision played",
    )
    assert isinstance(saved, Match) and saved.history[len(match.history)] in options
