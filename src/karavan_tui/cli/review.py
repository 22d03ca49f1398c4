"""``karavan review FILE``: every human decision of a save judged by the Expert search.

Prints each player's accuracy and verdicts, then the costliest decisions; with
``--json`` it also writes the whole review.  A game still in progress with more
than one human at the table is reviewed one player at a time (``--player``):
each player's decisions are told in that player's own words, hand included.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from karavan_core.analysis import (
    THRESHOLDS,
    GameReview,
    ReviewedDecision,
    review_dict,
    review_match,
)
from karavan_core.match import Match, seat_named
from karavan_core.saves import SaveError, atomic_write, check_writable, load_match
from karavan_core.text import plural, printable
from karavan_tui.cli.common import Command, Context, fail, find_save
from karavan_tui.cli.progress import figures_table, progress_bar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

MISTAKES_SHOWN = 10


_THRESHOLDS = ", ".join(f"{verdict.value} from {least:.0%}" for least, verdict in THRESHOLDS)
COMMAND = Command(
    "review",
    "judge every decision of a saved game",
    "Judge every decision a human made with a real choice in a saved game: the Expert search "
    "estimates the chance of winning before and after it, and names the decision it prefers. "
    f"A decision's verdict is by the chance it lost ({_THRESHOLDS}; less is good). Bots' "
    "decisions are not rated. The same save always gets the same review.",
    opens_app=False,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The save, whose decisions to judge, the JSON file and the worker processes."""
    parser.add_argument("file", metavar="FILE", help="the save: a file, or its name in the saves")
    parser.add_argument(
        "--player",
        metavar="NAME",
        help="review this player only (needed for a game in progress with several humans)",
    )
    parser.add_argument("--json", metavar="OUT", help="also write the whole review as JSON")
    parser.add_argument(
        "--jobs",
        type=int,
        default=max(1, min(4, os.cpu_count() or 1)),
        metavar="N",
        help="worker processes (default: the cores, at most 4)",
    )


def run(ctx: Context) -> int:
    """Review the save ``args.file``; returns the exit status (2 for bad arguments or files)."""
    from rich.console import Console

    args, folder = ctx.args, ctx.folder
    console = Console(highlight=False)
    if args.jobs < 1:
        return fail("review: --jobs must be at least 1")
    path = find_save(folder, args.file)
    try:
        match = load_match(path)
    except SaveError as error:
        return fail(str(error))
    seats = list(match.humans)
    if not seats:
        return fail(f"review: {path.name}: only bots play in this game; there is nobody to review")
    if args.player is not None:
        chosen = seat_named(match.seats, args.player)
        if chosen is None or chosen not in seats:
            names = ", ".join(match.seats[i].name for i in seats)
            return fail(f"review: --player: {args.player!r} is not a human here ({names})")
        seats = [chosen]
    elif len(seats) > 1 and not match.is_over():
        return fail(
            "review: the game is still in progress: review one player at a time "
            "(--player NAME), so that nobody's hand is shown to the others"
        )
    if args.json:
        try:  # before the review, not after it: a long run must not end in a refusal
            check_writable(Path(args.json))
        except OSError as error:
            return fail(f"review: --json: cannot write {args.json} ({error.strerror or error})")
    start = time.perf_counter()
    review = _review_with_progress(console, match, seats, args.jobs)
    elapsed = time.perf_counter() - start
    console.print(_summary_table(review, match, seats))
    worst = review.worst(MISTAKES_SHOWN)
    if worst:
        arrow = "->" if getattr(args, "ascii", False) else "→"
        console.print(_mistakes_table(review, worst, arrow))
    else:
        console.print("No inaccuracy, mistake or blunder: every decision held its chance.")
    console.print(
        f"{len(review.decisions)} decisions judged of {review.total_decisions} in "
        f"{elapsed:.1f} s with {plural(args.jobs, 'process', 'processes')}."
    )
    if args.json:
        data = review_dict(review, match)
        atomic_write(Path(args.json), json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        console.print(f"Wrote {printable(args.json)}.", markup=False)
    return 0


def _review_with_progress(
    console: Console, match: Match, seats: list[int], jobs: int
) -> GameReview:
    with progress_bar(console) as progress:
        task = progress.add_task(f"{match.game.title}: judging decisions", total=None)

        def advance(done: float, total: int) -> None:
            progress.update(task, completed=done, total=total)

        review = review_match(match, jobs, advance, seats)
    assert review is not None  # never cancelled here
    return review


def _summary_table(review: GameReview, match: Match, seats: list[int]) -> Table:
    from rich.text import Text

    title = Text(f"{match.game.title}, seed {match.seed}: the review")
    figures = ["Accuracy", "Rated", "Good", "Inacc.", "Mistakes", "Blunders", "Hints"]
    table = figures_table(title, "Player", figures)
    for seat in seats:
        summary = review.summary(seat)
        counts = summary.verdicts
        accuracy = "–" if summary.accuracy is None else f"{summary.accuracy:.1f}%"
        table.add_row(
            Text(summary.name),
            accuracy,
            str(summary.decisions),
            str(counts["good"]),
            str(counts["inaccuracy"]),
            str(counts["mistake"]),
            str(counts["blunder"]),
            str(match.hints[seat]),
        )
    result = match.game.result(match.state)
    if match.is_over():
        winners = " and ".join(match.seats[i].name for i in result.winners)
        table.caption = Text(f"{winners} won. Rated: decisions with more than one choice.")
    else:
        table.caption = Text("The game is still in progress.")
    return table


def _mistakes_table(review: GameReview, worst: list[ReviewedDecision], arrow: str) -> Table:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="The costliest decisions")
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Played")
    table.add_column("Expert prefers")
    table.add_column("Chance", justify="right")
    table.add_column("Verdict")
    styles = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}
    for reviewed in worst:
        j = reviewed.judgement
        table.add_row(
            str(reviewed.index + 1),
            Text(review.players[reviewed.seat]),
            Text(reviewed.played_words),
            Text(reviewed.best_words),
            f"{j.win_before:.0%} {arrow} {j.win_after:.0%}",
            Text(reviewed.verdict.value, style=styles.get(reviewed.verdict.value, "")),
        )
    table.caption = (
        f"#: the decision's number in the game. Chance: of winning, before {arrow} after."
    )
    return table
