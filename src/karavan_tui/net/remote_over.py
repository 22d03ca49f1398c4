"""The end of a hosted game, on a player's screen: the outcome as the host sent it, the
review and the replay of the game as this player saw it, and the host's rematch.

Behind a server's ssh door the replay opens but the review does not (the Expert's search
would run on the server's machine)."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Footer, Static

from karavan_core.engine import Result
from karavan_core.match import Match, Seat
from karavan_core.text import printable
from karavan_net.protocol import Update
from karavan_tui.context import karavan_app
from karavan_tui.door import door_refuses
from karavan_tui.messages import BackToTitle
from karavan_tui.screens.game_over import OverScreen, outcome_body
from karavan_tui.screens.replay import Replay
from karavan_tui.screens.review import ReviewScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.widgets.chrome import AppHeader


def rating_words(ratings: list[list[int]], seat: int | None) -> str:
    """What a rated game did to ``seat``'s rating ("" if it was not rated, or for a watcher):
    "Your rating: 1000 → 1018 (+18)"."""
    if seat is None or not 0 <= seat < len(ratings) or len(ratings[seat]) != 2:
        return ""
    before, after = ratings[seat]
    return f"Your rating: {before} → {after} ({after - before:+d})"


class RemoteOverScreen(OverScreen[None]):
    """The end of a hosted game: winners, breakdown and chart, as the host sent them.

    ``seen()`` is the game as this player saw it, once the host has sent it;
    ``rematch`` (the host's own terminal) starts a new game with the same seats;
    ``viewer`` is this player's seat (``None``: a watcher), told what a rated game did to
    their rating.
    """

    BINDINGS = [
        Binding("t,escape", "leave", "Title"),
        Binding("b", "back", "Table", tooltip="Look at the table again"),
        Binding("v", "review", "Review", tooltip="Your decisions judged by the Expert"),
        Binding("p", "replay", "Replay", tooltip="Step through the game as you saw it"),
        Binding("m", "rematch", "Rematch", tooltip="A new game with the same seats"),
    ]

    def __init__(
        self,
        seats: tuple[Seat, ...],
        update: Update,
        hosting: bool,
        seen: Callable[[], Match | None] = lambda: None,
        rematch: Callable[[], None] | None = None,
        *,
        label: str = "",
        viewer: int | None = None,
    ) -> None:
        super().__init__()
        self.seats = seats
        self.latest = update
        self.hosting = hosting
        self.chart_label = label  # what the chart counts, where the game says so
        self.seen = seen
        self.rematch = rematch
        self.viewer = viewer

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
            rating = rating_words(self.latest.ratings, self.viewer)
            if rating:
                yield Static(Content(karavan_app(self).glyphs.words(rating)), id="rating")
            yield from outcome_body(names, result, notes, series, ascii_mode, rounds, label)
        with Center(id="over-foot"), Horizontal(id="over-buttons"):
            leave = "Close the table (t)" if self.hosting else "Title (t)"
            yield Button(leave, id="leave", variant="primary", compact=True)
            yield Button("Table (b)", id="back", compact=True)
            if not door_refuses(karavan_app(self), "review", tell=False):
                yield Button("Review (v)", id="review", compact=True)
            yield Button("Replay (p)", id="replay", compact=True)
            if self.rematch is not None:
                yield Button("Rematch (m)", id="rematch", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Say the game is over."""
        self.sub_title = "Game over"
        self.query_one("#leave", Button).focus(scroll_visible=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Leave, look back, review, replay or start again."""
        actions = {
            "back": self.action_back,
            "review": self.action_review,
            "replay": self.action_replay,
            "rematch": self.action_rematch,
        }
        actions.get(event.button.id or "", self.action_leave)()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Rematch only in the host's own terminal; no review behind an ssh door."""
        if action == "rematch":
            return self.rematch is not None
        return not door_refuses(karavan_app(self), action, tell=False)

    def _game_seen(self) -> Match | None:
        match = self.seen()
        if match is None:
            self.notify("The host has not sent the game yet: try again in a moment.")
        return match

    def action_review(self) -> None:
        """The review of this player's decisions, from what they saw."""
        if door_refuses(karavan_app(self), "review"):
            return
        match = self._game_seen()
        if match is not None and match.seen_by is not None:
            self.app.push_screen(ReviewScreen(match, [match.seen_by]))

    def action_replay(self) -> None:
        """Step through the game as this player saw it."""
        match = self._game_seen()
        if match is not None:
            self.app.push_screen(TableScreen(Replay(match, 0, match.seen_by)))

    def action_rematch(self) -> None:
        """The host: a new game with the same seats."""
        if self.rematch is not None:
            self.rematch()

    def action_back(self) -> None:
        """Back to the table."""
        self.dismiss()

    def action_leave(self) -> None:
        """To the title (in the host's terminal: close the table and quit)."""
        if self.hosting:
            self.app.exit()
        else:
            self.post_message(BackToTitle())
