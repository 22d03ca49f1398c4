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
from functools import partial
from typing import Any, TypeVar

from aiohttp import web

from karavan_core.match import Match
from karavan_core.saves import SaveError, checked_envelope, match_from_envelope
from karavan_net import lobby as wire
from karavan_net.host import Host
from karavan_net.identity import ServerIdentity
from karavan_net.protocol import HEARTBEAT, PROTOCOL, ChatLine, Hello, Refused, encode, moved
from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.database_clock import DatabaseClock, system_now
from karavan_net.serve.eventlog import EventLog, quiet
from karavan_net.serve.limits import Limits
from karavan_net.serve.lobby_news import LobbyNews
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.lobby_socket import UNKNOWN_KEY, LobbySockets
from karavan_net.serve.metrics import LEASES, ServerMetrics
from karavan_net.serve.notifier import Notifier, turn_words
from karavan_net.serve.store import Decision, KeyKind, Status, Store, TableRecord, key_digest
from karavan_net.serve.supervision import Backoff
from karavan_net.serve.tables import ServedTable
from karavan_net.serve.upkeep import Upkeep
from karavan_net.server import HELLO_SECONDS, MESSAGE_BURST, MESSAGE_RATE, Connection, HostServer
from karavan_net.table_chat import KEPT as CHAT_KEPT

T = TypeVar("T")
ALIVE = "alive_at"  # the mark of when the server was last seen running
BEAT_SECONDS = 5.0  # how often it says so (and looks for turn-based tables out of time)
IDLE_SECONDS = 30.0  # how long a table nobody is at stays in memory
LEASE_SECONDS = 6.0  # how long a process runs a table unless it renews its lease...
RENEW_SECONDS = 2.0  # ... which it does this often, and adopts lapsed leases' tables: so a
# lost process's tables run again elsewhere within LEASE_SECONDS + RENEW_SECONDS (8 s)
# How long the loops wait after failing (the lease loop tries again well before a lease lapses).
BEAT_BACKOFF = Backoff(first=1.0, most=15.0)
LEASE_BACKOFF = Backoff(first=0.5, most=2.0)
CANNOT_OPEN = "This table cannot be opened just now: try again in a moment."
IDENTITY = "identity"  # the mark that keeps the server's identity
CALLS = "calls"  # the loop that calls players on their web hooks...
CALL_SECONDS = 5.0  # ... this often


def server_identity(store: Store) -> ServerIdentity:
    """The server's identity, made and kept in ``store`` the first time (whichever process
    of the server comes first makes it: the others read it)."""
    return ServerIdentity.from_text(store.marks.keep_first(IDENTITY, ServerIdentity.new().text()))


class KaravanServer(HostServer):
    """A lobby of tables kept in ``store``.

    ``rate``, ``burst`` and ``hello_seconds`` bound each connection (tests
    change them), ``limits`` what one account or address may take of the server.
    ``log`` tells each happening worth printing (never a key); without one, ``events``
    (if given) hears each as a plain line.  ``metrics`` (if given) is measured and
    served at ``/metrics``.  With ``tls`` it serves ``wss://`` only.  It calls players on
    their web hooks when a turn-based table waits for them (:attr:`notifier`), never at a
    private address unless ``notify_private`` allows it.  The server's
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
        log: EventLog | None = None,
        metrics: ServerMetrics | None = None,
        tls: ssl.SSLContext | None = None,
        clock: Callable[[], datetime] = system_now,
        limits: Limits = Limits(),  # noqa: B008 (frozen: one value shared is no harm)
        behind_proxy: bool = False,
        notify_private: bool = False,
    ) -> None:
        self.log = log or (quiet() if events is None else EventLog(events))
        said = self.log.line  # the doorman's sentences
        super().__init__(
            heartbeat=heartbeat,
            rate=rate,
            burst=burst,
            hello_seconds=hello_seconds,
            events=said,
            tls=tls,
            behind_proxy=behind_proxy,
        )
        self.store = store
        self.clock = DatabaseClock(clock)
        self.lobby = LobbyService(store, now=self.clock.now, caps=limits.tables)
        self.lobby_sockets = LobbySockets(self, limits)
        self.bot_delay = bot_delay
        self.served: dict[int, ServedTable] = {}  # the tables in memory, by number
        self._loading: dict[int, asyncio.Task[ServedTable | str | None]] = {}
        self._stopping = False
        # This process, among the processes that may share the database, and where its
        # players reach it (the address the others send them to).
        self.owner = secrets.token_hex(8)
        self.address = address
        self.peers: tuple[str, ...] = ()  # the other processes' addresses
        one_writer = store.engine.dialect.name == "sqlite"
        self._db = ThreadPoolExecutor(max_workers=1 if one_writer else 4, thread_name_prefix="db")
        self.commits = CommitQueue(store, metrics)  # every table's decisions, committed together
        # The loops, /health and /metrics.
        self.upkeep = Upkeep(store.engine, self.log, metrics, self._counts)
        self.news = LobbyNews(partial(self.db, self.lobby.lists), self.upkeep.failed)
        self._loop: asyncio.AbstractEventLoop | None = None  # the server's, once started
        if metrics is not None:
            self.answered = metrics.update_latency.observe
        # The calls on the players' web hooks (turn-based tables waiting for them).
        counted = None if metrics is None else metrics.notified
        self.notifier = Notifier(allow_private=notify_private, counted=counted)

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """Run ``call(*args)`` on the store's worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._db, call, *args)

    def _counts(self) -> dict[str, int]:
        """The tables in memory and the open connections (for /health and /metrics)."""
        lobby = self.lobby_sockets.open
        table = len(self.connections) - lobby
        return {"tables": len(self.served), "lobby_connections": lobby, "table_connections": table}

    # -- starting and stopping -----------------------------------------------------------------
    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: any free port), pick the tables up where they were,
        and keep the clocks; returns the port."""
        self._loop = asyncio.get_running_loop()
        self.identity = await self.db(server_identity, self.store)
        port = await super().start(host, port)
        if self.address is None:
            shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
            self.address = f"[{shown}]:{port}" if ":" in shown else f"{shown}:{port}"
        await self.db(self.clock.sample, self.store.now)
        await self._announce()
        await self._resume()
        self.upkeep.leases_renewed()
        self.upkeep.run("heartbeat", self._beat, BEAT_SECONDS, BEAT_BACKOFF)
        self.upkeep.run(LEASES, self._keep_leases, RENEW_SECONDS, LEASE_BACKOFF, RENEW_SECONDS)
        self.upkeep.run(CALLS, self._call_players, CALL_SECONDS, BEAT_BACKOFF)
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

    async def _beat(self) -> None:
        """Every BEAT_SECONDS: say the server is alive, wake the tables whose turn-based time
        is up, and let go of the tables nobody has been at for a while."""
        await self.db(self.store.marks.stamp, ALIVE)
        for table_id in await self.db(self.store.tables.due):
            if table_id not in self.served:
                await self._bring_in(table_id)
        for table_id, table in list(self.served.items()):
            if table.idle and table.quiet_for() > IDLE_SECONDS:
                await self._unload(table_id)

    async def _call_players(self) -> None:
        """Every CALL_SECONDS: call the players whom a turn-based table waits for (or whose
        time there runs short) on their web hooks, unless they are at that table now."""
        present = {
            (table_id, seat) for table_id, table in self.served.items() for seat in table.links
        }
        for call in await self.db(self.store.calls.due, present):
            self.notifier.call(call.url, turn_words(call, self.clock.now()))

    async def _keep_leases(self) -> None:
        """Every RENEW_SECONDS: follow the database's clock, say this process runs (and learn
        the others), take over the tables whose process was lost, and keep the leases of the
        tables this one runs."""
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
                await self._bring_in(table_id)

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
        self.upkeep.leases_renewed()
        for table_id in ids:
            served = self.served.get(table_id)
            if served is not None and (table_id not in held or served.lost.is_set()):
                self.log.event(
                    "lease_lost",
                    f"Table {table_id} is run elsewhere now: this process lets go.",
                    table=table_id,
                )
                await self._unload(table_id)

    async def stop(self, reason: str | None = None, why: str = "closed") -> None:
        """Close every connection and table (the store keeps them; the players' clients come
        back once the server is up again) and stop listening.

        Each step is done whatever the others met (a database gone, a table whose close
        fails): what fails is told to the log, and a lease not given back lapses by itself.
        """
        self._stopping = True
        tried = self.upkeep.tried
        await self.upkeep.stop()
        await self.news.close()
        if self._loading:  # tables being loaded: they are let go of with the others
            await asyncio.wait(list(self._loading.values()))
        for table_id in list(self.served):
            await self._unload(table_id)
        await tried("say this process stops", self.db(self.store.leases.withdraw, self.owner))
        await tried("close the connections", super().stop(reason, why))
        await tried("close the commit queue", asyncio.to_thread(self.commits.close))
        await tried("end the calls on the web hooks", self.notifier.close())
        await asyncio.to_thread(self._db.shutdown, True)

    def processes(self) -> tuple[str, ...]:
        """The addresses of the server's processes, this one's first."""
        return (*super().processes(), *self.peers)

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.path == wire.LOBBY_PATH and request.method == "GET":
            return await self.lobby_sockets.serve(request)
        if request.path == "/" and request.method in ("GET", "HEAD"):
            return web.Response(text="A Karavan server. Play on it from the app: Play online.\n")
        page = await self.upkeep.page(request, LEASE_SECONDS)  # /health, /metrics
        if page is not None:
            return page
        return await super()._handle(request)

    # -- the tables ----------------------------------------------------------------------------
    async def table(self, table_id: int) -> ServedTable | str | None:
        """Table ``table_id`` in memory, loaded from the store (and verified) if need be; the
        address of the process that runs it if another does; ``None`` if there is no such
        table being played or finished.

        Everyone who asks while it is being loaded waits for that one load, and hears its
        error if it fails (the next to ask tries again).
        """
        table = self.served.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            if self._stopping:
                raise RuntimeError("The server is stopping.")
            loading = asyncio.get_running_loop().create_task(self._load_in(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        # A waiter that gives up (cancelled) leaves the load to end for the others.
        return await asyncio.shield(loading)

    async def _load_in(self, table_id: int) -> ServedTable | str | None:
        """Load table ``table_id`` and, if this process runs it, put it in memory and start it."""
        found = await self._load(table_id)
        if isinstance(found, ServedTable):
            found.peers = self.peers
            found.identity = "" if self.identity is None else self.identity.fingerprint
            self.served[table_id] = found
            found.arm_clock()
            found.kick_bots()
        return found

    async def _bring_in(self, table_id: int) -> None:
        """Load table ``table_id`` for a loop (one that fails is told to the log, and the loop
        goes on to the others)."""
        await self.upkeep.tried(f"load table {table_id}", self.table(table_id), table_id)

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
        said = await self.db(self.store.chats.of_table, table_id, CHAT_KEPT)
        # Replayed, verified, built and first kept on a thread: none of it on the loop.
        return await asyncio.to_thread(self._build, record, said)

    def _build(self, record: TableRecord, earlier: list[ChatLine]) -> ServedTable | None:
        """The table ``record`` holds, its game replayed and verified and its first position
        kept, the lines said at its chat ``earlier`` (run on a thread); ``None`` (told to the
        log) if its save cannot be played."""
        try:
            match = _replayed(record)
        except SaveError as error:
            said = f"Table {record.id} cannot be played: {error}"
            self.log.event("table_unplayable", said, level="error", table=record.id)
            return None
        told = self.log.about_table(record.id)
        return ServedTable(
            self.commits,
            record,
            match,
            owner=self.owner,
            bot_delay=self.bot_delay,
            events=told,
            now=self.clock.now,
            kept=partial(self._kept, record),
            said=earlier,
        )

    def _kept(self, record: TableRecord, decision: Decision) -> None:
        """A change of table ``record`` is committed (on the thread that committed it): the
        lobby's followers hear of a game's end, and of a turn passed at a table with no live
        clock (a player may be waiting for it in the lobby)."""
        live = record.clock.kind.value == "live"
        if decision.result is None and live:
            return
        players = [seat.account_id for seat in record.seats if seat.account_id is not None]
        accounts = None if decision.result is not None else players
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody to tell
                loop.call_soon_threadsafe(self.news.changed, accounts)

    async def _unload(self, table_id: int) -> None:
        """Let table ``table_id`` go: closed in memory and its lease given back, each done
        whatever the other met."""
        table = self.served.pop(table_id, None)
        if table is not None:
            await self.upkeep.tried("close the table", table.close(), table_id)
            release = self.db(self.store.leases.release, self.owner, table_id)
            await self.upkeep.tried("give back the table's lease", release, table_id)

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
        try:
            table = await self.table(table_id)
        except Exception as error:
            self.upkeep.failed(f"load table {table_id}", error, table_id)
            refuse(CANNOT_OPEN)
            return None
        if isinstance(table, str):  # another process runs it: the client goes there
            connection.close(encode(moved(table, hello.minor)))
            return None
        if table is None:
            refuse("There is no such table being played here.")
            return None
        if hello.watch:
            table.watch(connection, hello.minor, account.name)
        elif not table.admit_account(connection, account.id, hello.secret or "", hello.minor):
            refuse("You have no seat at this table: watch it instead.")
            return None
        return table


def _replayed(record: TableRecord) -> Match:
    """The game ``record`` holds, replayed and verified; :class:`SaveError` if it cannot be."""
    where = f"table {record.id}"
    save = checked_envelope(record.save, where)
    return match_from_envelope(save, where, record.game)
