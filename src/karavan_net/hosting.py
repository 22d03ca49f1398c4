"""Running a host: the lines that invite the players, and a headless host until the end.

``karavan host --headless`` serves its table here and prints what happens;
the host with its own terminal (in the app) uses :func:`announce` too.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Sequence
from pathlib import Path

from karavan_core.text import printable
from karavan_net.host import Host
from karavan_net.server import HostServer

HOST_LINGER = 30.0  # seconds a headless host stays after the end, for players to read it
CLOSED_AT_END = "The game is over: the host has closed the table."


def invitation(table_code: str, bind: str, port: int, names: Sequence[str]) -> list[str]:
    """The lines that tell the players how to join."""
    shown = bind if bind not in ("0.0.0.0", "::", "") else "THIS-MACHINE"
    if ":" in shown:
        shown = f"[{shown}]"
    lines = ["Each player joins from their own terminal with:"]
    lines += [f"  karavan join {shown}:{port} {table_code} --name {name}" for name in names]
    return lines


def announce(host: Host, bind: str, port: int, path: Path, remote: Sequence[int]) -> list[str]:
    """What a host prints when it starts: the table, how ``remote`` seats join, the save."""
    match = host.match
    seats = ", ".join(seat.name for seat in match.seats)
    lines = [f"Hosting {match.game.title} for {seats} at {bind}:{port} (table code {host.code})."]
    names = [match.seats[i].name for i in remote]
    if names:
        lines += invitation(host.code, bind, port, names)
    lines.append(f"Saving to {path} (karavan host --resume {path} reopens the table).")
    return [printable(line) for line in lines]


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
    host: Host,
    bind: str,
    port: int,
    path: Path,
    fail: Callable[[str], int],
    out: Callable[[str], None],
) -> int:
    """Serve ``host`` until the game is over or a signal stops it; the exit status."""
    server = HostServer([host], events=host.events)
    try:
        port = await server.start(bind, port)
    except OSError as error:
        return fail(f"cannot listen on {bind}:{port}: {error.strerror or error}")
    for line in announce(host, bind, port, path, host.humans):
        out(line)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    host.kick_bots()
    await until_done(host, stop)
    over = host.match.is_over()
    await server.stop(CLOSED_AT_END if over else None)
    failed = host.referee.save_error
    if failed is not None:
        return fail(f"the last autosave failed: {failed.strerror or failed}")
    if not over:
        out(printable(f"Stopped. karavan host --resume {path} reopens the table."))
    return 0
