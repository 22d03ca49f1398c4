"""The referee: one hosted table, its match, its seats and who is connected.

A :class:`Table` holds the :class:`~karavan_core.match.Match` and is the only
place that changes it.  It reads what clients send as data and checks every
decision (the sender's seat must be the one to move, the decision number the
current one, every decision of the gesture legal when its turn comes) before
anything changes; a refusal says why and changes nothing.  It plays the bot
seats itself, autosaves after every change, and tells each connected client
the table as that seat sees it (:class:`~karavan_tui.net.protocol.Update`):
that seat's own observation, never the state.

It knows no transport: a connection is anything with ``send(text)`` and
``close(text)`` (:class:`Link`), so the server and the tests drive it alike.
All its methods run on one event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from karavan_core.bots import Bot, make_bot
from karavan_core.engine import Action, IllegalAction, State
from karavan_core.match import Match
from karavan_core.saves import (
    atomic_write,
    converter_for,
    envelope,
    read_limited,
    structure_action,
    unstructure_action,
    unstructure_actions,
)
from karavan_core.text import printable
from karavan_core.version import __version__
from karavan_tui.net.protocol import (
    MAX_GESTURE,
    PROTOCOL,
    Choice,
    ClientMessage,
    Decide,
    Declined,
    Hello,
    HostMessage,
    Outcome,
    ProtocolError,
    Redo,
    Refused,
    SeatInfo,
    Undo,
    Update,
    Welcome,
    decode_client,
    encode,
)

CODE_BYTES = 12
"""Random bytes in a table code: 96 bits, 16 characters, not to be guessed."""
SECRET_BYTES = 24


def new_code() -> str:
    """A random table code (URL-safe letters, digits, - and _)."""
    return secrets.token_urlsafe(CODE_BYTES)


def check_code(code: str) -> str:
    """A table code chosen by the host; ``ValueError`` if unfit."""
    code = code.strip()
    if not 4 <= len(code) <= 64 or not all(
        c.isascii() and (c.isalnum() or c in "-_") for c in code
    ):
        raise ValueError(
            "A table code has 4 to 64 letters, digits, dashes and underscores "
            "(leave --code out for a random one)."
        )
    return code


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


class Link(Protocol):
    """One client connection, as the table sees it."""

    seat: int | None

    def send(self, text: str) -> None:
        """Queue ``text`` (one frame) for the client."""

    def close(self, text: str | None = None) -> None:
        """Send ``text`` (if any) as the last frame, then close the connection."""


class TableFile:
    """The table's own file beside its save: its code and a hash of each seat's secret.

    A host restarted from the save reads it back, so the players' clients can
    take their seats again with the secrets they hold.  Only hashes are kept,
    in a file only its owner can read.
    """

    def __init__(self, path: Path | None, code: str, digests: dict[int, str]) -> None:
        self.path = path
        self.code = code
        self.digests = dict(digests)

    @staticmethod
    def path_for(save_path: Path) -> Path:
        """Where the table file of the save at ``save_path`` lives."""
        return save_path.with_suffix(".table")

    @classmethod
    def read(cls, save_path: Path) -> TableFile | None:
        """The table file of ``save_path``, or ``None`` if there is none or it does not fit."""
        path = cls.path_for(save_path)
        try:
            data = json.loads(read_limited(path))
        except Exception:  # missing, unreadable or not ours: a new table then
            return None
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            return None
        digests = data.get("secrets")
        if not isinstance(digests, dict):
            return None
        kept = {
            int(seat): value
            for seat, value in digests.items()
            if isinstance(seat, str) and seat.isdigit() and isinstance(value, str)
        }
        try:
            code = check_code(data["code"])
        except ValueError:
            return None
        return cls(path, code, kept)

    def write(self) -> None:
        """Write the file (readable by its owner only)."""
        if self.path is None:
            return
        data = {"code": self.code, "secrets": {str(k): v for k, v in self.digests.items()}}
        if not self.path.exists():
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
        atomic_write(self.path, json.dumps(data))


class Saver:
    """Autosaves a match after every change, off the event loop, the newest position last."""

    def __init__(self, match: Match, path: Path | None) -> None:
        self.match = match
        self.path = path
        self.error: OSError | None = None
        self._dirty = False
        self._task: asyncio.Task[None] | None = None

    def save(self) -> None:
        """Ask for a save of the match as it is now (writes coalesce while one is under way)."""
        if self.path is None:
            return
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self.path is not None
        while self._dirty:
            self._dirty = False
            text = json.dumps(envelope(self.match), separators=(",", ":"))
            try:
                await asyncio.to_thread(atomic_write, self.path, text)
            except OSError as error:
                self.error = error
            else:
                self.error = None

    async def flush(self) -> None:
        """Wait until the newest position is on disk."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)


class Table:
    """A hosted match and its seats.

    ``code`` lets clients in; ``table_file`` keeps the code and the seats'
    secrets beside the save.  ``events`` (if given) hears one line for every
    happening a host prints: joins, absences, decisions, the end.
    ``observer`` (tests) sees every frame sent, with its seat, as it is sent.
    """

    def __init__(
        self,
        match: Match,
        code: str,
        *,
        save_path: Path | None = None,
        table_file: TableFile | None = None,
        bot_delay: float = 0.6,
        events: Callable[[str], None] | None = None,
    ) -> None:
        self.match = match
        self.game = match.game
        self.code = code
        self.save_path = save_path
        if table_file is None:
            where = None if save_path is None else TableFile.path_for(save_path)
            table_file = TableFile(where, code, {})
        table_file.code = code
        self.file = table_file
        self.bot_delay = bot_delay
        self.events = events
        self.observer: Callable[[int | None, str], None] | None = None
        self.number = 0  # changes of the match since the host started
        self.links: dict[int, Link] = {}  # seat -> its connection now
        self.bots: dict[int, Bot] = {
            i: make_bot(seat.level or "random", self.game, seed=match.seed + 7919 * (i + 1))
            for i, seat in enumerate(match.seats)
            if seat.is_bot
        }
        self.saver = Saver(match, save_path)
        self._sent_logs: dict[int, list[str]] = {}
        self._cache: dict[str, Any] = {}
        self._bot_task: asyncio.Task[None] | None = None
        self.over = asyncio.Event()  # the game is over
        self.ended = asyncio.Event()  # the game is over and every client has gone
        self.file.write()

    # -- who sits where ------------------------------------------------------------------
    @property
    def humans(self) -> list[int]:
        """The seats people play."""
        return [i for i, seat in enumerate(self.match.seats) if not seat.is_bot]

    def claimed(self, seat: int) -> bool:
        """Whether somebody has taken ``seat`` (and holds its secret)."""
        return seat in self.file.digests

    @property
    def started(self) -> bool:
        """Whether every human seat has been taken: the bots wait for it."""
        return all(self.claimed(seat) for seat in self.humans)

    def reserve(self, seat: int) -> str:
        """Give ``seat`` a fresh secret (the host's own terminal plays it) and return it."""
        secret = secrets.token_urlsafe(SECRET_BYTES)
        self.file.digests[seat] = _digest(secret)
        self.file.write()
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
            infos.append(SeatInfo(seat.name, seat.kind, seat.level, status))
        return infos

    def _say(self, line: str) -> None:
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
        seat = self._seat_named(hello.name)
        assert seat is not None
        secret = hello.secret
        if not self.claimed(seat):
            secret = secrets.token_urlsafe(SECRET_BYTES)
            self.file.digests[seat] = _digest(secret)
            self.file.write()
            self._say(f"{self.match.seats[seat].name} joined.")
        else:
            self._say(f"{self.match.seats[seat].name} is back.")
        assert secret is not None
        old = self.links.get(seat)
        if old is not None and old is not link:
            self._send(None, Refused("Your seat was taken again from another connection."), old)
            old.close()
        link.seat = seat
        self.links[seat] = link
        self._sent_logs.pop(seat, None)  # a new connection gets the whole log
        self._send(seat, Welcome(PROTOCOL, self.game.name, seat, secret, __version__), link)
        self._broadcast()
        self._kick_bots()
        return True

    def _seat_named(self, name: str) -> int | None:
        wanted = name.strip().casefold()
        for index, seat in enumerate(self.match.seats):
            if seat.name.casefold() == wanted:
                return index
        return None

    def _join_refusal(self, hello: Hello) -> str | None:
        if hello.protocol != PROTOCOL:
            return (
                f"The host speaks table protocol {PROTOCOL} and this client {hello.protocol}: "
                "use the same version of Karavan."
            )
        seat = self._seat_named(hello.name)
        humans = ", ".join(self.match.seats[i].name for i in self.humans)
        if seat is None:
            asked = printable(hello.name)[:40]
            return f"There is no seat called {asked} at this table (its players: {humans})."
        if self.match.seats[seat].is_bot:
            bot = self.match.seats[seat].name
            return f"{bot} is a bot's seat at this table (its players: {humans})."
        if self.claimed(seat):
            given = hello.secret
            if given is None or not hmac.compare_digest(_digest(given), self.file.digests[seat]):
                return f"{self.match.seats[seat].name}'s seat is taken."
        return None

    def left(self, link: Link) -> None:
        """``link`` is gone (dropped or closed)."""
        seat = link.seat
        if seat is None or self.links.get(seat) is not link:
            return
        del self.links[seat]
        self._sent_logs.pop(seat, None)
        if not self.match.is_over():
            self._say(f"{self.match.seats[seat].name} is away.")
        self._broadcast()
        self._check_ended()

    def _check_ended(self) -> None:
        if self.match.is_over():
            self.over.set()
            if not self.links:
                self.ended.set()

    # -- what clients send ---------------------------------------------------------------
    def receive(self, link: Link, text: str | bytes) -> None:
        """Handle one frame from the seated client ``link``."""
        seat = link.seat
        assert seat is not None
        try:
            message: ClientMessage = decode_client(text)
        except ProtocolError as error:
            self._decline(link, str(error))
            return
        if isinstance(message, Hello):
            self._decline(link, "You have joined already.")
        elif isinstance(message, Decide):
            self._decline_if(link, self.decide(seat, message))
        elif isinstance(message, Undo):
            self._decline_if(link, self.undo(seat, message.number))
        elif isinstance(message, Redo):
            self._decline_if(link, self.redo(seat, message.number))

    def decline(self, link: Link, reason: str) -> None:
        """Tell ``link`` its last frame was refused, and why."""
        self._decline(link, reason)

    def _decline(self, link: Link, reason: str) -> None:
        self._send(link.seat, Declined(self.number, reason), link)

    def _decline_if(self, link: Link, reason: str | None) -> None:
        if reason is not None:
            self._decline(link, reason)

    def _stale(self, number: int) -> str | None:
        if type(number) is not int or number != self.number:
            return "The table has moved on since: look again and decide anew."
        return None

    def decide(self, seat: int, message: Decide) -> str | None:
        """Play ``message``'s gesture for ``seat`` if it is legal now; else the reason."""
        match = self.match
        if match.is_over():
            return "The game is over."
        stale = self._stale(message.number)
        if stale is not None:
            return stale
        if match.to_move != seat:
            return f"It is not your turn: {match.seats[match.to_move or 0].name} decides now."
        if not 1 <= len(message.actions) <= MAX_GESTURE:
            return f"A gesture holds 1 to {MAX_GESTURE} decisions."
        try:
            actions = [structure_action(self.game, data) for data in message.actions]
        except Exception:  # whatever does not fit is not a decision
            return f"That is not a decision of {self.game.title}."
        state: State = match.state
        for action in actions:  # every decision of the gesture must be this seat's, and legal
            if state.to_move != seat:
                return "A gesture holds only your own decisions."
            try:
                state = self.game.apply(state, action)
            except IllegalAction as error:
                return str(error)
        match.play(*actions)
        self._changed(seat, len(actions))
        return None

    def undo(self, seat: int, number: int) -> str | None:
        """Take back ``seat``'s last decision if allowed; else the reason."""
        stale = self._stale(number)
        if stale is not None:
            return stale
        reason = self.match.undo_refusal(seat)
        if reason is not None:
            return reason
        self.match.undo()
        self._say(f"{self.match.seats[seat].name} takes back their last decision.")
        self._changed(None, 0)
        return None

    def redo(self, seat: int, number: int) -> str | None:
        """Replay ``seat``'s undone decision; else the reason."""
        stale = self._stale(number)
        if stale is not None:
            return stale
        reason = self.match.redo_refusal(seat)
        if reason is not None:
            return reason
        before = len(self.match.history)
        self.match.redo()
        self._changed(seat, len(self.match.history) - before)
        return None

    # -- after every change ----------------------------------------------------------------
    def _changed(self, seat: int | None, made: int) -> None:
        self.number += 1
        self._cache.clear()
        self.saver.save()
        if made and self.events is not None:
            for line in self.match.log()[-made:]:
                self._say(line)
        if self.match.is_over():
            result = self.game.result(self.match.state)
            names = self.match.seats
            scores = ", ".join(f"{names[i].name} {s}" for i, s in enumerate(result.scores))
            winners = " and ".join(names[i].name for i in result.winners)
            verb = "win" if len(result.winners) > 1 else "wins"
            self._say(f"The game is over: {winners} {verb} ({scores}).")
        self._broadcast()
        self._kick_bots()
        self._check_ended()

    def _cached(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def _outcome(self) -> Outcome | None:
        match = self.match
        if not match.is_over():
            return None
        result = self.game.result(match.state)
        series = [self.game.result(state).scores for state in match.states]
        return Outcome(
            list(result.scores),
            list(result.winners),
            [[list(line) for line in lines] for lines in result.breakdown],
            list(result.notes),
            [[scores[seat] for scores in series] for seat in range(len(match.seats))],
        )

    def update_for(self, seat: int) -> Update:
        """The table as ``seat`` sees it now (its log lines from where its client is)."""
        match, game = self.match, self.game
        state = match.state
        conv = converter_for(game.name)
        observation = game.observe(state, seat)
        legal: list[Action] = game.legal_actions(state) if state.to_move == seat else []
        choices = [Choice(unstructure_action(game, a), game.preview(observation, a)) for a in legal]
        log: list[str] = self._cached("log", match.log)
        sent = self._sent_logs.get(seat, [])
        start = 0
        for mine, theirs in zip(log, sent, strict=False):
            if mine != theirs:
                break
            start += 1
        self._sent_logs[seat] = log
        since = match.last_move_of(seat)
        before = None
        news: list[Any] = []
        if since < len(match.history):
            before = conv.unstructure(match.view(seat, since), game.observation_type)
            news = unstructure_actions(game, match.history[since:])
        return Update(
            number=self.number,
            to_move=state.to_move,
            observation=conv.unstructure(observation, game.observation_type),
            legal=choices,
            scores=list(self._cached("scores", lambda: game.result(state).scores)),
            seats=self._cached("seats", self.seat_infos),
            log_start=start,
            log=log[start:],
            before=before,
            news=news,
            can_undo=self.match.undo_refusal(seat) is None,
            can_redo=self.match.redo_refusal(seat) is None,
            outcome=self._cached("outcome", self._outcome),
        )

    def _broadcast(self) -> None:
        self._cache.pop("seats", None)
        for seat, link in list(self.links.items()):
            self._send(seat, self.update_for(seat), link)

    def _send(self, seat: int | None, message: HostMessage, link: Link) -> None:
        text = encode(message)
        if self.observer is not None:
            self.observer(seat, text)
        link.send(text)

    # -- bots ----------------------------------------------------------------------------------
    def _kick_bots(self) -> None:
        seat = self.match.to_move
        if seat is None or seat not in self.bots or not self.started:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._play_bot())

    async def _play_bot(self) -> None:
        while True:
            match = self.match
            seat = match.to_move
            if seat is None or seat not in self.bots:
                return
            state = match.state
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            if match.state is not state:
                continue
            observation = self.game.observe(state, seat)
            legal = self.game.legal_actions(state)
            action = await asyncio.to_thread(self.bots[seat].choose, observation, legal)
            if match.state is not state:  # an undo came meanwhile: think again
                continue
            match.play(action)
            self._changed(seat, 1)

    async def close(self, reason: str | None = None) -> None:
        """End the table: every client hears ``reason`` (if given), then the save is flushed."""
        if self._bot_task is not None:
            self._bot_task.cancel()
        for seat, link in list(self.links.items()):
            if reason is not None:
                self._send(seat, Refused(reason), link)
            link.close()
        self.links.clear()
        await self.saver.flush()
