"""Running a host: the lines that invite the players, and a headless host until the end.

``karavan host --headless`` serves its table here and prints what happens;
the host with its own terminal (in the app) uses :func:`announce` too.
"""

from __future__ import annotations

import asyncio
import random
import signal
import ssl
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TextIO

from karavan_core.bots import BOT_LEVELS
from karavan_core.engine import IllegalAction
from karavan_core.text import printable
from karavan_net.host import Host
from karavan_net.server import HostServer, ServerThread

HOST_LINGER = 30.0  # seconds a headless host stays after the end, for players to read it
CLOSED_AT_END = "The game is over: the host has closed the table."
CLOSED_MIDGAME = "The host has closed the table. The game is saved: join again once it is reopened."
REMATCH = "The host starts a rematch with the same seats."


def invitation(
    table_code: str, bind: str, port: int, names: Sequence[str], tls: bool = False
) -> list[str]:
    """The lines that tell the players how to join (``wss://`` for a table served over TLS)."""
    shown = bind if bind not in ("0.0.0.0", "::", "") else "THIS-MACHINE"
    if ":" in shown:
        shown = f"[{shown}]"
    shown = ("wss://" if tls else "") + shown
    lines = ["Each player joins from their own terminal with:"]
    lines += [f"  karavan join {shown}:{port} {table_code} --name {name}" for name in names]
    return lines


def resume_line(path: Path, bind: str, port: int) -> str:
    """How to reopen the table saved at ``path``, where it was served."""
    where = f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"
    return f"karavan host --resume {path} reopens the table at {where}"


def announce(
    host: Host, bind: str, port: int, path: Path, remote: Sequence[int], tls: bool = False
) -> list[str]:
    """What a host prints when it starts: the table, how ``remote`` seats join (``tls``:
    over ``wss://``), the save."""
    match = host.match
    seats = ", ".join(seat.name for seat in match.seats)
    lines = [f"Hosting {match.game.title} for {seats} at {bind}:{port} (table code {host.code})."]
    names = [match.seats[i].name for i in remote]
    if names:
        lines += invitation(host.code, bind, port, names, tls)
    lines.append(f"Saving to {path} ({resume_line(path, bind, port)}).")
    return [printable(line) for line in lines]


COMMANDS = [
    "Commands (type one and Enter):",
    "  seats              who plays each seat, and who is away",
    "  free NAME          forget an absent player's secret: whoever joins as NAME takes the seat",
    f"  bot NAME LEVEL     a bot plays NAME's seat until NAME is back ({', '.join(BOT_LEVELS)})",
    "  back NAME          the bot leaves NAME's seat: it waits for NAME",
    "  invite             the lines that tell the players how to join",
    "  rematch            once the game is over, a new one with the same seats",
]


TYPE_HELP = "Type help and Enter for the commands that free a seat or hand it to a bot."


def seat_lines(host: Host) -> list[str]:
    """Every seat and who plays it, one line each."""
    lines = []
    for info in host.seat_infos():
        said = {"here": "at the table", "away": "away", "empty": "not taken", "bot": "a bot"}
        line = f"  {info.name}: {said.get(info.status, info.status)}"
        if info.stand_in is not None:
            line += f" (a {info.stand_in} bot plays the seat meanwhile)"
        lines.append(printable(line))
    return lines


def command(control: HostControl, line: str) -> list[str]:
    """Carry out ``line`` typed at a headless host; the lines to print (what the table is told
    is printed as it happens)."""
    words = line.split()
    if not words:
        return []
    verb, rest = words[0].casefold(), words[1:]
    host = control.host
    try:
        if verb == "seats":
            return seat_lines(host)
        if verb == "invite":
            return list(control.invitation)
        if verb == "rematch":
            control.start_rematch()
            return []
        if verb == "free" and rest:
            host.free(host.seat_of(" ".join(rest)))
            return []
        if verb == "bot" and len(rest) >= 2:
            host.hand_to_bot(host.seat_of(" ".join(rest[:-1])), rest[-1].casefold())
            return []
        if verb == "back" and rest:
            host.hand_to_bot(host.seat_of(" ".join(rest)), None)
            return []
    except IllegalAction as error:
        return [printable(str(error))]
    return COMMANDS


def read_commands(
    lines: Iterable[str], loop: asyncio.AbstractEventLoop, handle: Callable[[str], None]
) -> threading.Thread:
    """Read ``lines`` (the terminal's) in a thread of their own, each handled on ``loop``."""

    def read() -> None:
        try:
            for line in lines:
                loop.call_soon_threadsafe(handle, line)
        except (OSError, ValueError, RuntimeError):
            return  # no terminal to read, or the loop has closed

    reader = threading.Thread(target=read, name="karavan-host-commands", daemon=True)
    reader.start()
    return reader


class HostControl:
    """What the host's own terminal may do to its table, and the lines that invite players.

    ``thread`` runs the table (``None``: it runs on the caller's own loop): each
    call runs on the table's loop and is awaited from the app's; a refusal
    comes back as :class:`IllegalAction` with its reason.  A rematch puts a
    new table under the same code on ``server``, saved where ``saves(game)``
    says (``None``: unsaved); :attr:`host` is then the new one.
    """

    def __init__(
        self,
        host: Host,
        invitation: Sequence[str],
        thread: ServerThread | None = None,
        *,
        server: HostServer | None = None,
        saves: Callable[[str], Path] | None = None,
    ) -> None:
        self.host = host
        self.invitation = list(invitation)
        self.thread = thread
        self.server = server
        self.saves = saves
        self.closing: asyncio.Task[None] | None = None  # the table a rematch replaced, closing

    async def _on_table(self, function: Callable[[], str]) -> str:
        return function() if self.thread is None else await self.thread.ask(function)

    async def free(self, seat: int) -> str:
        """Forget absent ``seat``'s secret (see :meth:`Host.free`)."""
        return await self._on_table(lambda: self.host.free(seat))

    async def hand_to_bot(self, seat: int, level: str | None) -> str:
        """A bot of ``level`` plays absent ``seat`` (``None``: none; :meth:`Host.hand_to_bot`)."""
        return await self._on_table(lambda: self.host.hand_to_bot(seat, level))

    async def rematch(self) -> str:
        """Once the game is over, a new one with the same seats (see :meth:`start_rematch`)."""
        return await self._on_table(self.start_rematch)

    def start_rematch(self) -> str:
        """On the table's loop: the new game takes the table's place, and every player's
        Karavan comes to it (an older one is told to join again); the line told."""
        old = self.host
        if not old.match.is_over():
            raise IllegalAction("The game is not over yet: a rematch comes after it.")
        if self.server is None:
            raise IllegalAction("This table cannot start a rematch.")
        seed = random.SystemRandom().randrange(1, 1_000_000)
        path = None if self.saves is None else self.saves(old.game.name)
        try:
            new = old.rematch(path, seed)
        except OSError as error:
            raise IllegalAction(f"The rematch cannot be saved: {error.strerror or error}") from None
        self.server.add(new)
        self.host = new
        # The old table ends once its last frames have gone: kept here until then.
        self.closing = asyncio.get_running_loop().create_task(old.close(REMATCH, "rematch"))
        new.start()
        line = f"A rematch: a new game of {new.game.title} with the same seats (seed {seed})."
        new.say(line)
        return line


async def _first(*events: asyncio.Event, timeout: float | None = None) -> None:
    """Wait until one of ``events`` is set (or ``timeout`` seconds have passed)."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


async def until_done(host: Host, stop: asyncio.Event) -> None:
    """Until ``stop``, or the game is over and every client has gone (or lingered enough)."""
    await _first(stop, host.over)
    if host.match.is_over() and not stop.is_set():
        await _first(stop, host.ended, timeout=HOST_LINGER)


async def serve_headless(
    make_host: Callable[[int], Host],
    bind: str,
    port: int,
    path: Path,
    fail: Callable[[str], int],
    out: Callable[[str], None],
    commands: TextIO | None = None,
    saves: Callable[[str], Path] | None = None,
    tls: ssl.SSLContext | None = None,
) -> int:
    """Listen, then serve the table ``make_host(port)`` makes until the game is over or a
    signal stops it; the exit status.  A host that cannot listen makes no table (and so
    leaves no file behind).

    Lines typed on ``commands`` (the terminal, by default) manage the seats and start a
    rematch (:data:`COMMANDS`), saved where ``saves(game)`` says.  With ``tls`` it serves
    ``wss://`` only.
    """
    server = HostServer(events=lambda line: out(line), tls=tls)
    try:
        port = await server.start(bind, port)
    except OSError as error:
        return fail(f"cannot listen on {bind}:{port}: {error.strerror or error}")
    try:
        host = make_host(port)
    except OSError as error:
        await server.stop()
        return fail(f"cannot save to {path}: {error.strerror or error}")
    server.add(host)
    control = HostControl(host, [], server=server, saves=saves)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):  # before the lines: one may stop at once
        loop.add_signal_handler(signum, stop.set)
    lines = announce(host, bind, port, path, host.humans, tls is not None)
    control.invitation = lines[1:-1]
    for line in [*lines, TYPE_HELP]:
        out(line)

    def typed(line: str) -> None:
        for said in command(control, line):
            out(said)

    read_commands(sys.stdin if commands is None else commands, loop, typed)
    host.start()
    while True:  # until the end of the last game (a rematch starts another)
        host = control.host
        await until_done(host, stop)
        if stop.is_set() or control.host is host:
            break
    over = host.match.is_over()
    await server.stop(*closing_words(over))
    failed = host.referee.save_error
    if failed is not None:
        return fail(f"the last autosave failed: {failed.strerror or failed}")
    if not over:
        out(printable(f"Stopped. {resume_line(host.save_path or path, bind, port)}."))
    return 0


def closing_words(over: bool) -> tuple[str, str]:
    """What the players are told when the host closes the table, and why it ends."""
    return (CLOSED_AT_END, "over") if over else (CLOSED_MIDGAME, "closed")
