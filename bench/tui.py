"""Benchmarks of the terminal app: start-up time and key-to-table latency.

Run with ``python bench/tui.py``.  It prints its figures; it asserts nothing.

* **Start-up**: from launching a fresh Python process to the title screen's
  first frame (Textual's ``Ready`` event), headless, median of several runs.
  Target: under 1 s.
* **Latency**: in an 80x24 Pilot session, from a key that applies a decision
  (Enter on the resource deck: draw; ``u``: undo it) to the first frame drawn
  after the game changed; also until Pilot finds every widget idle (which adds
  Pilot's own round trip through every widget).  Median, early and late in a
  game.  Target: under 50 ms.
* **Rules**: from F1 on the title to the first frame of the rules screen (the opening of
  the first game's rules), and until the rest of that game's rules is laid out (a
  section a frame, keys answered in between).  Median.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

START_RUNS = 5
KEY_ROUNDS = 40
RULES_ROUNDS = 8


def child_title(saves: str) -> None:
    """Run the app headless and exit as soon as the title screen is shown."""
    from karavan_tui.app import KaravanApp
    from karavan_tui.config import AppConfig

    class Probe(KaravanApp):
        def on_ready(self) -> None:
            print("READY", flush=True)
            self.exit()

    folder = Path(saves)
    Probe(AppConfig(saves_dir=folder, settings_path=folder / "settings.json")).run(headless=True)


def startup_times(runs: int) -> list[float]:
    """Seconds from process launch to the first frame of the title, per run."""
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, __file__, "--child-title", folder],
                capture_output=True,
                text=True,
                check=True,
            )
            elapsed = time.perf_counter() - start
            assert "READY" in done.stdout, done.stderr
            times.append(elapsed)
    return times


def stamped_frames(app: Any, wanted: Callable[[Any], bool]) -> list[float]:
    """The times of the frames ``app`` draws from now on of a screen that is ``wanted``
    (a list that fills as they are drawn)."""
    frames: list[float] = []
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> Any:
        if wanted(screen):
            frames.append(time.perf_counter())
        return display(screen, renderable)

    app._display = timed_display
    return frames


async def key_latencies(moves_before: int, rounds: int) -> tuple[list[float], list[float]]:
    """Per decision key (alternately draw and undo): seconds to the first frame drawn after
    the game changed, and seconds until Pilot finds every widget idle."""
    import random

    from karavan_core.match import Match, Seat
    from karavan_core.registry import get_game
    from karavan_tui.app import create_app
    from karavan_tui.config import AppConfig
    from karavan_tui.widgets.cards import CardRow

    game = get_game("karakum")
    match = Match(game, [Seat("Ann"), Seat("Bot", "bot", "random")], 7, {"first_player": 0})
    rng = random.Random(7)
    while len(match.history) < moves_before or match.to_move != 0:
        match.play(rng.choice(match.legal_actions()))
    with tempfile.TemporaryDirectory() as folder:
        config = AppConfig(
            saves_dir=Path(folder),
            settings_path=Path(folder) / "settings.json",
            bot_delay=3600.0,  # the bot never answers inside a measurement
            animations=False,
        )
        app = create_app(config, (match, Path(folder) / "bench.json"))
        marker = {"decisions": -1}
        # The frames drawn after the change.
        frames = stamped_frames(app, lambda _: len(match.history) != marker["decisions"])
        to_frame, to_idle = [], []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            table = app.screen.query_one("#resources", CardRow)
            table.focus()
            table.cursor = 0  # the deck: Enter draws
            await pilot.pause()
            for _ in range(rounds):
                for key in ("enter", "u"):
                    marker["decisions"] = len(match.history)
                    frames.clear()
                    start = time.perf_counter()
                    await pilot.press(key)
                    to_idle.append(time.perf_counter() - start)
                    while not frames:
                        await asyncio.sleep(0.001)
                    to_frame.append(frames[0] - start)
                    assert len(match.history) != marker["decisions"], "the key changed nothing"
                    await pilot.pause(0.02)
    return to_frame, to_idle


async def rules_latencies(rounds: int) -> tuple[list[float], list[float]]:
    """Per F1 on the title: seconds to the rules screen's first frame, and until the whole
    of the first game's rules is laid out."""
    from karavan_tui.app import create_app
    from karavan_tui.config import AppConfig
    from karavan_tui.screens.rules import RulesScreen

    with tempfile.TemporaryDirectory() as folder:
        config = AppConfig(
            saves_dir=Path(folder), settings_path=Path(folder) / "settings.json", animations=False
        )
        app = create_app(config)
        frames = stamped_frames(app, lambda screen: isinstance(screen, RulesScreen))
        to_frame, to_whole = [], []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(rounds):
                frames.clear()
                start = time.perf_counter()
                await pilot.press("f1")
                while not frames:
                    await asyncio.sleep(0.001)
                to_frame.append(frames[0] - start)
                while not isinstance(app.screen, RulesScreen) or app.screen.pending:
                    await asyncio.sleep(0.001)
                to_whole.append(time.perf_counter() - start)
                await pilot.press("escape")
                await pilot.pause(0.05)
    return to_frame, to_whole


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child-title", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=START_RUNS, help="start-up runs")
    parser.add_argument("--rounds", type=int, default=KEY_ROUNDS, help="draw/undo rounds")
    args = parser.parse_args()
    if args.child_title:
        child_title(args.child_title)
        return
    starts = startup_times(args.runs)
    print(
        f"start to interactive title: median {ms(statistics.median(starts))} "
        f"(min {ms(min(starts))}, max {ms(max(starts))}, {len(starts)} runs; target < 1 s)"
    )
    for moves in (0, 120):
        to_frame, to_idle = asyncio.run(key_latencies(moves, args.rounds))
        print(
            f"key to updated table at 80x24 after {moves} decisions: median "
            f"{ms(statistics.median(to_frame))} to the first new frame "
            f"(p90 {ms(statistics.quantiles(to_frame, n=10)[-1])}; target < 50 ms); "
            f"median {ms(statistics.median(to_idle))} until Pilot sees every widget idle "
            f"({len(to_frame)} keys)"
        )
    to_frame, to_whole = asyncio.run(rules_latencies(RULES_ROUNDS))
    print(
        f"F1 to the rules at 80x24: median {ms(statistics.median(to_frame))} to the first "
        f"frame, {ms(statistics.median(to_whole))} until the game's rules are all laid out "
        f"({len(to_frame)} times)"
    )


if __name__ == "__main__":
    main()
