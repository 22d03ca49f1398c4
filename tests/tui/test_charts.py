"""The results and review charts: axes, every point drawn on one scale, marks, the cursor."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from karavan_core.analysis import ReviewedDecision, Verdict
from karavan_core.analysis.judge import THRESHOLDS, Judgement
from karavan_core.games.karakum.state import TakeCard
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.widgets.chart import (
    MARKERS,
    ChartSpec,
    GameChart,
    chance_spec,
    key_words,
    plot_columns,
    score_spec,
    stretches,
)

from .helpers import karakum_match, play_to_end, running, seeded_match


def judged(index: int, after: float, verdict: Verdict) -> ReviewedDecision:
    """A decision of Ann's that left ``after`` of the chance and lost just enough of it
    for ``verdict``."""
    least = {v: t for t, v in THRESHOLDS}.get(verdict, 0.0)
    before = after + least + 1e-9
    judgement = Judgement(
        played=TakeCard(0),
        best=TakeCard(1),
        win_before=before,
        win_after=after,
        best_win=before,
        seconds=0.0,
    )
    decision = ReviewedDecision(
        index=index,
        seat=0,
        choices=3,
        judgement=judgement,
        played_words="played",
        best_words="best",
    )
    assert decision.verdict is verdict
    return decision


def test_the_score_chart_runs_from_the_deal_to_the_last_decision_on_one_scale():
    spec = score_spec(["Ann", "Bob"], [[0, 0, 3, 6], [0, 0, 0, 0]])
    assert spec.last == 3 and spec.top == 6
    assert [line.name for line in spec.lines] == ["Ann", "Bob"]
    assert spec.lines[1].points == ((0, 0.0), (1, 0.0), (2, 0.0), (3, 0.0))  # zero is a value
    assert [words for _, words in spec.y_ticks] == ["0", "3", "6"]


def test_a_review_marks_its_slips_on_the_score_chart_at_the_score_they_left():
    slips = [judged(1, 0.4, Verdict.MISTAKE), judged(2, 0.1, Verdict.BLUNDER)]
    spec = score_spec(["Ann", "Bob"], [[0, 1, 1, 4], [0, 0, 2, 2]], slips)
    # Decision i leaves the score of point i + 1 (the deal is point 0); both are Ann's.
    assert [(m.decision, m.value, m.verdict) for m in spec.marks] == [
        (2, 1.0, Verdict.MISTAKE),
        (3, 4.0, Verdict.BLUNDER),
    ]


def test_the_chance_chart_marks_each_inaccuracy_mistake_and_blunder_where_it_left_the_chance():
    decisions = [
        judged(0, 0.5, Verdict.GOOD),
        judged(2, 0.5, Verdict.INACCURACY),
        judged(4, 0.3, Verdict.MISTAKE),
        judged(6, 0.0, Verdict.BLUNDER),
    ]
    points = [(d.index, d.judgement.win_after) for d in decisions]
    spec = chance_spec(["Ann"], [points], 8, decisions)
    assert [(m.decision, m.value, m.verdict) for m in spec.marks] == [
        (2, 50.0, Verdict.INACCURACY),
        (4, 30.0, Verdict.MISTAKE),
        (6, 0.0, Verdict.BLUNDER),
    ]
    assert spec.lines[0].points[-1] == (6, 0.0)  # 0% is drawn as a value
    assert spec.top == 100 and spec.last == 7
    key = key_words(spec).plain
    assert "~ inaccuracy (?!)" in key and "? mistake (?)" in key and "X blunder (??)" in key
    assert "!" not in "".join(MARKERS.values())  # a chess player reads "!" as praise


class ChartApp(App[None]):
    def __init__(self, spec: ChartSpec, ascii_mode: bool = False) -> None:
        super().__init__()
        self.spec, self.ascii_mode = spec, ascii_mode
        self.picked: list[int] = []

    def compose(self) -> ComposeResult:
        chart = GameChart(self.spec)
        chart.ascii_mode = self.ascii_mode
        yield chart

    def on_game_chart_picked(self, message: GameChart.Picked) -> None:
        self.picked.append(message.decision)


def drawn(app: App[None]) -> str:
    return app.screen.query_one(GameChart).render().plain  # type: ignore[union-attr]


@pytest.mark.parametrize("ascii_mode", [False, True])
async def test_the_chart_has_axes_with_their_ticks_and_marks(ascii_mode):
    decisions = [judged(3, 0.1, Verdict.BLUNDER), judged(5, 0.3, Verdict.MISTAKE)]
    spec = chance_spec(["Ann"], [[(1, 0.6), (3, 0.1), (5, 0.3)]], 8, decisions)
    app = ChartApp(spec, ascii_mode)
    async with app.run_test(size=(60, 14)) as pilot:
        await pilot.pause()
        text = drawn(app)
        assert "100%" in text and "50%" in text and "0%" in text and "decision" in text
        assert MARKERS[Verdict.BLUNDER] in text and MARKERS[Verdict.MISTAKE] in text
        assert plot_columns(text) is not None  # the frame is closed: the x axis is drawn
        if ascii_mode:
            assert text.isascii()
            # The first player's points are "#": "*" marks the winners on the results screen.
            assert "*" not in text and "# Ann" in str(key_words(spec, ascii_mode=True))
        else:
            assert "└" in text and "┤" in text


async def test_the_cursor_steps_from_mark_to_mark_and_enter_or_a_click_picks_a_decision():
    decisions = [judged(2, 0.4, Verdict.MISTAKE), judged(6, 0.1, Verdict.BLUNDER)]
    spec = chance_spec(["Ann"], [[(0, 0.5), (2, 0.4), (6, 0.1)]], 9, decisions)
    app = ChartApp(spec)
    async with app.run_test(size=(60, 14)) as pilot:
        chart = app.query_one(GameChart)
        chart.focus()
        await pilot.press("right")
        assert chart.spec is not None and chart.spec.cursor == 2
        await pilot.press("right", "enter")
        await pilot.pause()
        assert app.picked == [6]
        await pilot.press("left")
        assert chart.spec.cursor == 2
        left, right = plot_columns(drawn(app)) or (0, 0)
        await pilot.click(GameChart, offset=(right - 1, 5))  # the right edge: the last decision
        await pilot.pause()
        assert app.picked == [6, spec.last]
        assert chart.decision_at(left - 1) is None  # the y axis' ticks are no decision


async def test_the_key_under_the_results_chart_follows_its_cursor(tmp_path):
    """Left and Right move the cursor on the chart itself: the key says where it stands."""
    match = play_to_end(karakum_match(moves=0))
    async with running(tmp_path, size=(80, 24)) as (app, pilot):
        await app.push_screen(GameOverScreen(match))
        await pilot.pause()
        chart, key = app.screen.query_one(GameChart), app.screen.query_one("#chart-key")
        assert "decision" not in str(key.render())  # no cursor yet
        chart.focus()
        await pilot.press("right", "right")
        await pilot.pause()
        assert chart.spec is not None and chart.spec.cursor == 2
        assert "│ decision 3" in str(key.render())
        await pilot.press("left")
        await pilot.pause()
        assert "│ decision 2" in str(key.render()) and "Ann" in str(key.render())


async def test_a_click_on_the_results_chart_opens_the_replay_at_that_decision(tmp_path):
    match = play_to_end(karakum_match(moves=0))
    async with running(tmp_path, size=(80, 24)) as (app, pilot):
        await app.push_screen(GameOverScreen(match))
        await pilot.pause()
        chart = app.screen.query_one(GameChart)
        assert chart.spec is not None and chart.spec.last == len(match.history)
        left, right = plot_columns(drawn(app)) or (0, 0)
        middle = (left + right) // 2
        await pilot.click(GameChart, offset=(middle, 3))
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, TableScreen) and replay.driver.KIND == "replay"
        assert replay.driver.position == chart.decision_at(middle) > 0


def test_each_round_of_a_chart_starts_again_from_zero_apart_from_the_last():
    """Jaipur's rupees start again at each round: the line is drawn in stretches, each
    round's ending at its total and the next starting from 0 at the same decision."""
    spec = score_spec(["Ann"], [[0, 3, 8, 0, 5]], rounds=[2], label="rupees")
    assert spec.rounds == (2,) and spec.y_label == "rupees"
    points = spec.lines[0].points
    assert stretches(points, spec.rounds) == [
        [(0, 0.0), (1, 3.0), (2, 8.0)],
        [(2, 0.0), (3, 0.0), (4, 5.0)],
    ]
    assert stretches(points, ()) == [list(points)]


@pytest.mark.slow
async def test_the_jaipur_results_chart_follows_each_rounds_rupees_in_lines(tmp_path):
    """Not the seals, which only step from 0 to 2 (columns of points): each player's
    rupees round by round, up to the best round's total, said on the chart."""
    match = play_to_end(seeded_match("jaipur", "Ann,bot:random"))
    rounds = match.state.rounds
    assert len(rounds) >= 2
    async with running(tmp_path, size=(120, 50)) as (app, pilot):
        await app.push_screen(GameOverScreen(match))
        await pilot.pause()
        chart = app.screen.query_one(GameChart)
        spec = chart.spec
        assert spec is not None
        best = max(score.total for past in rounds for score in past.scores)
        assert spec.top == best and spec.y_label == "rupees"
        states = match.states
        # The points of the series after a decision that ended a round, the last one aside.
        ends = [i for i in range(1, len(states) - 1) if states[i].rounds != states[i - 1].rounds]
        assert spec.rounds == tuple(ends) and len(ends) == len(rounds) - 1
        for seat, line in enumerate(spec.lines):
            totals = [line.points[end][1] for end in spec.rounds]
            assert totals == [past.scores[seat].total for past in rounds[:-1]]
            assert line.points[-1][1] == rounds[-1].scores[seat].total
        text = drawn(app)
        assert "rupees" in text and str(best) in text
