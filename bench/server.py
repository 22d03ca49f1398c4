"""Benchmark of `karavan serve`: live tables under load, a lobby of many stored tables, a restart.

    python bench/server.py live [--tables 100] [--think 1.0] [--seconds 30] [--clients 2]
    python bench/server.py stored [--tables 10000]
    python bench/server.py all

``live``: the server runs in a process of its own (the installed ``karavan serve``
on a fresh SQLite file); the tables are created through the lobby and every
seat is played by a greedy bot client over WebSockets, the clients spread over
``--clients`` processes (both seats of a table in one process, so a decision
and the other seat's update are timed on one clock).  Each bot thinks
``--think`` seconds (±50 %) before deciding, as people do at a live table.  It
prints the decisions a second and the latency from a decision being sent to
the other seat holding the update it caused (median, p95, p99, worst).

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
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TypeAlias

from karavan_core.engine import Action
from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.protocol import Update

KARAVAN = str(Path(sys.executable).with_name("karavan"))
SECRET = "b" * 40


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(db: Path, port: int) -> tuple[subprocess.Popen[str], float]:
    """``karavan serve`` on ``db``, and the seconds it took to say it listens."""
    begun = time.monotonic()
    process = subprocess.Popen(
        [KARAVAN, "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line.startswith("Karavan server at"):
        raise SystemExit(f"the server did not start: {line}")
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


# What each client process sends back: its latencies (s) and the decisions it made.
Results: TypeAlias = "multiprocessing.Queue[tuple[list[float], int]]"

# -- live tables -------------------------------------------------------------------------------


async def _play_tables(
    port: int, tables: list[tuple[int, int]], think: float, seconds: float, out: Results
) -> None:
    """Play both seats of each (table, index) for ``seconds``; put (latencies, decisions) in out."""
    sent: dict[tuple[int, int], tuple[float, str]] = {}  # (table, revision) -> when, by whom
    latencies: list[float] = []
    decisions = 0
    stop_at = time.monotonic() + seconds
    players: list[BotPlayer] = []

    def stop() -> None:  # the time is up: every seat leaves, whoever is to move
        for player in players:
            player.closed("the benchmark's time is up")

    async def seat(table: int, name: str, seed: int) -> None:
        nonlocal decisions
        client = TableClient("127.0.0.1", port, str(table), name, secret=f"{name}-{SECRET}")
        await client.join()
        rng = random.Random(seed)

        def updated(update: Update) -> None:
            entry = sent.get((table, update.number))
            if entry is not None and entry[1] != name:  # the other seat holds it now
                latencies.append(time.monotonic() - entry[0])
                del sent[(table, update.number)]

        player = BotPlayer(client, "greedy", seed=seed, out=lambda _: None, on_update=updated)
        players.append(player)
        decide = client.decide

        async def paced(*actions: Action) -> bool:  # think, then decide, noting when
            nonlocal decisions
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if time.monotonic() > stop_at:
                return False
            assert client.update is not None
            sent[(table, client.update.number + 1)] = (time.monotonic(), name)
            decisions += 1
            return await decide(*actions)

        client.decide = paced  # type: ignore[method-assign]
        await player.play()

    tasks = [
        seat(table, name, index * 2 + side)
        for table, index in tables
        for side, name in enumerate((f"A{index}", f"B{index}"))
    ]
    asyncio.get_running_loop().call_later(seconds, stop)
    await asyncio.gather(*tasks, return_exceptions=True)
    out.put((latencies, decisions))


def _client_main(
    port: int, tables: list[tuple[int, int]], think: float, seconds: float, out: Results
) -> None:
    asyncio.run(_play_tables(port, tables, think, seconds, out))


async def _make_tables(port: int, count: int) -> list[tuple[int, int]]:
    """``count`` Jaipur tables with a live clock, each between players A{i} and B{i}."""
    made = []
    for table in range(count):
        a = LobbyClient("127.0.0.1", port, f"A{table}", f"A{table}-{SECRET}")
        b = LobbyClient("127.0.0.1", port, f"B{table}", f"B{table}-{SECRET}")
        await a.connect(create=True)
        await b.connect(create=True)
        seats = [SeatAsk("open"), SeatAsk("player", name=f"B{table}")]
        ask = CreateTable("jaipur", seats, clock="live", move_seconds=60, bank_seconds=600)
        seated = await a.create(ask)
        await b.take(seated.table)
        made.append((seated.table, table))
        await a.close()
        await b.close()
    return made


def live(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server, _ = start_server(Path(folder) / "live.db", port)
        try:
            tables = asyncio.run(_make_tables(port, args.tables))
            queue: Results = multiprocessing.Queue()
            workers = [
                multiprocessing.Process(
                    target=_client_main,
                    args=(port, tables[i :: args.clients], args.think, args.seconds, queue),
                )
                for i in range(args.clients)
            ]
            begun = time.monotonic()
            for worker in workers:
                worker.start()
            latencies: list[float] = []
            decisions = 0
            for _ in workers:
                got, made = queue.get()
                latencies += got
                decisions += made
            took = time.monotonic() - begun
            for worker in workers:
                worker.join()
            memory = rss_mb(server.pid)
        finally:
            server.terminate()
            server.wait()
    ms = [1000 * x for x in latencies]
    print(
        f"live: {args.tables} Jaipur tables, think {args.think} s, {args.clients} client processes"
    )
    print(f"  {decisions} decisions in {took:.1f} s: {decisions / took:.1f} a second")
    if ms:
        print(
            f"  decision to the other seat's update: median {statistics.median(ms):.1f} ms, "
            f"p95 {percentile(ms, 0.95):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
            f"worst {max(ms):.1f} ms ({len(ms)} measured)"
        )
    print(f"  server memory {memory:.0f} MB")


# -- stored tables -----------------------------------------------------------------------------


def fill(db: Path, count: int) -> None:
    """``count`` turn-based tables, each waiting for a second player, written in bulk."""
    from datetime import UTC, datetime

    from sqlalchemy.orm import Session

    from karavan_net.serve.schema import Account, AccountKey, GameTable, TableSeat
    from karavan_net.serve.store import Store, key_digest

    store = Store.open(str(db))
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
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "stored.db"
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
    args = parser.parse_args()
    if args.what in ("live", "all"):
        live(argparse.Namespace(**{**vars(args), "tables": args.tables or 100}))
    if args.what in ("stored", "all"):
        stored(argparse.Namespace(**{**vars(args), "tables": args.tables or 10_000}))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
