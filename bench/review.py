"""Benchmark of the review and the hint: seconds per judged decision, per hint, per game.

    python bench/review.py [--games GAME,...] [--seed N] [--jobs 2] [--whole-only]
    python bench/review.py --budgets 1000/600,600/300 [--reference 3000/1500] [--decisions 36]

For each game it plays one two-player game, a human seat (played by Greedy,
which makes the mistakes a review is for) against Hard, saves nothing, and:

* reviews the whole game with ``--jobs`` worker processes, as the app does: the
  wall-clock time a player waits for it, how long the progress bar stood still
  first (until the first report of any progress), and the CPU seconds of all
  its processes divided by ``--jobs`` (what the review would take on a machine
  with that many cores to itself, whatever else runs meanwhile);
* judges every decision of the human seat on one core (this process, pinned):
  CPU seconds per judged decision, mean and worst;
* asks for a hint at each of the human's decisions: CPU seconds per hint,
  mean and worst (the app answers a hint from one worker thread).

``--whole-only`` measures the whole review alone.  ``--budgets`` measures what
a budget (open search / each forced search) costs the verdicts instead: every
few of the game's judged decisions (``--decisions`` of them) are judged with
each budget and with a ``--reference`` budget of far larger searches (seeded
apart), and it prints how many verdicts and preferred decisions agree with the
reference's, the mean difference of the chance lost, and the CPU seconds per
judgement (the preferred decision is not searched again, as in the review).

The machine's load average is printed before and after: the wall-clock figures
grow with it.  The targets of issue 56 (a Karakorum game in 20 s, a Jaipur game
in 8 s, with two processes) are printed beside them.  Figures, not tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from karavan_core import Match, Seat, all_games, get_game
from karavan_core.analysis import Analyst, Judgement, review_match
from karavan_core.analysis.review import Task, judge_task, tasks_for
from karavan_core.bots import make_bot
from karavan_core.engine import Game

# Seconds a whole review may take with two processes (issue 56); games not named have none.
TARGETS = {"karakorum": 20.0, "jaipur": 8.0}


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


def cpu_so_far() -> float:
    """CPU seconds this process and its ended worker processes have taken so far."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def whole_review(match: Match, jobs: int) -> tuple[float, float, float]:
    """Wall-clock seconds until the review's bar first moves and until the review is done,
    and the CPU seconds it took in all its processes."""
    start, cpu = time.perf_counter(), cpu_so_far()
    moved: list[float] = []

    def progress(done: float, total: int) -> None:
        if done > 0 and not moved:
            moved.append(time.perf_counter() - start)

    review_match(match, jobs=jobs, progress=progress)
    whole = time.perf_counter() - start
    return (moved[0] if moved else whole), whole, cpu_so_far() - cpu


def cpu_seconds(tasks: list[Task], work: Callable[[Task], object]) -> list[float]:
    """CPU seconds ``work(task)`` takes for each of ``tasks``, on one core."""
    every = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    on_cores({max(every)} if every else None)
    seconds = []
    try:
        for task in tasks:
            start = time.process_time()
            work(task)
            seconds.append(time.process_time() - start)
    finally:
        on_cores(every)
    return seconds


def measure(name: str, seed: int, jobs: int, whole_only: bool) -> dict[str, float]:
    """The figures of one game: the whole review on ``jobs`` processes, then judging and
    hints on one core (unless ``whole_only``)."""
    match = played_game(name, seed)
    tasks = tasks_for(match)
    first, whole, cpu = whole_review(match, jobs)
    figures = {
        "decisions": len(match.history),
        "judged": len(tasks),
        "first": first,
        "whole": whole,
        "shared": cpu / jobs,
    }
    if not whole_only:
        judged = cpu_seconds(tasks, judge_task)
        hints = cpu_seconds(
            tasks, lambda task: Analyst(match.game, task.seed).hint(task.observation, task.legal)
        )
        figures.update(
            judge_mean=statistics.fmean(judged),
            judge_max=max(judged),
            hint_mean=statistics.fmean(hints),
            hint_max=max(hints),
        )
    return figures


def judged_with(
    task: Task, game: Game[Any, Any, Any], budget: tuple[int, int], seed: int
) -> tuple[Judgement, float]:
    """``task``'s decision judged with ``budget``, and the CPU seconds it took."""
    start = time.process_time()
    judgement = Analyst(game, seed, *budget).judge(task.observation, task.legal, task.played)
    return judgement, time.process_time() - start


def budget_figures(
    name: str,
    seed: int,
    budgets: Sequence[tuple[int, int]],
    reference: tuple[int, int],
    decisions: int,
) -> None:
    """Print, for each of ``budgets``, how its verdicts compare with the ``reference``'s."""
    match = played_game(name, seed)
    tasks = tasks_for(match)
    chosen = tasks[:: max(1, len(tasks) // decisions)][:decisions]
    truth = [judged_with(task, match.game, reference, task.seed + 1)[0] for task in chosen]
    wrong = [verdict.value for verdict in (j.verdict for j in truth) if verdict.value != "good"]
    print(f"{name}: {len(chosen)} decisions, reference {reference}: {len(wrong)} not good")
    for budget in budgets:
        judged = [judged_with(task, match.game, budget, task.seed) for task in chosen]
        same = sum(j.verdict == t.verdict for (j, _), t in zip(judged, truth, strict=True))
        best = sum(j.best == t.best for (j, _), t in zip(judged, truth, strict=True))
        error = statistics.fmean(
            abs(j.lost - t.lost) for (j, _), t in zip(judged, truth, strict=True)
        )
        seconds = statistics.fmean(s for _, s in judged)
        print(
            f"  {budget[0]:>5}/{budget[1]:<5} verdicts alike {same}/{len(chosen)}, "
            f"preferred alike {best}, mean |lost - reference's| {error:.4f}, "
            f"{seconds:.3f} s/judged"
        )


def load() -> str:
    """The machine's load average over 1, 5 and 15 minutes, as text."""
    if not hasattr(os, "getloadavg"):
        return "unknown"
    return " ".join(f"{figure:.1f}" for figure in os.getloadavg())


def parse_budget(text: str) -> tuple[int, int]:
    """``"600/300"`` as the iterations (open search, each forced search)."""
    open_iterations, forced = text.split("/")
    return int(open_iterations), int(forced)


def main() -> None:
    """Print one line per game."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", help="comma-separated games (default: all)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="processes for the whole review")
    parser.add_argument("--whole-only", action="store_true", help="time the whole review only")
    parser.add_argument("--budgets", help="compare budgets OPEN/FORCED,... with the reference")
    parser.add_argument("--reference", default="3000/1500", help="the reference's OPEN/FORCED")
    parser.add_argument("--decisions", type=int, default=36, help="decisions to compare")
    args = parser.parse_args()
    names = args.games.split(",") if args.games else [g.name for g in all_games()]
    if args.budgets:
        budgets = [parse_budget(text) for text in args.budgets.split(",")]
        for name in names:
            budget_figures(name, args.seed, budgets, parse_budget(args.reference), args.decisions)
        return
    whole = f"whole game, {args.jobs} jobs"
    header = (
        f"{'game':<10} {'decisions':>9} {'judged':>6} {'bar still':>9} {whole:>20} "
        f"{'CPU/jobs':>8} {'target':>7} {'s/judged':>9} {'worst':>6} {'s/hint':>7} {'worst':>6}"
    )
    print(f"load average before: {load()}")
    print(header)
    print("-" * len(header))
    for name in names:
        f = measure(name, args.seed, args.jobs, args.whole_only)
        target = f"{TARGETS[name]:.0f}s" if name in TARGETS else "-"
        line = (
            f"{name:<10} {f['decisions']:>9} {f['judged']:>6} {f['first']:>8.1f}s "
            f"{f['whole']:>19.1f}s {f['shared']:>7.1f}s {target:>7}"
        )
        if not args.whole_only:
            line += (
                f" {f['judge_mean']:>9.3f} {f['judge_max']:>6.2f} "
                f"{f['hint_mean']:>7.3f} {f['hint_max']:>6.2f}"
            )
        print(line, flush=True)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
