"""``karavan simulate GAME``: a bot tournament with a progress bar and a table of results."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from karavan_core.bots import ALL_LEVELS, BOT_LEVELS
from karavan_core.registry import get_game
from karavan_core.saves import atomic_write, check_writable
from karavan_core.text import printable
from karavan_core.tournament import (
    GameRecord,
    GameSpec,
    Summary,
    report_dict,
    run_tournament,
    schedule,
    summarize,
)
from karavan_tui.cli.common import Command, Context, add_game_argument
from karavan_tui.cli.progress import figures_table, progress_bar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


COMMAND = Command(
    "simulate",
    "play a bot tournament and print the statistics",
    "Play many seeded games between bot levels. Seats are rotated between games (and each "
    "rotation replays the same deal), so no level keeps the first player's advantage; with "
    "three or more players the levels also go through every order round the table, so none "
    "always sits after the same one.",
    opens_app=False,
    lists_levels=True,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``GAME``, the seats' levels, how many games from which seed, workers, JSON."""
    add_game_argument(parser)
    parser.add_argument("--players", type=int, default=2, metavar="N", help="players (default 2)")
    parser.add_argument(
        "--seats",
        metavar="LEVELS",
        help=f"comma-separated level per seat, from {', '.join(BOT_LEVELS)}"
        f"{_benchmark_levels()} (default: greedy then random for the other seats)",
    )
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games (default 100)")
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="seed (default 1)")
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="worker processes (default 1)"
    )
    parser.add_argument("--json", metavar="FILE", help="also write every game and the summary")


def _benchmark_levels() -> str:
    """The levels registered only to measure the others against (not offered at the table),
    as a clause for the help; none where no benchmark has registered one."""
    levels = [level for level in ALL_LEVELS if level not in BOT_LEVELS]
    return f" and, to measure against, {', '.join(levels)}" if levels else ""


def run(ctx: Context) -> int:
    """Run the tournament ``ctx`` describes; returns the exit status (2 for bad settings)."""
    from rich.console import Console

    args = ctx.args
    console = Console()
    err = Console(stderr=True)
    try:
        game = get_game(args.game)
    except KeyError as error:
        err.print(f"karavan simulate: {printable(error.args[0])}", markup=False, soft_wrap=True)
        return 2
    seats = (
        [s.strip() for s in args.seats.split(",") if s.strip()]
        if args.seats
        else ["greedy"] + ["random"] * (args.players - 1)
    )
    problem = None
    if args.games < 1:
        problem = "--games must be at least 1."
    elif args.jobs < 1:
        problem = "--jobs must be at least 1."
    if problem is None:
        try:
            specs = schedule(game.name, args.players, seats, args.games, args.seed)
        except ValueError as error:
            problem = str(error)
    if problem is None and args.json:
        try:  # before the tournament, not after it: a long run must not end in a refusal
            check_writable(Path(args.json))
        except OSError as error:
            problem = f"--json: cannot write {args.json} ({error.strerror or error})."
    if problem is not None:
        err.print(
            f"karavan simulate: {printable(problem)}", markup=False, highlight=False, soft_wrap=True
        )
        return 2

    start = time.perf_counter()
    records = _play_with_progress(console, specs, args.jobs, game.title)
    elapsed = time.perf_counter() - start
    summary = summarize(records)
    console.print(_table(summary, game.title, args.players))
    console.print(
        f"Mean game length: {summary.mean_decisions:.1f} decisions. "
        f"{summary.games} games in {elapsed:.1f} s (seed {args.seed})."
    )
    if summary.unfinished:
        console.print(f"{summary.unfinished} games were stopped unfinished.")
    if args.json:
        data = report_dict(game.name, args.players, seats, args.seed, records, elapsed)
        atomic_write(Path(args.json), json.dumps(data, indent=1) + "\n")
        console.print(f"Wrote {printable(args.json)}.", markup=False, highlight=False)
    return 0


def _play_with_progress(
    console: Console, specs: Sequence[GameSpec], jobs: int, title: str
) -> list[GameRecord]:
    with progress_bar(console) as progress:
        task = progress.add_task(f"{title}: playing", total=len(specs))
        return run_tournament(specs, jobs, lambda _record: progress.advance(task))


def _table(summary: Summary, title: str, players: int) -> Table:

    figures = ["Seats", "Win rate", "95% CI", "Score", "s/move", "Max s", "Iter/s"]
    table = figures_table(f"{title}, {players} players, {summary.games} games", "Level", figures)
    for level in summary.levels:
        table.add_row(
            level.level,
            str(level.seat_games),
            f"{level.win_rate:.1%}",
            f"{level.ci_low:.1%}–{level.ci_high:.1%}",
            f"{level.mean_score:.1f}",
            f"{level.seconds_per_decision:.3f}",
            f"{level.max_seconds:.2f}",
            f"{level.iterations_per_second:,.0f}" if level.iterations_per_second else "–",
        )
    table.caption = (
        "Seats: games a seat of the level played. Win rate: shared wins split. "
        "s/move: mean seconds per decision, forced ones included; Max s: longest; "
        "Iter/s: search iterations per second."
    )
    return table
