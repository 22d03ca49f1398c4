"""Charts over the decisions of a game, drawn by textual-plotext: axes, lines, marks, a cursor.

The results chart follows each player's score from the deal to the last
decision; the review chart each judged human's chance of winning after their
decisions, with a mark on every inaccuracy, mistake and blunder.  What a
chart shows is a :class:`ChartSpec` (plain data, tested without the app);
:class:`GameChart` draws one.  The cursor is a vertical line at a decision:
Enter, or a click on a point, asks to open the replay there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import evolve, frozen
from rich.text import Text
from textual.app import RenderResult
from textual.binding import Binding
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static
from textual_plotext import PlotextPlot

from karavan_core.analysis import ReviewedDecision, Verdict
from karavan_tui.words import verdict_mark

COLOURS = ("cyan", "magenta", "yellow", "green")  # one a line, in seat order
# And a point of its own for each line, so that lines are told apart without colour.
POINTS = ("•", "+", "o", "=")
# A mark a verdict, one character each (plotext draws single-character markers); the
# chess-style marks (?!, ?, ??) are said in the chart's key under it.  Not "!" for an
# inaccuracy: chess players read "!" as praise.
MARKERS = {Verdict.INACCURACY: "~", Verdict.MISTAKE: "?", Verdict.BLUNDER: "X"}
MARK_COLOUR = "red"
# Plotext draws its frame and points with box-drawing characters; ASCII mode swaps them.
# In ASCII the first player's points are "#": "*" marks the winners on the same screen.
ASCII_FRAME = str.maketrans("─│┌┐└┘┤├┬┴┼•", "-|+++++++++#")


@frozen
class Line:
    """One player's values over the game: ``points`` are (decision, value) pairs in order."""

    name: str
    points: tuple[tuple[int, float], ...]
    colour: str
    point: str


@frozen
class Mark:
    """A judged decision marked on the chart, at the chance it left."""

    decision: int
    value: float
    verdict: Verdict


@frozen
class ChartSpec:
    """What a chart shows: its lines and marks, the axes' ranges and words, the cursor."""

    lines: tuple[Line, ...]
    last: int  # the x axis runs from decision 0 to this one
    top: float  # the y axis runs from 0 to this
    y_ticks: tuple[tuple[float, str], ...]
    x_label: str
    marks: tuple[Mark, ...] = ()
    cursor: int | None = None
    # The decisions after which the lines start again from 0 (a new round): each
    # round's stretch of a line is drawn apart from the next.
    rounds: tuple[int, ...] = ()
    y_label: str = ""  # what the values count, where the key's names do not say it


def line(row: int, name: str, points: tuple[tuple[int, float], ...]) -> Line:
    """The ``row``-th line of a chart, in its own colour and point."""
    return Line(name, points, COLOURS[row % len(COLOURS)], POINTS[row % len(POINTS)])


def decision_ticks(last: int, most: int = 6) -> list[int]:
    """Whole decisions along the x axis: 0, ``last`` and evenly spaced round steps between."""
    step = max(1, -(-last // (most - 1)))
    for nice in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if nice >= step:
            step = nice
            break
    ticks = list(range(0, last, step))
    if len(ticks) > 1 and last - ticks[-1] <= step / 2:
        ticks.pop()  # too close to the last one to be read apart
    return [*ticks, last]


def score_spec(
    names: Sequence[str],
    series: Sequence[Sequence[int]],
    judged: Sequence[ReviewedDecision] = (),
    rounds: Sequence[int] = (),
    label: str = "",
) -> ChartSpec:
    """Each player's score after every decision (the deal is point 0), on one scale.

    A review of the game, if there is one, marks each inaccuracy, mistake and blunder
    among ``judged`` on its player's line, at the score after it.  After each of
    ``rounds`` the scores start again from 0 (Jaipur's rounds); ``label`` says what
    they count, if the game says so.
    """
    top = max(1, max((max(values) for values in series if values), default=1))
    last = max(1, max((len(values) for values in series), default=1) - 1)
    lines = tuple(
        line(seat, name, tuple(enumerate(float(v) for v in values)))
        for seat, (name, values) in enumerate(zip(names, series, strict=True))
    )
    ticks = tuple((float(v), str(v)) for v in sorted({0, top // 2, top}))
    marks = tuple(
        Mark(d.index + 1, float(series[d.seat][d.index + 1]), d.verdict)
        for d in judged
        if d.verdict in MARKERS and d.index + 1 < len(series[d.seat])
    )
    x_label = "decision (each round from 0)" if rounds else "decision"
    return ChartSpec(
        lines, last, float(top), ticks, x_label, marks, rounds=tuple(rounds), y_label=label
    )


def stretches(
    points: Sequence[tuple[int, float]], rounds: Sequence[int]
) -> list[list[tuple[int, float]]]:
    """A line's points in stretches: after each decision of ``rounds`` (where that round
    ended, at its final score) the next stretch starts again from 0 at the same decision."""
    pieces: list[list[tuple[int, float]]] = [[]]
    for x, y in points:
        pieces[-1].append((x, y))
        if x in rounds:
            pieces.append([(x, 0.0)])
    return [piece for piece in pieces if len(piece) > 1 or piece is pieces[0]]


def chance_spec(
    names: Sequence[str],
    series: Sequence[Sequence[tuple[int, float]]],
    decisions: int,
    judged: Sequence[ReviewedDecision] = (),
) -> ChartSpec:
    """Each judged player's chance of winning after their decisions, 0 to 100%.

    Every inaccuracy, mistake and blunder among ``judged`` is marked where it left
    the chance; a chance of 0% is a point on the bottom line like any other.
    """
    lines = tuple(
        line(row, name, tuple((i, chance * 100) for i, chance in points))
        for row, (name, points) in enumerate(zip(names, series, strict=True))
    )
    marks = tuple(
        Mark(d.index, d.judgement.win_after * 100, d.verdict)
        for d in judged
        if d.verdict in MARKERS
    )
    ticks = ((0.0, "0%"), (50.0, "50%"), (100.0, "100%"))
    return ChartSpec(lines, max(1, decisions - 1), 100.0, ticks, "decision", marks)


def key_words(spec: ChartSpec, ascii_mode: bool = False) -> Content:
    """The chart's key: whose line is which, what the marks and the cursor mean."""
    parts: list[Content] = []
    for each in spec.lines:
        point = each.point.translate(ASCII_FRAME) if ascii_mode else each.point
        parts.append(Content.assemble((f"{point} ", f"bold {each.colour}"), each.name))
    if spec.marks:
        parts.append(Content("  ".join(f"{MARKERS[v]} {v} ({verdict_mark(v)})" for v in MARKERS)))
    if spec.cursor is not None:
        parts.append(Content(f"{'|' if ascii_mode else '│'} decision {spec.cursor + 1}"))
    return Content("   ").join(parts)


class GameChart(PlotextPlot):
    """A :class:`ChartSpec` drawn with axes; the cursor moves with Left and Right.

    Enter, or a click on a point, posts :class:`GameChart.Picked` with the decision.
    """

    can_focus = True
    BINDINGS = [
        Binding("left", "move(-1)", "Earlier", show=False),
        Binding("right", "move(1)", "Later", show=False),
        Binding("enter", "pick", "Replay here", show=False),
    ]
    DEFAULT_CSS = """
    GameChart { height: 1fr; min-height: 8; }
    """

    spec: reactive[ChartSpec | None] = reactive(None)
    ascii_mode: reactive[bool] = reactive(False)

    class Picked(Message):
        """A decision was chosen on the chart (Enter or a click)."""

        def __init__(self, decision: int) -> None:
            super().__init__()
            self.decision = decision

    def __init__(self, spec: ChartSpec | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.theme = "clear"  # the terminal's own colours: readable in every Textual theme
        self._frame: tuple[int, int] | None = None  # the plot area's first and last column
        self.set_reactive(GameChart.spec, spec)

    def render(self) -> RenderResult:
        """Lay the plot out for the room the widget has, then draw it."""
        spec = self.spec
        if spec is None or not spec.lines:
            return Text("")
        plt = self.plt
        plt.clear_figure()
        for line in spec.lines:
            for piece in stretches(line.points, spec.rounds) if line.points else ():
                xs = [x for x, _ in piece]
                ys = [y for _, y in piece]
                plt.plot(xs, ys, marker=line.point, color=line.colour)
        for verdict, marker in MARKERS.items():
            marks = [m for m in spec.marks if m.verdict is verdict]
            if marks:
                xs = [m.decision for m in marks]
                plt.scatter(xs, [m.value for m in marks], marker=marker, color=MARK_COLOUR)
        if spec.cursor is not None:
            plt.vline(spec.cursor, "white")
        plt.xlim(0, spec.last)
        ticks = decision_ticks(spec.last)
        plt.xticks([float(t) for t in ticks], [str(t) for t in ticks])
        plt.ylim(0, spec.top)
        plt.yticks([v for v, _ in spec.y_ticks], [w for _, w in spec.y_ticks])
        plt.xlabel(spec.x_label)
        if spec.y_label:
            plt.ylabel(spec.y_label)
        rendered = super().render()
        assert isinstance(rendered, Text)
        if self.ascii_mode:
            rendered = Text(rendered.plain.translate(ASCII_FRAME))
        self._frame = plot_columns(rendered.plain)
        return rendered

    def show(self, spec: ChartSpec, ascii_mode: bool = False) -> None:
        """Draw ``spec``."""
        self.ascii_mode = ascii_mode
        self.spec = spec

    def move_cursor(self, decision: int | None) -> None:
        """Put the cursor at ``decision`` (``None``: no cursor)."""
        if self.spec is not None:
            self.spec = evolve(self.spec, cursor=decision)

    def action_move(self, step: int) -> None:
        """The cursor one decision earlier or later (to the nearest mark, if there are marks)."""
        spec = self.spec
        if spec is None:
            return
        at = spec.cursor if spec.cursor is not None else (0 if step > 0 else spec.last)
        stops = sorted({m.decision for m in spec.marks}) or list(range(spec.last + 1))
        later = [d for d in stops if (d > at if step > 0 else d < at)]
        if later:
            self.move_cursor(later[0] if step > 0 else later[-1])

    def action_pick(self) -> None:
        """Open the replay at the cursor."""
        if self.spec is not None and self.spec.cursor is not None:
            self.post_message(self.Picked(self.spec.cursor))

    def on_click(self, event: Click) -> None:
        """A click on the plot: the decision under it, for the replay."""
        decision = self.decision_at(event.x)
        if decision is not None:
            self.move_cursor(decision)
            self.post_message(self.Picked(decision))

    def decision_at(self, column: int) -> int | None:
        """The decision drawn at ``column`` of the widget, if it is inside the plot."""
        if self.spec is None or self._frame is None:
            return None
        left, right = self._frame
        if not left < column < right:
            return None
        share = (column - left - 1) / max(1, right - left - 2)
        return round(share * self.spec.last)


class ChartKey(Static):
    """The key under a :class:`GameChart`: whose line is which, the marks, the cursor's decision.

    It watches its chart's spec, so the key says what the chart shows however it
    changed (a new spec, the list of mistakes, Left and Right on the chart itself).
    """

    def __init__(self, chart: GameChart, **kw: Any) -> None:
        super().__init__("", **kw)
        self.chart = chart

    def on_mount(self) -> None:
        """Follow the chart from now on."""
        self.watch(self.chart, "spec", self._follow)

    def _follow(self, spec: ChartSpec | None) -> None:
        self.update(key_words(spec, self.chart.ascii_mode) if spec is not None else "")


def plot_columns(drawn: str) -> tuple[int, int] | None:
    """The columns of the plot frame's left and right edges, from its bottom edge.

    That edge is the row made of frame characters only, corner to corner (in ASCII
    mode corners and ticks are ``+``: a row of ``+`` points has spaces between).
    """
    for row in reversed(drawn.splitlines()):
        edge = row.strip()
        if len(edge) > 2 and edge[0] in "└+" and edge[-1] in "┘+" and not edge.strip("─┬┴└┘-+"):
            left = len(row) - len(row.lstrip())
            return left, left + len(edge) - 1
    return None
