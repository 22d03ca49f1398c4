"""The end of a hosted game, on a player's screen: the outcome as the host sent it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, VerticalScroll
from textual.widgets import Button, Footer

from karavan_core.engine import Result
from karavan_core.match import Seat
from karavan_core.text import printable
from karavan_net.protocol import Update
from karavan_tui.messages import BackToTitle
from karavan_tui.screens.game_over import OverScreen, outcome_body
from karavan_tui.widgets.chrome import AppHeader


class RemoteOverScreen(OverScreen[None]):
    """The end of a hosted game: winners, breakdown and chart, as the host sent them."""

    BINDINGS = [
        Binding("t,escape", "leave", "Title"),
        Binding("b", "back", "Table", tooltip="Look at the table again"),
    ]

    def __init__(
        self, seats: tuple[Seat, ...], update: Update, hosting: bool, label: str = ""
    ) -> None:
        super().__init__()
        self.seats = seats
        self.latest = update
        self.hosting = hosting
        self.chart_label = label  # what the chart counts, where the game says so

    def compose(self) -> ComposeResult:
        """Winners, breakdown, chart."""
        outcome = self.latest.outcome
        assert outcome is not None
        names = [seat.name for seat in self.seats]
        ascii_mode = getattr(self.app, "ascii_mode", False)
        breakdown = tuple(
            tuple((printable(label), printable(value)) for label, value in lines)
            for lines in outcome.result.breakdown
        )
        winners = tuple(i for i in outcome.result.winners if 0 <= i < len(names))
        result = Result(outcome.result.scores, winners, breakdown, ())
        notes = "\n".join(printable(n) for n in outcome.result.notes)
        yield AppHeader()
        with VerticalScroll(id="over"):
            series, rounds, label = outcome.series, outcome.rounds, self.chart_label
            yield from outcome_body(names, result, notes, series, ascii_mode, rounds, label)
        with Center(id="over-foot"), Horizontal(id="over-buttons"):
            leave = "Close the table (t)" if self.hosting else "Title (t)"
            yield Button(leave, id="leave", variant="primary", compact=True)
            yield Button("Table (b)", id="back", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Say the game is over."""
        self.sub_title = "Game over"
        self.query_one("#leave", Button).focus(scroll_visible=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Leave or look back."""
        if event.button.id == "back":
            self.action_back()
        else:
            self.action_leave()

    def action_back(self) -> None:
        """Back to the table."""
        self.dismiss()

    def action_leave(self) -> None:
        """To the title (in the host's terminal: close the table and quit)."""
        if self.hosting:
            self.app.exit()
        else:
            self.post_message(BackToTitle())
