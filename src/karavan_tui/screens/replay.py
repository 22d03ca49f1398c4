"""Step through a saved game decision by decision, as one player saw it.

The table is drawn from an observation, as at play: a player's own (only their
cards), or the public view.  While the game is in progress only the humans'
views are offered (each behind the curtain when several share the screen), so
a replay shows nobody a card they could not see.  Once the game is over every
seat's view is offered, and every hidden card can be turned face up.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from karavan_core.analysis import GameReview, ReviewedDecision
from karavan_core.engine import Action
from karavan_core.match import Match
from karavan_tui.app_access import karavan_app
from karavan_tui.glyphs import Glyphs
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.tables import TableView, View, table_for
from karavan_tui.widgets.chrome import AppHeader
from karavan_tui.widgets.side import GameLog, ScoreBoard, StatusLine

PUBLIC = None  # the viewer "everyone": the public view


def verdict_mark(verdict: str) -> str:
    """The chess-style mark of a verdict: ?! inaccuracy, ? mistake, ?? blunder."""
    return {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(verdict, "")


def judged_words(reviewed: ReviewedDecision) -> str:
    """A judged decision: the verdict and chances first, then what was played and preferred."""
    j = reviewed.judgement
    played = reviewed.played_words
    if j.played == j.best:
        return f"The Expert agrees ({j.win_after:.0%} to win). Played: {played}"
    verdict = reviewed.verdict.value
    head = f"{verdict_mark(verdict)} {verdict.capitalize()}".strip()
    return (
        f"{head}, chance {j.win_before:.0%} to {j.win_after:.0%}. Played: {played} "
        f"Expert: {reviewed.best_words}"
    )


class ReplayScreen(Screen[None]):
    """A read-only table at decision ``position`` of ``match``, moved with the arrows."""

    CSS_PATH = ["game.tcss", "replay.tcss"]  # laid out as the game table is
    DEFAULT_CLASSES = "table-screen"
    AUTO_FOCUS = ""  # nothing: the arrows step through the game; the table plays nothing
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide"), (180, "-huge")]
    BINDINGS = [
        # Priority: the table's rows would take the arrows for their cursors.
        Binding("left", "step(-1)", "Back", key_display="←", priority=True),
        Binding("right", "step(1)", "Next", key_display="→", priority=True),
        Binding("home", "jump(0)", "Start", show=False, priority=True),
        Binding("end", "jump(-1)", "End", show=False, priority=True),
        Binding("v", "viewer", "Viewer", tooltip="See the table as another player saw it"),
        Binding("f", "face_up", "Face up", tooltip="Every card face up (once the game is over)"),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(
        self,
        match: Match,
        position: int = 0,
        viewer: int | None = PUBLIC,
        review: GameReview | None = None,
        viewers: Sequence[int | None] | None = None,
    ) -> None:
        super().__init__()
        self.match = match
        self.game = match.game
        self.over = match.is_over()
        humans = [i for i, seat in enumerate(match.seats) if not seat.is_bot]
        if viewers is None:
            viewers = [PUBLIC, *(range(len(match.seats)) if self.over else humans)]
        self.viewers = list(viewers)
        self.viewer = viewer if viewer in self.viewers else self.viewers[0]
        # Several humans share the screen of a game in progress: each view needs the curtain.
        self.guarded = not self.over and len(humans) > 1
        self.position = max(0, min(position, len(match.history)))
        self.face_up = False
        self.judged = {d.index: d for d in review.decisions} if review is not None else {}
        self.table: TableView = table_for(self.game.name)(self, id="table")

    # -- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        """The position line, the table beside scores and log, the judgement, the keys."""
        yield AppHeader()
        yield Static("", id="replay-info")
        with Horizontal(id="main"):
            yield self.table
            with Vertical(id="side"):
                scores = ScoreBoard(id="scores")
                scores.border_title = self.game.score_label
                yield scores
                yield GameLog(id="log")
                with VerticalScroll(id="face-up"):
                    yield Static("", id="face-up-text")
        yield StatusLine(id="status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        """Draw the first position."""
        self.sub_title = f"Replay of {self.game.title}"
        self.query_one(GameLog).border_title = f"Log {self.glyphs.sep} seed {self.match.seed}"
        self.query_one("#face-up").border_title = "Every card face up"
        self.redraw()

    @property
    def glyphs(self) -> Glyphs:
        """The current symbol set."""
        return karavan_app(self).glyphs

    def redraw(self) -> None:
        """Draw the table at the current position from the current viewer's observation."""
        match, game, g = self.match, self.game, self.glyphs
        at = self.position
        state = match.states[at]
        observation = match.view(self.viewer, at)
        to_move = state.to_move
        legal: tuple[Action, ...] = ()
        if self.viewer is not None and to_move == self.viewer:
            legal = tuple(game.legal_actions(state))  # as that player had them (never played)
        before = match.view(self.viewer, at - 1) if at else None
        news = tuple(match.history[at - 1 : at])
        scores = game.result(state).scores
        past = match.public_views()[: at + 1]
        view = View(game, match.seats, observation, legal, g, scores, before, news, past, False)
        self.table.show(view)
        judged = self.judged.get(at)
        shows_judgement = judged is not None and (self.over or judged.seat == self.viewer)
        self.table.mark_hint(judged.judgement.best if shows_judgement and judged else None)
        winners = game.result(state).winners if game.is_over(state) else ()
        self.query_one(ScoreBoard).show(match.seats, scores, to_move, winners, g)
        self.query_one(GameLog).show(match.log()[: at + 1], at if at else None, g)
        self.query_one("#replay-info", Static).update(self._info(at, to_move))
        words = judged_words(judged) if shows_judgement and judged else self._decision_words(at)
        self.query_one(StatusLine).show(words, False, "", g)
        face_up = self.face_up and self.over
        self.query_one("#face-up").display = face_up
        self.query_one(GameLog).display = not face_up
        if face_up:
            text = Text()
            for what, cards in game.disclose(state):
                text.append(f"{what}: ", style="bold")
                text.append(f"{cards}\n")
            self.query_one("#face-up-text", Static).update(text)
        self.refresh_bindings()

    def _info(self, at: int, to_move: int | None) -> Text:
        total = len(self.match.history)
        names = [seat.name for seat in self.match.seats]
        whose = "the game is over" if to_move is None else f"{names[to_move]} to decide"
        seen = "everyone's view" if self.viewer is None else f"as {names[self.viewer]} saw it"
        if self.face_up and self.over:
            seen = "every card face up"
        sep = self.glyphs.sep
        where = f"Decision {at + 1} of {total}" if at < total else f"After all {total} decisions"
        return Text(f"{where} {sep} {whose} {sep} {seen}")

    def _decision_words(self, at: int) -> str:
        """The decision taken here, as the log tells it (public words), or how to move on."""
        if at < len(self.match.history):
            return f"Next: {self.match.log()[at + 1]}"
        if self.over:
            return "The end of the game. Left steps back, f turns every card face up."
        return "The last position saved. Left steps back."

    # -- the table's host interface (a replay plays nothing) -----------------------
    def decide(self, *actions: Action) -> bool:
        """Nothing is played in a replay: say how to move instead."""
        self.notify("A replay: Left and Right step through the game.", severity="warning")
        return False

    def choose(
        self,
        title: str,
        options: Sequence[str],
        on_pick: Callable[[int], object],
        searchable: bool = False,
        highlight: int | None = None,
    ) -> None:
        """No picker opens in a replay."""
        self.decide()

    def check(self, *actions: Action) -> str | None:
        """Every gesture is refused in a replay."""
        return "Nothing is played in a replay."

    def refresh_status(self) -> None:
        """Nothing to redraw: the status line shows the judgement or the next decision."""

    def preview(self, action: Action) -> str:
        """``action`` in the words of the viewer at this position."""
        return self.game.preview(self.match.view(self.viewer, self.position), action)

    # -- keys ---------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Face up only once the game is over; another viewer only if there is one."""
        if action == "face_up":
            return True if self.over else None
        if action == "viewer":
            return True if len(self.viewers) > 1 else None
        return True

    def action_step(self, step: int) -> None:
        """One decision back or on."""
        self.go_to(self.position + step)

    def action_jump(self, where: int) -> None:
        """To the deal (0) or the last position (-1)."""
        self.go_to(len(self.match.history) if where < 0 else where)

    def go_to(self, position: int) -> None:
        """Show ``position`` (kept within the game)."""
        position = max(0, min(position, len(self.match.history)))
        if position != self.position:
            self.position = position
            self.redraw()

    def action_viewer(self) -> None:
        """See the table as the next player (or everyone) saw it."""
        if len(self.viewers) < 2:
            return
        following = self.viewers[(self.viewers.index(self.viewer) + 1) % len(self.viewers)]
        self.face_up = False
        if self.guarded and following is not None:
            self.viewer = PUBLIC  # nothing private stays on screen under the curtain
            self.redraw()

            def lifted(_: object) -> None:
                self.viewer = following
                self.redraw()

            name = self.match.seats[following].name
            self.app.push_screen(CurtainScreen(name, at_table=False), lifted)
            return
        self.viewer = following
        self.redraw()

    def action_face_up(self) -> None:
        """Turn every card face up, or back (only once the game is over)."""
        if not self.over:
            self.notify("Cards are turned face up only once the game is over.")
            return
        self.face_up = not self.face_up
        self.redraw()

    def action_close(self) -> None:
        """Back to where the replay was opened."""
        self.dismiss(None)
