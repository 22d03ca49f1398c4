"""The review of a game in the app: each human's chance of winning, and their mistakes.

The Expert search judges every decision a human made with a real choice (see
:mod:`karavan_core.analysis`), in worker processes started from a worker
thread, while a progress bar fills.  Should the review fail (a worker process
that cannot start or dies, an error in judging), the screen says what went
wrong in one line and ``r`` tries again.  Enter on a listed mistake opens the
replay at that decision, as its player saw it, with what the Expert preferred
marked.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool

from attrs import evolve
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState, get_current_worker

from karavan_core.analysis import THRESHOLDS, GameReview, ReviewedDecision, Verdict, review_match
from karavan_core.match import Match
from karavan_core.text import plural
from karavan_tui.context import karavan_app
from karavan_tui.door import AT_THE_DOOR, door_refuses
from karavan_tui.screens.replay import Replay
from karavan_tui.screens.table import TableScreen
from karavan_tui.widgets.chart import ChartKey, GameChart, chance_spec
from karavan_tui.widgets.chrome import AppHeader
from karavan_tui.words import verdict_mark


def review_key(match: Match, seats: Sequence[int]) -> tuple[object, ...]:
    """What identifies a review: the game, its deal, its seats, its decisions, who is judged."""
    names = tuple(seat.name for seat in match.seats)
    return (match.game.name, match.seed, names, tuple(match.history), tuple(seats))


def thresholds_words() -> str:
    """The verdicts' thresholds in words."""
    parts = [f"{verdict_mark(v.value)} {v.value} from {least:.0%}" for least, v in THRESHOLDS]
    return "Chance of winning lost: " + ", ".join(reversed(parts)) + "."


def failure_words(error: BaseException | None) -> str:
    """What stopped a review, in one line."""
    if isinstance(error, BrokenProcessPool):
        return "The review stopped: a worker process ended unexpectedly."
    reason = " ".join(str(error).split()) if error is not None else ""
    kind = type(error).__name__ if error is not None else "unknown error"
    return f"The review stopped: {reason} ({kind})." if reason else f"The review stopped: {kind}."


class ReviewScreen(Screen[None]):
    """The review of ``match`` for the human ``seats``."""

    BINDINGS = [
        Binding("p", "replay", "Replay", tooltip="Step through the game from the deal"),
        Binding("r", "retry", "Try again", tooltip="Start the review again"),
        Binding("escape,q", "close", "Close"),
    ]
    DEFAULT_CSS = """
    ReviewScreen #review { padding: 0 1; height: 1fr; align-horizontal: center; }
    /* On a wide terminal the review keeps a readable width, centred. */
    ReviewScreen #review > * { max-width: 120; }
    ReviewScreen #review-summary { height: auto; }
    ReviewScreen #review-progress { height: auto; margin: 1 0; }
    ReviewScreen #review-failure {
        height: 1; margin: 1 0; color: $text-error; text-wrap: nowrap; text-overflow: ellipsis;
    }
    ReviewScreen #review-chart { height: 1fr; min-height: 8; margin-top: 1; }
    ReviewScreen #chart-key { color: $text-muted; height: auto; }
    ReviewScreen #mistakes-title { margin-top: 1; text-style: bold; }
    ReviewScreen #mistakes { height: 1fr; min-height: 4; border: round $secondary 60%; }
    ReviewScreen #review-note { color: $text-muted; height: auto; }
    .-ascii ReviewScreen #mistakes { border: ascii $secondary 60%; }
    """

    def __init__(self, match: Match, seats: Sequence[int]) -> None:
        super().__init__()
        self.match = match
        self.seats = list(seats)
        self.review: GameReview | None = None
        self.listed: list[int] = []  # decision index of each entry of the mistakes list
        self.failure: str | None = None  # what stopped the review, while it is stopped

    def compose(self) -> ComposeResult:
        """Summary, progress, chart and the list of mistakes."""
        yield AppHeader()
        with Vertical(id="review"):
            yield Static("", id="review-summary")
            yield ProgressBar(id="review-progress", show_eta=True)
            yield Static("", id="review-failure", markup=False)
            chart = GameChart(id="review-chart")
            yield chart
            yield ChartKey(chart, id="chart-key")
            yield Static("Mistakes, in the order they were made", id="mistakes-title")
            yield OptionList(id="mistakes")
            yield Static(Content(thresholds_words()), id="review-note")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Show a review made already, or start making it."""
        self.sub_title = f"Review of {self.match.game.title}"
        self.query_one("#review-failure").display = False
        done = karavan_app(self).reviews.get(review_key(self.match, self.seats))
        if done is not None:
            self.show_review(done)
            return
        for waiting in ("#mistakes-title", "#mistakes", "#review-chart", "#chart-key"):
            self.query_one(waiting).display = False
        self.start_review()

    def start_review(self) -> None:
        """Say who is judged, empty the progress bar and start judging (never behind an ssh
        door: the search would run on the server's machine)."""
        if door_refuses(karavan_app(self), "review"):
            self.failure = AT_THE_DOOR
            failure = self.query_one("#review-failure", Static)
            failure.update(self.failure)
            failure.display = True
            self.query_one(ProgressBar).display = False
            return
        names = " and ".join(self.match.seats[seat].name for seat in self.seats)
        summary = self.query_one("#review-summary", Static)
        summary.update(Text(f"The Expert search is judging every decision of {names}…"))
        summary.display = True
        self.failure = None
        self.query_one("#review-failure").display = False
        bar = self.query_one(ProgressBar)
        bar.update(total=None, progress=0)
        bar.display = True
        self.refresh_bindings()
        self.make_review(review_key(self.match, self.seats))

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def make_review(self, key: tuple[object, ...]) -> None:
        """Judge the decisions off the UI thread, moving the progress bar as they come."""
        worker = get_current_worker()
        app = karavan_app(self)
        bar = self.query_one(ProgressBar)

        def progress(done: float, total: int) -> None:
            with contextlib.suppress(RuntimeError):  # the app closed meanwhile
                app.call_from_thread(bar.update, total=total, progress=done)

        review = review_match(
            self.match,
            jobs=app.config.review_jobs,
            progress=progress,
            seats=self.seats,
            cancelled=lambda: worker.is_cancelled,
            budget=app.config.review_budget,
        )
        if review is None or worker.is_cancelled:
            return
        try:
            app.call_from_thread(self._reviewed, key, review)
        except RuntimeError:
            return

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A review that failed says why, in one line, and offers to try again."""
        if event.worker.group != "review" or event.state is not WorkerState.ERROR:
            return
        self.failure = failure_words(event.worker.error)
        self.query_one("#review-summary").display = False  # it said the review was under way
        self.query_one(ProgressBar).display = False
        failure = self.query_one("#review-failure", Static)
        failure.update(self.failure)
        failure.display = True
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Try again only once a review has failed."""
        if action == "retry":
            return self.failure is not None
        return True

    def action_retry(self) -> None:
        """Start the failed review again."""
        if self.failure is not None:
            self.start_review()

    def _reviewed(self, key: tuple[object, ...], review: GameReview) -> None:
        karavan_app(self).reviews[key] = review
        self.show_review(review)

    def show_review(self, review: GameReview) -> None:
        """Draw the summary, the chart and the mistakes."""
        self.review = review
        self.query_one(ProgressBar).display = False
        for shown in ("#mistakes-title", "#mistakes", "#review-chart", "#chart-key"):
            self.query_one(shown).display = True
        self.query_one("#review-summary", Static).update(self.summary(review))
        mistakes = [d for d in review.decisions if d.verdict is not Verdict.GOOD]
        self.show_chart(review, mistakes)
        self.show_mistakes(mistakes)

    def summary(self, review: GameReview) -> Text:
        """Each judged player's accuracy, mistakes, hints and take-backs, then the result."""
        match = self.match
        summary = Text()
        for seat in self.seats:
            s = review.summary(seat)
            counts = s.verdicts
            accuracy = "no decision to judge" if s.accuracy is None else f"{s.accuracy:.1f}%"
            hints = match.hints[seat]
            summary.append(f"{s.name}", style="bold")
            summary.append(
                f": accuracy {accuracy} over {plural(s.decisions, 'decision')} {self._sep} "
                f"{counts['inaccuracy']} ?! {counts['mistake']} ? {counts['blunder']} ?? "
                f"{self._sep} {plural(hints, 'hint')}"
            )
            summary.append("\n")
            taken = match.takebacks[seat]
            if taken:  # take-backs past a card that had been shown: the review says so
                summary.append(f"  {plural(taken, 'take-back')} after seeing a card\n")
        if match.is_over():
            result = match.game.result(match.state)
            winners = " and ".join(match.seats[i].name for i in result.winners)
            summary.append(f"{winners} won.")
        else:
            summary.append("The game is still in progress.")
        return summary

    def show_chart(self, review: GameReview, mistakes: list[ReviewedDecision]) -> None:
        """The judged players' chances along the game, its cursor on the first mistake."""
        match = self.match
        names = [match.seats[seat].name for seat in self.seats]
        series = [review.chances(seat) for seat in self.seats]
        if match.is_over():  # the chart ends on what happened: won, shared or lost
            won = match.game.result(match.state).winners
            for seat, points in zip(self.seats, series, strict=True):
                share = 1 / len(won) if seat in won else 0.0
                points.append((len(match.history) - 1, share))  # after the last decision
        spec = chance_spec(names, series, len(match.history), mistakes)
        if mistakes:
            spec = evolve(spec, cursor=mistakes[0].index)  # on the first mistake, as the list
        self.query_one(GameChart).show(spec, karavan_app(self).ascii_mode)

    def show_mistakes(self, mistakes: list[ReviewedDecision]) -> None:
        """The list of mistakes, each with the Expert's choice and the chances it cost."""
        self.listed = [d.index for d in mistakes]
        options = self.query_one("#mistakes", OptionList)
        options.clear_options()
        player_names = [seat.name for seat in self.match.seats]
        for d in mistakes:
            j = d.judgement
            words = (
                f"{d.index + 1:>3}. {verdict_mark(d.verdict.value):<2} {d.played_words} "
                f"Expert: {d.best_words} ({j.win_before:.0%} to {j.win_after:.0%})"
            )
            if len(self.seats) > 1:
                words = f"{words}  [{player_names[d.seat]}]"
            words = karavan_app(self).glyphs.words(words)  # the engine's previews
            options.add_option(Option(Content(words), id=str(d.index)))
        if not mistakes:
            options.add_option(
                Option(Content("No mistakes: every decision kept its chance."), disabled=True)
            )
        else:
            options.highlighted = 0
            options.focus()

    @property
    def _sep(self) -> str:
        return karavan_app(self).glyphs.sep

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """The chart's cursor follows the list of mistakes."""
        if event.option.id is None:
            return
        self.query_one(GameChart).move_cursor(int(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Open the replay at the chosen decision, as its player saw it."""
        event.stop()
        if event.option.id is not None:
            self.replay_at(int(event.option.id))

    def on_game_chart_picked(self, message: GameChart.Picked) -> None:
        """A point of the chart: the replay at that decision."""
        message.stop()
        self.replay_at(message.decision)

    def replay_at(self, index: int) -> None:
        """Open the replay at decision ``index``, as its player saw it."""
        if self.review is None or not 0 <= index < len(self.match.history):
            return
        seat = self.match.actor(index)
        self.app.push_screen(
            TableScreen(Replay(self.match, index, seat, self.review, viewers=self.viewers(seat)))
        )

    def viewers(self, seat: int | None = None) -> list[int | None] | None:
        """Who the replay may show the table as: anyone once the game is over, else the judged."""
        if self.match.is_over() and self.match.seen_by is None:
            return None  # the replay offers every seat
        return [None, *self.seats]

    def action_replay(self) -> None:
        """Step through the game from the deal."""
        first = self.seats[0] if len(self.seats) == 1 else None
        self.app.push_screen(
            TableScreen(Replay(self.match, 0, first, self.review, viewers=self.viewers()))
        )

    def action_close(self) -> None:
        """Back; a review still being made stops."""
        self.workers.cancel_group(self, "review")
        self.dismiss(None)
