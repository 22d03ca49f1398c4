"""The ssh door's own process, as the server keeps it: open on a port with its host key's
fingerprint, started again on the same port when it dies, stopped with the server, gone
when the server that started it is gone, and saying why when it cannot open."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from karavan_net.serve import door_keeper
from karavan_net.serve.door_keeper import DoorFailed, DoorKeeper
from karavan_net.serve.door_process import DoorConfig

from .test_serve_command import KARAVAN


def config(tmp_path, port: int = 0, database: str | None = None) -> DoorConfig:
    return DoorConfig(
        database or str(tmp_path / "server.db"), "127.0.0.1:7700", str(tmp_path / "state"),
        KARAVAN, "127.0.0.1", port,
    )  # fmt: skip


def banner(port: int) -> bytes:
    """The first line an ssh server says on ``port``."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        return connection.makefile("rb").readline()


async def test_a_door_that_dies_is_opened_again_on_its_port_and_stops_with_the_server(
    tmp_path, monkeypatch, database
):
    monkeypatch.setattr(door_keeper, "FIRST_WAIT", 0.1)
    said: list[str] = []
    keeper = DoorKeeper(config(tmp_path, database=database), events=said.append)
    opened = await keeper.start()
    try:
        assert opened.port > 0 and opened.fingerprint.startswith("SHA256:")
        assert (await asyncio.to_thread(banner, opened.port)).startswith(b"SSH-2.0-")
        first = keeper.process
        assert first is not None
        os.kill(first.pid, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while "The ssh door is open again." not in said:
            assert time.monotonic() < deadline, said
            await asyncio.sleep(0.05)
        assert said[0].startswith("The ssh door stopped (exit status -9)")
        assert keeper.process is not first
        assert (await asyncio.to_thread(banner, opened.port)).startswith(b"SSH-2.0-")
    finally:
        await keeper.stop()
    assert keeper.process is not None and keeper.process.returncode == 0


async def test_a_door_that_cannot_listen_says_why(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        keeper = DoorKeeper(config(tmp_path, taken.getsockname()[1]))
        with pytest.raises(DoorFailed, match="cannot listen"):
            await keeper.start()
    assert keeper.process is not None and keeper.process.returncode is not None


def test_the_door_ends_when_the_server_that_started_it_is_gone(tmp_path):
    door = subprocess.Popen(
        [sys.executable, "-m", "karavan_net.serve.door_process"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert door.stdin is not None and door.stdout is not None
        door.stdin.write(config(tmp_path).to_json() + "\n")
        door.stdin.flush()
        assert "listening" in json.loads(door.stdout.readline())
        door.stdin.close()  # as when the server's process is killed
        assert door.wait(timeout=30) == 0
    finally:
        if door.poll() is None:
            door.kill()
            door.wait()
