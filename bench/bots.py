"""Benchmarks of the bots: search speed and seat-swapped strength tournaments.

    python bench/bots.py report [--count N] [--many A-B] [--count-many N] [--positions N]
                                [--seed N] [--jobs N] [--json FILE]
    python bench/bots.py speed [--games GAME,...] [--players N] [--positions N] [--levels L,...]
                               [--baseline COMMIT|PATH --rounds 3]
    python bench/bots.py strength [--games GAME,...] [--pairings A-B,...] [--count N]
                                  [--players N] [--seed N] [--jobs N] [--json FILE]

``report`` is docs/performance.md's whole strength report in one run: every pairing
of ``--pairings`` in every game at two players (by default the issue's:
Expert against Hard, Hard against the Hard of before, hard-v1, and Hard
against Greedy; 400 games each), then at three players and at four one
tournament of ``--many`` (one Expert, Hard in the other seats) in every game
that seats that many, then ``speed`` for every level, game and table size.
With ``--json`` every tournament finished so far is written after each one,
so a long report keeps what it did.

``speed`` plays random games and, at sampled positions, times one decision of
each level (and of a hint and of a review's judgement of the decision, both
by the Expert search, as the app asks for them): CPU seconds per decision
(mean, 95th percentile, worst) and, for
the search levels, iterations per second, at every table size (or
``--players``).  With ``--baseline`` (a commit, or the path of a checkout or
of its ``src/``, as for ``bench/engine.py``) it times the same positions with
this tree and with the baseline, each in a fresh process on one core,
alternately ``--rounds`` times, and prints the medians (CPU time), how many
times faster this tree decides, and whether it took the same decisions.
``strength`` runs one tournament per game and pairing (the same as
``karavan simulate GAME --seats A,B --games N``) and prints a Markdown table
of the first level's win rate with its 95% interval.  Figures, not tests:
nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import hard_v1  # noqa: F401 - registers the hard-v1 level, here and in the workers
from engine import ROOT, baseline_source, pin_to_one_core
from karavan_core import game_names, get_game
from karavan_core.bots import SearchBot
from karavan_core.engine import Action, Game, Observation
from karavan_core.tournament import (
    GameRecord,
    LevelSummary,
    Summary,
    report_dict,
    run_tournament,
    schedule,
    summarize,
)

Decide = Callable[[Observation, Sequence[Action]], Action]  # a decision, as a level takes it

# The targets: Expert over Hard, the new Hard over the old, Hard over Greedy;
# at larger tables one Expert against Hard in every other seat.
DEFAULT_PAIRINGS = "expert-hard,hard-hard-v1,hard-greedy"
DEFAULT_MANY = "expert-hard"


# Besides the bot levels, the speed table times what the app asks the Expert search for:
# a hint, and the review's judgement of one decision (the one played taken as the first).
ADVICE = ("hint", "review")


def decider(level: str, game: Game[Any, Any, Any], seed: int) -> tuple[Decide, SearchBot | None]:
    """What ``level`` does at a decision, as ``(decide(observation, legal), search)``.

    ``search`` is the :class:`SearchBot` whose ``last_iterations`` count the
    work of the latest decision: ``None`` for levels that do not search, and
    for a review's judgement, which runs two or three searches.
    """
    from karavan_core.analysis import Analyst
    from karavan_core.bots import make_bot

    if level in ADVICE:
        analyst = Analyst(game, seed)
        if level == "hint":
            return (lambda seen, legal: analyst.hint(seen, legal).action), analyst.open
        return (lambda seen, legal: analyst.judge(seen, legal, legal[0]).best), None
    bot = make_bot(level, game, seed)
    return bot.choose, (bot if isinstance(bot, SearchBot) else None)


def decision_times(
    name: str,
    level: str,
    positions: int,
    players: int,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[list[float], int, list[str]]:
    """Seconds for one decision of ``level`` at each of ``positions`` sampled positions.

    ``level`` is a bot level or one of :data:`ADVICE`.  The positions come
    from seeded random games (every ninth decision from the fifth on), the
    same with any version of the engine; returns the times, the search
    iterations they ran (0 for levels that do not search) and the decisions
    taken, as text that is the same in every process.
    """
    from karavan_core.bots.base import canonical

    game = get_game(name)
    times: list[float] = []
    choices: list[str] = []
    iterations = 0
    seed = 0
    while len(times) < positions:
        state = game.new_game([f"P{i}" for i in range(players)], seed)
        rng = random.Random(seed)
        decide, search = decider(level, game, seed)
        step = 0
        while not game.is_over(state) and len(times) < positions:
            legal = game.legal_actions(state)
            if step % 9 == 4 and len(legal) > 1:
                observation = game.observe(state, state.to_move)
                start = clock()
                choice = decide(observation, legal)
                times.append(clock() - start)
                choices.append(canonical(choice))
                if search is not None:
                    iterations += search.last_iterations
            state = game.apply_legal(state, legal[rng.randrange(len(legal))])
            step += 1
        seed += 1
    return times, iterations, choices


SPEED_LEVELS = "random,greedy,hard,expert,hint,review"


def speed(games: list[str], positions: int, players: int | None, levels: list[str]) -> None:
    """Print seconds per decision (mean, 95th percentile, worst) per game, table size and level.

    CPU time of this process, so other work on the machine slows it less than
    it would the wall clock; ``players`` ``None`` times every table size.
    """
    print(
        "| game | players | level | s/decision: mean | p95 | worst | iterations/s |\n"
        "|---|---|---|---|---|---|---|"
    )
    for name in games:
        game = get_game(name)
        sizes = [players] if players else list(range(game.min_players, game.max_players + 1))
        for size in sizes:
            for level in levels:
                times, iterations, _ = decision_times(
                    name, level, positions, size, time.process_time
                )
                total = sum(times)
                rate = f"{iterations / total:,.0f}" if iterations else "–"
                print(
                    f"| {game.title} | {size} | {level} | {total / len(times):.3f} | "
                    f"{percentile(times, 0.95):.3f} | {max(times):.3f} | {rate} |",
                    flush=True,
                )


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def speed_worker(name: str, level: str, positions: int, players: int) -> None:
    """Time one level in this process (whichever engine is on the path); print JSON."""
    times, iterations, choices = decision_times(name, level, positions, players, time.process_time)
    total = sum(times)
    print(json.dumps({"mean": total / len(times), "rate": iterations / total, "choices": choices}))


def speed_against(args: argparse.Namespace, games: list[str]) -> None:
    """Seconds per decision of this tree and of the baseline, alternately in fresh processes."""
    levels = [level.strip() for level in args.levels.split(",")]
    players = args.players or 2
    with tempfile.TemporaryDirectory() as tmp:
        sources = {"this": ROOT / "src", "base": baseline_source(args.baseline, Path(tmp))}
        print(
            f"{players} players, {args.positions} positions, median of {args.rounds} "
            f"alternate runs (CPU time, one core); baseline {args.baseline}\n"
        )
        print(
            "| game | level | s/decision | baseline | times faster | "
            "iterations/s | baseline | same decisions |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name in games:
            for level in levels:
                runs: dict[str, list[dict[str, Any]]] = {"this": [], "base": []}
                for round_ in range(args.rounds):
                    order = ["this", "base"] if round_ % 2 == 0 else ["base", "this"]
                    for side in order:
                        env = dict(os.environ, PYTHONPATH=str(sources[side]))
                        command = [sys.executable, __file__, "speed-worker", "--games", name]
                        command += ["--levels", level, "--positions", str(args.positions)]
                        command += ["--players", str(players)]
                        out = subprocess.run(
                            command, env=env, capture_output=True, text=True, check=True
                        ).stdout
                        runs[side].append(json.loads(out))
                mine = statistics.median(r["mean"] for r in runs["this"])
                theirs = statistics.median(r["mean"] for r in runs["base"])
                rate = statistics.median(r["rate"] for r in runs["this"])
                base_rate = statistics.median(r["rate"] for r in runs["base"])
                # Did this tree decide as the baseline did, at every position?
                same = runs["this"][0]["choices"] == runs["base"][0]["choices"]
                print(
                    f"| {get_game(name).title} | {level} | {mine:.3f} | {theirs:.3f} | "
                    f"{theirs / mine:.2f}x | {rate:,.0f} | {base_rate:,.0f} | "
                    f"{'yes' if same else 'no'} |",
                    flush=True,
                )


@dataclass
class Runs:
    """How to run each tournament, and the reports gathered so far.

    With ``json_path`` every report so far is written there after each
    tournament, so a long report that is stopped keeps what it finished.
    """

    count: int
    players: int
    seed: int
    jobs: int
    reports: list[dict[str, Any]] = field(default_factory=list)
    json_path: str | None = None

    def tournament(self, name: str, seats: list[str]) -> Summary:
        """Play one tournament of ``name`` with ``seats``; keep its report, return its summary.

        Every ten games the standings go to stderr and, with ``json_path``, the
        games so far to the JSON file, so a run of hours can be followed.
        """
        start = time.perf_counter()
        specs = schedule(name, self.players, seats, self.count, self.seed)
        done: list[GameRecord] = []

        def progress(record: GameRecord) -> None:
            done.append(record)
            if len(done) % 10 and len(done) != len(specs):
                return
            elapsed = time.perf_counter() - start
            standings = ", ".join(
                f"{level.level} {level.win_rate:.1%}" for level in summarize(done).levels
            )
            print(
                f"{name} {'-'.join(seats)}: {len(done)}/{len(specs)} games, {elapsed:.0f} s, "
                f"{standings}",
                file=sys.stderr,
                flush=True,
            )
            self.save(report_dict(name, self.players, seats, self.seed, done, elapsed))

        records = run_tournament(specs, self.jobs, progress)
        elapsed = time.perf_counter() - start
        self.save(report_dict(name, self.players, seats, self.seed, records, elapsed), final=True)
        return summarize(records)

    def save(self, report: dict[str, Any], final: bool = False) -> None:
        """Write the finished reports and ``report`` (the one under way, or a finished one)."""
        if final:
            self.reports.append(report)
        if self.json_path:
            with open(self.json_path, "w", encoding="utf-8") as out:
                json.dump(self.reports if final else [*self.reports, report], out, indent=1)


def strength(games: list[str], pairings: list[tuple[str, str]], runs: Runs) -> None:
    """Run every pairing in every game and print the first level's results as table rows."""
    print(
        "| game | pairing | games | win rate of the first | 95% CI | "
        "mean scores | s/decision (mean, longest) | iterations/s | mean length |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in games:
        for first, second in pairings:
            summary = runs.tournament(name, [first] + [second] * (runs.players - 1))
            by_level = {level.level: level for level in summary.levels}
            a, b = by_level[first], by_level[second]
            print(
                f"| {get_game(name).title} | {first} vs {second} | {summary.games} | "
                f"{a.win_rate:.1%} | {a.ci_low:.1%}–{a.ci_high:.1%} | "
                f"{a.mean_score:.1f} / {b.mean_score:.1f} | "
                f"{_timing(a)} / {_timing(b)} | {_rate(a, b)} | "
                f"{summary.mean_decisions:.0f} |",
                flush=True,
            )


def table(games: list[str], seats: list[str], runs: Runs) -> None:
    """One tournament per game with a level in every seat; a row per game and level."""
    print(
        "| game | level | games | win rate | 95% CI | mean score | "
        "s/decision (mean, longest) | iterations/s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in games:
        summary = runs.tournament(name, seats)
        for level in summary.levels:
            print(
                f"| {get_game(name).title} | {level.level} | {summary.games} | "
                f"{level.win_rate:.1%} | {level.ci_low:.1%}–{level.ci_high:.1%} | "
                f"{level.mean_score:.1f} | {_timing(level)} | {_rate(level)} |",
                flush=True,
            )


def _timing(level: LevelSummary) -> str:
    return f"{level.seconds_per_decision:.3f}, {level.max_seconds:.2f}"


def _rate(*levels: LevelSummary) -> str:
    rates = [
        f"{level.iterations_per_second:,.0f}" for level in levels if level.iterations_per_second
    ]
    return " / ".join(rates) if rates else "–"


def report(args: argparse.Namespace, games: list[str]) -> None:
    """docs/performance.md's strength report, then the time per decision, in one run.

    Every pairing at two players; at every larger table size, one Expert
    against Hard in the other seats (``--many``) in every game that seats that
    many; then the time per decision of every level, of a hint and of a
    review's judgement, at every table size.
    """
    two = Runs(args.count, 2, args.seed, args.jobs, json_path=args.json)
    pairings = _pairings(args.pairings)
    if pairings:
        print("Two players, seats swapped between games:\n")
        strength(games, pairings, two)
    for first, other in _pairings(args.many):
        for players in range(3, max(get_game(name).max_players for name in games) + 1):
            names = [name for name in games if get_game(name).max_players >= players]
            runs = Runs(args.count_many, players, args.seed, args.jobs, two.reports, args.json)
            seats = [first] + [other] * (players - 1)
            print(f"\n{players} players, one {first} and {other} elsewhere, seats rotated:\n")
            table(names, seats, runs)
    levels = [level for level in args.levels.split(",") if level]
    if levels:
        print("\nTime per decision (CPU seconds of one process):\n")
        speed(games, args.positions, None, levels)


def _pairings(text: str) -> list[tuple[str, str]]:
    return [tuple(p.split("-", 1)) for p in text.split(",") if p]  # type: ignore[misc]


def main() -> None:
    """Parse the command line and run the chosen benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["speed", "strength", "report", "speed-worker"])
    parser.add_argument("--games", default=",".join(game_names()), help="games, comma-separated")
    parser.add_argument("--players", type=int, help="players (speed: every size by default)")
    parser.add_argument("--positions", type=int, default=40, help="speed: positions per level")
    parser.add_argument("--baseline", help="speed: a commit, or the path of a checkout or src/")
    parser.add_argument("--levels", default=SPEED_LEVELS, help="speed: levels, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="speed with --baseline: runs")
    parser.add_argument("--pairings", default=DEFAULT_PAIRINGS, help="two players: A-B,…")
    parser.add_argument("--count", type=int, default=400, help="games per pairing")
    parser.add_argument(
        "--many", default=DEFAULT_MANY, help="report: A-B, one A and B elsewhere, 3+ players"
    )
    parser.add_argument(
        "--count-many", type=int, default=400, help="report: games per larger table size"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", help="write every tournament here")
    args = parser.parse_args()
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if args.what == "speed-worker":
        pin_to_one_core()
        speed_worker(games[0], args.levels, args.positions, args.players or 2)
    elif args.what == "speed" and args.baseline:
        pin_to_one_core()
        speed_against(args, games)
    elif args.what == "speed":
        speed(games, args.positions, args.players, args.levels.split(","))
    elif args.what == "strength":
        runs = Runs(args.count, args.players or 2, args.seed, args.jobs, json_path=args.json)
        strength(games, _pairings(args.pairings), runs)
    else:
        report(args, games)


if __name__ == "__main__":
    main()
