"""The host of a table: the referee, its connections and its table file.

A :class:`Host` seats the clients that join, reads what they send as data and
passes every decision, undo and redo to its
:class:`~karavan_core.referee.Referee`, which alone changes the match (and
refuses, with the reason and changing nothing, whatever may not be played).
After every change it tells each connected client the table as that seat sees
it: the referee's view of that seat, never the state.  It plays the bot seats
itself, off the event loop.

It is made of parts with one job each: a
:class:`~karavan_net.seat_registry.SeatRegistry` (who sits where), a
:class:`~karavan_net.presence.Presence` (absent players and the bots that stand
in for them), a :class:`~karavan_net.broadcaster.Broadcaster` (each
connection's update, once the change is kept: a host killed at any moment has
kept every decision its players saw) and a
:class:`~karavan_net.dispatch.Dispatch` (what clients send).  The host joins
them up and runs the bots and the take-back clock.

It knows no transport: a connection is a :class:`~karavan_net.link.Link`, so
the server and the tests drive it alike.  All its methods run on one event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from karavan_core.match import Match
from karavan_core.pacing import bot_decision
from karavan_core.referee import TAKEBACK_SECONDS, Change, Referee
from karavan_core.storage import SaveFile
from karavan_core.text import printable
from karavan_core.version import __version__
from karavan_net.broadcaster import PLAIN, Broadcaster, Hooks
from karavan_net.dispatch import Dispatch
from karavan_net.link import Link, closing
from karavan_net.presence import Presence
from karavan_net.protocol import (
    MINOR,
    PROTOCOL,
    WATCHING,
    Hello,
    Refused,
    SeatInfo,
    Update,
    Welcome,
)
from karavan_net.seat_registry import SeatRegistry
from karavan_net.storage import TableFile
from karavan_net.table_chat import TableChat

REPLACED = "Your seat was taken from another connection."
"""What a connection is told when the same seat joins again from elsewhere."""


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
    happening a host prints: joins, absences, decisions (unless
    ``tell_decisions`` is false), the end.  ``hooks`` are the table's own ways
    (see :class:`~karavan_net.broadcaster.Hooks`).  The match is saved at once
    (``OSError`` if it cannot be).
    """

    def __init__(
        self,
        referee: Referee,
        code: str,
        table_file: TableFile,
        *,
        bot_delay: float = 0.6,
        events: Callable[[str], None] | None = None,
        tell_decisions: bool = True,
        hooks: Hooks = PLAIN,
    ) -> None:
        self.referee = referee
        self.match = referee.match
        self.game = referee.game
        self.code = code
        table_file.code = code
        self.bot_delay = bot_delay
        self.events = events
        self.tell_decisions = tell_decisions
        self.save_path: Path | None = None  # the save the match is kept in, if one
        self.peers: tuple[str, ...] = ()  # a server's other processes, told in the Welcome
        self.identity = ""  # the fingerprint of a server's identity, told in the Welcome
        self.seats = SeatRegistry(referee, table_file)
        self.presence = Presence(referee, self.seats, say=self.say, changed=self._seats_changed)
        self.broadcaster = Broadcaster(
            referee, self.seats, self.seat_infos, say=self.say, hooks=hooks
        )
        self.chat = TableChat(self.seats, self.broadcaster.send)
        self.dispatch = Dispatch(referee, self.broadcaster.send, self.chat)
        self._bot_task: asyncio.Task[None] | None = None
        self._lapse_timer: asyncio.TimerHandle | None = None
        self.over = asyncio.Event()  # the game is over
        self.ended = asyncio.Event()  # the game is over and every client has gone
        referee.when_kept(self.broadcaster.kept_elsewhere)
        referee.subscribe(self._changed)
        self.seats.hold_until_seated()
        referee.keep_now()  # the save the host names exists before the first decision
        self.file.write()

    # -- who sits where ------------------------------------------------------------------
    @property
    def number(self) -> int:
        """The table's revision: a decision, undo or redo must name the current one."""
        return self.referee.revision

    @property
    def file(self) -> TableFile:
        """The table file: the code, and the hashes of the seats' secrets."""
        return self.seats.file

    @property
    def links(self) -> dict[int, Link]:
        """Each seat's connection now."""
        return self.seats.links

    @property
    def watchers(self) -> set[Link]:
        """The spectators' connections."""
        return self.seats.watchers

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play."""
        return self.referee.humans

    def claimed(self, seat: int) -> bool:
        """Whether somebody has taken ``seat`` (and holds its secret)."""
        return self.seats.claimed(seat)

    @property
    def started(self) -> bool:
        """Whether every human seat has been taken: nobody decides before."""
        return self.seats.started

    def reserve(self, seat: int) -> str:
        """Give ``seat`` a fresh secret (the host's own terminal plays it) and return it."""
        return self.seats.reserve(seat)

    def seat_infos(self) -> list[SeatInfo]:
        """Every seat with who plays it and whether they are here."""
        return self.seats.infos(self.presence.levels)

    def seat_of(self, name: str) -> int:
        """The person's seat called ``name``; :class:`IllegalAction` if there is none."""
        return self.seats.seat_of(name)

    def say(self, line: str) -> None:
        """Tell the host's console ``line`` (what a headless host prints)."""
        if self.events is not None:
            self.events(printable(line))

    @property
    def observer(self) -> Callable[[int | None, str], None] | None:
        """What sees every frame sent, with its seat, as it is sent (tests)."""
        return self.broadcaster.observer

    @observer.setter
    def observer(self, observer: Callable[[int | None, str], None] | None) -> None:
        self.broadcaster.observer = observer

    # -- joining -------------------------------------------------------------------------
    def join(self, link: Link, hello: Hello) -> bool:
        """Seat ``link`` as ``hello`` asks, or refuse (and close) it; whether it was seated.

        The code was checked by the server.  A seat is taken by name; once
        taken, only its secret takes it again (the same client after a drop).
        """
        refusal = self.seats.refusal(hello)
        if refusal is not None:
            self.broadcaster.send(None, Refused(refusal), link)
            link.close()
            return False
        seat, secret, first = self.seats.take(hello)
        name = self.match.seats[seat].name
        self.say(f"{name} joined." if first else f"{name} is back.")
        self.presence.returned(seat)
        self.admit(link, seat, secret, hello.minor)
        return True

    def admit(self, link: Link, seat: int, secret: str = "", minor: int = MINOR) -> None:
        """Seat ``link`` (speaking protocol revision ``minor``) in ``seat``, its player
        proven (by the seat's ``secret``, or by a server's account); a connection that held
        the seat before is told and closed."""
        out = self.broadcaster
        old = self.seats.admit(link, seat, minor)
        if old is not None:
            out.send(seat, closing(REPLACED, "replaced", old.minor), old)
            old.close()
        out.arrived(seat)
        out.send(seat, self._welcome(seat, secret), link)
        out.broadcast()
        out.send_record(seat, link)
        self.chat.joined(link)
        self.kick_bots()

    def _welcome(self, seat: int, secret: str) -> Welcome:
        """What a connection seated at ``seat`` (a watcher: WATCHING) is told first."""
        game, peers = self.game.name, self.peers
        now = self.clock_now()
        told = "" if now is None else now.isoformat()
        return Welcome(PROTOCOL, game, seat, secret, __version__, peers, self.identity, told)

    def clock_now(self) -> datetime | None:
        """The time the table's clocks keep, told in each welcome (a plain host has none)."""
        return None

    def watch(self, link: Link, minor: int = MINOR, name: str = "") -> None:
        """Let ``link`` watch the table: the public view, live, and never a hidden card
        (``name``: who watches, as the chat names them)."""
        self.seats.watch(link, minor)
        out = self.broadcaster
        out.arrived(id(link))
        out.send(None, self._welcome(WATCHING, ""), link)
        out.broadcast()
        self.chat.joined(link, name)

    def left(self, link: Link) -> None:
        """``link`` is gone (dropped or closed)."""
        self.chat.left(link)
        if self.seats.unwatch(link):
            self.broadcaster.gone(id(link))
            self.broadcaster.broadcast()
            return
        seat = self.seats.unseat(link)
        if seat is None:
            return
        self.broadcaster.gone(seat)
        if not self.match.is_over():
            self.say(f"{self.match.seats[seat].name} is away.")
            self.presence.away_from_now(seat)
        self.broadcaster.broadcast()
        self._check_ended()

    def _check_ended(self) -> None:
        if self.match.is_over():
            self.over.set()
            if not self.links:
                self.ended.set()

    # -- absent players ----------------------------------------------------------------
    @property
    def away_limit(self) -> float | None:
        """Seconds before a bot plays an absent player's seat (``None``: it waits for them)."""
        return self.presence.away_limit

    @away_limit.setter
    def away_limit(self, seconds: float | None) -> None:
        self.presence.away_limit = seconds

    @property
    def away_level(self) -> str:
        """The level of the bot that plays an absent player's seat past the away limit."""
        return self.presence.away_level

    @away_level.setter
    def away_level(self, level: str) -> None:
        self.presence.away_level = level

    def start(self) -> None:
        """The table is served: absent players' time starts, and the bots move if it is theirs."""
        self.presence.start()
        self.kick_bots()

    def free(self, seat: int) -> str:
        """Forget absent ``seat``'s secret: whoever joins by its name with the code takes it.

        Returns what the table is told; :class:`IllegalAction` if the seat may not be freed.
        """
        line = self.seats.free(seat)
        self.say(line)
        self.broadcaster.broadcast()
        return line

    def hand_to_bot(self, seat: int, level: str | None) -> str:
        """A bot of ``level`` plays absent ``seat`` until its player is back (``None``: the
        bot leaves, the seat waits for them).  Returns what the table is told."""
        return self.presence.hand_to_bot(seat, level)

    def _seats_changed(self) -> None:
        """A bot took or left a seat: everyone is told, and the bots move."""
        self.broadcaster.broadcast()
        self.kick_bots()

    # -- what clients send ---------------------------------------------------------------
    def receive(self, link: Link, text: str | bytes) -> None:
        """Handle one frame from the seated client ``link``."""
        self.dispatch.receive(link, text)

    def decline(self, link: Link, reason: str) -> None:
        """Tell ``link`` its last frame was refused, and why."""
        self.dispatch.decline(link, reason)

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
        self.broadcaster.changed()
        if outcome is not None:
            self.broadcaster.send_records()
        self.kick_bots()
        self._check_ended()

    def _lapse_later(self, number: int) -> None:
        """Run the clock of take-back request ``number``: the referee lapses it when time is up."""
        if self._lapse_timer is not None:
            self._lapse_timer.cancel()  # one request is open at a time: the last one's is done
        seconds = self.referee.takeback_seconds
        loop = asyncio.get_running_loop()
        self._lapse_timer = loop.call_later(seconds, self.referee.lapse, number)

    @property
    def shown(self) -> bool:
        """Whether the table as it is now may be shown: its save is kept (or it has none)."""
        return self.broadcaster.shown

    def update_for(self, seat: int | None, key: int | None = None) -> Update:
        """The table as ``seat`` sees it now (``None``: the public view, a watcher's), its log
        lines from where the client kept under ``key`` (by default the seat) is."""
        return self.broadcaster.update_for(seat, key)

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
        new.chat.resume(self.chat.lines)  # the same table: what was said there stays
        return new

    async def close(self, reason: str | None = None, why: str = "closed") -> None:
        """End the table: every client hears ``reason`` (if given; ``why`` it ends, see
        :class:`~karavan_net.protocol.Closed`) and stops, then the save is flushed."""
        if self._bot_task is not None:
            self._bot_task.cancel()
        if self._lapse_timer is not None:
            self._lapse_timer.cancel()
        self.presence.stop()
        for seat, link in self.seats.everyone():
            if reason is not None:
                self.broadcaster.send(seat, closing(reason, why, link.minor), link)
            link.close()
        self.seats.clear()
        if self.match.is_over():
            self.ended.set()  # nobody is left to read the result here
        await asyncio.to_thread(self.referee.flush)
