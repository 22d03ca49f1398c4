"""The installed `karavan serve` as people run it: a real process, killed with SIGKILL mid-game."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import make_url

from karavan_net.client import TableClient
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.serve.store import Store
from tests.net.helpers import free_port

from .test_play_online import greedy

SECRET = "p" * 43
# The installed command, beside this interpreter.
KARAVAN = str(Path(sys.executable).with_name("karavan"))


class Process:
    """A `karavan serve` process (with more ``options``), its lines read as they come (each
    with the time it came)."""

    def __init__(self, database: str, port: int, *options: str) -> None:
        self.port = port
        self.popen = subprocess.Popen(
            [KARAVAN, "serve", "--port", str(port), "--db", database, *options],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[tuple[float, str]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    def said(self, words: str) -> float | None:
        """When the process said a line with ``words`` in it, if it has."""
        return next((when for when, line in self.lines if words in line), None)

    async def wait_for(self, words: str, seconds: float = 30) -> float:
        deadline = time.monotonic() + seconds
        while (when := self.said(words)) is None:
            assert self.popen.poll() is None, "\n".join(line for _, line in self.lines)
            assert time.monotonic() < deadline, f"no {words!r} in {self.lines}"
            await asyncio.sleep(0.05)
        return when

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
        self.popen.wait(timeout=20)
        self._reader.join(timeout=5)


async def table_of_two(port: int, game: str, first: str, second: str, **settings: Any) -> int:
    """A ``game`` table (``settings`` as CreateTable's) that ``first`` opens and ``second``
    takes the other seat at (both new accounts, logged out again): its number."""
    clients = [LobbyClient("127.0.0.1", port, name, f"{name}-{SECRET}") for name in (first, second)]
    for client in clients:
        await client.connect(create=True)
    seats = [SeatAsk("open"), SeatAsk("open")]
    made = await clients[0].create(CreateTable(game, seats, **settings))
    await clients[1].take(made.table)
    for client in clients:
        await client.close()
    return made.table


@pytest.mark.slow
async def test_a_server_killed_mid_game_loses_no_decision_that_was_shown(tmp_path):
    db, port = tmp_path / "server.db", free_port()
    server = Process(str(db), port)
    try:
        await server.wait_for("Karavan server at 127.0.0.1:")
        table = await table_of_two(port, "karakum", "Ann", "Bob")
        shown: list[int] = []
        players = []
        for name, seed in (("Ann", 1), ("Bob", 2)):
            client = TableClient("127.0.0.1", port, str(table), name, secret=f"{name}-{SECRET}")
            await client.join()
            players.append(greedy(client, seed, shown))
        playing = [asyncio.get_running_loop().create_task(p.play()) for p in players]
        while max(shown, default=0) < 20:
            await asyncio.sleep(0.01)
        os.kill(server.popen.pid, signal.SIGKILL)
        server.popen.wait()
        seen = max(shown)
        store = Store.open(str(db))
        record = store.tables.get(table)
        store.close()
        assert record is not None and record.revision >= seen
        time.sleep(0.2)
        server = Process(str(db), port)
        await server.wait_for("Karavan server at 127.0.0.1:")
        assert await asyncio.wait_for(asyncio.gather(*playing), 120) == [0, 0]
    finally:
        server.stop()
    assert server.said("Stopped. Every table is kept") is not None


@pytest.mark.slow  # PostgreSQL's tests are slow checks, as for the database fixture
@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_the_database_password_is_never_printed(database):
    password = make_url(database).password
    assert password
    server = Process(database, free_port())
    try:
        await server.wait_for("Karavan server at 127.0.0.1:")
    finally:
        server.stop()
    said = "\n".join(line for _, line in server.lines)
    assert f":{password}@" not in said and ":***@" in said
    # Nor when the database cannot be opened.
    wrong = database.replace(f":{password}@", ":Wr0ng-s3cret@")
    refused = subprocess.run(
        [KARAVAN, "serve", "--port", str(free_port()), "--db", wrong],
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = refused.stdout + refused.stderr
    assert refused.returncode != 0 and "cannot open the database" in said
    assert "Wr0ng-s3cret" not in said and ":***@" in said


async def test_with_log_format_json_each_event_is_one_json_object_a_line(tmp_path):
    port = free_port()
    server = Process(str(tmp_path / "server.db"), port, "--log-format", "json")
    try:
        await server.wait_for("Karavan server at 127.0.0.1:")
        ann = LobbyClient("127.0.0.1", port, "Ann", f"Ann-{SECRET}")
        await ann.connect(create=True)
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await server.wait_for("opened table")
        await ann.close()
    finally:
        server.stop()
    events = [json.loads(line) for _, line in server.lines]
    assert all({"time", "level", "event", "message"} <= event.keys() for event in events)
    kinds = [event["event"] for event in events]
    assert kinds[0] == "listening" and "login" in kinds and kinds[-1] == "stopped"
    [opened] = [event for event in events if event["event"] == "table_opened"]
    assert (opened["table"], opened["account"], opened["game"]) == (made.table, "Ann", "jaipur")
    assert opened["message"] == f"Ann opened table {made.table} (jaipur)."
    assert not any(SECRET in line for _, line in server.lines)  # never a key
