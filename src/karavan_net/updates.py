"""The updates a seat's view makes: built once per view, shared by every connection seeing it.

An :class:`~karavan_net.protocol.Update` is mostly the referee's view of one
seat (:class:`~karavan_core.referee.SeatView`): the observation, the choices
in words, what changed since the seat last decided.  :class:`Seen` works out a
view's choices in words once, and encodes each distinct frame once: every
watcher sees the public view, and a frame built for one of them (the same
seats, the same log lines still to send, the same notice, the same protocol
revision) is the frame of all of them.  The referee makes a new view after
every change, so nothing kept outlives what it shows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attrs import frozen

from karavan_core.match import Outcome
from karavan_core.referee import SeatView
from karavan_core.saves import unstructure_action, unstructure_actions
from karavan_net.protocol import (
    NOTICE_TAKEBACK,
    Choice,
    SeatInfo,
    TableClock,
    TakeBackAsked,
    TakenBack,
    Update,
    encode,
    observation_data,
)


@frozen
class TableState:
    """What a table's own rules add to every seat's view (a server's table; a plain host's
    is :data:`PLAIN_STATE`): the end of a game the table ended before its rules did (a
    player resigned or abandoned it), whether the game may still be aborted, the seats whose
    players resigned (in the order they did) and those that ask for a rematch; a timed
    table's ``clock``; what the table's own notice is about (``notice_about``); words the
    table adds to lines of the log (``marks``: by the line's place, a time-out's stand-in
    said after the decision it made); and once a rated game has ended, each seat's rating
    before and after it (``ratings``)."""

    ended: Outcome | None = None
    abortable: bool = False
    resigned: tuple[int, ...] = ()
    rematch: tuple[int, ...] = ()
    clock: TableClock | None = None
    notice_about: str = ""
    marks: tuple[tuple[int, str], ...] = ()
    ratings: tuple[tuple[int, int], ...] = ()


PLAIN_STATE = TableState()

FrameKey = tuple[tuple[SeatInfo, ...], int, str | None, int, TableState, str]
"""What besides the view makes a frame: the seats, the log's start, the notice, the revision,
the table's state and what the notice is about."""


def marked(log: tuple[str, ...], start: int, marks: tuple[tuple[int, str], ...]) -> list[str]:
    """The log's lines from ``start``, each the table marks (``marks``: a line's place and
    its words) with those words after it."""
    lines = list(log[start:])
    for place, words in marks:
        if start <= place < len(log):
            lines[place - start] += f" {words}"
    return lines


def asked(view: SeatView, seconds: float) -> TakeBackAsked | None:
    """The take-back asked for, as every seat sees it: whose decisions, in the log's words."""
    request = view.request
    if request is None:
        return None
    wanted = request.takeback
    lines = view.log[wanted.keep + 1 : wanted.keep + 1 + wanted.decisions]  # line 0: the deal
    taken = [TakenBack(seat, words) for seat, words in zip(wanted.whose, lines, strict=False)]
    return TakeBackAsked(
        wanted.seat,
        wanted.decisions,
        sorted(request.waiting),
        wanted.revealed,
        request.number,
        taken,
        math.ceil(seconds),
    )


class Seen:
    """What ``view`` shows the connections that see it (a take-back request lapsing after
    ``takeback_seconds``): its choices in words, worked out once, and each distinct frame,
    encoded once.

    Nothing else is kept: a thousand tables' views held as data between their
    changes would be hundreds of thousands of objects for the cycle collector
    to walk, and a seat's update is made once a change anyway.
    """

    def __init__(self, view: SeatView, takeback_seconds: float) -> None:
        self.view = view
        self.takeback_seconds = takeback_seconds
        self._words: list[str] | None = None
        self._frames: dict[FrameKey, str] = {}

    def words(self) -> list[str]:
        """The words of each of the view's legal decisions, in their order."""
        if self._words is None:
            self._words = [words for _, words in self.view.choices()]
        return self._words

    def update(
        self,
        seats: Sequence[SeatInfo],
        log_start: int,
        notice: str | None,
        state: TableState = PLAIN_STATE,
        about: str = NOTICE_TAKEBACK,
    ) -> Update:
        """The update of this view with ``seats``, the log from ``log_start``, ``notice``
        (``about`` a take-back, a time-out or the table's rules) and the table's ``state``."""
        view = self.view
        game = view.game
        before = view.before
        return Update(
            number=view.revision,
            to_move=view.observation.to_move,
            observation=observation_data(game, view.observation),
            legal=[
                Choice(unstructure_action(game, action), words)
                for action, words in zip(view.legal, self.words(), strict=True)
            ],
            scores=list(view.scores),
            seats=list(seats),
            log_start=log_start,
            log=marked(view.log, log_start, state.marks),
            before=None if before is None else observation_data(game, before),
            news=[] if before is None else unstructure_actions(game, view.news),
            can_undo=view.can_undo,
            can_redo=view.can_redo,
            outcome=view.outcome or state.ended,
            takeback=asked(view, self.takeback_seconds),
            notice=notice,
            since=view.since,
            abortable=state.abortable,
            resigned=list(state.resigned),
            rematch=list(state.rematch),
            clock=state.clock,
            notice_about=about if notice else "",
            ratings=[list(pair) for pair in state.ratings],
        )

    def frame(
        self,
        seats: tuple[SeatInfo, ...],
        log_start: int,
        notice: str | None,
        minor: int,
        state: TableState = PLAIN_STATE,
        about: str = NOTICE_TAKEBACK,
    ) -> str:
        """:meth:`update` as the frame for a reader of protocol revision ``minor`` (encoded
        once for all who are sent the same)."""
        key = (seats, log_start, notice, minor, state, about)
        text = self._frames.get(key)
        if text is None:
            text = encode(self.update(seats, log_start, notice, state, about), minor)
            self._frames[key] = text
        return text
