"""The bots' pace at a local table: one pause per bot turn, and a key that skips the pauses."""

from __future__ import annotations

import random

import pytest

from karavan_core import pacing

from .helpers import game_screen, seeded_match, settle, start_with


class Clock:
    """A stand-in for the bots' pacing clock: a sleep passes no real time and is counted."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def runs(seats: list[int]) -> list[int]:
    """The lengths of the turns (runs of one seat's decisions in a row) in ``seats``."""
    out: list[int] = []
    for i, seat in enumerate(seats):
        if i and seats[i - 1] == seat:
            out[-1] += 1
        else:
            out.append(1)
    return out


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        # Karakorum's turns hold the most decisions: the others are slow checks.
        ("karakorum", "Ann,bot:random,bot:random"),
        pytest.param("karakum", "Ann,bot:random,bot:random", marks=pytest.mark.slow),
        pytest.param("karawane", "Ann,bot:random,bot:random", marks=pytest.mark.slow),
        pytest.param("jaipur", "Ann,bot:random", marks=pytest.mark.slow),
    ],
)
async def test_the_bots_pause_once_a_turn_not_once_a_decision(tmp_path, monkeypatch, game, seats):
    """Between two of Ann's decisions the table pauses once for each bot turn, however many
    decisions the turn holds (Karakorum's reveals, takes and placings; Karakum's two draws)."""
    clock = Clock()
    monkeypatch.setattr(pacing, "time", clock)
    monkeypatch.setattr(pacing, "sleep", clock.sleep)
    match = seeded_match(game, seats)
    app = start_with(tmp_path, match)
    app.config.bot_delay = 0.6
    rng = random.Random(5)
    longest = 0
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = game_screen(app)
        for _ in range(10):  # ten of Ann's turns: enough for bot turns of several decisions
            if match.is_over():
                break
            assert match.to_move == 0
            played, before = len(match.history), clock.now
            assert screen.decide(rng.choice(match.legal_actions()))
            await settle(pilot, app)
            while app.screen is not screen and not match.is_over():  # Jaipur's round summary
                await pilot.press("enter")
                await settle(pilot, app)
            bots = [match.actor(i) for i in range(played + 1, len(match.history))]
            turns = runs(bots)
            assert clock.now - before == pytest.approx(0.6 * len(turns))
            longest = max([longest, *turns])
    # A Karawane or Jaipur turn is one decision: there the pace is what it was.
    if game in ("karakorum", "karakum"):
        assert longest > 1  # some bot turn held several decisions, and paused once


def offered(app) -> set[str]:
    """The actions of the keys the Footer shows now."""
    return {active.binding.action for active in app.screen.active_bindings.values()}


async def wait_for_turn_of(pilot, match, seat: int) -> None:
    """Let the app run until ``seat`` is to move, for 15 s at most."""
    for _ in range(300):
        if match.to_move == seat:
            return
        await pilot.pause(0.05)
    raise AssertionError(f"seat {seat} never came to move")


async def test_n_skips_the_pauses_up_to_the_next_human_turn(tmp_path):
    """The bots would wait a minute before each turn: n (shown in the Footer only while
    they move) lets them play on at once, and the pauses come back after Ann's decision."""
    match = seeded_match("karakorum", "Ann,bot:random,bot:random", first=1)
    app = start_with(tmp_path, match)
    app.config.bot_delay = 60.0
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        driver = game_screen(app).driver
        assert driver.thinking and match.history == []
        assert "skip" in offered(app) and "hint" not in offered(app)
        await pilot.press("n")
        await wait_for_turn_of(pilot, match, 0)
        await settle(pilot, app)
        assert len(match.history) > 2 and not driver.hurrying
        assert "skip" not in offered(app) and "hint" in offered(app)
        while match.to_move == 0:
            await pilot.press("a", "enter")  # Ann's first listed decision
            await pilot.pause()
        played = len(match.history)
        await pilot.pause(0.3)
        assert driver.thinking and len(match.history) == played  # the bot waits again
        driver.cancel_bot()
