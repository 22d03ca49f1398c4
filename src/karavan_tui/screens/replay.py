"""Step through a saved game decision by decision, as one player saw it.

The table is drawn from an observation, as at play: a player's own (only their
cards), or the public view.  While the game is in progress only the humans'
views are offered (each behind the curtain when several share the screen), so
a replay shows nobody a card they could not see.  Once the game is over every
seat's view is offered, and every hidden card can be turned face up, but for a
game as one player saw it (a hosted game's, :attr:`Match.seen_by`): that one
shows only that player's view, or everyone's, as its unseen cards are made up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from karavan_core.analysis import GameReview, ReviewedDecision
from karavan_core.engine import Action
from karavan_core.match import Match
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.screens.table import Driver, Frame, Status, TableKind
from karavan_tui.tables import View
from karavan_tui.words import verdict_mark

PUBLIC = None  # the viewer "everyone": the public view


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


class Replay(Driver):
    """A read-only table at decision ``position`` of ``match``, moved with the arrows."""

    KIND = TableKind.REPLAY
    NEWS_LINE = False  # the position line instead
    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: the table's rows would take the arrows for their cursors.
        Binding("left", "step(-1)", "Back", key_display="←", priority=True),
        Binding("right", "step(1)", "Next", key_display="→", priority=True),
        Binding("home", "jump(0)", "Start", show=False, priority=True),
        Binding("end", "jump(-1)", "End", show=False, priority=True),
        Binding("v", "viewer", "Viewer", tooltip="See the table as another player saw it"),
        Binding(
            "f",
            "face_up",
            "Face up",
            tooltip="Every card face up (once the game is over)",
        ),
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
        self.match = match
        self.game = match.game
        self.over = match.is_over()
        humans = list(match.humans)
        if match.seen_by is not None:
            viewers = [PUBLIC, match.seen_by]  # nothing else was seen
        elif viewers is None:
            viewers = [PUBLIC, *(range(len(match.seats)) if self.over else humans)]
        self.viewers = list(viewers)
        self.viewer = viewer if viewer in self.viewers else self.viewers[0]
        # Several humans share the screen of a game in progress: each view needs the curtain.
        self.guarded = not self.over and len(humans) > 1
        self.position = max(0, min(position, len(match.history)))
        self.face_up = False
        self.disclosed = self.over and match.seen_by is None  # whether cards may go face up
        self.judged = {d.index: d for d in review.decisions} if review is not None else {}

    def frame(self) -> Frame:
        """The table at the current position, from the current viewer's observation."""
        match, game, g = self.match, self.game, self.glyphs
        at = self.position
        state = match.state_at(at)
        observation = match.view(self.viewer, at)
        to_move = state.to_move
        legal: tuple[Action, ...] = ()
        if self.viewer is not None and to_move == self.viewer:
            legal = tuple(game.legal_actions(state))  # as that player had them (never played)
        before = match.view(self.viewer, at - 1) if at else None
        news = tuple(match.history[at - 1 : at])
        result = game.result(state)
        past = match.public_views()[: at + 1]
        view = View(
            game=game,
            seats=match.seats,
            observation=observation,
            legal=legal,
            glyphs=g,
            scores=result.scores,
            before=before,
            news=news,
            past=past,
            playing=False,
        )
        judged = self.judged.get(at)
        if judged is not None and not (self.over or judged.seat == self.viewer):
            judged = None
        words = judged_words(judged) if judged is not None else self._decision_words(at)
        face_up = None
        if self.face_up and self.disclosed:
            face_up = Text()
            for what, cards in game.disclose(state):
                face_up.append(f"{what}: ", style="bold")
                face_up.append(f"{cards}\n")
        return Frame(
            view,
            subtitle=f"Replay of {game.title}",
            log_title=f"Log {g.sep} seed {match.seed}" if match.seen_by is None else "Log",
            to_move=to_move,
            winners=result.winners if game.is_over(state) else (),
            log=match.log()[: at + 1],
            log_news_from=at if at else None,
            # The judgement or the next decision, whatever the table marks.
            status=Status(words, first=True),
            hinted=(judged.judgement.best,) if judged is not None else (),
            info=self._info(at, to_move),
            face_up=face_up,
        )

    def _info(self, at: int, to_move: int | None) -> str:
        total = len(self.match.history)
        names = [seat.name for seat in self.match.seats]
        whose = "the game is over" if to_move is None else f"{names[to_move]} to decide"
        seen = "everyone's view" if self.viewer is None else f"as {names[self.viewer]} saw it"
        if self.face_up and self.disclosed:
            seen = "every card face up"
        sep = self.glyphs.sep
        where = f"Decision {at + 1} of {total}" if at < total else f"After all {total} decisions"
        return f"{where} {sep} {whose} {sep} {seen}"

    def _decision_words(self, at: int) -> str:
        """The decision taken here, as the log tells it (public words), or how to move on."""
        if at < len(self.match.history):
            return f"Next: {self.match.log()[at + 1]}"
        if self.disclosed:
            return "The end of the game. Left steps back, f turns every card face up."
        if self.over:
            return "The end of the game. Left steps back."
        return "The last position saved. Left steps back."

    # -- the table's gestures (a replay plays nothing) -------------------------------
    def decide(self, *actions: Action) -> bool:
        """Nothing is played in a replay: say how to move instead."""
        self.notify("A replay: Left and Right step through the game.", severity="warning")
        return False

    def check(self, *actions: Action) -> str | None:
        """Every gesture is refused in a replay."""
        return "Nothing is played in a replay."

    def preview(self, action: Action) -> str:
        """``action`` in the words of the viewer at this position."""
        return self.game.preview(self.match.view(self.viewer, self.position), action)

    # -- keys ---------------------------------------------------------------------
    def allows(self, name: str) -> bool | None:
        """Face up only once the game is over; another viewer only if there is one.

        Neither changes while the replay is open, so a key that cannot work is not
        offered at all rather than greyed (a greyed key did nothing, without a word).
        """
        if name == "face_up":
            return self.disclosed
        if name == "viewer":
            return len(self.viewers) > 1
        return True

    def do_step(self, step: int) -> None:
        """One decision back or on."""
        self.go_to(self.position + step)

    def do_jump(self, where: int) -> None:
        """To the deal (0) or the last position (-1)."""
        self.go_to(len(self.match.history) if where < 0 else where)

    def go_to(self, position: int) -> None:
        """Show ``position`` (kept within the game)."""
        position = max(0, min(position, len(self.match.history)))
        if position != self.position:
            self.position = position
            self.screen.redraw()

    def do_viewer(self) -> None:
        """See the table as the next player (or everyone) saw it."""
        if len(self.viewers) < 2:
            return
        following = self.viewers[(self.viewers.index(self.viewer) + 1) % len(self.viewers)]
        self.face_up = False
        if self.guarded and following is not None:
            self.viewer = PUBLIC  # nothing private stays on screen under the curtain
            self.screen.redraw()

            def lifted(result: bool | None) -> None:
                if result is None:
                    return  # backed out: everyone's view stays
                self.viewer = following
                self.screen.redraw()

            name = self.match.seats[following].name
            self.screen.app.push_screen(CurtainScreen(name, at_table=False), lifted)
            return
        self.viewer = following
        self.screen.redraw()

    def do_face_up(self) -> None:
        """Turn every card face up, or back (only once the game is over)."""
        if not self.disclosed:
            self.notify("Cards are turned face up only once the game is over.")
            return
        self.face_up = not self.face_up
        self.screen.redraw()

    def do_close(self) -> None:
        """Back to where the replay was opened."""
        self.screen.dismiss(None)
