"""The seat link of a game played at this terminal: it owns the referee and its match.

The local driver asks this link, never the match: the views come from the
:class:`~karavan_core.referee.Referee` (:meth:`~karavan_core.referee.Referee.view`),
the decisions, take-backs and hints go to it, and the few facts of the game's
history a local table needs (a hot-seat player's own turn, told before the
curtain falls; where an Expert hint is searched from) are answered here.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Sequence
from pathlib import Path

from karavan_core.engine import Action, IllegalAction, Observation
from karavan_core.match import Match, Seat
from karavan_core.referee import Referee, SeatView
from karavan_core.saves import SaveLock, save_match
from karavan_core.storage import SaveFile
from karavan_tui.screens.seat import SeatLink
from karavan_tui.tables import TurnStep


class LocalLink(SeatLink):
    """``match``, run here by a referee that keeps it in the save file ``save_path``.

    A new game is saved once now (an unusable folder raises ``OSError`` before
    play starts), then after every change, off the UI thread.  A save opened
    only to look at stays as it was ("last played" too).  The save is this
    window's while the link lives (:class:`~karavan_core.saves.SaveLock`): one
    another window plays raises :class:`~karavan_core.saves.OpenElsewhere`.
    """

    def __init__(self, match: Match, save_path: Path) -> None:
        self.match = match
        self.game = match.game
        self.save_path = save_path
        # A game begun here and left before anyone decided leaves no save behind (it would
        # be the title's Resume); one opened from its file, or named, stays.
        self.begun_here = not save_path.exists()
        if save_path.exists():
            if not os.access(save_path.parent, os.W_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(save_path))
        else:
            save_match(match, save_path)
        self.lock = SaveLock(save_path)
        self.referee = Referee(match, storage=SaveFile(save_path))

    # -- the save file --------------------------------------------------------------------
    def relocate(self, path: Path) -> None:
        """Keep the game in ``path`` from now on, moved there (``OSError`` if it cannot be,
        :class:`~karavan_core.saves.OpenElsewhere` if another window plays that save)."""
        lock = None if path == self.save_path else SaveLock(path)  # both held while it moves
        try:
            self.referee.relocate(path)  # moved, not copied: one game, one file
        except OSError:
            if lock is not None:
                lock.release()
            raise
        if lock is not None:
            self.lock.release()
            self.lock = lock
        self.save_path = path
        self.begun_here = False  # named: kept, played or not

    def close(self) -> None:
        """Every position on disk; a game begun here that nobody decided in, not at all;
        the save let go for other windows."""
        self.referee.flush()
        if self.begun_here and self.untouched():
            self.save_path.unlink(missing_ok=True)
        self.lock.release()

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats at the table."""
        return tuple(self.match.seats)

    def view(self, seat: int | None) -> SeatView:
        """The referee's view of the table for ``seat`` (``None``: the public view)."""
        return self.referee.view(seat)

    def refusal(self, seat: int, actions: Sequence[Action]) -> str | None:
        """The referee's reason for refusing this gesture now, or ``None``."""
        return self.referee.refusal(seat, actions)

    def play(self, seat: int, actions: Sequence[Action]) -> None:
        """The referee plays the gesture (``IllegalAction``: refused, nothing changed)."""
        self.referee.play(seat, actions)

    def past(self) -> Sequence[Observation]:
        """The public views of every state so far, the deal first."""
        return self.match.public_views()

    # -- the game's history, as far as a local table needs it ---------------------------
    @property
    def seed(self) -> int:
        """The game's seed (the log's title says it; a hint's search starts from it)."""
        return self.match.seed

    def decisions(self) -> int:
        """How many decisions have been made."""
        return len(self.match.history)

    def position(self) -> object:
        """A token of the position on the table: the same object while nothing changes."""
        return self.match.state

    def can_redo(self) -> bool:
        """Whether an undone decision waits to be played again."""
        return self.match.can_redo()

    def untouched(self) -> bool:
        """Whether nobody has decided yet (nor taken a decision back)."""
        return not self.match.history and not self.match.can_redo()

    def turn_steps(self, seat: int) -> list[TurnStep]:
        """``seat``'s decisions since the last of another seat's, each with its own views
        before and after it (what it saw of its turn)."""
        match = self.match
        first = len(match.history)
        while first > 0 and match.actor(first - 1) == seat:
            first -= 1
        return [
            (match.view(seat, i), match.history[i], match.view(seat, i + 1))
            for i in range(first, len(match.history))
        ]

    def views_along(self, seat: int, actions: Sequence[Action]) -> list[Observation]:
        """``seat``'s view now, then before each of ``actions`` after the first, played from
        here, as long as they are legal (a script's own decisions: a lesson's)."""
        seen = [self.match.view(seat)]
        for end in range(2, len(actions) + 1):
            try:
                states = self.game.gesture_states(self.match.state, actions[:end], by=seat)
            except IllegalAction:
                break
            seen.append(self.game.observe(states[-2], seat))
        return seen
