"""`karavan serve`: the lobby's WebSocket and the tables', over aiohttp, on one database.

A client opens ``/lobby``, proves its account with a :class:`~karavan_net.lobby.Login`
and asks for lists, new tables and seats (:class:`LobbyService` answers, in a
worker thread).  The same protections as a hosted table's hold: a stranger
that says nothing is closed by the doorman, frames are capped and each
connection's messages are rate-limited, and a login with a wrong key is
refused in words and slows only its own address.

The store is used from one worker thread for SQLite (one writer at a time, as
SQLite has it) and from a small pool for PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from karavan_core.saves import SaveError, checked_envelope, match_from_envelope
from karavan_core.text import printable
from karavan_core.version import __version__
from karavan_net import lobby as wire
from karavan_net.codec import ProtocolError
from karavan_net.guard import Bucket, Doorman, WrongCodes
from karavan_net.protocol import (
    HEARTBEAT,
    MAX_CLIENT_FRAME,
    PATH,
    PROTOCOL,
    Hello,
    Refused,
    decode_client,
    encode,
)
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.store import AccountInfo, KeyKind, Status, Store, StoreError, key_digest
from karavan_net.serve.tables import ServedTable
from karavan_net.server import (
    GRACE,
    HELLO_SECONDS,
    MAX_STRANGERS,
    MESSAGE_BURST,
    MESSAGE_RATE,
    STRANGERS_PER_ADDRESS,
    WRONG_CODE_BURST,
    WRONG_CODE_RATE,
    Connection,
    _Server,
    _too_big,
)

T = TypeVar("T")
ALIVE = "alive_at"  # the mark of when the server was last seen running
BEAT_SECONDS = 5.0  # how often it says so (and looks for turn-based tables out of time)
IDLE_SECONDS = 30.0  # how long a table nobody is at stays in memory


class KaravanServer:
    """A lobby of tables kept in ``store``.

    ``rate``, ``burst`` and ``hello_seconds`` bound each connection (tests
    change them); ``events`` (if given) hears a line for each happening worth
    printing (never a key).
    """

    def __init__(
        self,
        store: Store,
        *,
        heartbeat: float = HEARTBEAT,
        rate: float = MESSAGE_RATE,
        burst: float = MESSAGE_BURST,
        hello_seconds: float = HELLO_SECONDS,
        bot_delay: float = 0.6,
        events: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.lobby = LobbyService(store)
        self.heartbeat = heartbeat
        self.rate = rate
        self.burst = burst
        self.hello_seconds = hello_seconds
        self.events = events
        self.wrong_keys = WrongCodes(WRONG_CODE_RATE, WRONG_CODE_BURST)
        self.sessions: dict[int, set[Connection]] = {}  # account -> its lobby connections
        self.tables: dict[int, ServedTable] = {}  # the tables in memory, by number
        self.bot_delay = bot_delay
        self._loading: dict[int, asyncio.Future[ServedTable | None]] = {}
        self._beat: asyncio.Task[None] | None = None
        self.connections: set[Connection] = set()
        self.doorman: Doorman | None = None
        self.port = 0
        self._runner: web.ServerRunner | None = None
        one_writer = store.engine.dialect.name == "sqlite"
        self._db = ThreadPoolExecutor(max_workers=1 if one_writer else 4, thread_name_prefix="db")

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """Run ``call(*args)`` on the store's worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._db, call, *args)

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: any free port); returns the port."""
        self.doorman = Doorman(
            per_address=STRANGERS_PER_ADDRESS,
            total=MAX_STRANGERS,
            seconds=self.hello_seconds + GRACE,
            loop=asyncio.get_running_loop(),
        )
        self._runner = web.ServerRunner(_Server(self._handle, self.doorman), shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        addresses = self._runner.addresses
        self.port = addresses[0][1] if addresses else port
        await self._resume()
        self._beat = asyncio.get_running_loop().create_task(self._beating())
        return self.port

    async def _resume(self) -> None:
        """Give back the time the server was down, and bring back the tables whose live clocks
        run (turn-based ones come back when a player does, or when their time is up)."""
        alive = await self.db(self.store.read_mark, ALIVE)
        if alive is not None:
            gap = datetime.now(UTC) - datetime.fromisoformat(alive)
            if gap.total_seconds() > 0:
                moved = await self.db(self.store.shift_deadlines, gap)
                if moved:
                    self._say(f"{moved} clocks given back the {round(gap.total_seconds())} s down.")
        for record in await self.db(self.store.running):
            if record.clock.kind.value == "live":
                await self.table(record.id)

    async def _beating(self) -> None:
        """Say the server is alive, and wake the tables whose turn-based time is up."""
        while True:
            now = datetime.now(UTC)
            await self.db(self.store.mark, ALIVE, now.isoformat())
            for table_id in await self.db(self.store.due, now):
                if table_id not in self.tables:
                    await self.table(table_id)
            for table_id, table in list(self.tables.items()):
                if table.idle and table.quiet_for() > IDLE_SECONDS:
                    await self._unload(table_id)
            await asyncio.sleep(BEAT_SECONDS)

    async def stop(self) -> None:
        """Close every connection and table (the store keeps them) and stop listening."""
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
        for table_id in list(self.tables):  # the players' clients come back once it is up
            await self._unload(table_id)
        for connection in list(self.connections):
            await connection.finish()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.doorman is not None:
            self.doorman.close()
        self._db.shutdown(wait=True)

    def _say(self, line: str) -> None:
        if self.events is not None:
            self.events(printable(line))

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.path == wire.LOBBY_PATH and request.method == "GET":
            return await self._lobby_socket(request)
        if request.path == PATH and request.method == "GET":
            return await self._table_socket(request)
        if request.path == "/" and request.method in ("GET", "HEAD"):
            return web.Response(text="A Karavan server. Play on it from the app: Play online.\n")
        return web.Response(status=404, text="Not found.\n")

    # -- the lobby -----------------------------------------------------------------------------
    async def _lobby_socket(self, request: web.BaseRequest) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            heartbeat=self.heartbeat, max_msg_size=wire.MAX_LOBBY_FRAME + 1, autoping=True
        )
        await ws.prepare(request)
        connection = Connection(ws, request.remote or "?")
        self.connections.add(connection)
        account: AccountInfo | None = None
        try:
            account = await self._login(request, connection)
            if account is None:
                return ws
            self.sessions.setdefault(account.id, set()).add(connection)
            bucket = Bucket(self.rate, self.burst)
            async for message in ws:
                if message.type == WSMsgType.ERROR:
                    break
                if len(message.data) > wire.MAX_LOBBY_FRAME:
                    connection.close(code=WSCloseCode.MESSAGE_TOO_BIG)
                    break
                delay = bucket.delay()
                if delay > 0:  # this client is in a hurry: it waits, nobody else does
                    await asyncio.sleep(delay)
                connection.send(wire.SERVER.encode(await self._answer(account, message.data)))
        finally:
            if account is not None:
                self.sessions.get(account.id, set()).discard(connection)
            await connection.finish()
            self.connections.discard(connection)
        return ws

    async def _login(self, request: web.BaseRequest, connection: Connection) -> AccountInfo | None:
        """Read the client's Login and prove its account; ``None`` (closed) if refused."""
        doorman = self.doorman
        assert doorman is not None

        def refuse(reason: str) -> None:
            connection.close(wire.SERVER.encode(wire.LobbyRefused(reason)))

        try:
            wait = max(0.0, doorman.time_left(request.protocol) - GRACE)
            first = await asyncio.wait_for(connection.ws.receive(), wait)
        except TimeoutError:
            refuse("No login from this client: the server waits no longer.")
            return None
        if first.type != WSMsgType.TEXT or len(first.data) > wire.MAX_LOBBY_FRAME:
            connection.close()
            return None
        try:
            login = wire.CLIENT.decode(first.data)
        except ProtocolError as error:
            refuse(f"{error} The first message is a Login.")
            return None
        if not isinstance(login, wire.Login):
            refuse("The first message is a Login.")
            return None
        if login.protocol != PROTOCOL:
            refuse(
                f"The server speaks protocol {PROTOCOL} and this client {login.protocol}: "
                "use the same version of Karavan."
            )
            return None
        address = connection.address
        if not self.wrong_keys.may_try(address):
            wait = max(1, round(self.wrong_keys.wait(address)))
            refuse(f"Too many logins with unknown keys from your address: try again in {wait} s.")
            return None
        try:
            account = await self.db(self.lobby.login, login.name, login.secret, login.create)
        except StoreError as error:
            if not login.create:
                self.wrong_keys.wrong(address)
            refuse(str(error))
            return None
        doorman.welcome(request.protocol)
        self._say(f"{account.name} is in the lobby.")
        connection.send(wire.SERVER.encode(wire.LoggedIn(account.name, __version__)))
        return account

    async def _answer(self, account: AccountInfo, text: str | bytes) -> wire.LobbyServerMessage:
        """The answer to one lobby request of ``account``."""
        try:
            request = wire.CLIENT.decode(text)
        except ProtocolError as error:
            return wire.LobbyDeclined(str(error))
        try:
            if isinstance(request, wire.ListTables):
                return await self.db(self.lobby.lobby, account, request.game)
            if isinstance(request, wire.MyTables):
                return await self.db(self.lobby.mine, account, request.over)
            if isinstance(request, wire.Leaderboard):
                return await self.db(self.lobby.board, request.game)
            if isinstance(request, wire.CreateTable):
                table = await self.db(self.lobby.create, account, request)
                self._say(f"{account.name} opened table {table.id} ({table.game}).")
                return self._seated(table, account)
            if isinstance(request, wire.TakeSeat):
                table = await self.db(self.lobby.take, account, request.table, request.seat)
                return self._seated(table, account)
        except StoreError as error:
            return wire.LobbyDeclined(str(error))
        return wire.LobbyDeclined("You are logged in already.")

    @staticmethod
    def _seated(table: Any, account: AccountInfo) -> wire.Seated:
        seat = table.seat_of(account.id)
        assert seat is not None
        return wire.Seated(table.id, seat, table.status.value == "playing")

    # -- the tables ----------------------------------------------------------------------------
    async def table(self, table_id: int) -> ServedTable | None:
        """Table ``table_id`` in memory, loaded from the store (and verified) if need be;
        ``None`` if there is no such table being played."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is not None:
            return await loading
        future: asyncio.Future[ServedTable | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
            if table is not None:
                self.tables[table_id] = table
                table.arm_clock()
                table.kick_bots()
            future.set_result(table)
            return table
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: int) -> ServedTable | None:
        record = await self.db(self.store.table, table_id)
        if record is None or record.status is Status.OPEN or record.save is None:
            return None
        where = f"table {table_id}"
        try:
            save = checked_envelope(record.save, where)
            match = await asyncio.to_thread(match_from_envelope, save, where, record.game)
        except SaveError as error:
            self._say(f"Table {table_id} cannot be played: {error}")
            return None
        return ServedTable(self.store, record, match, bot_delay=self.bot_delay, events=self.events)

    async def _unload(self, table_id: int, reason: str | None = None) -> None:
        table = self.tables.pop(table_id, None)
        if table is not None:
            await table.close(reason)

    async def _table_socket(self, request: web.BaseRequest) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            heartbeat=self.heartbeat, max_msg_size=MAX_CLIENT_FRAME + 1, autoping=True
        )
        await ws.prepare(request)
        connection = Connection(ws, request.remote or "?")
        self.connections.add(connection)
        table: ServedTable | None = None
        try:
            table = await self._sit(request, connection)
            if table is None:
                return ws
            bucket = Bucket(self.rate, self.burst)
            async for message in ws:
                if message.type == WSMsgType.ERROR:
                    break
                if _too_big(message.data):
                    connection.close(code=WSCloseCode.MESSAGE_TOO_BIG)
                    break
                delay = bucket.delay()
                if delay > 0:
                    await asyncio.sleep(delay)
                if connection.seat is None:
                    table.decline(connection, "You are watching this table: watchers do not play.")
                elif message.type == WSMsgType.TEXT:
                    table.receive(connection, message.data)
                else:
                    table.decline(connection, "Frames are JSON text, not binary data.")
        finally:
            if table is not None:
                table.left(connection)
            await connection.finish()
            self.connections.discard(connection)
        return ws

    async def _sit(self, request: web.BaseRequest, connection: Connection) -> ServedTable | None:
        """Read the client's Hello, prove its account and seat it (or let it watch); ``None``
        (the connection refused and closed) if it may not."""
        doorman = self.doorman
        assert doorman is not None

        def refuse(reason: str) -> None:
            connection.close(encode(Refused(reason)))

        try:
            wait = max(0.0, doorman.time_left(request.protocol) - GRACE)
            first = await asyncio.wait_for(connection.ws.receive(), wait)
        except TimeoutError:
            refuse("No hello from this client: the table waits no longer.")
            return None
        if first.type != WSMsgType.TEXT or _too_big(first.data):
            connection.close()
            return None
        try:
            hello = decode_client(first.data)
        except ProtocolError as error:
            refuse(f"{error} The first message is a Hello.")
            return None
        if not isinstance(hello, Hello) or hello.protocol != PROTOCOL:
            refuse("The first message is a Hello, in this server's protocol.")
            return None
        account = await self.db(
            self.store.account_by_key, KeyKind.SECRET, key_digest(hello.secret or "")
        )
        if account is None:
            refuse("No account here is proven by this key: log in from the lobby first.")
            return None
        table_id = int(hello.code) if hello.code.isdigit() and len(hello.code) < 12 else -1
        table = await self.table(table_id)
        if table is None:
            refuse("There is no such table being played here.")
            return None
        doorman.welcome(request.protocol)
        if hello.watch:
            table.watch(connection)
        elif not table.admit_account(connection, account.id, hello.secret or ""):
            refuse("You have no seat at this table: watch it instead.")
            return None
        return table
