"""Benchmark of `karavan serve`: live tables under load, a lobby of many stored tables, a restart.

    python bench/server.py live [--tables 100] [--think 1.0] [--seconds 30] [--clients 2]
                                [--processes 1,2,4] [--db postgresql://...]
    python bench/server.py stored [--tables 10000] [--db postgresql://...]
    python bench/server.py all

``--db``: a PostgreSQL server's URL whose user may create databases (a fresh one
is made for the run and dropped after); an SQLite file in a temporary folder if
not given.  ``--processes``: how many ``karavan serve`` processes share the
database, one run for each count given; the players of table i come in at
process i mod N and are sent on to the process that runs it.

``live``: the server runs in a process of its own (the installed ``karavan serve``
on a fresh SQLite file); the tables are created through the lobby and every
seat is played by a greedy bot client over WebSockets, the clients spread over
``--clients`` processes (both seats of a table in one process, so a decision
and the other seat's update are timed on one clock).  Each bot thinks
``--think`` seconds (±50 %) before deciding, as people do at a live table.
Once every seat has joined, ``--seconds`` of play are measured: the decisions a
second, the server processes' CPU time for them (from /proc: seconds per 1,000
decisions, and decisions per CPU-second), and the latency from a decision being
sent to the other seat holding the update it caused (median, p95, p99, worst).

``stored``: ``--tables`` turn-based tables waiting for their players are
written straight into a fresh database; the server is started on it, and it
prints the time to be ready (start to the first lobby answer), the lobby's
listing time (a client's request to its answer: median and p95 of 50), a
player's "my tables" time, and the server process's memory.  Figures, not
tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeAlias

import attrs

from karavan_core.engine import Action
from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.protocol import Update

KARAVAN = str(Path(sys.executable).with_name("karavan"))
SECRET = "b" * 40
JOINING = 20  # the seats of one client process joining at once


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def database(url: str | None, folder: Path, name: str) -> Iterator[str]:
    """A fresh database for one run: an SQLite file in ``folder``, or one made on the
    PostgreSQL server at ``url`` (dropped after)."""
    if url is None:
        yield str(folder / f"{name}.db")
        return
    import psycopg

    made = f"karavan_bench_{name}_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{made}"')
        admin.execute(f'CREATE DATABASE "{made}"')
    try:
        yield f"{url.rpartition('/')[0]}/{made}"
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{made}" WITH (FORCE)')


def start_server(db: str | Path, port: int) -> tuple[subprocess.Popen[str], float]:
    """``karavan serve`` on ``db``, and the seconds it took to say it listens."""
    begun = time.monotonic()
    process = subprocess.Popen(
        # Every player's account is made from this one machine: past the server's allowance.
        [KARAVAN, "serve", "--port", str(port), "--db", str(db), "--accounts-per-hour", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("Karavan server at"):
        raise SystemExit(f"the server did not start: {line}")
    # The server tells every decision on its output: read on, or it stops once the pipe is full.
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process, time.monotonic() - begun


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# What each client process sends back: the latencies (s) of the decisions sent while measuring.
Results: TypeAlias = "multiprocessing.Queue[list[float]]"


@attrs.frozen
class Shared:
    """What the client processes and the benchmark share: how many seats have joined, the
    decisions sent so far, and the benchmark's signals to start measuring and to stop."""

    joined: Any  # multiprocessing.Value("q")
    decisions: Any  # multiprocessing.Value("q")
    measuring: Any  # multiprocessing.Event
    stop: Any  # multiprocessing.Event

    @classmethod
    def make(cls) -> Shared:
        return cls(
            multiprocessing.Value("q", 0),
            multiprocessing.Value("q", 0),
            multiprocessing.Event(),
            multiprocessing.Event(),
        )

    @staticmethod
    def add(value: Any) -> None:
        with value.get_lock():
            value.value += 1


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far (user and system), from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


# -- live tables -------------------------------------------------------------------------------


@attrs.frozen
class Known:
    """The server as a player's Karavan knows it from the lobby: the identity its processes
    prove, and their addresses (a client follows a process's Moved only to those)."""

    identity: str | None
    processes: tuple[str, ...]


async def _known(port: int) -> Known:
    """What a player learns of the server by logging in at ``port``."""
    lobby = LobbyClient("127.0.0.1", port, "A0", f"A0-{SECRET}")
    await lobby.connect()
    await lobby.close()
    return Known(lobby.identity, lobby.processes)


async def _play_tables(
    ports: list[int],
    tables: list[tuple[int, int]],
    think: float,
    known: Known,
    shared: Shared,
    out: Results,
) -> None:
    """Play both seats of each (table, index) until told to stop; put in ``out`` the latencies
    of the decisions sent while the benchmark measured."""
    sent: dict[tuple[int, int], tuple[float, str]] = {}  # (table, revision) -> when, by whom
    latencies: list[float] = []
    players: list[BotPlayer] = []
    stopping = False
    joining = asyncio.Semaphore(JOINING)

    def stop() -> None:  # the time is up: every seat leaves, whoever is to move
        nonlocal stopping
        stopping = True
        for player in players:
            player.closed("the benchmark's time is up")

    async def seat(table: int, name: str, seed: int) -> None:
        port = ports[table % len(ports)]  # spread over the processes; sent on to the table's
        client = TableClient(
            "127.0.0.1",
            port,
            str(table),
            name,
            secret=f"{name}-{SECRET}",
            identity=known.identity,
            announced=known.processes,
        )
        async with joining:  # players come in a few at a time, as a server meets them
            try:
                await client.join()
            finally:
                Shared.add(shared.joined)  # or failed to: the benchmark waits for no more
        rng = random.Random(seed)

        def updated(update: Update) -> None:
            entry = sent.get((table, update.number))
            if entry is not None and entry[1] != name:  # the other seat holds it now
                if shared.measuring.is_set():
                    latencies.append(time.monotonic() - entry[0])
                del sent[(table, update.number)]

        player = BotPlayer(client, "greedy", seed=seed, out=lambda _: None, on_update=updated)
        players.append(player)
        if stopping:  # joined after the time was up
            player.closed("the benchmark's time is up")
        decide = client.decide

        async def paced(*actions: Action) -> bool:  # think, then decide, noting when
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if stopping:
                return False
            assert client.update is not None
            sent[(table, client.update.number + 1)] = (time.monotonic(), name)
            Shared.add(shared.decisions)
            return await decide(*actions)

        client.decide = paced  # type: ignore[method-assign]
        await player.play()

    tasks = [
        asyncio.ensure_future(seat(table, name, index * 2 + side))
        for table, index in tables
        for side, name in enumerate((f"A{index}", f"B{index}"))
    ]
    while not shared.measuring.is_set() and not shared.stop.is_set():
        await asyncio.sleep(0.1)
    # Each player's own Karavan holds one table; this process holds hundreds, whose objects
    # go out of the cycle collector's way (its pauses would be timed as the server's).
    gc.collect()
    gc.freeze()
    while not shared.stop.is_set():
        await asyncio.sleep(0.1)
    stop()
    # The seats leave; those still saying goodbye after a while are cut off (the figures
    # are taken).
    done, pending = await asyncio.wait(tasks, timeout=15)
    for task in pending:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            print(f"a seat failed: {task.exception()!r}", flush=True)
    out.put(latencies)


def _client_main(
    ports: list[int],
    tables: list[tuple[int, int]],
    think: float,
    known: Known,
    shared: Shared,
    out: Results,
) -> None:
    asyncio.run(_play_tables(ports, tables, think, known, shared, out))


async def _make_tables(port: int, count: int) -> list[tuple[int, int]]:
    """``count`` Jaipur tables with a live clock, each between players A{i} and B{i}."""

    async def make(table: int) -> tuple[int, int]:
        a = LobbyClient("127.0.0.1", port, f"A{table}", f"A{table}-{SECRET}")
        b = LobbyClient("127.0.0.1", port, f"B{table}", f"B{table}-{SECRET}")
        await a.connect(create=True)
        await b.connect(create=True)
        seats = [SeatAsk("open"), SeatAsk("player", name=f"B{table}")]
        ask = CreateTable("jaipur", seats, clock="live", move_seconds=60, bank_seconds=600)
        seated = await a.create(ask)
        await b.take(seated.table)
        await a.close()
        await b.close()
        return seated.table, table

    made: list[tuple[int, int]] = []
    for first in range(0, count, 10):  # ten at a time
        made += await asyncio.gather(*(make(t) for t in range(first, min(count, first + 10))))
    return made


@attrs.frozen
class Measured:
    """What one live run measured, over its timed window."""

    decisions: int
    latencies: list[float]
    server_cpu: float  # seconds, every server process together
    load: tuple[float, float]  # the load average (1 minute) at the window's start and end
    memory: list[float]  # MB a server process


def _measure(
    args: argparse.Namespace,
    ports: list[int],
    servers: list[subprocess.Popen[str]],
    tables: list[tuple[int, int]],
    known: Known,
) -> Measured:
    """Seat every player, then measure ``args.seconds`` of play."""
    shared = Shared.make()
    queue: Results = multiprocessing.Queue()
    workers = [
        multiprocessing.Process(
            target=_client_main,
            args=(ports, tables[i :: args.clients], args.think, known, shared, queue),
        )
        for i in range(args.clients)
    ]
    for worker in workers:
        worker.start()
    seated_by = time.monotonic() + 120
    while shared.joined.value < 2 * len(tables) and time.monotonic() < seated_by:
        time.sleep(0.1)
    time.sleep(min(2.0, args.think))  # the joins' updates have gone; every seat plays
    cpu = sum(cpu_seconds(server.pid) for server in servers)
    decisions, load = shared.decisions.value, os.getloadavg()[0]
    shared.measuring.set()
    print(f"every seat has joined: measuring {args.seconds:.0f} s", flush=True)
    time.sleep(args.seconds)
    cpu = sum(cpu_seconds(server.pid) for server in servers) - cpu
    decisions = shared.decisions.value - decisions
    loads = (load, os.getloadavg()[0])
    memory = [rss_mb(server.pid) for server in servers]
    shared.stop.set()
    latencies = [latency for _ in workers for latency in queue.get()]
    for worker in workers:
        worker.join()
    return Measured(decisions, latencies, cpu, loads, memory)


def live(args: argparse.Namespace, processes: int) -> None:
    with tempfile.TemporaryDirectory() as folder, database(args.db, Path(folder), "live") as db:
        ports = [free_port() for _ in range(processes)]
        servers = [start_server(db, port)[0] for port in ports]
        # To profile a server: py-spy record --pid PID once the window's start is printed.
        print(f"server process(es): {' '.join(str(s.pid) for s in servers)}", flush=True)
        try:
            time.sleep(2.5)  # each process hears of the others as it renews its leases
            tables = asyncio.run(_make_tables(ports[0], args.tables))
            known = asyncio.run(_known(ports[0]))
            measured = _measure(args, ports, servers, tables, known)
        finally:
            for server in servers:
                server.terminate()
                server.wait()
    report(args, processes, measured)


def report(args: argparse.Namespace, processes: int, measured: Measured) -> None:
    """Print what a live run measured."""
    ms = [1000 * x for x in measured.latencies]
    kind = "PostgreSQL" if args.db else "SQLite"
    print(
        f"live: {args.tables} Jaipur tables, {processes} server process(es) on {kind}, "
        f"think {args.think} s, {args.clients} client processes, measured {args.seconds:.0f} s "
        f"(load average {measured.load[0]:.1f} at its start, {measured.load[1]:.1f} at its end)"
    )
    decisions = measured.decisions
    print(f"  {decisions} decisions: {decisions / args.seconds:.1f} a second")
    if decisions:
        cpu = measured.server_cpu
        print(
            f"  server CPU {cpu:.1f} s: {1000 * cpu / decisions:.2f} s per 1,000 decisions, "
            f"{decisions / cpu:.0f} decisions per CPU-second"
        )
    if ms:
        print(
            f"  decision to the other seat's update: median {statistics.median(ms):.1f} ms, "
            f"p95 {percentile(ms, 0.95):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"worst {max(ms):.1f} ms ({len(ms)} measured)"
        )
    print(f"  server memory {' + '.join(f'{m:.0f}' for m in measured.memory)} MB")


# -- stored tables -----------------------------------------------------------------------------


def fill(db: str, count: int) -> None:
    """``count`` turn-based tables, each waiting for a second player, written in bulk."""
    from datetime import UTC, datetime

    from sqlalchemy.orm import Session

    from karavan_net.serve.schema import Account, AccountKey, GameTable, TableSeat
    from karavan_net.serve.store import Store, key_digest

    store = Store.open(db)
    now = datetime.now(UTC)
    with Session(store.engine) as session, session.begin():
        owners = []
        for index in range(100):
            account = Account(name=f"P{index}", name_key=f"p{index}", created_at=now)
            session.add(account)
            owners.append(account)
        session.flush()
        for index, account in enumerate(owners):
            session.add(
                AccountKey(
                    account_id=account.id,
                    kind="secret",
                    digest=key_digest(f"P{index}-{SECRET}"),
                    created_at=now,
                )
            )
        games = ["jaipur", "karakum", "karawane", "karakorum"]
        for index in range(count):
            owner = owners[index % len(owners)]
            table = GameTable(
                game=games[index % 4],
                status="open",
                created_by=owner.id,
                created_at=now,
                updated_at=now,
                clock="turn",
                move_seconds=86400,
                bank_seconds=0,
                takebacks="consent",
                rated=index % 2 == 0,
                stand_in="hard",
                seed=index,
                revision=0,
            )
            table.seats = [
                TableSeat(
                    seat=0,
                    kind="human",
                    account_id=owner.id,
                    name=owner.name,
                    bank_left=0.0,
                    stood_in=False,
                ),
                TableSeat(seat=1, kind="human", bank_left=0.0, stood_in=False),
            ]
            session.add(table)
    store.close()


async def _time_lobby(port: int) -> tuple[list[float], list[float]]:
    client = LobbyClient("127.0.0.1", port, "P1", f"P1-{SECRET}")
    await client.connect()
    listing, mine = [], []
    for _ in range(50):
        begun = time.perf_counter()
        await client.tables()
        listing.append(time.perf_counter() - begun)
        begun = time.perf_counter()
        await client.mine()
        mine.append(time.perf_counter() - begun)
    await client.close()
    return listing, mine


def stored(args: argparse.Namespace) -> None:
    with (
        tempfile.TemporaryDirectory() as folder,
        database(args.db, Path(folder), "stored") as db,
    ):
        begun = time.monotonic()
        fill(db, args.tables)
        print(
            f"stored: {args.tables} turn-based tables written in {time.monotonic() - begun:.1f} s"
        )
        port = free_port()
        begun = time.monotonic()
        server, listening = start_server(db, port)
        try:
            listing, mine = asyncio.run(_time_lobby(port))
            ready = listening
            memory = rss_mb(server.pid)
        finally:
            server.terminate()
            server.wait()
    ms = [1000 * x for x in listing]
    mine_ms = [1000 * x for x in mine]
    print(f"  server ready (started to listening) in {ready:.2f} s")
    print(
        f"  lobby listing: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms"
    )
    print(
        f"  my tables (100 of them): median {statistics.median(mine_ms):.1f} ms, "
        f"p95 {percentile(mine_ms, 0.95):.1f} ms"
    )
    print(f"  server memory with every table stored: {memory:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["live", "stored", "all"])
    parser.add_argument("--tables", type=int, default=None)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--processes", default="1", help="server processes: 1, or 1,2,4")
    parser.add_argument("--db", default=None, help="a postgresql:// URL (default: SQLite)")
    args = parser.parse_args()
    if args.what in ("live", "all"):
        for processes in (int(n) for n in args.processes.split(",")):
            live(argparse.Namespace(**{**vars(args), "tables": args.tables or 100}), processes)
    if args.what in ("stored", "all"):
        stored(argparse.Namespace(**{**vars(args), "tables": args.tables or 10_000}))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
