"""The installed command, as two players at a live `karavan serve` table on loopback see its
clocks: both clocks on both screens, the same on each, the one to move counting down."""

from __future__ import annotations

import re

import pytest

from .terminal import Terminal
from .test_online_chat import two_at_a_table

CLOCK = re.compile(r"(\d+):(\d\d) \+ (\d+):(\d\d)")


def clocks(terminal: Terminal) -> dict[str, tuple[bool, int]]:
    """The clocks read off the screen's Clocks box: by name, whether it runs (the one to
    move, marked) and the seconds it shows (move time and bank together)."""
    box = terminal.boxes().get("Clocks")
    shown: dict[str, tuple[bool, int]] = {}
    for line in box.inside if box is not None else ():
        found = CLOCK.search(line)
        words = line.split()
        if found is None or not words:
            continue
        running = words[0] == "▶"
        name = words[1] if running else words[0]
        m, s, bm, bs = (int(part) for part in found.groups())
        shown[name] = (running, m * 60 + s + bm * 60 + bs)
    return shown


def both(terminal: Terminal) -> dict[str, tuple[bool, int]] | None:
    """Both players' clocks, once both are on the screen."""
    shown = clocks(terminal)
    return shown if set(shown) == {"Ann", "Bob"} else None


@pytest.mark.slow
async def test_both_players_see_both_clocks_and_the_one_to_move_counts_down(tmp_path):
    live = {"clock": "live", "move_seconds": 60, "bank_seconds": 300}  # a minute a move + 5 min
    async with two_at_a_table(tmp_path, **live) as (ann, bob):
        ann.wait_until(lambda _: both(ann), "both clocks on Ann's screen")
        bob.wait_until(lambda _: both(bob), "both clocks on Bob's screen")
        for terminal in (ann, bob):  # each screen as it is now, read a moment apart
            terminal.read_for(0.3)
        first_ann, first_bob = clocks(ann), clocks(bob)
        mover = next(name for name, (running, _) in first_ann.items() if running)
        waiting = "Bob" if mover == "Ann" else "Ann"
        assert first_bob[mover][0] and not first_bob[waiting][0]  # the same on both screens
        assert first_ann[waiting] == first_bob[waiting] == (False, 360)  # a move + the bank
        assert abs(first_ann[mover][1] - first_bob[mover][1]) <= 3
        # The one to move counts down on both screens: waited for, not slept on.
        for terminal, before in ((ann, first_ann), (bob, first_bob)):

            def counted(_: str, terminal: Terminal = terminal, was: int = before[mover][1]) -> bool:
                return clocks(terminal).get(mover, (True, was))[1] < was

            terminal.wait_until(counted, f"{mover}'s clock counting down")
            now = clocks(terminal)
            assert now[mover][1] < before[mover][1] <= 360, terminal.text()
            assert now[waiting] == (False, 360)
