"""Telling a hosted table's connections what they see, once what they would see is kept.

After every change each connection is told the table as its seat sees it
(:class:`~karavan_net.protocol.Update`): the referee's view of that seat, never
the state.  A position is shown only once the save that holds it is kept (on
disk, or committed to a server's database).  Each connection is only told that
the table changed (:meth:`~karavan_net.link.Link.refresh`); its update is built
when that connection is ready to send it, so a burst of changes costs a slow
client one update.  Once the game is over each seat is also sent its
:class:`~karavan_net.protocol.Record`, the game as it saw it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
from collections.abc import Callable
from functools import partial

from attrs import frozen

from karavan_core.match import MAX_SEED
from karavan_core.referee import Referee
from karavan_core.saves import unstructure_actions
from karavan_net.link import Link
from karavan_net.protocol import (
    NOTICE_TAKEBACK,
    HostMessage,
    Record,
    SeatInfo,
    Update,
    encode,
    observation_data,
)
from karavan_net.seat_registry import SeatRegistry
from karavan_net.updates import PLAIN_STATE, Seen, TableState


@frozen
class Hooks:
    """Where a kind of table changes what its broadcaster does.

    ``notice`` (if given) says what every seat is told of the last change where
    the referee tells nothing (a server's stand-in that decided for a player out
    of time).  ``lost`` (if given) is called, on the table's loop, when a change
    could not be kept: that change is then never shown (a server's table lets
    go).  Without ``lost`` a failed save is shown all the same, and the console
    is told.  ``state`` (if given) says what the table's own rules add to every view
    (a server's: resignations, an abort still possible, a rematch asked for).
    """

    notice: Callable[[], str | None] | None = None
    lost: Callable[[], None] | None = None
    state: Callable[[], TableState] | None = None


PLAIN = Hooks()
"""A plain host's hooks: none of its own."""


class Broadcaster:
    """Builds and sends the updates of ``referee``'s table to ``seats``' connections.

    ``seat_infos`` gives every seat as the players see it.  ``say`` tells the
    host's console a line (an autosave that fails, or works again); ``hooks``
    are the table's own ways.  ``observer`` (tests) sees every frame sent, with
    its seat, as it is sent.
    """

    def __init__(
        self,
        referee: Referee,
        seats: SeatRegistry,
        seat_infos: Callable[[], list[SeatInfo]],
        *,
        say: Callable[[str], None],
        hooks: Hooks = PLAIN,
    ) -> None:
        self.referee = referee
        self.match = referee.match
        self.game = referee.game
        self.seats, self.seat_infos = seats, seat_infos
        self.say = say
        self.hooks = hooks
        self.observer: Callable[[int | None, str], None] | None = None
        # What each connection has been told, by seat or by a watcher's id: the log lines
        # sent, and the table's number when it came (what was told before is not told again).
        self._sent_logs: dict[int, tuple[str, ...]] = {}
        self._joined_at: dict[int, int] = {}
        self._records: dict[int, Record] = {}  # the finished game as each seat saw it
        self._seen: dict[int | None, Seen] = {}  # by seat (None: the public view), the latest
        # The newest revision kept; the save writer tells it from its own thread.
        self._lock = threading.Lock()
        self._kept = -1
        self._loop: asyncio.AbstractEventLoop | None = None
        self._before_loop: list[Callable[[], None]] = []  # told before the loop was known
        self._save_failed = False

    # -- who is told what --------------------------------------------------------------------
    def arrived(self, key: int) -> None:
        """A connection came (``key``: its seat, or a watcher's id): it is told the whole log,
        and no notice of a change made before."""
        self._joined_at[key] = self.referee.revision
        self._sent_logs.pop(key, None)

    def gone(self, key: int) -> None:
        """The connection under ``key`` is gone: what it was told is forgotten."""
        self._sent_logs.pop(key, None)
        self._joined_at.pop(key, None)

    # -- what is kept, and shown -------------------------------------------------------------
    @property
    def shown(self) -> bool:
        """Whether the table as it is now may be shown: its save is kept (or it has none)."""
        if self.referee.writer is None:
            return True
        with self._lock:
            return self._kept >= self.referee.revision

    def kept_elsewhere(self, revision: int) -> None:
        """The save writer's thread: the save of ``revision`` has been kept (or has failed)."""
        lost = self.hooks.lost
        if lost is not None and self.referee.save_error is not None:
            self._on_loop(lost)
            return
        with self._lock:
            self._kept = max(self._kept, revision)
        self._on_loop(self._kept_now)

    def _on_loop(self, call: Callable[[], None]) -> None:
        """Run ``call`` on the table's loop (from the writer's thread); until the loop is
        known, at the first change, it waits: a write can end before the change is told."""
        with self._lock:
            loop = self._loop
            if loop is None:
                self._before_loop.append(call)
                return
        with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to show
            loop.call_soon_threadsafe(call)

    def _kept_now(self) -> None:
        failed = self.referee.save_error
        if failed is not None and not self._save_failed:
            self.say(f"The autosave failed: {failed.strerror or failed}")
        elif failed is None and self._save_failed:
            self.say("The autosave works again.")
        self._save_failed = failed is not None
        self.broadcast()

    # -- building and sending ----------------------------------------------------------------
    def changed(self) -> None:
        """The table changed (on its loop): tell everyone, once the change is kept."""
        with self._lock:
            self._loop = asyncio.get_running_loop()
            waiting, self._before_loop = self._before_loop, []
        for call in waiting:
            call()
        self.broadcast()

    def broadcast(self) -> None:
        """Tell every client the table changed, once what they would see is kept."""
        if not self.shown:
            return  # the writer says when it is kept, and this comes again
        for seat, link in list(self.seats.links.items()):
            link.refresh(partial(self._update_frame, seat, link))
        for link in list(self.seats.watchers):
            link.refresh(partial(self._update_frame, None, link))

    def _update_frame(self, seat: int | None, link: Link) -> str | None:
        """The update ``link`` gets now, as ``seat`` (``None``: a watcher); ``None`` if it is
        not to be sent now."""
        if not self.seats.connected(seat, link):
            return None  # gone, or replaced by a newer connection
        if not self.shown:
            return None  # the table changed again since: that change's save brings it
        seen, start, notice, about = self._told(seat, seat if seat is not None else id(link))
        infos = tuple(self.seat_infos())
        text = seen.frame(infos, start, notice, link.minor, self.state(), about)
        if self.observer is not None:
            self.observer(seat, text)
        return text

    def update_for(self, seat: int | None, key: int | None = None) -> Update:
        """The table as ``seat`` sees it now (``None``: the public view, a watcher's), its log
        lines from where the client kept under ``key`` (by default the seat) is."""
        kept = seat if key is None else key
        assert kept is not None
        seen, start, notice, about = self._told(seat, kept)
        return seen.update(self.seat_infos(), start, notice, self.state(), about)

    def state(self) -> TableState:
        """What the table's own rules add to every view now."""
        return PLAIN_STATE if self.hooks.state is None else self.hooks.state()

    def _told(self, seat: int | None, key: int) -> tuple[Seen, int, str | None, str]:
        """What the connection under ``key`` is told now, as ``seat``: the view's parts, the
        first log line it lacks (it holds the whole log from now on), the notice and what it
        is about (the referee's: a take-back; the table's own, as its state says)."""
        view = self.referee.view(seat)  # the referee's own, made anew after every change
        seen = self._seen.get(seat)
        if seen is None or seen.view is not view:
            seen = Seen(view, self.referee.takeback_seconds)
            self._seen[seat] = seen
        log = view.log
        sent = self._sent_logs.get(key, ())
        self._sent_logs[key] = log
        start = len(sent) if log[: len(sent)] == sent else _common(log, sent)
        notice = view.notice if self._joined_at.get(key, -1) < view.revision else None
        about = NOTICE_TAKEBACK
        if notice is None and self.hooks.notice is not None:
            notice = self.hooks.notice()
            about = self.state().notice_about or NOTICE_TAKEBACK
        return seen, start, notice, about

    def send_records(self) -> None:
        """Once the game is over: each seat's record, to its connection."""
        for seat, link in list(self.seats.links.items()):
            self.send_record(seat, link)

    def send_record(self, seat: int, link: Link) -> None:
        """Once the game is over: the game as ``seat`` saw it, for its review and replay."""
        if not self.match.is_over() or link.minor < 1:
            return
        if seat not in self._records:
            match, game = self.match, self.game
            self._records[seat] = Record(
                seat,
                [observation_data(game, match.view(seat, i)) for i in range(len(match.states))],
                unstructure_actions(game, match.history),
                secrets.randbelow(MAX_SEED),  # not the game's seed: that would deal every card
                match.hints[seat],
                match.takebacks[seat],
            )
        self.send(seat, self._records[seat], link)

    def send(self, seat: int | None, message: HostMessage, link: Link) -> None:
        """Send ``message`` to ``link`` (``seat``'s connection; ``None``: a watcher's)."""
        text = encode(message, link.minor)
        if self.observer is not None:
            self.observer(seat, text)
        link.send(text)


def _common(log: tuple[str, ...], sent: tuple[str, ...]) -> int:
    """How many lines ``log`` and ``sent`` share from the start (an undo took some back)."""
    start = 0
    for mine, theirs in zip(log, sent, strict=False):
        if mine != theirs:
            break
        start += 1
    return start
