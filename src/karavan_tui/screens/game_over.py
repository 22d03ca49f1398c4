"""The end of a game: scores with their breakdown, the winners and a chart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from karavan_core.analysis import Verdict
from karavan_core.engine import Result
from karavan_core.match import Match, winners_sentence
from karavan_tui.context import karavan_app
from karavan_tui.messages import OpenReplay, OpenReview
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.screens.review import review_key
from karavan_tui.widgets.chart import ChartKey, GameChart, score_spec
from karavan_tui.widgets.chrome import AppHeader

T = TypeVar("T")  # what an over screen dismisses with


def breakdown_table(names: list[str], result: Result, star: str = "★") -> Table:
    """The scores' breakdown: one column per seat (winners starred), one row per line."""
    table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
    table.add_column("")
    for seat, name in enumerate(names):
        mark = f" {star}" if seat in result.winners else ""
        table.add_column(Text(f"{name}{mark}"), justify="right")
    # Seats may explain themselves with different lines (Karakorum's champions
    # have more than the others): one row per label, in order of first use.
    values = [dict(lines) for lines in result.breakdown]
    labels = list(dict.fromkeys(label for lines in result.breakdown for label, _ in lines))
    for label in labels:
        cells = (Text(values[seat].get(label, "")) for seat in range(len(names)))
        table.add_row(Text(label), *cells)
    return table


def outcome_body(
    names: list[str],
    result: Result,
    notes: str,
    series: Sequence[Sequence[int]],
    ascii_mode: bool,
    rounds: Sequence[int] = (),
    label: str = "",
) -> ComposeResult:
    """What every game-over screen shows: the winners, ``notes``, the breakdown and the chart
    of ``series`` (starting again from 0 after each of ``rounds``; ``label``: what it counts,
    where the game says so)."""
    star = "*" if ascii_mode else "★"
    yield Static(Content(f"{star} {winners_sentence(names, result.winners)}!"), id="winners")
    yield Static(Content(notes), id="notes")
    yield Static(breakdown_table(names, result, star), id="breakdown")
    spec = score_spec(names, series, rounds=rounds, label=label)
    chart = GameChart(spec, id="chart")
    chart.ascii_mode = ascii_mode
    yield chart
    yield ChartKey(chart, id="chart-key")


class OverScreen(Screen[T]):
    """A game-over screen's layout: the outcome (scrolled if long) above a row of buttons.

    The focus stays on the buttons, so the keys that scroll are the screen's own:
    where the outcome is longer than the screen (four players at 80x24), the chart's
    key is one PgDn or Down away.
    """

    BINDINGS = [
        Binding("down", "scroll_over('down')", "Scroll down", show=False),
        Binding("up", "scroll_over('up')", "Scroll up", show=False),
        Binding("pagedown", "scroll_over('page_down')", "Page down", show=False),
        Binding("pageup", "scroll_over('page_up')", "Page up", show=False),
        Binding("home", "scroll_over('home')", "Top", show=False),
        Binding("end", "scroll_over('end')", "Bottom", show=False),
    ]

    DEFAULT_CSS = """
    OverScreen #over { padding: 0 1; align-horizontal: center; }
    /* On a wide terminal the words keep a readable width, centred; the chart a wider one. */
    OverScreen #over > * { max-width: 100; }
    OverScreen #over > #chart { max-width: 140; }
    /* The breakdown as wide as its cells are, up to the whole width: a cell wraps only
       where the screen is too narrow for its table. */
    OverScreen #over > #breakdown { width: auto; max-width: 100%; }
    OverScreen #winners { text-style: bold; color: $success; }
    OverScreen #chart { margin-top: 1; height: 1fr; min-height: 9; }
    OverScreen #chart-key { color: $text-muted; }
    /* The buttons stay in sight below the outcome, which scrolls where it is long; their
       row starts where the outcome does (the chart's width sets where that is). */
    OverScreen #over-foot { height: auto; padding: 0 1; }
    OverScreen #over-buttons { height: auto; width: 100%; max-width: 140; margin-top: 1; }
    /* As wide as their words: five fit 80 columns. */
    OverScreen Button { margin-right: 2; width: auto; min-width: 0; }
    """

    def on_mount(self) -> None:
        """A toast of the last turn ("You drew ...") must not lie over the results."""
        self.app.clear_notifications()

    def action_scroll_over(self, how: str) -> None:
        """Scroll the outcome: ``down``, ``up``, ``page_down``, ``page_up``, ``home``, ``end``."""
        over = self.query_one("#over", VerticalScroll)
        getattr(over, f"scroll_{how}")(animate=False)


class GameOverScreen(OverScreen[str]):
    """Dismisses with ``"rematch"``, ``"new"`` or ``"title"``: the result is final (no undo)."""

    BINDINGS = [
        # Not on r, which is redo at the table: a redo too many must not start a new game.
        Binding("m", "rematch", "Rematch", tooltip="Same players, a new deal (asks first)"),
        Binding("n", "leave('new')", "New game"),
        Binding("t", "leave('title')", "Title"),
        # Escape leaves nothing: pressed by habit it had shut results nobody had read yet.
        Binding("escape", "say_ways_on", "Ways on", show=False),
        Binding("v", "review", "Review", tooltip="The Expert judges every decision"),
        Binding("p", "replay", "Replay", tooltip="Step through the game, every card face up"),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def compose(self) -> ComposeResult:
        """Winners, breakdown, chart and the ways on."""
        match = self.match
        result = match.game.result(match.state)
        names = [seat.name for seat in match.seats]
        ascii_mode = getattr(self.app, "ascii_mode", False)
        notes = "\n".join(result.notes)  # one sentence a line: some games explain in steps
        notes += f" Seed {match.seed}.{self._hints_words()}"
        yield AppHeader()
        with VerticalScroll(id="over"):
            series, rounds, label = match.score_series(), match.round_ends(), self.chart_label
            yield from outcome_body(names, result, notes, series, ascii_mode, rounds, label)
        with Center(id="over-foot"), Horizontal(id="over-buttons"):
            yield Button("Rematch (m)", id="rematch", variant="primary", compact=True)
            if match.humans:  # a game of bots alone has nobody to review
                yield Button("Review (v)", id="review", compact=True)
            yield Button("Replay (p)", id="replay", compact=True)
            yield Button("New game (n)", id="new", compact=True)
            yield Button("Title (t)", id="title", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Start on a button that leaves the game where it is (Review, else Replay): an Enter
        typed as the game ended must not ask for a new one."""
        self.sub_title = "Game over"
        first = "#review" if self.match.humans else "#replay"
        # Open at the top: the winners and how they were found come first.
        self.query_one(first, Button).focus(scroll_visible=False)
        self.mark_review()

    def on_screen_resume(self) -> None:
        """Back from the review: its slips are marked on the chart now."""
        self.mark_review()

    def mark_review(self) -> None:
        """Mark the humans' slips on the chart, if their review was made this session."""
        match = self.match
        review = karavan_app(self).reviews.get(review_key(match, list(match.humans)))
        if review is None:
            return
        names = [seat.name for seat in match.seats]
        slips = [d for d in review.decisions if d.verdict is not Verdict.GOOD]
        spec = score_spec(names, match.score_series(), slips, match.round_ends(), self.chart_label)
        ascii_mode = karavan_app(self).ascii_mode
        self.query_one(GameChart).show(spec, ascii_mode)

    @property
    def chart_label(self) -> str:
        """What the chart counts, where the game says so."""
        return self.match.game.chart_label or ""

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Leave by button."""
        if event.button.id == "rematch":
            self.action_rematch()
        elif event.button.id == "review":
            self.action_review()
        elif event.button.id == "replay":
            self.action_replay()
        else:
            self.dismiss(str(event.button.id))

    def action_rematch(self) -> None:
        """A new deal for the same players, once the player says so."""

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss("rematch")

        question = "Start a new game with the same players? This one stays saved."
        self.app.push_screen(ConfirmScreen(question, yes="Rematch"), answered)

    def _hints_words(self) -> str:
        """Who asked for hints, or took back a decision that had shown a card, and how often."""
        match = self.match
        asked = [f"{seat.name} {n}" for seat, n in zip(match.seats, match.hints, strict=True) if n]
        words = f"\nHints asked for: {', '.join(asked)}." if asked else ""
        taken = [
            f"{seat.name} {n}" for seat, n in zip(match.seats, match.takebacks, strict=True) if n
        ]
        if taken:  # take-backs against bots past a card that had been shown
            words += f"\nTaken back after seeing a card: {', '.join(taken)}."
        return words

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No Review key after a game of bots alone."""
        if action == "review":
            return bool(self.match.humans)
        return True

    def action_review(self) -> None:
        """The Expert's review of every human decision."""
        self.post_message(OpenReview(self.match))

    def action_replay(self) -> None:
        """Step through the game."""
        self.post_message(OpenReplay(self.match))

    def on_game_chart_picked(self, message: GameChart.Picked) -> None:
        """A point of the chart: the replay from there (the chart counts from the deal)."""
        message.stop()
        self.post_message(OpenReplay(self.match, message.decision))

    def action_leave(self, where: str) -> None:
        """Leave by key."""
        self.dismiss(where)

    def action_say_ways_on(self) -> None:
        """Escape: say how to leave instead of leaving."""
        self.notify("The game is over: t goes to the title, n starts a new game, m a rematch.")
