"""Benchmark of a server's tables without the network: CPU time a decision, in one process.

    python bench/served_tables.py [--tables 100] [--watchers 0] [--rounds 40] [--warm 0]

``--tables`` Jaipur tables with a live clock are made through the lobby on a
fresh SQLite file and run as the server runs them (each a
:class:`~karavan_net.serve.tables.ServedTable`, every change committed by one
:class:`~karavan_net.serve.commits.CommitQueue`), their seats and ``--watchers``
watchers connected by links that build each frame at once.  After ``--warm``
decisions at each table (not measured: a game half played holds more), each
round plays one random decision at every table, sent as a client sends it, and
waits until the other seat holds its update.  It prints the process's CPU time
(every thread's) a decision: the table's own work (the referee, the views, the
frames, the save, the commit), without aiohttp, the sockets or the clients,
which makes it steadier than ``bench/server.py`` on a busy machine.  Figures,
not tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from karavan_core.saves import checked_envelope, match_from_envelope, unstructure_actions
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.protocol import MINOR, Decide, encode
from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.store import KeyKind, Store, key_digest
from karavan_net.serve.tables import ServedTable


class Link:
    """A connection that builds every frame at once and counts them."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.minor = MINOR
        self.frames = 0

    def send(self, text: str) -> None:
        self.frames += 1

    def refresh(self, frame: Callable[[], str | None]) -> None:
        if frame() is not None:
            self.frames += 1

    def close(self, text: str | None = None) -> None:
        pass


Table = tuple[ServedTable, list[Link]]


def make_tables(store: Store, commits: CommitQueue, count: int, watchers: int) -> list[Table]:
    """``count`` live Jaipur tables between A{i} and B{i}, both seated, and their watchers."""
    lobby = LobbyService(store, caps=None)  # one process makes every table: no caps
    made = []
    for index in range(count):
        a = store.accounts.create(f"A{index}", KeyKind.SECRET, key_digest(f"a{index}"))
        b = store.accounts.create(f"B{index}", KeyKind.SECRET, key_digest(f"b{index}"))
        seats = [SeatAsk("open"), SeatAsk("player", name=f"B{index}")]
        ask = CreateTable("jaipur", seats, clock="live", move_seconds=60, bank_seconds=600)
        opened = lobby.take(b, lobby.create(a, ask).id, None)
        record = store.tables.get(opened.id)
        assert record is not None and record.save is not None
        save = checked_envelope(record.save, "bench")
        table = ServedTable(commits, record, match_from_envelope(save, "bench", "jaipur"))
        links = [Link(), Link()]
        for seat, link in enumerate(links):
            table.admit(link, seat, "", MINOR)
        for _ in range(watchers):
            table.watch(Link(), MINOR)
        made.append((table, links))
    return made


async def play_round(tables: list[Table], rng: random.Random) -> int:
    """One random decision at every table still playing; how many were made."""
    waiting = []
    for table, links in tables:
        seat = table.match.to_move
        if seat is None:
            continue
        action = rng.choice(table.referee.legal())
        other = links[1 - seat]
        waiting.append((other, other.frames))
        decide = Decide(table.number, unstructure_actions(table.game, [action]))
        table.receive(links[seat], encode(decide))
    while any(link.frames == before for link, before in waiting):
        await asyncio.sleep(0.001)
    return len(waiting)


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(str(Path(folder) / "bench.db"))
        commits = CommitQueue(store)
        tables = make_tables(store, commits, args.tables, args.watchers)
        rng = random.Random(1)
        for _ in range(args.warm):
            await play_round(tables, rng)
        decisions, begun = 0, time.process_time()
        for _ in range(args.rounds):
            decisions += await play_round(tables, rng)
        cpu = time.process_time() - begun
        for table, _ in tables:
            await table.close()
        commits.close()
        store.close()
    print(
        f"{args.tables} tables, {args.watchers} watchers each, {args.warm} decisions in: "
        f"{decisions} decisions, {1000 * cpu / max(1, decisions):.2f} ms CPU a decision"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--warm", type=int, default=0)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
