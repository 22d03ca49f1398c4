"""The host's server: WebSockets over aiohttp, one or many tables, each behind its code.

A client connects to ``ws://HOST:PORT/table`` and sends :class:`Hello` within
:data:`HELLO_SECONDS` of connecting; the code picks the table, the table
seats it or refuses it.  Until then the connection is a stranger at the
:class:`~karavan_net.guard.Doorman`, which also closes raw TCP and trickled
HTTP that never get that far.  Wrong codes are counted per visitor, per
address and at the table, and past a few their answers wait
(:class:`~karavan_net.guard.WrongCodes`); the right code, or a seat's
secret, gets in at once from anywhere.

Frames from clients are at most :data:`~karavan_net.protocol.MAX_CLIENT_FRAME`
bytes (a larger one closes the connection with WebSocket code 1009) and are
handled at most :data:`MESSAGE_RATE` a second per connection (the excess
waits, unread); WebSocket pings find dropped connections.  Each connection
writes its own frames, so a slow client never holds up the others, and its
seat's view waits there as one entry built when it goes (see
:meth:`Connection.refresh`), so no burst at the table fills anyone's queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from karavan_core.text import printable
from karavan_net.codec import ProtocolError
from karavan_net.guard import Allowance, Bucket, Doorman, WrongCodes, is_loopback
from karavan_net.host import Host
from karavan_net.identity import ServerIdentity, fits
from karavan_net.protocol import (
    HEARTBEAT,
    MAX_CLIENT_FRAME,
    PATH,
    Challenge,
    Hello,
    Proof,
    Refused,
    decode_client,
    encode,
)
from karavan_net.storage import digest

T = TypeVar("T")
M = TypeVar("M")

HELLO_SECONDS = 5.0
"""Seconds from connecting to saying Hello; the connection is closed after them."""
GRACE = 1.0  # the doorman's own deadline comes this much later: the refusal goes out first
MAX_STRANGERS = 256  # connections not yet seated, from everywhere
MESSAGE_RATE = 20.0
"""Messages a second one connection may send on average (more wait)..."""
MESSAGE_BURST = 40  # ... and at once
WRONG_CODES_VISITOR = Allowance(rate=0.5, burst=5)
"""Wrong codes one visitor may try (an address, or one browser behind a web server)."""
WRONG_CODES_ADDRESS = Allowance(rate=2.0, burst=20)
"""Wrong codes all the visitors of one address may try (a web server has many)."""
WRONG_CODES_TABLE = Allowance(rate=5.0, burst=50)
"""Wrong codes the whole host answers, from every address together."""
LONGEST_WAIT = 4.0  # the most seconds the answer to a wrong code waits (within the Hello's time)
MAX_VISITOR = 64  # the longest visitor name a Hello may carry
MAX_QUEUED = 256  # frames waiting for one client: past this it is too slow and is dropped


class _Refresh:
    """The place of a seat's view in a connection's queue (built when it goes)."""


_REFRESH = _Refresh()


class Connection:
    """One client's WebSocket, with the frames waiting for it, written in order by its own task.

    ``most_waiting`` is the longest its queue has been (the tests and the
    benchmark read it).  ``answered`` (if given) hears the seconds from a frame
    being read (:meth:`heard`) to the next update sent back, when the first
    frame sent after it is one.
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        address: str = "?",
        answered: Callable[[float], None] | None = None,
    ) -> None:
        self.ws = ws
        self.address = address
        self.answered = answered
        self._heard: float | None = None  # when the frame not yet answered was read
        self.seat: int | None = None
        self.minor = 0  # the protocol revision the client speaks, from its Hello
        self.most_waiting = 0
        self._waiting: deque[str | _Refresh | None] = deque()
        self._fresh: Callable[[], str | None] | None = None
        self._wake = asyncio.Event()
        self._closing = False
        self._code: int = WSCloseCode.OK
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, text: str) -> None:
        """Queue ``text`` for the client (dropping a client that cannot keep up)."""
        if self._closing:
            return
        if len(self._waiting) >= MAX_QUEUED:
            self.close()
            return
        self._put(text)

    def refresh(self, frame: Callable[[], str | None]) -> None:
        """Send the frame ``frame()`` builds once the frames before it have gone.

        One refresh waits at most: a newer one takes the place of one not yet
        sent, so the client gets the newest view and never a backlog of them.
        ``frame()`` may say ``None``: nothing to send after all.
        """
        if self._closing:
            return
        if self._fresh is None:
            self._put(_REFRESH)
        self._fresh = frame

    def heard(self) -> None:
        """A frame from the client is handled now (see ``answered``)."""
        if self._heard is None:
            self._heard = time.monotonic()

    def close(self, text: str | None = None, *, code: int = WSCloseCode.OK) -> None:
        """Send ``text`` if given, then close (with WebSocket close ``code``)."""
        if self._closing:
            return
        if text is not None:
            self._put(text)
        self._closing = True
        self._code = code
        self._put(None)

    def _put(self, item: str | _Refresh | None) -> None:
        self._waiting.append(item)
        self.most_waiting = max(self.most_waiting, len(self._waiting))
        self._wake.set()

    async def _write(self) -> None:
        try:
            while True:
                while not self._waiting:
                    self._wake.clear()
                    await self._wake.wait()
                item = self._waiting.popleft()
                if item is None:
                    break
                if isinstance(item, _Refresh):
                    frame, self._fresh = self._fresh, None
                    text = None if frame is None else frame()
                    if text is None:
                        continue
                else:
                    text = item
                await self.ws.send_str(text)
                if self._heard is not None:
                    if self.answered is not None and isinstance(item, _Refresh):
                        self.answered(time.monotonic() - self._heard)
                    self._heard = None
        except (ConnectionError, RuntimeError):
            pass  # the client went away: the reading side notices
        finally:
            with contextlib.suppress(Exception):
                await self.ws.close(code=self._code)

    async def finish(self) -> None:
        """Close (if not yet) and wait until the last frame has gone."""
        self.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._writer), 2.0)
        if not self._writer.done():
            self._writer.cancel()


def _too_big(data: str | bytes) -> bool:
    """Whether a frame holds more than :data:`MAX_CLIENT_FRAME` bytes (UTF-8 for text)."""
    if len(data) > MAX_CLIENT_FRAME:
        return True
    if isinstance(data, bytes) or 4 * len(data) <= MAX_CLIENT_FRAME:
        return False
    return len(data.encode("utf-8", "surrogatepass")) > MAX_CLIENT_FRAME


class _Server(web.Server):
    """aiohttp's low-level server, telling the doorman of each connection made and lost."""

    def __init__(
        self, handler: Callable[[web.BaseRequest], Awaitable[web.StreamResponse]], doorman: Doorman
    ) -> None:
        super().__init__(handler, access_log=None)
        self.doorman = doorman

    def connection_made(self, handler: web.RequestHandler, transport: asyncio.Transport) -> None:
        """A connection: a stranger until it says Hello."""
        super().connection_made(handler, transport)
        self.doorman.arrived(handler, transport)

    def connection_lost(
        self, handler: web.RequestHandler, exc: BaseException | None = None
    ) -> None:
        """A connection is gone."""
        super().connection_lost(handler, exc)
        self.doorman.left(handler)


class _Site(web.TCPSite):
    """aiohttp's TCP site, where a TLS handshake has only the time to say Hello.

    A connection in its handshake is not yet the doorman's (aiohttp hears of it once the
    handshake is done), so it is bounded here rather than by asyncio's default of 60 s.
    """

    handshake_seconds = HELLO_SECONDS

    async def start(self) -> None:
        """Listen (as :meth:`web.TCPSite.start` does, the handshake's time bounded)."""
        if self._ssl_context is None:
            await super().start()
            return
        await web.BaseSite.start(self)
        server = self._runner.server
        assert server is not None
        self._server = await asyncio.get_running_loop().create_server(
            server,
            self._host,
            self._port,
            ssl=self._ssl_context,
            backlog=self._backlog,
            ssl_handshake_timeout=self.handshake_seconds,
        )
        sockets = self._server.sockets
        self._bound_port = sockets[0].getsockname()[1] if sockets else self._port


class HostServer:
    """Serves :class:`Host` objects by their code.

    ``rate`` and ``burst`` bound each connection's messages and
    ``hello_seconds`` the time to say Hello (tests change them); ``events``
    (if given) hears a line for each wrong code tried; with ``tls`` (a server's
    context) it serves ``wss://`` only.  ``behind_proxy``: the connections that come
    from this machine are a reverse proxy's, and the client's address is the one it
    forwards (``X-Forwarded-For``); otherwise every client is the address it comes from.
    """

    def __init__(
        self,
        tables: Iterable[Host] = (),
        *,
        heartbeat: float = HEARTBEAT,
        rate: float = MESSAGE_RATE,
        burst: float = MESSAGE_BURST,
        hello_seconds: float = HELLO_SECONDS,
        events: Callable[[str], None] | None = None,
        tls: ssl.SSLContext | None = None,
        behind_proxy: bool = False,
    ) -> None:
        self.tables: dict[str, Host] = {}
        self.tls = tls  # speak TLS (wss://) with this context
        self.behind_proxy = behind_proxy
        self.heartbeat = heartbeat
        self.rate = rate
        self.burst = burst
        self.hello_seconds = hello_seconds
        self.events = events
        # Hears the seconds each table connection waited for the answer to a frame.
        self.answered: Callable[[float], None] | None = None
        self.connections: set[Connection] = set()
        self.wrong_codes = WrongCodes(
            WRONG_CODES_VISITOR, WRONG_CODES_ADDRESS, WRONG_CODES_TABLE, longest=LONGEST_WAIT
        )
        self.doorman: Doorman | None = None
        self.identity: ServerIdentity | None = None  # a server's, proven to its clients
        self.address: str | None = None  # where the clients reach this process
        self._runner: web.ServerRunner | None = None
        self.port = 0
        for table in tables:
            self.add(table)

    def add(self, table: Host) -> None:
        """Serve ``table`` under its code."""
        self.tables[table.code] = table

    def client_address(self, request: web.BaseRequest) -> str:
        """The address ``request``'s client comes from, as the limits count it."""
        remote = request.remote or "?"
        if self.behind_proxy and is_loopback(remote):  # only this machine's proxy is believed
            told = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
            return told or remote
        return remote

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: any free port); returns the port."""
        self.doorman = Doorman(
            total=MAX_STRANGERS,
            seconds=self.hello_seconds + GRACE,
            loop=asyncio.get_running_loop(),
        )
        self._runner = web.ServerRunner(_Server(self._handle, self.doorman), shutdown_timeout=1.0)
        await self._runner.setup()
        site = _Site(self._runner, host, port, ssl_context=self.tls)
        site.handshake_seconds = self.hello_seconds
        await site.start()
        addresses = self._runner.addresses
        self.port = addresses[0][1] if addresses else port
        return self.port

    async def listen_locally(self) -> int:
        """Listen on loopback too, without TLS, for this machine's own clients (the ssh door's
        apps reach a TLS server's lobby there: a certificate names the server's public name,
        not 127.0.0.1); the port.  Everything else holds as on the public port."""
        assert self._runner is not None
        before = set(map(tuple, self._runner.addresses))
        await _Site(self._runner, "127.0.0.1", 0).start()
        added = [a for a in self._runner.addresses if tuple(a) not in before]
        return int(added[0][1])

    async def stop(self, reason: str | None = None, why: str = "closed") -> None:
        """Close every table (telling the clients ``reason`` if given, and ``why``) and stop
        listening."""
        for table in self.tables.values():
            await table.close(reason, why)
        for connection in list(self.connections):
            await connection.finish()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.doorman is not None:
            self.doorman.close()

    def _say(self, line: str) -> None:
        if self.events is not None:
            self.events(printable(line))

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.path == PATH and request.method == "GET":
            return await self._socket(request)
        if request.path == "/" and request.method in ("GET", "HEAD"):
            return web.Response(
                text="A Karavan table. Join it with: karavan join HOST:PORT CODE --name NAME\n"
            )
        return web.Response(status=404, text="Not found.\n")

    async def _socket(self, request: web.BaseRequest) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            # aiohttp refuses a frame of max_msg_size bytes in some versions and not in others:
            # one byte more lets every frame of up to MAX_CLIENT_FRAME through to _too_big.
            heartbeat=self.heartbeat,
            max_msg_size=MAX_CLIENT_FRAME + 1,
            autoping=True,
        )
        assert self.doorman is not None
        self.doorman.knocked(request.protocol)
        await ws.prepare(request)
        connection = Connection(ws, self.client_address(request), self.answered)
        self.connections.add(connection)
        table: Host | None = None
        try:
            table = await self._handshake(request, connection)
            if table is None:
                return ws
            bucket = Bucket(self.rate, self.burst)
            async for message in ws:
                if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    if _too_big(message.data):
                        connection.close(code=WSCloseCode.MESSAGE_TOO_BIG)
                        break
                    delay = bucket.delay()
                    if delay > 0:  # this client is in a hurry: it waits, nobody else does
                        await asyncio.sleep(delay)
                if message.type == WSMsgType.TEXT:
                    connection.heard()
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

    async def _handshake(self, request: web.BaseRequest, connection: Connection) -> Host | None:
        """Read the client's Hello and seat it at its table; ``None`` if it was refused."""
        doorman = self.doorman
        assert doorman is not None

        def refuse(reason: str) -> None:
            connection.close(encode(Refused(reason)))

        words = ("No hello from this client: the table waits no longer.", "a Hello")
        first = await self.first_message(request, connection, decode_client, refuse, words)
        if isinstance(first, Challenge):
            proof = self.proof(first)
            if proof is None:
                refuse("This table has no server identity to prove.")
                return None
            connection.send(encode(proof))
            first = await self.first_message(request, connection, decode_client, refuse, words)
        if first is None:
            return None
        if not isinstance(first, Hello):
            refuse("The first message is a Hello.")
            return None
        table = await self.seat(first, connection, doorman.time_left(request.protocol) - GRACE)
        if table is None:
            return None
        doorman.welcome(request.protocol)
        return table

    async def first_message(
        self,
        request: web.BaseRequest,
        connection: Connection,
        decode: Callable[[str | bytes], M],
        refuse: Callable[[str], None],
        words: tuple[str, str],
    ) -> M | None:
        """The next message of a client not yet seated, read with ``decode`` within the time
        it has left; ``None`` once it is refused (``refuse``) or closed.  ``words``: what it
        is told when its time is up, and what its first message is ("a Hello")."""
        doorman = self.doorman
        assert doorman is not None
        try:
            wait = max(0.0, doorman.time_left(request.protocol) - GRACE)
            first = await asyncio.wait_for(connection.ws.receive(), wait)
        except TimeoutError:
            refuse(words[0])
            return None
        if first.type not in (WSMsgType.TEXT, WSMsgType.BINARY) or _too_big(first.data):
            connection.close()
            return None
        try:
            return decode(first.data)
        except ProtocolError as error:
            refuse(f"{error} The first message is {words[1]}.")
            return None

    def proof(self, challenge: Challenge) -> Proof | None:
        """The proof of the server's identity that ``challenge`` asks for; ``None`` where
        there is no identity (a table hosted on its own) or the challenge is unfit."""
        identity = self.identity
        if identity is None or not fits(challenge):
            return None
        return identity.prove(challenge, self.address or "", self.processes())

    def processes(self) -> tuple[str, ...]:
        """The addresses of the server's processes, this one's first."""
        return () if self.address is None else (self.address,)

    async def seat(self, hello: Hello, connection: Connection, most: float) -> Host | None:
        """The table ``hello`` names, with ``connection`` seated there (or watching); ``None``
        if it is refused (and closed).  ``most``: the seconds left to answer."""
        table = self.tables.get(hello.code)
        if table is None:
            await self._wrong_code(hello, connection, most)
            return None
        return table if table.join(connection, hello) else None

    async def _wrong_code(self, hello: Hello, connection: Connection, most: float) -> None:
        """Refuse ``hello``'s wrong code, once the allowances it is counted against allow.

        The right code never comes here: a guesser's address and visitor are
        slowed, never a player who knows the code, whatever address they share.
        """
        digest(hello.secret or "")  # the work a table would do: the time tells nothing
        guess = ("join with a wrong table code", "wrong table codes")
        await self.slow_the_guesser(connection.address, hello.visitor, most, guess)
        connection.close(encode(Refused("Wrong table code: there is no such table here.")))

    async def slow_the_guesser(
        self, address: str, visitor: str | None, most: float, guess: tuple[str, str]
    ) -> None:
        """Count a wrong guess from ``address`` (and a web ``visitor``), and wait as long as
        the allowances say (at most ``most`` seconds) before it is answered.  ``guess`` says
        it for the console: one, then many ("join with a wrong table code", "wrong table
        codes")."""
        visitor = visitor[:MAX_VISITOR] if visitor else None
        slowed = self.wrong_codes.slowed(address, visitor)
        wait = self.wrong_codes.wrong(address, visitor)
        who = address if visitor is None else f"{address} (web visitor {visitor[:8]})"
        if not slowed:
            self._say(f"A {guess[0]} from {who}.")
            if wait > 0 or self.wrong_codes.slowed(address, visitor):
                self._say(f"Too many {guess[1]} from {who}: their answers wait.")
        if wait > 0:
            await asyncio.sleep(max(0.0, min(wait, most)))


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

    async def ask(self, function: Callable[[], T]) -> T:
        """``function()`` run on the server's loop, awaited from another loop (its error too)."""

        async def run() -> T:
            return function()

        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(run(), self.loop))

    def stop(self, reason: str | None = None, why: str = "closed") -> None:
        """Close the tables (telling the clients ``reason`` if given, and ``why``) and end
        the thread."""
        if not self.thread.is_alive():
            return

        async def finish() -> None:
            try:
                await self.server.stop(reason, why)
            finally:
                assert self._stopped is not None
                self._stopped.set()

        future = asyncio.run_coroutine_threadsafe(finish(), self.loop)
        with contextlib.suppress(Exception):
            future.result(timeout=10)
        self.thread.join(timeout=10)
