"""A real table server on loopback, in the test's own event loop or in a thread."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp

from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.host import Host, host_for
from karavan_net.protocol import (
    MINOR,
    PROTOCOL,
    Chat,
    Hello,
    Update,
    Welcome,
    decode_host,
    encode,
    table_url,
)
from karavan_net.server import HostServer, ServerThread

CODE = "test-table-code"


def new_match(game: str, seats: str, seed: int = 11, first: int | None = 0) -> Match:
    """A fresh ``game`` match for ``seats`` ("Ann,Bob,bot:random")."""
    parsed = [Seat.parse(text, i) for i, text in enumerate(seats.split(","))]
    options = {} if first is None else {"first_player": first}
    return Match(get_game(game), parsed, seed, options)


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.asynccontextmanager
async def hosting(
    match: Match,
    *,
    save_path: Path | None = None,
    port: int = 0,
    heartbeat: float = 5.0,
    events: list[str] | None = None,
    bot_delay: float = 0.0,
    **limits: Any,
) -> AsyncIterator[tuple[Host, HostServer]]:
    """A table for ``match`` served on loopback in this event loop.

    ``limits`` are :class:`HostServer`'s (``rate``, ``burst``, ``hello_seconds``).
    """
    said = None if events is None else events.append
    table = host_for(match, CODE, save_path=save_path, bot_delay=bot_delay, events=said)
    server = HostServer([table], heartbeat=heartbeat, events=said, **limits)
    await server.start("127.0.0.1", port)
    try:
        yield table, server
    finally:
        await server.stop()


class Raw:
    """A hand-driven WebSocket client: it sends whatever it is told to."""

    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse):
        self.session, self.ws = session, ws
        self.update: Update | None = None
        self.secret: str | None = None
        self.chats: list[Chat] = []  # the table's chat, kept apart from the other messages

    @classmethod
    async def hello(
        cls,
        port: int,
        name: str,
        code: str = CODE,
        protocol: int = PROTOCOL,
        secret=None,
        source: str = "127.0.0.1",
        visitor: str | None = None,
        minor: int = MINOR,
    ):
        """Connect from ``source`` (an address of this machine) and say Hello (of protocol
        revision ``minor``, as ``visitor`` behind a web server if given)."""
        connector = aiohttp.TCPConnector(local_addr=(source, 0))
        session = aiohttp.ClientSession(connector=connector)
        ws = await session.ws_connect(table_url("127.0.0.1", port))
        raw = cls(session, ws)
        hello = Hello(protocol, code, name, secret, minor=minor, visitor=visitor)
        await ws.send_str(encode(hello, minor))
        return raw

    async def next(self):
        """The next message that is not the table's chat (kept in ``chats``)."""
        frame = await asyncio.wait_for(self.ws.receive(), 5)
        if frame.type != aiohttp.WSMsgType.TEXT:
            return frame
        message = decode_host(frame.data)
        if isinstance(message, Chat):
            self.chats.append(message)
            return await self.next()
        if isinstance(message, Update):
            self.update = message
        if isinstance(message, Welcome):
            self.secret = message.secret
        return message

    async def answer(self, text: str | bytes):
        """Send ``text`` and return the first message that is not an update of others' doings."""
        if isinstance(text, bytes):
            await self.ws.send_bytes(text)
        else:
            await self.ws.send_str(text)
        return await self.next()

    async def close(self):
        await self.ws.close()
        await self.session.close()


class Heard:
    """A listener that keeps what it hears."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.declines: list[str] = []
        self.connections: list[bool] = []
        self.closings: list[str] = []

    def table_updated(self, update: Update) -> None:
        self.updates.append(update)

    def declined(self, reason: str) -> None:
        self.declines.append(reason)

    def connection_changed(self, connected: bool) -> None:
        self.connections.append(connected)

    def closed(self, reason: str) -> None:
        self.closings.append(reason)


class Seated(TableClient):
    """A client whose frames are read (and kept) in the background once it has joined."""

    heard: Heard
    reader: asyncio.Task[None]


async def joined(port: int, name: str, retry_for: float | None = 20.0) -> Seated:
    """A client seated as ``name``, reading the table in the background."""
    client = Seated("127.0.0.1", port, CODE, name, retry_for=retry_for)
    await client.join()
    client.heard = Heard()
    client.reader = asyncio.get_running_loop().create_task(client.run(client.heard))
    return client


async def bot(
    port: int,
    name: str,
    seed: int = 1,
    on_update: Callable[[Update], None] | None = None,
    retry_for: float | None = 20.0,
) -> BotPlayer:
    """A headless random bot seated as ``name``."""
    client = TableClient("127.0.0.1", port, CODE, name, retry_for=retry_for)
    await client.join()
    return BotPlayer(client, "random", seed=seed, out=lambda line: None, on_update=on_update)


async def until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait (on the loop) until ``condition()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        if loop.time() > end:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.01)


@contextlib.contextmanager
def hosting_in_thread(match: Match, code: str = CODE, port: int = 0):
    """A table served from a thread (for tests that run the command line in this one);
    on ``port`` where one is given (a snapshot shows it), else on any free one."""
    table = host_for(match, code, bot_delay=0.0)
    thread = ServerThread(HostServer([table]), "127.0.0.1", port)
    port = thread.start()
    try:
        yield table, port
    finally:
        thread.stop()
