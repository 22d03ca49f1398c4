"""Benchmark of a hosted table on loopback: latency and throughput.

    python bench/host.py [--tables N] [--game GAME] [--players N] [--no-save]

One host process serves the tables (each autosaving after every decision,
like any hosted game, unless ``--no-save``); this process plays every seat of
every table as a headless random bot client over WebSockets, all at once.
The latency of a decision is measured from the moment its client sends it to
the moment each other client of the table has received the update it caused
(both ends are in this process, on one clock).  Two runs: one table alone
(the latency a player feels), then ``--tables`` tables at once (the load).
Figures, not tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from karavan_core.engine import Action
from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.protocol import Update

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
Ready = Any  # a multiprocessing.Event (its class is not public)


def host_main(
    port: int, tables: int, game: str, players: int, folder: str | None, ready: Ready
) -> None:
    """The host process: serve ``tables`` tables until every game is over and everyone left."""
    from karavan_net.host import host_for
    from karavan_net.server import HostServer

    async def main() -> None:
        served = []
        for index in range(tables):
            seats = [Seat(name) for name in NAMES[:players]]
            match = Match(get_game(game), seats, seed=1000 + index)
            save = Path(folder) / f"table-{index}.json" if folder else None
            served.append(host_for(match, f"bench-{index}", save_path=save, bot_delay=0.0))
        server = HostServer(served)
        await server.start("127.0.0.1", port)
        ready.set()
        await asyncio.gather(*(table.ended.wait() for table in served))
        await server.stop()

    asyncio.run(main())


async def play(port: int, tables: int, players: int) -> tuple[list[float], int, float]:
    """Play every seat of every table; returns the latencies (s), the decisions and the time."""
    # (table, decision number, receiving seat) -> when the decision was sent
    sent: dict[tuple[int, int, int], int] = {}
    latencies: list[float] = []

    def watcher(table: int, seat: int) -> Callable[[Update], None]:
        def on_update(update: Update) -> None:
            start = sent.pop((table, update.number - 1, seat), None)
            if start is not None:
                latencies.append((time.monotonic_ns() - start) / 1e9)

        return on_update

    bots: list[BotPlayer] = []
    for table in range(tables):
        for seat in range(players):
            client = TableClient("127.0.0.1", port, f"bench-{table}", NAMES[seat])
            await client.join()
            player = BotPlayer(client, "random", seed=seat, out=lambda line: None)
            player.on_update = watcher(table, seat)
            bots.append(player)
            original = client.decide

            async def timed(
                *actions: Action,
                client: TableClient = client,
                table: int = table,
                seat: int = seat,
                original: Callable[..., Awaitable[bool]] = original,
            ) -> bool:
                assert client.update is not None
                now = time.monotonic_ns()
                for other in range(players):
                    if other != seat:
                        sent[(table, client.update.number, other)] = now
                return await original(*actions)

            client.decide = timed  # type: ignore[method-assign]  # the benchmark times each decision
    started = time.perf_counter()
    await asyncio.gather(*(bot.play() for bot in bots))
    elapsed = time.perf_counter() - started
    decisions = sum(bot.client.update.number for bot in bots[::players] if bot.client.update)
    return latencies, decisions, elapsed


def run(tables: int, game: str, players: int, save: bool) -> None:
    """One host process with ``tables`` tables, played to the end; print the figures."""
    from socket import socket

    with socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with tempfile.TemporaryDirectory() as folder:
        ready = multiprocessing.Event()
        host = multiprocessing.Process(
            target=host_main, args=(port, tables, game, players, folder if save else None, ready)
        )
        host.start()
        ready.wait(30)
        latencies, decisions, elapsed = asyncio.run(play(port, tables, players))
        host.join(60)
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    median, worst = statistics.median(latencies), latencies[-1]
    print(
        f"| {tables} | {decisions} | {decisions / elapsed:,.0f} | "
        f"{median * 1000:.2f} | {p99 * 1000:.2f} | {worst * 1000:.1f} |"
    )


def main() -> None:
    """Parse the arguments and run both measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", default="jaipur")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--no-save", action="store_true", help="the host does not autosave")
    args = parser.parse_args()
    print(f"{get_game(args.game).title}, {args.players} random bot clients a table, loopback")
    print("| tables | decisions | decisions/s | median ms | p99 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for tables in (1, args.tables):
        run(tables, args.game, args.players, not args.no_save)


if __name__ == "__main__":
    main()
