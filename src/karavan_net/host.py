"""The host of a table: the referee, its connections and its table file.

A :class:`Host` seats the clients that join, reads what they send as data and
passes every decision, undo and redo to its
:class:`~karavan_core.referee.Referee`, which alone changes the match (and
refuses, with the reason and changing nothing, whatever may not be played).
After every change it tells each connected client the table as that seat sees
it (:class:`~karavan_net.protocol.Update`): the referee's view of that seat,
never the state.  It plays the bot seats itself, off the event loop.

A position is shown only once the save that holds it is on disk: the table
file exists before the first decision, and a host killed at any moment has
kept every decision its players saw.  Each connection is only told that the
table changed (:meth:`Link.refresh`); the view is built when that connection
is ready to send it, so a burst of changes costs a slow client one update.

It knows no transport: a connection is anything with ``send``, ``refresh``
and ``close`` (:class:`Link`), so the server and the tests drive it alike.
All its methods run on one event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

from karavan_core.bots import BOT_LEVELS
from karavan_core.engine import IllegalAction
from karavan_core.match import MAX_SEED, Match, seat_named
from karavan_core.referee import TAKEBACK_SECONDS, Change, Referee, SeatView
from karavan_core.saves import structure_action, unstructure_action, unstructure_actions
from karavan_core.storage import SaveFile
from karavan_core.text import printable
from karavan_core.version import __version__
from karavan_net.codec import ProtocolError
from karavan_net.pacing import bot_decision
from karavan_net.protocol import (
    MAX_GESTURE,
    MINOR,
    PROTOCOL,
    WATCHING,
    Answer,
    Challenge,
    Choice,
    ClientMessage,
    Closed,
    Decide,
    Declined,
    Hello,
    HostMessage,
    Record,
    Redo,
    Refused,
    SeatInfo,
    TakeBackAsked,
    TakenBack,
    Undo,
    Update,
    Welcome,
    Withdraw,
    decode_client,
    encode,
    observation_data,
)
from karavan_net.storage import TableFile


class Link(Protocol):
    """One client connection, as the host sees it: its seat, and the revision of the
    protocol it speaks (:data:`~karavan_net.protocol.MINOR`; 0 for an older Karavan)."""

    seat: int | None
    minor: int

    def send(self, text: str) -> None:
        """Queue ``text`` (one frame) for the client."""

    def refresh(self, frame: Callable[[], str | None]) -> None:
        """Send what ``frame()`` builds when the frames queued before have gone.

        A refresh not yet sent is replaced by the newer one; ``frame()`` may
        return ``None`` (nothing to send then).
        """

    def close(self, text: str | None = None) -> None:
        """Send ``text`` (if any) as the last frame, then close the connection."""


AWAY_LEVEL = "hard"
"""The bot that plays an absent player's seat once the table's away limit has passed."""
REPLACED = "Your seat was taken from another connection."
"""What a connection is told when the same seat joins again from elsewhere."""


def closing(reason: str, why: str, minor: int) -> HostMessage:
    """The last message to a client whose table ends (an older client: a refusal)."""
    return Closed(reason, why) if minor >= 1 else Refused(reason)


def _asked(view: SeatView, seconds: float) -> TakeBackAsked | None:
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


def host_for(
    match: Match,
    code: str,
    *,
    save_path: Path | None = None,
    table_file: TableFile | None = None,
    bot_delay: float = 0.6,
    events: Callable[[str], None] | None = None,
    takeback_seconds: float = TAKEBACK_SECONDS,
) -> Host:
    """A host for ``match``, saving it to ``save_path`` (if given) after every change;
    its take-back requests lapse after ``takeback_seconds``.

    The save is written at once (``OSError`` if it cannot be).
    """
    storage = None if save_path is None else SaveFile(save_path)
    if table_file is None:
        where = None if save_path is None else TableFile.path_for(save_path)
        table_file = TableFile(where, code, {})
    host = Host(
        Referee(match, storage=storage, takeback_seconds=takeback_seconds),
        code,
        table_file,
        bot_delay=bot_delay,
        events=events,
    )
    host.save_path = save_path
    return host


class Host:
    """A hosted match and its seats.

    ``code`` lets clients in; ``table_file`` keeps the code and the seats'
    secrets beside the save.  ``events`` (if given) hears one line for every
    happening a host prints: joins, absences, decisions, the end.
    ``observer`` (tests) sees every frame sent, with its seat, as it is sent.
    The match is saved at once (``OSError`` if it cannot be).
    """

    def __init__(
        self,
        referee: Referee,
        code: str,
        table_file: TableFile,
        *,
        bot_delay: float = 0.6,
        events: Callable[[str], None] | None = None,
    ) -> None:
        self.referee = referee
        self.match = referee.match
        self.game = referee.game
        self.code = code
        table_file.code = code
        self.file = table_file
        self.bot_delay = bot_delay
        self.events = events
        self.tell_decisions = True  # a server of many tables tells only their comings and goings
        self.observer: Callable[[int | None, str], None] | None = None
        self.save_path: Path | None = None  # the save the match is kept in, if one
        self.links: dict[int, Link] = {}  # seat -> its connection now
        self.watchers: set[Link] = set()  # spectators' connections
        self.peers: tuple[str, ...] = ()  # a server's other processes, told in the Welcome
        self.identity = ""  # the fingerprint of a server's identity, told in the Welcome
        # The log lines each connection has been sent: by seat, or by a watcher's id.
        self._sent_logs: dict[int, tuple[str, ...]] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self._lapse_timer: asyncio.TimerHandle | None = None
        self.away_limit: float | None = None  # seconds before a bot plays an absent seat
        self.away_level = AWAY_LEVEL
        self._away_timers: dict[int, asyncio.TimerHandle] = {}
        self._stand_in_levels: dict[int, str] = {}  # the level of each bot standing in
        self._joined_at: dict[int, int] = {}  # the table's number when each seat last joined
        self._records: dict[int, Record] = {}  # the finished game as each seat saw it
        self.over = asyncio.Event()  # the game is over
        self.ended = asyncio.Event()  # the game is over and every client has gone
        # The newest revision on disk; the save writer tells it from its own thread.
        self._lock = threading.Lock()
        self._kept = -1
        self._loop: asyncio.AbstractEventLoop | None = None
        self._save_failed = False
        referee.when_kept(self._kept_elsewhere)
        referee.subscribe(self._changed)
        self._hold_until_seated()
        referee.keep_now()  # the save the host names exists before the first decision
        self.file.write()

    # -- who sits where ------------------------------------------------------------------
    @property
    def number(self) -> int:
        """The table's revision: a decision, undo or redo must name the current one."""
        return self.referee.revision

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play."""
        return self.referee.humans

    def claimed(self, seat: int) -> bool:
        """Whether somebody has taken ``seat`` (and holds its secret)."""
        return self.file.claimed(seat)

    @property
    def started(self) -> bool:
        """Whether every human seat has been taken: nobody decides before."""
        return all(self.claimed(seat) for seat in self.humans)

    def _hold_until_seated(self) -> None:
        stand_ins = self.referee.stand_ins
        empty = [
            self.match.seats[seat].name
            for seat in self.humans
            if not self.claimed(seat) and seat not in stand_ins
        ]
        if not empty:
            self.referee.hold(None)
            return
        verb = "has" if len(empty) == 1 else "have"
        names = " and ".join(empty)
        if self.match.history:  # a freed seat: the game waits for a player to take it
            self.referee.hold(f"The game goes on once {names} {verb} taken the seat.")
        else:
            self.referee.hold(f"The game starts once {names} {verb} joined.")

    def reserve(self, seat: int) -> str:
        """Give ``seat`` a fresh secret (the host's own terminal plays it) and return it."""
        secret = self.file.claim(seat)
        self._hold_until_seated()
        return secret

    def seat_infos(self) -> list[SeatInfo]:
        """Every seat with who plays it and whether they are here."""
        infos = []
        for index, seat in enumerate(self.match.seats):
            if seat.is_bot:
                status = "bot"
            elif index in self.links:
                status = "here"
            elif self.claimed(index):
                status = "away"
            else:
                status = "empty"
            stand_in = self.referee.stand_ins.get(index)
            level = None if stand_in is None else self._stand_in_levels.get(index)
            infos.append(SeatInfo(seat.name, seat.kind, seat.level, status, level))
        return infos

    def say(self, line: str) -> None:
        """Tell the host's console ``line`` (what a headless host prints)."""
        if self.events is not None:
            self.events(printable(line))

    # -- joining -------------------------------------------------------------------------
    def join(self, link: Link, hello: Hello) -> bool:
        """Seat ``link`` as ``hello`` asks, or refuse (and close) it; whether it was seated.

        The code was checked by the server.  A seat is taken by name; once
        taken, only its secret takes it again (the same client after a drop).
        """
        refusal = self._join_refusal(hello)
        if refusal is not None:
            self._send(None, Refused(refusal), link)
            link.close()
            return False
        seat = seat_named(self.match.seats, hello.name)
        assert seat is not None
        secret = hello.secret
        name = self.match.seats[seat].name
        if not self.claimed(seat):
            secret = self.file.claim(seat)
            self.say(f"{name} joined.")
        else:
            self.say(f"{name} is back.")
        assert secret is not None
        self._returned(seat)
        self.admit(link, seat, secret, hello.minor)
        return True

    def admit(self, link: Link, seat: int, secret: str = "", minor: int = MINOR) -> None:
        """Seat ``link`` (speaking protocol revision ``minor``) in ``seat``, its player
        proven (by the seat's ``secret``, or by a server's account); a connection that held
        the seat before is told and closed."""
        old = self.links.get(seat)
        if old is not None and old is not link:
            self._send(seat, closing(REPLACED, "replaced", old.minor), old)
            old.close()
        link.minor = minor
        link.seat = seat
        self.links[seat] = link
        self._joined_at[seat] = self.number  # what was told before is not told again
        self._sent_logs.pop(seat, None)  # a new connection gets the whole log
        self._send(
            seat,
            Welcome(PROTOCOL, self.game.name, seat, secret, __version__, self.peers, self.identity),
            link,
        )
        self._broadcast()
        self._send_record(seat, link)
        self.kick_bots()

    def watch(self, link: Link, minor: int = MINOR) -> None:
        """Let ``link`` watch the table: the public view, live, and never a hidden card."""
        link.seat = None
        link.minor = minor
        self.watchers.add(link)
        self._joined_at[id(link)] = self.number  # what was told before is not told again
        self._send(
            None,
            Welcome(PROTOCOL, self.game.name, WATCHING, "", __version__, self.peers, self.identity),
            link,
        )
        self._broadcast()

    def _returned(self, seat: int) -> None:
        """``seat``'s player is here: no more waiting for them, and a bot gives the seat back."""
        timer = self._away_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if seat in self.referee.stand_ins:
            self.referee.stand_in(seat, None)
            self._stand_in_levels.pop(seat, None)
            name = self.match.seats[seat].name
            self.say(f"{name} is back: the bot gives the seat back.")
        self._hold_until_seated()

    def _join_refusal(self, hello: Hello) -> str | None:
        if hello.protocol != PROTOCOL:
            return (
                f"The host speaks table protocol {PROTOCOL} and this client {hello.protocol}: "
                "use the same version of Karavan."
            )
        seat = seat_named(self.match.seats, hello.name)
        humans = ", ".join(self.match.seats[i].name for i in self.humans)
        if seat is None:
            asked = printable(hello.name)[:40]
            return f"There is no seat called {asked} at this table (its players: {humans})."
        if self.match.seats[seat].is_bot:
            bot = self.match.seats[seat].name
            return f"{bot} is a bot's seat at this table (its players: {humans})."
        if self.claimed(seat) and not self.file.holds(seat, hello.secret):
            name = self.match.seats[seat].name
            if seat in self.links:
                return f"{name}'s seat is taken: {name} is at the table now."
            return f"{name} is away: ask the host to free the seat."
        return None

    def left(self, link: Link) -> None:
        """``link`` is gone (dropped or closed)."""
        if link in self.watchers:
            self.watchers.discard(link)
            self._sent_logs.pop(id(link), None)
            self._joined_at.pop(id(link), None)
            self._broadcast()
            return
        seat = link.seat
        if seat is None or self.links.get(seat) is not link:
            return
        del self.links[seat]
        self._sent_logs.pop(seat, None)
        if not self.match.is_over():
            self.say(f"{self.match.seats[seat].name} is away.")
            self._away_from_now(seat)
        self._broadcast()
        self._check_ended()

    def _check_ended(self) -> None:
        if self.match.is_over():
            self.over.set()
            if not self.links:
                self.ended.set()

    # -- absent players ----------------------------------------------------------------
    def start(self) -> None:
        """The table is served: absent players' time starts, and the bots move if it is theirs."""
        for seat in self.humans:
            if self.claimed(seat) and seat not in self.links:
                self._away_from_now(seat)
        self.kick_bots()

    def _away_from_now(self, seat: int) -> None:
        """Start ``seat``'s away time, if the table has a limit."""
        if self.away_limit is None or seat in self.referee.stand_ins:
            return
        old = self._away_timers.pop(seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._away_timers[seat] = loop.call_later(self.away_limit, self._away_too_long, seat)

    def _away_too_long(self, seat: int) -> None:
        self._away_timers.pop(seat, None)
        if seat in self.links or self.match.is_over() or seat in self.referee.stand_ins:
            return
        name, level = self.match.seats[seat].name, self.away_level
        self.say(
            f"{name} has been away too long: a {level} bot plays the seat until {name} is back."
        )
        self._stand_in(seat, level)

    def seat_of(self, name: str) -> int:
        """The person's seat called ``name``; :class:`IllegalAction` if there is none."""
        seat = seat_named(self.match.seats, name)
        if seat is None or seat not in self.humans:
            players = ", ".join(self.match.seats[i].name for i in self.humans)
            raise IllegalAction(f"No player's seat is called {printable(name)[:40]} ({players}).")
        return seat

    def _absent(self, seat: int) -> str:
        """``seat``'s name, if its player is not at the table; else :class:`IllegalAction`."""
        name = self.match.seats[seat].name
        if seat in self.links:
            raise IllegalAction(f"{name} is at the table: only an absent player's seat changes.")
        if self.match.is_over():
            raise IllegalAction("The game is over.")
        return name

    def free(self, seat: int) -> str:
        """Forget absent ``seat``'s secret: whoever joins by its name with the code takes it.

        Returns what the table is told; :class:`IllegalAction` if the seat may not be freed.
        """
        name = self._absent(seat)
        if not self.claimed(seat):
            raise IllegalAction(f"{name}'s seat is free already: it waits for {name} to join.")
        self.file.release(seat)
        line = f"The host freed {name}'s seat: whoever joins as {name} with the code takes it."
        self.say(line)
        self._hold_until_seated()
        self._broadcast()
        return line

    def hand_to_bot(self, seat: int, level: str | None) -> str:
        """A bot of ``level`` plays absent ``seat`` until its player is back (``None``: the
        bot leaves, the seat waits for them).  Returns what the table is told."""
        name = self._absent(seat)
        if level is None:
            if seat not in self.referee.stand_ins:
                raise IllegalAction(f"No bot plays {name}'s seat.")
            line = f"The bot leaves {name}'s seat: it waits for {name}."
        else:
            if level not in BOT_LEVELS:
                raise IllegalAction(
                    f"No bot level {printable(level)[:20]} ({', '.join(BOT_LEVELS)})."
                )
            line = f"The host hands {name}'s seat to a {level} bot until {name} is back."
        self.say(line)
        self._stand_in(seat, level)
        return line

    def _stand_in(self, seat: int, level: str | None) -> None:
        self.referee.stand_in(seat, level)
        if level is None:
            self._stand_in_levels.pop(seat, None)
            self._away_from_now(seat)
        else:
            self._stand_in_levels[seat] = level
        self._hold_until_seated()
        self._broadcast()
        self.kick_bots()

    # -- what clients send ---------------------------------------------------------------
    def receive(self, link: Link, text: str | bytes) -> None:
        """Handle one frame from the seated client ``link``."""
        seat = link.seat
        if seat is None:
            self.decline(link, "You are watching this table: watchers do not play.")
            return
        try:
            message: ClientMessage = decode_client(text)
        except ProtocolError as error:
            self.decline(link, str(error))
            return
        reason = None
        if isinstance(message, Hello | Challenge):
            reason = "You have joined already."
        elif isinstance(message, Decide):
            reason = self.decide(seat, message)
        elif isinstance(message, Undo):
            reason = self.undo(seat, message.number)
        elif isinstance(message, Redo):
            reason = self.redo(seat, message.number)
        elif isinstance(message, Answer):
            reason = self.answer(seat, message.number, message.accept, message.request)
        elif isinstance(message, Withdraw):
            reason = self.withdraw(seat, message.request)
        if reason is not None:
            self.decline(link, reason)

    def decline(self, link: Link, reason: str) -> None:
        """Tell ``link`` its last frame was refused, and why."""
        self._send(link.seat, Declined(self.number, reason), link)

    def _stale(self, number: int) -> str | None:
        if type(number) is not int or number != self.number:
            return "The table has moved on since: look again and decide anew."
        return None

    def decide(self, seat: int, message: Decide) -> str | None:
        """Play ``message``'s gesture for ``seat`` if the referee allows it; else the reason."""
        if self.match.is_over():
            return "The game is over."
        stale = self._stale(message.number)
        if stale is not None:
            return stale
        if not 1 <= len(message.actions) <= MAX_GESTURE:
            return f"A gesture holds 1 to {MAX_GESTURE} decisions."
        try:
            actions = [structure_action(self.game, data) for data in message.actions]
        except Exception:  # whatever does not fit is not a decision
            return f"That is not a decision of {self.game.title}."
        try:
            self.referee.play(seat, actions)
        except IllegalAction as error:
            return str(error)
        return None

    def undo(self, seat: int, number: int) -> str | None:
        """Take back ``seat``'s last gesture, or ask the others to agree; else the reason."""
        return self._at(number, lambda: self.referee.undo(seat))

    def answer(
        self, seat: int, number: int, accept: bool, request: int | None = None
    ) -> str | None:
        """``seat``'s answer to the take-back asked for; else the reason it cannot answer.

        An answer that names its ``request`` stands whatever the table's number.
        """
        if request is not None:
            return self._at(self.number, lambda: self.referee.answer(seat, accept, request))
        return self._at(number, lambda: self.referee.answer(seat, accept))

    def withdraw(self, seat: int, request: int) -> str | None:
        """``seat`` no longer asks for its take-back ``request``; else the reason."""
        current = self.referee.request
        if current is None or current.number != request:
            return "That take-back request is no longer open."
        return self._at(self.number, lambda: self.referee.withdraw(seat))

    def redo(self, seat: int, number: int) -> str | None:
        """Replay ``seat``'s undone decision; else the reason."""
        return self._at(number, lambda: self.referee.redo(seat))

    def _at(self, number: int, call: Callable[[], object]) -> str | None:
        """Ask the referee ``call()`` for a message naming table ``number``; else the reason."""
        stale = self._stale(number)
        if stale is not None:
            return stale
        try:
            call()
        except IllegalAction as error:
            return str(error)
        return None

    # -- after every change ----------------------------------------------------------------
    def _changed(self, change: Change) -> None:
        notice = self.referee.notice(None)  # the public record of a take-back
        if notice is not None:
            self.say(notice)
        elif change.kind in ("play", "redo") and change.decisions and self.tell_decisions:
            for line in self.referee.log()[-change.decisions :]:
                self.say(line)
        request = self.referee.request
        if change.kind == "request" and request is not None:
            self._lapse_later(request.number)
        outcome = self.referee.outcome()
        if outcome is not None and change.kind != "hint":
            self.say(f"The game is over: {outcome.sentence([s.name for s in self.match.seats])}")
        self._loop = asyncio.get_running_loop()
        self._broadcast()
        if outcome is not None:
            for seat, link in list(self.links.items()):
                self._send_record(seat, link)
        self.kick_bots()
        self._check_ended()

    def _lapse_later(self, number: int) -> None:
        """Run the clock of take-back request ``number``: the referee lapses it when time is up."""
        if self._lapse_timer is not None:
            self._lapse_timer.cancel()  # one request is open at a time: the last one's is done
        seconds = self.referee.takeback_seconds
        loop = asyncio.get_running_loop()
        self._lapse_timer = loop.call_later(seconds, self.referee.lapse, number)

    # -- what is kept, and shown -----------------------------------------------------------
    @property
    def shown(self) -> bool:
        """Whether the table as it is now may be shown: its save is on disk (or it has none)."""
        if self.referee.writer is None:
            return True
        with self._lock:
            return self._kept >= self.referee.revision

    def _kept_elsewhere(self, revision: int) -> None:
        """The save writer's thread: the save of ``revision`` has been written (or failed)."""
        with self._lock:
            self._kept = max(self._kept, revision)
            loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to show
                loop.call_soon_threadsafe(self._kept_now)

    def _kept_now(self) -> None:
        failed = self.referee.save_error
        if failed is not None and not self._save_failed:
            self.say(f"The autosave failed: {failed.strerror or failed}")
        elif failed is None and self._save_failed:
            self.say("The autosave works again.")
        self._save_failed = failed is not None
        self._broadcast()

    def update_for(self, seat: int | None, key: int | None = None) -> Update:
        """The table as ``seat`` sees it now (``None``: the public view, a watcher's), its log
        lines from where the client kept under ``key`` (by default the seat) is."""
        view = self.referee.view(seat)
        game = self.game
        choices = [Choice(unstructure_action(game, a), words) for a, words in view.choices()]
        log = view.log
        kept = seat if key is None else key
        assert kept is not None
        sent = self._sent_logs.get(kept, ())
        start = 0
        for mine, theirs in zip(log, sent, strict=False):
            if mine != theirs:
                break
            start += 1
        self._sent_logs[kept] = log
        return Update(
            number=view.revision,
            to_move=view.observation.to_move,
            observation=observation_data(game, view.observation),
            legal=choices,
            scores=list(view.scores),
            seats=self.seat_infos(),
            log_start=start,
            log=list(log[start:]),
            before=None if view.before is None else observation_data(game, view.before),
            news=unstructure_actions(game, view.news) if view.before is not None else [],
            can_undo=view.can_undo,
            can_redo=view.can_redo,
            outcome=view.outcome,
            takeback=_asked(view, self.referee.takeback_seconds),
            notice=view.notice if self._joined_at.get(kept, -1) < view.revision else None,
            since=view.since,
        )

    def _broadcast(self) -> None:
        """Tell every client the table changed, once what they would see is kept."""
        if not self.shown:
            return  # the writer says when it is kept, and this comes again
        for seat, link in list(self.links.items()):
            link.refresh(partial(self._update_frame, seat, link))
        for link in list(self.watchers):
            link.refresh(partial(self._update_frame, None, link))

    def _update_frame(self, seat: int | None, link: Link) -> str | None:
        """The update ``link`` gets now, as ``seat`` (``None``: a watcher); ``None`` if it is
        not to be sent now."""
        if not self._connected(seat, link):
            return None  # gone, or replaced by a newer connection
        if not self.shown:
            return None  # the table changed again since: that change's save brings it
        text = encode(self.update_for(seat, None if seat is not None else id(link)), link.minor)
        if self.observer is not None:
            self.observer(seat, text)
        return text

    def _connected(self, seat: int | None, link: Link) -> bool:
        """Whether ``link`` is still ``seat``'s connection (``None``: a watcher's)."""
        if seat is None:
            return link in self.watchers
        return self.links.get(seat) is link

    def _send_record(self, seat: int, link: Link) -> None:
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
        self._send(seat, self._records[seat], link)

    def _send(self, seat: int | None, message: HostMessage, link: Link) -> None:
        text = encode(message, link.minor)
        if self.observer is not None:
            self.observer(seat, text)
        link.send(text)

    # -- bots ----------------------------------------------------------------------------------
    def kick_bots(self) -> None:
        """Let a bot decide if one is to move (in a task of its own, off the loop's way)."""
        if self.referee.bot_to_move() is None:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._play_bots())

    async def _play_bots(self) -> None:
        while (turn := self.referee.bot_turn()) is not None:
            action = await bot_decision(turn, self.bot_delay)
            self.referee.play_bot(turn, action)  # dropped if the table moved on meanwhile

    def rematch(self, save_path: Path | None, seed: int) -> Host:
        """A new game of the same seats at this table, dealt from ``seed``: same code, same
        seats' secrets (each player's Karavan takes its seat again), same limits.

        Its save is written at once to ``save_path`` (``OSError`` if it cannot be).
        """
        old = self.match
        match = Match(self.game, old.seats, seed, old.options)
        where = None if save_path is None else TableFile.path_for(save_path)
        file = TableFile(where, self.code, self.file.digests, self.file.settings)
        new = host_for(
            match,
            self.code,
            save_path=save_path,
            table_file=file,
            bot_delay=self.bot_delay,
            events=self.events,
            takeback_seconds=self.referee.takeback_seconds,
        )
        new.away_limit, new.away_level = self.away_limit, self.away_level
        return new

    async def close(self, reason: str | None = None, why: str = "closed") -> None:
        """End the table: every client hears ``reason`` (if given; ``why`` it ends, see
        :class:`Closed`) and stops, then the save is flushed."""
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self._lapse_timer is not None:
            self._lapse_timer.cancel()
        for timer in self._away_timers.values():
            timer.cancel()
        for seat, link in [*self.links.items(), *((None, w) for w in self.watchers)]:
            if reason is not None:
                self._send(seat, closing(reason, why, link.minor), link)
            link.close()
        self.links.clear()
        self.watchers.clear()
        if self.match.is_over():
            self.ended.set()  # nobody is left to read the result here
        await asyncio.to_thread(self.referee.flush)
