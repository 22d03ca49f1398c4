"""The review of a game: every human decision that had a real choice, judged.

A decision is judged from the observation its player had when taking it
(see :mod:`karavan_core.analysis.judge`); bots are not rated, and neither is a
decision that was the only legal one.  Each search is seeded from the match's
seed and the decision's number, so a save always gets the same review,
whatever the number of worker processes.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, wait
from multiprocessing.queues import Queue
from typing import Any

from attrs import frozen

from karavan_core.analysis.judge import (
    THRESHOLDS,
    Analyst,
    Judgement,
    Verdict,
    advice_budget,
    advice_seed,
)
from karavan_core.engine import Action, Observation
from karavan_core.match import Match
from karavan_core.processes import stop_workers, worker_pool, worker_queue
from karavan_core.registry import get_game
from karavan_core.saves.codec import unstructure_actions


@frozen(kw_only=True)
class Task:
    """One decision to judge, with all a worker process needs."""

    game: str
    index: int
    seat: int
    observation: Observation
    legal: tuple[Action, ...]
    played: Action
    seed: int
    budget: tuple[int, int]  # the searches' iterations: the open one's, each forced one's


@frozen(kw_only=True)
class ReviewedDecision:
    """A judged decision: its place in the history, its player and the judgement."""

    index: int  # its place in the save's history, from 0
    seat: int
    choices: int  # how many legal decisions there were
    judgement: Judgement
    played_words: str  # both in the decider's words, from the decider's observation
    best_words: str

    @property
    def verdict(self) -> Verdict:
        """The judgement's verdict."""
        return self.judgement.verdict


@frozen(kw_only=True)
class PlayerSummary:
    """One human's game in figures."""

    seat: int
    name: str
    decisions: int  # rated decisions
    accuracy: float | None  # mean accuracy in percent (None: nothing rated)
    verdicts: dict[str, int]  # how many of each verdict


@frozen(kw_only=True)
class GameReview:
    """The review of one match."""

    game: str
    seed: int
    players: tuple[str, ...]
    decisions: tuple[ReviewedDecision, ...]
    total_decisions: int  # every decision of the history, rated or not

    def of(self, seat: int) -> list[ReviewedDecision]:
        """``seat``'s judged decisions, in order."""
        return [d for d in self.decisions if d.seat == seat]

    def summary(self, seat: int) -> PlayerSummary:
        """``seat``'s accuracy and count of each verdict."""
        mine = self.of(seat)
        counts = {verdict.value: 0 for verdict in Verdict}
        for decision in mine:
            counts[decision.verdict.value] += 1
        accuracy = sum(d.judgement.accuracy for d in mine) / len(mine) if mine else None
        return PlayerSummary(
            seat=seat,
            name=self.players[seat],
            decisions=len(mine),
            accuracy=accuracy,
            verdicts=counts,
        )

    def worst(self, limit: int | None = None) -> list[ReviewedDecision]:
        """The decisions that lost something, the costliest first."""
        lost = [d for d in self.decisions if d.verdict is not Verdict.GOOD]
        lost.sort(key=lambda d: (-d.judgement.lost, d.index))
        return lost if limit is None else lost[:limit]

    def chances(self, seat: int) -> list[tuple[int, float]]:
        """``seat``'s estimated chance of winning after each of its judged decisions."""
        return [(d.index, d.judgement.win_after) for d in self.of(seat)]


def tasks_for(
    match: Match,
    seats: Sequence[int] | None = None,
    budget: tuple[int, int] | None = None,
) -> list[Task]:
    """The decisions of ``match`` to judge: humans' (of ``seats``, if given) with a real choice.

    ``budget`` is the iterations of the open and of each forced search (by
    default the game's :func:`~karavan_core.analysis.judge.advice_budget`).
    """
    game = match.game
    iterations = advice_budget(game) if budget is None else budget
    rated = set(match.humans)
    if seats is not None:
        rated &= set(seats)
    tasks = []
    for index, played in enumerate(match.history):
        seat = match.actor(index)
        if seat not in rated:
            continue
        state = match.state_at(index)
        legal = tuple(game.legal_actions(state))
        if len(legal) < 2:
            continue
        seed = advice_seed(match.seed, index)
        observation = game.observe(state, seat)
        tasks.append(
            Task(
                game=game.name,
                index=index,
                seat=seat,
                observation=observation,
                legal=legal,
                played=played,
                seed=seed,
                budget=iterations,
            )
        )
    return tasks


def judge_task(task: Task, progress: Callable[[float], None] | None = None) -> ReviewedDecision:
    """Judge one decision (in whichever process runs it).

    ``progress``, where given, is told the share of the judgement done as it runs.
    """
    game = get_game(task.game)
    analyst = Analyst(game, task.seed, *task.budget, progress=progress)
    judgement = analyst.judge(task.observation, task.legal, task.played)
    return ReviewedDecision(
        index=task.index,
        seat=task.seat,
        choices=len(task.legal),
        judgement=judgement,
        played_words=game.preview(task.observation, task.played),
        best_words=game.preview(task.observation, judgement.best),
    )


class ReviewCancelled(Exception):
    """Raised inside a review to stop it where it is: the review was cancelled."""


# The most often a review tells how far a judgement under way has got, in seconds
# (each report may wait for a screen to draw it).
REPORT_SECONDS = 0.1


class Tally:
    """The decisions of a review judged so far, and how far those under way have got.

    Reports ``progress(done, total)``, where ``done`` counts the decisions
    judged plus the share done of each one under way, so that the bar moves
    while the first decisions are still being judged.
    """

    def __init__(
        self,
        total: int,
        progress: Callable[[float, int], None] | None,
        cancelled: Callable[[], bool] | None,
    ) -> None:
        self.total = total
        self.progress = progress
        self.cancelled = cancelled
        self.done: list[ReviewedDecision] = []
        self.under_way: dict[int, float] = {}  # decision index -> share judged
        self.finished: set[int] = set()
        self.reported = 0.0  # when the last share under way was reported

    def stopped(self) -> bool:
        """Whether the review was cancelled."""
        return self.cancelled is not None and self.cancelled()

    def report(self) -> None:
        """Tell how far the review is."""
        if self.progress is not None:
            self.progress(len(self.done) + sum(self.under_way.values()), self.total)

    def moved(self, index: int, share: float) -> None:
        """Decision ``index`` is judged as far as ``share``; said at most every REPORT_SECONDS."""
        if index in self.finished:
            return  # a late word from a worker about a decision judged already
        self.under_way[index] = share
        now = time.monotonic()
        if now - self.reported >= REPORT_SECONDS:
            self.reported = now
            self.report()

    def take(self, reviewed: ReviewedDecision) -> None:
        """A decision is judged."""
        self.under_way.pop(reviewed.index, None)
        self.finished.add(reviewed.index)
        self.done.append(reviewed)
        self.report()

    def listener(
        self, index: int, also: Callable[[], None] | None = None
    ) -> Callable[[float], None]:
        """What a judgement of decision ``index`` in this process tells of its progress.

        ``also`` runs each time too; a cancelled review raises :class:`ReviewCancelled`.
        """

        def told(share: float) -> None:
            self.moved(index, share)
            if also is not None:
                also()
            if self.stopped():
                raise ReviewCancelled

        return told


def review_match(
    match: Match,
    jobs: int = 1,
    progress: Callable[[float, int], None] | None = None,
    seats: Sequence[int] | None = None,
    cancelled: Callable[[], bool] | None = None,
    budget: tuple[int, int] | None = None,
) -> GameReview | None:
    """Judge every human decision of ``match`` that had a choice, in ``jobs`` processes.

    ``seats`` limits the review to those players; ``budget`` is the searches'
    iterations (the open search's, then each forced one's; by default the game's).

    ``progress(done, total)`` is called before the first decision is judged,
    while decisions are judged (``done`` then counts the share of each one under
    way) and after each; the review comes back ``None`` if ``cancelled()``
    turns true.  What goes wrong is raised: a judging error as it is, a worker
    process that died as :class:`concurrent.futures.process.BrokenProcessPool`.
    """
    tasks = tasks_for(match, seats, budget)
    tally = Tally(len(tasks), progress, cancelled)
    tally.report()
    try:
        if jobs <= 1 or len(tasks) < 2:
            for task in tasks:
                if tally.stopped():
                    break
                tally.take(judge_task(task, tally.listener(task.index)))
        else:
            _judge_in_processes(tasks, min(jobs, len(tasks)), tally)
    except ReviewCancelled:
        return None
    done = sorted(tally.done, key=lambda reviewed: reviewed.index)
    if len(done) != len(tasks) or tally.stopped():
        return None
    return GameReview(
        game=match.game.name,
        seed=match.seed,
        players=tuple(seat.name for seat in match.seats),
        decisions=tuple(done),
        total_decisions=len(match.history),
    )


WAKE_SECONDS = 0.1  # how often a review in processes looks for news and whether it was cancelled

# In a worker process of a review: where it tells the host how far its judgement is.
_REPORTS: list[Queue[tuple[int, float]]] = []


def _report_to(reports: Queue[tuple[int, float]]) -> None:
    """A review's worker process starts: it will report on ``reports``."""
    _REPORTS.append(reports)


def _judge_reporting(task: Task) -> ReviewedDecision:
    """Judge ``task`` in a worker process, telling the host how far it is as it goes."""
    reports = _REPORTS[-1]
    return judge_task(task, lambda share: reports.put((task.index, share)))


def _judge_in_processes(tasks: Sequence[Task], jobs: int, tally: Tally) -> None:
    """Judge ``tasks`` in ``jobs`` worker processes, each judgement to ``tally`` as it comes.

    Worker processes take a second or more to start: meanwhile this process
    judges the first decision itself, so that the review moves at once.  Once
    the review is cancelled the workers are ended at once, whatever they were
    judging; a judging error (or a worker's death) is raised.
    """
    reports = worker_queue()

    def news() -> None:
        while True:
            try:
                index, share = reports.get_nowait()
            except queue.Empty:
                return
            tally.moved(index, share)

    try:
        with worker_pool(jobs, _report_to, reports) as pool:
            pending = {pool.submit(_judge_reporting, task) for task in tasks[1:]}
            first = tasks[0]
            tally.take(judge_task(first, tally.listener(first.index, news)))
            while pending and not tally.stopped():
                ready, pending = wait(pending, timeout=WAKE_SECONDS, return_when=FIRST_COMPLETED)
                news()
                for future in ready:
                    if tally.stopped():  # several may finish at once; none is taken once closed
                        break
                    tally.take(future.result())
            if pending:
                stop_workers(pool)
    finally:
        reports.close()


def review_dict(review: GameReview, match: Match) -> dict[str, Any]:
    """The JSON-ready review: the game, each player's summary, every judged decision.

    ``index`` is a decision's place in the save's history (from 0) and ``seat``
    its player's seat number; chances are fractions of one.
    """
    game = match.game
    players = []
    for seat, info in enumerate(match.seats):
        summary = review.summary(seat)
        players.append(
            {
                "seat": seat,
                "name": info.name,
                "kind": info.kind,
                "level": info.level,
                "accuracy": None if summary.accuracy is None else round(summary.accuracy, 1),
                "rated_decisions": summary.decisions,
                "verdicts": summary.verdicts if not info.is_bot else None,
                "hints": match.hints[seat],
            }
        )
    decisions = []
    for reviewed in review.decisions:
        judgement = reviewed.judgement
        played, best = unstructure_actions(game, [judgement.played, judgement.best])
        decisions.append(
            {
                "index": reviewed.index,
                "seat": reviewed.seat,
                "player": review.players[reviewed.seat],
                "choices": reviewed.choices,
                "played": reviewed.played_words,
                "best": reviewed.best_words,
                "played_action": played,
                "best_action": best,
                "win_before": round(judgement.win_before, 4),
                "win_after": round(judgement.win_after, 4),
                "best_win": round(judgement.best_win, 4),
                "lost": round(judgement.lost, 4),
                "verdict": reviewed.verdict.value,
                "think_seconds": round(judgement.seconds, 3),
            }
        )
    return {
        "game": game.name,
        "seed": match.seed,
        "decisions_in_game": review.total_decisions,
        "over": match.is_over(),
        "thresholds": {verdict.value: least for least, verdict in THRESHOLDS},
        "players": players,
        "decisions": decisions,
    }
