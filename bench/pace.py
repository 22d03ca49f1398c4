"""Benchmark of the bots' pace at the table: how long a human waits for the bots.

Run with ``python bench/pace.py``.  It prints its figures; it asserts nothing.

In the real app (headless, 80x24, the default pause before a bot's turn and
Hard bots, the level the New game dialog offers; ``--level random`` shows the
pacing alone, as a Random bot takes no time to choose), the humans of a table play
seeded random decisions; after each one that hands the table to the bots, the
clock runs until a human decides again: until it is a human's turn and no bot is
thinking (the curtain of a hot-seat table counts as that turn).  Per game and
table: the median, the 90th percentile and the longest of those waits, the
median wall-clock seconds the bots' searches took in a wait (the machine's load
stretches them, and so does the table being drawn meanwhile: both share one
interpreter), and how many bot decisions and bot turns (a bot's decisions in a
row) a wait holds.  Target, with two bots or more: a whole round of the bots'
decisions in under 3 s.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import frozen

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from karavan_core.engine import Action
    from karavan_core.match import Match

TABLES = {  # LEVEL stands for the bots' level
    "1 bot": "Ann,bot:LEVEL",
    "2 bots": "Ann,bot:LEVEL,bot:LEVEL",
    "2 humans, 2 bots": "Ann,bot:LEVEL,Bea,bot:LEVEL",
}
GAMES = ("karakorum", "karakum", "karawane", "jaipur")


@frozen
class Wait:
    """One wait of the humans: its seconds, the bots' thinking in it (wall-clock seconds
    of their searches, pauses left out), and the bots' decisions and turns in it."""

    seconds: float
    thinking: float
    decisions: int
    turns: int


def turns(actors: list[int]) -> int:
    """How many turns (runs of one seat's decisions) ``actors``, the seat of each decision, hold."""
    return sum(1 for i, seat in enumerate(actors) if i == 0 or actors[i - 1] != seat)


THINKING: list[float] = []  # the seconds of every bot decision's search, in order


def time_the_bots() -> None:
    """Make every bot decision at the table add the seconds of its search to THINKING."""
    from karavan_core.referee import BotTurn

    choose = BotTurn.choose

    def timed(turn: BotTurn) -> Action:
        start = time.perf_counter()
        try:
            return choose(turn)
        finally:
            THINKING.append(time.perf_counter() - start)

    setattr(BotTurn, "choose", timed)  # noqa: B010 - the method replaced, as mypy would refuse


async def waits(game_name: str, seats: str, count: int, seed: int, delay: float) -> list[Wait]:
    """The first ``count`` waits of a game of ``seats`` (fewer if the game ends first)."""
    from karavan_core.match import Match, Seat
    from karavan_core.registry import get_game
    from karavan_tui.app import create_app
    from karavan_tui.config import AppConfig

    game = get_game(game_name)
    parsed = [Seat.parse(text, i) for i, text in enumerate(seats.split(","))]
    match = Match(game, parsed, seed, {"first_player": 0})
    with tempfile.TemporaryDirectory() as folder:
        config = AppConfig(
            saves_dir=Path(folder),
            settings_path=Path(folder) / "settings.json",
            bot_delay=delay,
            animations=False,
        )
        app = create_app(config, (match, Path(folder) / "bench.json"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return await play_waits(pilot, match, random.Random(seed), count)


async def play_waits(pilot: Pilot[Any], match: Match, rng: random.Random, count: int) -> list[Wait]:
    """Play the humans' decisions at random and time the waits for the bots between them."""
    from karavan_tui.modals.curtain import CurtainScreen
    from karavan_tui.screens.play import LocalPlay
    from karavan_tui.screens.table import TableScreen

    app = pilot.app
    # Under the curtain, at a hot-seat table whose first player is human.
    driver = next(s for s in app.screen_stack if isinstance(s, TableScreen)).driver
    assert isinstance(driver, LocalPlay)  # a hot-seat table is played locally

    def humans_turn() -> bool:
        seat = match.to_move
        return seat is None or (not match.seats[seat].is_bot and not driver.thinking)

    out: list[Wait] = []
    while len(out) < count and not match.is_over():
        while not humans_turn():  # the bots of the deal, before the first measure
            await asyncio.sleep(0.005)
        if isinstance(app.screen, CurtainScreen):
            await pilot.press("enter")
            await pilot.pause()
        if match.is_over():
            break
        played, thought = len(match.history), len(THINKING)
        start = time.perf_counter()
        driver.decide(rng.choice(match.legal_actions()))
        while not humans_turn():
            await asyncio.sleep(0.005)
        seconds = time.perf_counter() - start
        actors = [match.actor(i) for i in range(played + 1, len(match.history))]
        if actors:
            thinking = sum(THINKING[thought:])
            out.append(Wait(seconds, thinking, len(actors), turns(actors)))
    driver.stop()
    return out


def main() -> None:
    """Measure and print."""
    from karavan_tui.config import DEFAULT_BOT_DELAY

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waits", type=int, default=15, help="waits measured per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--delay", type=float, default=DEFAULT_BOT_DELAY, help="pause (s)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--level", default="hard", help="the bots' level")
    args = parser.parse_args()
    print(
        f"pause {args.delay:g} s, {args.level} bots, {args.waits} waits per table, seed {args.seed}"
    )
    time_the_bots()
    print(
        "game       table             median    p90    max  thinking (median)"
        "  bot decisions  bot turns"
    )
    for game in args.games.split(","):
        for label, seats in TABLES.items():
            if game == "jaipur" and seats.count(",") > 1:
                continue  # a game for two
            seats = seats.replace("LEVEL", args.level)
            found = asyncio.run(waits(game, seats, args.waits, args.seed, args.delay))
            if not found:
                continue
            secs = sorted(w.seconds for w in found)
            p90 = secs[min(len(secs) - 1, round(0.9 * (len(secs) - 1)))]
            thinking = statistics.median(w.thinking for w in found)
            decisions = statistics.mean(w.decisions for w in found)
            turns = statistics.mean(w.turns for w in found)
            print(
                f"{game:<10} {label:<16} {statistics.median(secs):6.2f} s {p90:5.2f} s "
                f"{secs[-1]:5.2f} s   {thinking:6.2f} s       {decisions:8.1f}      {turns:6.1f}"
                f"   ({len(found)} waits)"
            )


if __name__ == "__main__":
    main()
