"""The installed command, as a new player uses it: a game against Hard, undo, save, resume.

Each test starts ``karavan`` in a pseudo-terminal, fills in the New game dialog
by keys, makes a few decisions from the move list, takes the last one back,
saves under a name and quits; then ``karavan resume`` must show the same table,
redo must still bring the decision back, and the Load dialog reviews the game
so far, as the app's own processes judge it.  One game at 80x24 runs in the
default test run; every game at both sizes runs with the slow checks.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from karavan_core import Match, load_match
from karavan_core.analysis.review import tasks_for

from .karavan import (
    PLAYER,
    SEED,
    TITLE,
    Karavan,
    decide_from_move_list,
    new_game_by_keys,
    prompt_pattern,
    quit_app,
    table,
    type_over,
    wait_for_review,
    wait_for_table,
    wait_for_turn,
    wait_until_selected,
)
from .terminal import Box, Terminal

# Keys in the move list for each decision: the first decision listed, the second, the first.
DECISIONS: tuple[tuple[str, ...], ...] = ((), ("down",), ())

# Issue 26: after undo and after resume, Jaipur's market cards may change slots.  Until
# that is settled the market is compared by which cards it shows, not where.
ORDER_FREE = {"Jaipur": {"Market"}}

SIZES = {"80x24": (80, 24), "200x50": (200, 50)}
FAST = ("Karawane", "80x24")  # the one that runs by default


def cases() -> list[Any]:
    """Every game at every size; all but one are slow."""
    params = []
    for title in ("Karakum", "Karawane", "Karakorum", "Jaipur"):
        for size in SIZES:
            marks = () if (title, size) == FAST else (pytest.mark.slow,)
            params.append(pytest.param(title, size, marks=marks, id=f"{title.lower()}-{size}"))
    return params


def comparable(boxes: dict[str, Box], order_free: set[str]) -> dict[str, object]:
    """The boxes as compared: each line's words, sorted where slots may move."""
    seen: dict[str, object] = {}
    for name, box in boxes.items():
        if name in order_free:
            seen[name] = (box.title, [sorted(line.split()) for line in box.inside], box.bottom)
        else:
            seen[name] = box
    return seen


def prompt(terminal: Terminal) -> str:
    """What the status line asks of the player (without the quiet indicators after it)."""
    found = prompt_pattern().search(terminal.text())
    assert found is not None
    line = terminal.text()[found.start() :].splitlines()[0]
    return re.split(r"\s{2,}", line.strip())[0]


def wait_until_undone(terminal: Terminal, karavan: Karavan, decisions: int) -> Match:
    """Wait until the game is back at ``decisions`` on the screen and waits for the player."""
    return wait_for_table(terminal, karavan, lambda n: n == decisions, f"{decisions} decisions")


def quit_from_table(terminal: Terminal) -> None:
    """``q`` back to the title, ``q`` again to quit; the command ends with status 0."""
    terminal.press("q")
    terminal.wait_for(TITLE)
    terminal.settle()
    terminal.press("q")
    assert terminal.wait_exit() == 0


@pytest.mark.parametrize(("title", "size"), cases())
def test_a_game_against_hard_by_keys_then_undo_save_quit_and_resume(
    karavan: Karavan, title: str, size: str
) -> None:
    order_free = ORDER_FREE.get(title, set())
    terminal = karavan.start(size=SIZES[size])
    new_game_by_keys(terminal, title)
    match = wait_for_turn(terminal, karavan, -1)
    assert match.game.title == title and match.seed == SEED
    assert [(seat.name, seat.kind, seat.level) for seat in match.seats] == [
        (PLAYER, "human", None),
        ("Hard bot", "bot", "hard"),
    ]
    for keys in DECISIONS:
        before, made = table(terminal), len(match.history)
        decide_from_move_list(terminal, *keys)
        match = wait_for_turn(terminal, karavan, made)
    decided = len(match.history)

    terminal.press("u")  # back to before the last decision, the bot's answers with it
    match = wait_until_undone(terminal, karavan, made)
    assert len(match.redo_actions) == decided - made
    assert comparable(table(terminal), order_free) == comparable(before, order_free)
    shown, asked, header = table(terminal), prompt(terminal), terminal.lines()[0]

    name = f"e2e {title.lower()}"
    terminal.press("s")
    terminal.wait_for("Save the game as")
    suggested = karavan.autosave_path().stem
    type_over(terminal, wait_until_selected(terminal, suggested), suggested, name)
    terminal.press("enter")
    terminal.wait_gone("Save the game as")
    saved = karavan.saves / f"{name}.json"
    terminal.wait_until(lambda _: saved.exists(), f"the save {saved.name}")
    assert [path.name for path in karavan.saves.glob("*.json")] == [saved.name]
    quit_from_table(terminal)
    assert len(load_match(saved).history) == made

    again = karavan.start("resume", size=SIZES[size])
    wait_until_undone(again, karavan, made)
    # The header's icon is a widget of its own: on a busy machine it can be drawn after a pause.
    again.wait_until(lambda _: again.lines()[0] == header, f"the header {header.strip()!r}")
    assert prompt(again) == asked
    assert comparable(table(again), order_free) == comparable(shown, order_free)
    again.press("r")  # the undone decision is still there to redo
    match = wait_for_turn(again, karavan, made)
    assert len(match.history) == decided

    again.press("q")  # to the title, then the review of the game so far from the Load dialog
    again.wait_for(TITLE)
    again.settle()
    again.press("l")
    again.wait_for(saved.name)
    again.settle()
    again.press("v")
    again.wait_for(f"Review of {title}")
    wait_for_review(again, len(tasks_for(match)))
    quit_app(again)
