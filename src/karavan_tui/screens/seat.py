"""One seat at a table, whatever the table is: the driver every played table shares.

A :class:`SeatDriver` draws the table from the referee's
:class:`~karavan_core.referee.SeatView` of the seat at the keyboard and sends
that seat's decisions on; where the view comes from and where the decisions go
is its :class:`SeatLink`'s business.  A game played here has a link that owns
the :class:`~karavan_core.referee.Referee` and its match
(:class:`~karavan_tui.screens.local_link.LocalLink`); a hosted table's link
rebuilds a view from each update the host sends and sends the decisions to the
host (:class:`~karavan_tui.net.remote_link.RemoteLink`); a watcher's is the
same with no seat.  The driver never reads a match itself.
"""

from __future__ import annotations

import abc
from collections.abc import Iterator, Sequence
from typing import Any

from textual.app import SystemCommand
from textual.binding import Binding, BindingType

from karavan_core.analysis import Hint
from karavan_core.engine import Action, Game, Observation
from karavan_core.match import Seat
from karavan_core.referee import SeatView
from karavan_tui.messages import ShowRules
from karavan_tui.modals.full_log import FullLogScreen
from karavan_tui.screens.table import Driver, Frame
from karavan_tui.tables import View, flag_hint

MOVES_TITLE = "Every move you can make now"


def gesture_of(hint: tuple[Hint, ...] | None) -> tuple[Action, ...]:
    """The decisions a hint suggests, in order (none without a hint)."""
    return () if hint is None else tuple(h.action for h in hint)


def seat_keys(*, redo: str, log_shown: bool, leave: str, leave_tip: str) -> list[BindingType]:
    """The keys of a seat at any table, in the Footer's order: undo, redo, the moves, the
    log, the rules and leaving (a table adds its own between them, see :func:`keys_with`)."""
    return [
        Binding("u,ctrl+z", "undo", "Undo", tooltip="Take back your last decision", id="undo"),
        Binding("r,ctrl+y", "redo", "Redo", tooltip=redo, id="redo"),
        # Short labels: the Footer must hold every key at 80 columns, in ASCII mode too.
        Binding("a", "actions", "Moves", tooltip="Every legal decision, in words", id="actions"),
        Binding(
            "l", "full_log", "Log", show=log_shown, tooltip="Read the whole log", id="full_log"
        ),
        Binding("f1,question_mark", "rules", "Rules", key_display="F1", id="rules"),
        Binding("q", "leave", leave, tooltip=leave_tip, id="leave"),
    ]


def keys_with(
    keys: Sequence[BindingType], after: str, extra: Sequence[BindingType]
) -> list[BindingType]:
    """``keys`` with ``extra`` put right after the key whose id is ``after``."""
    at = next(i for i, key in enumerate(keys) if isinstance(key, Binding) and key.id == after)
    return [*keys[: at + 1], *extra, *keys[at + 1 :]]


class SeatLink(abc.ABC):
    """Where a seat driver's view comes from and where its decisions go."""

    game: Game[Any, Any, Any]

    @property
    @abc.abstractmethod
    def seats(self) -> tuple[Seat, ...]:
        """The seats at the table, their names safe to show."""

    @abc.abstractmethod
    def view(self, seat: int | None) -> SeatView | None:
        """The table as ``seat`` sees it now (``None``: the public view); ``None`` before
        there is anything to see."""

    @abc.abstractmethod
    def refusal(self, seat: int, actions: Sequence[Action]) -> str | None:
        """Why ``seat`` may not play ``actions`` now, or ``None`` if they would be sent on."""

    @abc.abstractmethod
    def play(self, seat: int, actions: Sequence[Action]) -> None:
        """Send ``actions`` on as one gesture of ``seat`` (``IllegalAction`` if refused at once)."""

    def past(self) -> Sequence[Observation]:
        """The public views of the game's states so far, the deal first (none if not at hand)."""
        return ()


class SeatDriver(Driver):
    """The driver of a table where ``viewer`` sits (``None``: nobody, the public view)."""

    link: SeatLink
    viewer: int | None

    def allows(self, name: str) -> bool | None:
        """Undo and Redo greyed out while they would do nothing."""
        if name == "undo":
            return True if self.may_undo() else None
        if name == "redo":
            return True if self.may_redo() else None
        return True

    # -- what the seat sees ---------------------------------------------------------------
    def seen(self) -> SeatView | None:
        """The table as the viewer sees it now."""
        return self.link.view(self.viewer)

    def seat_name(self, seat: int) -> str:
        """Seat ``seat``'s name ("?" for a seat the table does not have)."""
        seats = self.link.seats
        return seats[seat].name if 0 <= seat < len(seats) else "?"

    def to_move(self) -> int | None:
        """The seat that decides now (``None``: the game is over, or nothing is seen yet)."""
        seen = self.seen()
        return None if seen is None else seen.observation.to_move

    def legal(self, seen: SeatView) -> tuple[Action, ...]:
        """The decisions the table may offer now (the viewer's, when it decides)."""
        return seen.legal

    def current_hint(self) -> tuple[Hint, ...] | None:
        """The hint for the position on the table, if one was asked for it."""
        return None

    def may_undo(self) -> bool:
        """Whether the key that takes back is offered now."""
        seen = self.seen()
        return seen is not None and seen.can_undo

    def may_redo(self) -> bool:
        """Whether the key that replays an undone decision is offered now."""
        seen = self.seen()
        return seen is not None and seen.can_redo

    # -- drawing ----------------------------------------------------------------------------
    def subtitle(self) -> str:
        """The header's line under the title."""
        names = ", ".join(seat.name for seat in self.link.seats)
        return f"{self.game.title} {self.glyphs.sep} {names}"

    def log_title(self) -> str:
        """The title over the log."""
        return "Log"

    def notice(self) -> str:
        """What the news line says instead of the news (a take-back), if anything."""
        return ""

    def frame(self) -> Frame | None:
        """The table, scores, log and status, from the viewer's own view of the table."""
        seen, status = self.seen(), self.status()
        if seen is None or status is None:
            return None
        view = View(
            game=self.game,
            seats=self.link.seats,
            observation=seen.observation,
            legal=self.legal(seen),
            glyphs=self.glyphs,
            scores=seen.scores,
            before=seen.before,
            news=seen.news,
            past=self.link.past(),
        )
        log, since = list(seen.log), seen.since
        return Frame(
            view,
            subtitle=self.subtitle(),
            log_title=self.log_title(),
            to_move=seen.observation.to_move,
            winners=seen.outcome.result.winners if seen.outcome is not None else (),
            log=log,
            log_news_from=since + 1,  # the log opens with the deal: decision i is line i + 1
            status=status,
            news=log[since + 1 :],
            news_yours=self.viewer is not None,
            notice=self.notice(),
            # The log opens with the deal: the viewer's last decision is line ``since``.
            own=log[since] if since and self.viewer is not None else "",
            hinted=gesture_of(self.current_hint()),
        )

    # -- deciding ---------------------------------------------------------------------------
    def not_now(self) -> str | None:
        """Why the player at the keyboard may not decide now ("": nothing to say), or ``None``."""
        seat = self.to_move()
        if seat is None:
            return "The game is over."
        if seat != self.viewer or self.link.seats[seat].is_bot:
            return f"Wait: it is {self.seat_name(seat)}'s turn."
        return None

    def _my_turn(self) -> bool:
        """Whether the player at the keyboard must decide now; say why not otherwise."""
        reason = self.not_now()
        if reason is None:
            return True
        if reason:
            self.notify(reason, severity="warning")
        return False

    def check(self, *actions: Action) -> str | None:
        """Why this gesture would be refused now, or ``None`` if it would be sent on."""
        if self.seen() is None:
            return "Not connected to the table."
        if self.viewer is None:
            seat = self.to_move()
            return "The game is over." if seat is None else f"It is {self.seat_name(seat)}'s turn."
        return self.link.refusal(self.viewer, actions)

    def decide(self, *actions: Action) -> bool:
        """Send one gesture of the player at the keyboard on; refuse it, saying why, if it
        may not be played (buy, then pay: one gesture, all of it or none)."""
        if not self._my_turn() or not actions:
            return False
        reason = self.check(*actions)  # refused here: the marks stay for a second try
        if reason is not None:
            self.notify(reason, title="Not allowed", severity="warning")
            return False
        return self.send(actions)

    @abc.abstractmethod
    def send(self, actions: Sequence[Action]) -> bool:
        """Send a gesture the table allows on; whether it went."""

    def preview(self, action: Action) -> str:
        """``action`` in words before it is taken, from the viewer's own observation."""
        seen = self.seen()
        assert seen is not None
        return seen.preview(action)

    # -- keys -------------------------------------------------------------------------------
    def do_actions(self) -> None:
        """List every legal decision in words."""
        seen = self.seen()
        if not self._my_turn() or seen is None:
            return
        # Decisions that read the same are the same to the player (two face-up silks):
        # each is listed once.
        choices = seen.choices(distinct=True)
        words, actions = [w for _, w in choices], [a for a, _ in choices]
        highlight = flag_hint(words, actions, gesture_of(self.current_hint()))
        pick = self.table.take_listed
        self.screen.choose(
            MOVES_TITLE,
            words,
            lambda i: pick(actions[i]),
            searchable=True,
            highlight=highlight,
            actions=actions,
            beside=False,
        )

    def do_full_log(self) -> None:
        """Read the whole log."""
        seen = self.seen()
        title = f"{self.game.title}: every decision so far"
        self.screen.app.push_screen(FullLogScreen(title, list(seen.log if seen else ())))

    def do_rules(self) -> None:
        """Show this game's rules."""
        self.screen.post_message(ShowRules(self.game.name))

    @abc.abstractmethod
    def do_undo(self) -> object:
        """Take back the viewer's last decision (or ask to)."""

    @abc.abstractmethod
    def do_redo(self) -> None:
        """Play the viewer's undone decision again."""

    def commands(self) -> Iterator[SystemCommand]:
        """Undo and Redo where they may be asked for."""
        if self.may_undo():
            yield SystemCommand("Undo", "Take back your last decision", self.do_undo)
        if self.may_redo():
            yield SystemCommand("Redo", "Play your undone decision again", self.do_redo)
