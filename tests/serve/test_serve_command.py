"""The installed `karavan serve` as people run it: a real process, killed with SIGKILL mid-game."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from karavan_net.client import TableClient
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.serve.store import Store
from tests.net.helpers import free_port

from .test_play_online import greedy

SECRET = "p" * 43
# The installed command, beside this interpreter.
KARAVAN = str(Path(sys.executable).with_name("karavan"))


def start_server(db: Path, port: int) -> subprocess.Popen[str]:
    """`karavan serve` on loopback, once it says it is listening."""
    process = subprocess.Popen(
        [KARAVAN, "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line.startswith("Karavan server at 127.0.0.1:"), line
    return process


@pytest.mark.slow
async def test_a_server_killed_mid_game_loses_no_decision_that_was_shown(tmp_path):
    db, port = tmp_path / "server.db", free_port()
    server = start_server(db, port)
    try:
        ann = LobbyClient("127.0.0.1", port, "Ann", f"Ann-{SECRET}")
        bob = LobbyClient("127.0.0.1", port, "Bob", f"Bob-{SECRET}")
        await ann.connect(create=True)
        await bob.connect(create=True)
        made = await ann.create(CreateTable("karakum", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        shown: list[int] = []
        players = []
        for name, seed in (("Ann", 1), ("Bob", 2)):
            client = TableClient(
                "127.0.0.1", port, str(made.table), name, secret=f"{name}-{SECRET}"
            )
            await client.join()
            players.append(greedy(client, seed, shown))
        playing = [asyncio.get_running_loop().create_task(p.play()) for p in players]
        while max(shown, default=0) < 20:
            await asyncio.sleep(0.01)
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        seen = max(shown)
        store = Store.open(str(db))
        record = store.table(made.table)
        store.close()
        assert record is not None and record.revision >= seen
        time.sleep(0.2)
        server = start_server(db, port)
        assert await asyncio.wait_for(asyncio.gather(*playing), 120) == [0, 0]
        await ann.close()
        await bob.close()
    finally:
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=20)
        assert "Stopped. Every table is kept" in out
