"""`karavan serve`: the lobby's WebSocket and the tables', over aiohttp, on one database.

A :class:`KaravanServer` is the hosted tables' server (:class:`~karavan_net.server.HostServer`:
the doorman for strangers, capped frames, each connection's messages rate-limited)
with a lobby beside the tables.  A client opens ``/lobby``, proves its account
with a :class:`~karavan_net.lobby.Login` and asks for lists, new tables and seats
(:class:`LobbyService` answers, in a worker thread).  A table is played over
``/table`` as any hosted table is, its Hello naming the table by number and
proving the same account; the server loads a table from the store when
someone comes to it and lets it go when nobody has been there for a while.

A login or a Hello with a key no account has is a wrong guess: it is answered
only as fast as the guess allowances let (per visitor, per address, and for the
whole server), so a guesser is slowed and nobody else.  The store is used from
one worker thread for SQLite (one writer at a time, as SQLite has it) and from
a small pool for PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import secrets
import ssl
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from karavan_core.saves import SaveError, checked_envelope, match_from_envelope
from karavan_core.version import __version__
from karavan_net import lobby as wire
from karavan_net.codec import ProtocolError
from karavan_net.guard import Bucket
from karavan_net.host import Host
from karavan_net.identity import ServerIdentity
from karavan_net.protocol import HEARTBEAT, PROTOCOL, Challenge, Hello, Refused, encode, moved
from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.database_clock import DatabaseClock, system_now
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.store import (
    AccountInfo,
    KeyKind,
    Status,
    Store,
    StoreError,
    TableRecord,
    key_digest,
)
from karavan_net.serve.tables import ServedTable
from karavan_net.server import (
    GRACE,
    HELLO_SECONDS,
    MESSAGE_BURST,
    MESSAGE_RATE,
    Connection,
    HostServer,
)

T = TypeVar("T")
ALIVE = "alive_at"  # the mark of when the server was last seen running
BEAT_SECONDS = 5.0  # how often it says so (and looks for turn-based tables out of time)
IDLE_SECONDS = 30.0  # how long a table nobody is at stays in memory
LEASE_SECONDS = 6.0  # how long a process runs a table unless it renews its lease...
RENEW_SECONDS = 2.0  # ... which it does this often, and adopts lapsed leases' tables: so a
# lost process's tables run again elsewhere within LEASE_SECONDS + RENEW_SECONDS (8 s)
UNKNOWN_KEY = ("login with a key no account has", "unknown keys")
IDENTITY = "identity"  # the mark that keeps the server's identity


def server_identity(store: Store) -> ServerIdentity:
    """The server's identity, made and kept in ``store`` the first time (whichever process
    of the server comes first makes it: the others read it)."""
    return ServerIdentity.from_text(store.marks.keep_first(IDENTITY, ServerIdentity.new().text()))


class KaravanServer(HostServer):
    """A lobby of tables kept in ``store``.

    ``rate``, ``burst`` and ``hello_seconds`` bound each connection (tests
    change them); ``events`` (if given) hears a line for each happening worth
    printing (never a key); with ``tls`` it serves ``wss://`` only.  The server's
    identity (:mod:`karavan_net.identity`) is made on its first start and kept in the
    store, the same for all its processes.  ``clock`` is this process's own clock
    (tests skew it): the times the server writes and waits for follow the database's
    (:class:`~karavan_net.serve.database_clock.DatabaseClock`).
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
        address: str | None = None,
        events: Callable[[str], None] | None = None,
        tls: ssl.SSLContext | None = None,
        clock: Callable[[], datetime] = system_now,
    ) -> None:
        super().__init__(
            heartbeat=heartbeat,
            rate=rate,
            burst=burst,
            hello_seconds=hello_seconds,
            events=events,
            tls=tls,
        )
        self.store = store
        self.clock = DatabaseClock(clock)
        self.lobby = LobbyService(store, now=self.clock.now)
        self.bot_delay = bot_delay
        self.sessions: dict[int, set[Connection]] = {}  # account -> its lobby connections
        self.served: dict[int, ServedTable] = {}  # the tables in memory, by number
        self._loading: dict[int, asyncio.Future[ServedTable | str | None]] = {}
        self._beat: asyncio.Task[None] | None = None
        self._leases: asyncio.Task[None] | None = None
        # This process, among the processes that may share the database, and where its
        # players reach it (the address the others send them to).
        self.owner = secrets.token_hex(8)
        self.address = address
        self.peers: tuple[str, ...] = ()  # the other processes' addresses
        one_writer = store.engine.dialect.name == "sqlite"
        self._db = ThreadPoolExecutor(max_workers=1 if one_writer else 4, thread_name_prefix="db")
        self.commits = CommitQueue(store)  # every table's decisions, committed together

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """Run ``call(*args)`` on the store's worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._db, call, *args)

    # -- starting and stopping -----------------------------------------------------------------
    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: any free port), pick the tables up where they were,
        and keep the clocks; returns the port."""
        self.identity = await self.db(server_identity, self.store)
        port = await super().start(host, port)
        if self.address is None:
            shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
            self.address = f"[{shown}]:{port}" if ":" in shown else f"{shown}:{port}"
        await self.db(self.clock.sample, self.store.now)
        await self._announce()
        await self._resume()
        loop = asyncio.get_running_loop()
        self._beat = loop.create_task(self._beating())
        self._leases = loop.create_task(self._renewing())
        return port

    async def _resume(self) -> None:
        """Give back the time the server was down (if no other process runs: then it was not),
        and bring back the tables whose live clocks run (turn-based ones come back when a
        player does, or when their time is up)."""
        alive = await self.db(self.store.marks.stamped, ALIVE)
        if alive is not None and not self.peers:  # the time since, by the database's clock
            moved, gap = await self.db(self.store.tables.shift_deadlines, alive)
            if moved:
                self._say(f"{moved} clocks given back the {round(gap)} s down.")
        await self._adopt()  # alone on the database, it takes them all

    async def _beating(self) -> None:
        """Say the server is alive, wake the tables whose turn-based time is up, and let go of
        the tables nobody has been at for a while."""
        while True:
            await self.db(self.store.marks.stamp, ALIVE)
            for table_id in await self.db(self.store.tables.due):
                if table_id not in self.served:
                    await self.table(table_id)
            for table_id, table in list(self.served.items()):
                if table.idle and table.quiet_for() > IDLE_SECONDS:
                    await self._unload(table_id)
            await asyncio.sleep(BEAT_SECONDS)

    async def _renewing(self) -> None:
        """Every RENEW_SECONDS: follow the database's clock, say this process runs (and learn
        the others), take over the tables whose process was lost, and keep the leases of the
        tables this one runs."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            await self.db(self.clock.sample, self.store.now)
            await self._announce()
            await self._adopt()
            await self._renew()

    async def _adopt(self) -> None:
        """Take over live tables that no process runs (their process was lost, or nobody
        has come to them yet): this process's share of them, so that the processes running
        share them out; what is left is taken in the rounds after."""
        orphans = await self.db(self.store.leases.orphans)
        random.shuffle(orphans)
        share = math.ceil(len(orphans) / (1 + len(self.peers)))
        for table_id in orphans[:share]:
            if table_id not in self.served:
                await self.table(table_id)

    async def _announce(self) -> None:
        """Say this process runs, and tell its tables' clients where the others are."""
        assert self.address is not None
        told = await self.db(self.store.leases.announce, self.owner, self.address, LEASE_SECONDS)
        self.peers = tuple(told)
        for served in self.served.values():
            served.peers = self.peers

    async def _renew(self) -> None:
        """Keep the leases of the tables this process runs; let go of those it lost (another
        process took them over, or a change could not be kept)."""
        ids = list(self.served)
        held = await self.db(self.store.leases.renew, self.owner, ids, LEASE_SECONDS)
        for table_id in ids:
            served = self.served.get(table_id)
            if served is not None and (table_id not in held or served.lost.is_set()):
                self._say(f"Table {table_id} is run elsewhere now: this process lets go.")
                await self._unload(table_id)

    async def stop(self, reason: str | None = None, why: str = "closed") -> None:
        """Close every connection and table (the store keeps them; the players' clients come
        back once the server is up again) and stop listening."""
        for task in (self._beat, self._leases):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for table_id in list(self.served):
            await self._unload(table_id)
        with contextlib.suppress(Exception):  # a database gone: the record lapses by itself
            await self.db(self.store.leases.withdraw, self.owner)
        await super().stop(reason, why)
        await asyncio.to_thread(self.commits.close)
        self._db.shutdown(wait=True)

    def processes(self) -> tuple[str, ...]:
        """The addresses of the server's processes, this one's first."""
        return (*super().processes(), *self.peers)

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.path == wire.LOBBY_PATH and request.method == "GET":
            return await self._lobby_socket(request)
        if request.path == "/" and request.method in ("GET", "HEAD"):
            return web.Response(text="A Karavan server. Play on it from the app: Play online.\n")
        return await super()._handle(request)

    # -- the tables ----------------------------------------------------------------------------
    async def table(self, table_id: int) -> ServedTable | str | None:
        """Table ``table_id`` in memory, loaded from the store (and verified) if need be; the
        address of the process that runs it if another does; ``None`` if there is no such
        table being played or finished."""
        table = self.served.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is not None:
            return await loading
        future: asyncio.Future[ServedTable | str | None] = (
            asyncio.get_running_loop().create_future()
        )
        self._loading[table_id] = future
        try:
            found = await self._load(table_id)
            if isinstance(found, ServedTable):
                found.peers = self.peers
                found.identity = "" if self.identity is None else self.identity.fingerprint
                self.served[table_id] = found
                found.arm_clock()
                found.kick_bots()
            future.set_result(found)
            return found
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: int) -> ServedTable | str | None:
        record = await self.db(self.store.tables.get, table_id, False)
        if record is None or record.status not in (Status.PLAYING, Status.OVER):
            return None  # a finished game opens too: its players get their record of it
        assert self.address is not None
        lease = await self.db(
            self.store.leases.take, table_id, self.owner, self.address, LEASE_SECONDS
        )
        if not lease.held:
            return lease.address
        if lease.lapsed is not None:  # its process was lost: the time since is not charged
            renewed = lease.lapsed - timedelta(seconds=LEASE_SECONDS)
            await self.db(self.store.tables.shift_deadlines, renewed, table_id)
            self._say(f"Table {table_id} taken over from a process that was lost.")
        record = await self.db(self.store.tables.get, table_id)
        if record is None or record.save is None:
            return None
        where = f"table {table_id}"
        try:
            save = checked_envelope(record.save, where)
            match = await asyncio.to_thread(match_from_envelope, save, where, record.game)
        except SaveError as error:
            self._say(f"Table {table_id} cannot be played: {error}")
            return None
        return ServedTable(
            self.commits,
            record,
            match,
            owner=self.owner,
            bot_delay=self.bot_delay,
            events=self.events,
            now=self.clock.now,
        )

    async def _unload(self, table_id: int) -> None:
        table = self.served.pop(table_id, None)
        if table is not None:
            await table.close()
            await self.db(self.store.leases.release, self.owner, table_id)

    async def seat(self, hello: Hello, connection: Connection, most: float) -> Host | None:
        """The table ``hello`` names by number, ``connection`` seated there by its account (or
        watching); ``None`` (refused and closed) if it may not."""

        def refuse(reason: str) -> None:
            connection.close(encode(Refused(reason)))

        if hello.protocol != PROTOCOL:
            refuse("The first message is a Hello, in this server's protocol.")
            return None
        digest = key_digest(hello.secret or "")
        account = await self.db(self.store.accounts.by_key, KeyKind.SECRET, digest)
        if account is None:
            await self.slow_the_guesser(connection.address, hello.visitor, most, UNKNOWN_KEY)
            refuse("No account here is proven by this key: log in from the lobby first.")
            return None
        table_id = int(hello.code) if hello.code.isdigit() and len(hello.code) < 12 else -1
        table = await self.table(table_id)
        if isinstance(table, str):  # another process runs it: the client goes there
            connection.close(encode(moved(table, hello.minor)))
            return None
        if table is None:
            refuse("There is no such table being played here.")
            return None
        if hello.watch:
            table.watch(connection, hello.minor)
        elif not table.admit_account(connection, account.id, hello.secret or "", hello.minor):
            refuse("You have no seat at this table: watch it instead.")
            return None
        return table

    # -- the lobby -----------------------------------------------------------------------------
    async def _lobby_socket(self, request: web.BaseRequest) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            heartbeat=self.heartbeat, max_msg_size=wire.MAX_LOBBY_FRAME + 1, autoping=True
        )
        assert self.doorman is not None
        self.doorman.knocked(request.protocol)
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
        """Read the client's Login (after a Challenge, answered, if it sends one first) and
        prove its account; ``None`` (closed) if refused."""
        doorman = self.doorman
        assert doorman is not None

        def refuse(reason: str) -> None:
            connection.close(wire.SERVER.encode(wire.LobbyRefused(reason)))

        words = ("No login from this client: the server waits no longer.", "a Login")
        login = await self.first_message(request, connection, wire.CLIENT.decode, refuse, words)
        proof = None
        if isinstance(login, Challenge):
            proof = self.proof(login)
            if proof is None:
                refuse("That challenge does not fit the protocol.")
                return None
            connection.send(wire.SERVER.encode(proof))
            login = await self.first_message(request, connection, wire.CLIENT.decode, refuse, words)
        if login is None:
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
        try:
            account = await self.db(self.lobby.login, login.name, login.secret, login.create)
        except StoreError as error:
            if not login.create:
                most = doorman.time_left(request.protocol) - GRACE
                await self.slow_the_guesser(connection.address, None, most, UNKNOWN_KEY)
            refuse(str(error))
            return None
        doorman.welcome(request.protocol)
        self._say(f"{account.name} is in the lobby.")
        # A client that asked for the proof reads the identity; an older one knows no such field.
        identity = "" if proof is None or self.identity is None else self.identity.fingerprint
        connection.send(wire.SERVER.encode(wire.LoggedIn(account.name, __version__, identity)))
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
                return _seated(table, account)
            if isinstance(request, wire.TakeSeat):
                table = await self.db(self.lobby.take, account, request.table, request.seat)
                return _seated(table, account)
        except StoreError as error:
            return wire.LobbyDeclined(str(error))
        return wire.LobbyDeclined("You are logged in already.")


def _seated(table: TableRecord, account: AccountInfo) -> wire.Seated:
    seat = table.seat_of(account.id)
    assert seat is not None
    return wire.Seated(table.id, seat, table.status is Status.PLAYING)
