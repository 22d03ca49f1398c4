"""The host's server: WebSockets over aiohttp, one or many tables, each behind its code.

A client connects to ``ws://HOST:PORT/table`` and sends :class:`Hello` first
(within :data:`HANDSHAKE_SECONDS`); the code picks the table, the table seats
it or refuses it.  Frames from clients are at most
:data:`~karavan_net.protocol.MAX_CLIENT_FRAME` bytes (a larger one closes
the connection with WebSocket code 1009), WebSocket pings find dropped
connections, and each connection has its own bounded queue of frames to send
so that a slow client never holds up the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterable

from aiohttp import WSMsgType, web

from karavan_net.host import Host
from karavan_net.protocol import (
    HEARTBEAT,
    MAX_CLIENT_FRAME,
    PATH,
    Hello,
    ProtocolError,
    Refused,
    decode_client,
    encode,
)

HANDSHAKE_SECONDS = 10.0
MAX_QUEUED = 256  # frames waiting for one client: past this it is too slow and is dropped
MAX_CONNECTIONS = 256


class Connection:
    """One client's WebSocket, with a queue of frames written in order by its own task."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.seat: int | None = None
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._closing = False
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        """Queue ``text`` for the client (dropping a client that cannot keep up)."""
        if self._closing:
            return
        if self._queue.qsize() >= MAX_QUEUED:
            self.close()
            return
        self._queue.put_nowait(text)

    def close(self, text: str | None = None) -> None:
        """Send ``text`` if given, then close."""
        if self._closing:
            return
        if text is not None:
            self._queue.put_nowait(text)
        self._closing = True
        self._queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self.ws.send_str(text)
        except (ConnectionError, RuntimeError):
            pass  # the client went away: the reading side notices
        finally:
            with contextlib.suppress(Exception):
                await self.ws.close()

    async def finish(self) -> None:
        """Close (if not yet) and wait until the last frame has gone."""
        self.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._writer), 2.0)
        if not self._writer.done():
            self._writer.cancel()


class HostServer:
    """Serves :class:`Host` objects by their code."""

    def __init__(self, tables: Iterable[Host] = (), *, heartbeat: float = HEARTBEAT) -> None:
        self.tables: dict[str, Host] = {}
        self.heartbeat = heartbeat
        self.connections: set[Connection] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0
        for table in tables:
            self.add(table)

    def add(self, table: Host) -> None:
        """Serve ``table`` under its code."""
        self.tables[table.code] = table

    def application(self) -> web.Application:
        """The aiohttp application: the table socket, and a page that says what this is."""
        app = web.Application(client_max_size=MAX_CLIENT_FRAME)
        app.router.add_get(PATH, self._socket)
        app.router.add_get("/", self._index)
        return app

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: any free port); returns the port."""
        self._runner = web.AppRunner(
            self.application(), handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server  # aiohttp keeps the listening sockets there
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        return self.port

    async def stop(self, reason: str | None = None) -> None:
        """Close every table (telling the clients ``reason`` if given) and stop listening."""
        for table in self.tables.values():
            await table.close(reason)
        for connection in list(self.connections):
            await connection.finish()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(
            text="A Karavan table. Join it with: karavan join HOST:PORT CODE --name NAME\n"
        )

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            heartbeat=self.heartbeat, max_msg_size=MAX_CLIENT_FRAME, autoping=True
        )
        if len(self.connections) >= MAX_CONNECTIONS:
            return web.Response(status=503, text="Too many connections.\n")
        await ws.prepare(request)
        connection = Connection(ws)
        self.connections.add(connection)
        table: Host | None = None
        try:
            table = await self._handshake(ws, connection)
            if table is None:
                return ws
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    table.receive(connection, message.data)
                elif message.type == WSMsgType.BINARY:
                    table.decline(connection, "Frames are JSON text, not binary data.")
                elif message.type == WSMsgType.ERROR:
                    break
        finally:
            if table is not None:
                table.left(connection)
            await connection.finish()
            self.connections.discard(connection)
        return ws

    async def _handshake(self, ws: web.WebSocketResponse, connection: Connection) -> Host | None:
        """Read the client's Hello and seat it at its table; ``None`` if it was refused."""
        try:
            first = await asyncio.wait_for(ws.receive(), HANDSHAKE_SECONDS)
        except TimeoutError:
            connection.close(
                encode(Refused("No hello from this client: the table waits no longer."))
            )
            return None
        if first.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
            connection.close()
            return None
        try:
            hello = decode_client(first.data)
        except ProtocolError as error:
            connection.close(encode(Refused(f"{error} The first message is a Hello.")))
            return None
        if not isinstance(hello, Hello):
            connection.close(encode(Refused("The first message is a Hello.")))
            return None
        table = self.tables.get(hello.code)
        if table is None:
            connection.close(encode(Refused("Wrong table code: there is no such table here.")))
            return None
        if not table.join(connection, hello):
            return None
        return table


class ServerThread:
    """A :class:`HostServer` running on its own event loop in a thread of its own.

    The host's terminal runs the app on the main thread and its table here,
    so that drawing never holds up the table.
    """

    def __init__(self, server: HostServer, host: str, port: int) -> None:
        self.server = server
        self.host = host
        self.port = port
        self.loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stopped: asyncio.Event | None = None
        self.thread = threading.Thread(target=self._run, name="karavan-host", daemon=True)

    def start(self) -> int:
        """Start serving; returns the port.  ``OSError`` if it cannot listen."""
        self.thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error
        return self.port

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._main())
        self.loop.close()

    async def _main(self) -> None:
        self._stopped = asyncio.Event()
        try:
            self.port = await self.server.start(self.host, self.port)
        except BaseException as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        await self._stopped.wait()

    def call(self, function: object) -> None:
        """Run ``function()`` on the server's loop."""
        assert callable(function)
        self.loop.call_soon_threadsafe(function)

    def stop(self, reason: str | None = None) -> None:
        """Close the tables (telling the clients ``reason`` if given) and end the thread."""
        if not self.thread.is_alive():
            return

        async def finish() -> None:
            try:
                await self.server.stop(reason)
            finally:
                assert self._stopped is not None
                self._stopped.set()

        future = asyncio.run_coroutine_threadsafe(finish(), self.loop)
        with contextlib.suppress(Exception):
            future.result(timeout=10)
        self.thread.join(timeout=10)
