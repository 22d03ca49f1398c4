"""Benchmark of the review and the hint: seconds per judged decision, per hint, per game.

    python bench/review.py [--games GAME,...] [--seed N] [--jobs 2]

For each game it plays one two-player game, a human seat (played by Greedy,
which makes the mistakes a review is for) against Hard, saves nothing, and:

* judges every decision of the human seat on one core (this process, pinned):
  CPU seconds per judged decision, mean and worst;
* reviews the whole game again with ``--jobs`` worker processes: the wall-clock
  time a player waits for the review of a whole game;
* asks for a hint at each of the human's decisions: CPU seconds per hint,
  mean and worst (the app answers a hint from one worker thread).

Figures, not tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from karavan_core import Match, Seat, all_games, get_game
from karavan_core.analysis import Analyst, review_match
from karavan_core.analysis.review import judge_task, tasks_for
from karavan_core.bots import make_bot


def played_game(name: str, seed: int) -> Match:
    """A finished two-player game: a human seat played by Greedy, against Hard."""
    game = get_game(name)
    match = Match(game, [Seat("Ann"), Seat("Hal", "bot", "hard")], seed, {"first_player": 0})
    bots = [make_bot("greedy", game, seed), make_bot("hard", game, seed + 1)]
    while not match.is_over():
        seat = match.to_move
        assert seat is not None
        match.play(bots[seat].choose(game.observe(match.state, seat), match.legal_actions()))
    return match


def on_cores(cores: set[int] | None) -> None:
    """Run on ``cores`` (child processes inherit them); ``None``: where the system allows."""
    if cores is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)


def measure(name: str, seed: int, jobs: int) -> dict[str, float]:
    """The figures of one game: judging and hints on one core, the whole review on all."""
    every = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    one = {max(every)} if every else None
    match = played_game(name, seed)
    tasks = tasks_for(match)
    on_cores(one)
    judged = []
    for task in tasks:
        start = time.process_time()
        judge_task(task)
        judged.append(time.process_time() - start)
    hints = []
    for task in tasks:
        analyst = Analyst(match.game, task.seed)
        start = time.process_time()
        analyst.hint(task.observation, task.legal)
        hints.append(time.process_time() - start)
    on_cores(every)
    start = time.perf_counter()
    review_match(match, jobs=jobs)
    whole = time.perf_counter() - start
    return {
        "decisions": len(match.history),
        "judged": len(tasks),
        "judge_mean": statistics.fmean(judged),
        "judge_max": max(judged),
        "whole": whole,
        "hint_mean": statistics.fmean(hints),
        "hint_max": max(hints),
    }


def main() -> None:
    """Print one line per game."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", help="comma-separated games (default: all)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="processes for the whole review")
    args = parser.parse_args()
    names = args.games.split(",") if args.games else [g.name for g in all_games()]
    whole = f"whole game, {args.jobs} jobs"
    header = (
        f"{'game':<10} {'decisions':>9} {'judged':>6} {'s/judged':>9} {'worst':>6} "
        f"{whole:>20} {'s/hint':>7} {'worst':>6}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        f = measure(name, args.seed, args.jobs)
        print(
            f"{name:<10} {f['decisions']:>9} {f['judged']:>6} {f['judge_mean']:>9.3f} "
            f"{f['judge_max']:>6.2f} {f['whole']:>19.1f}s {f['hint_mean']:>7.3f} "
            f"{f['hint_max']:>6.2f}"
        )


if __name__ == "__main__":
    main()
