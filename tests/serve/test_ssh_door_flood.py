"""One ssh session flooding the door stops nobody else: during a big paste, or thousands of
window changes, through the real `ssh` client into `karavan serve --ssh`, a lobby client gets
every answer within half a second and a table of two bots keeps playing."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import pytest

from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.lobby_client import LobbyClient
from tests.e2e.terminal import Terminal
from tests.net.helpers import free_port

from .test_play_online import greedy
from .test_serve_command import SECRET, Process, table_of_two
from .test_ssh_door import needs_ssh, new_key, ssh_terminal

ANSWER_WITHIN = 0.5  # seconds: the lobby's answers while one session floods the door
DECISION_EVERY = 0.2  # seconds each bot takes to decide
FLOOD_SECONDS = 10.0  # how long the flood is watched


class Paced:
    """A bot that takes ``pause`` seconds over each decision (so the game lasts)."""

    def __init__(self, bot: object, pause: float) -> None:
        self.bot, self.pause = bot, pause

    def choose(self, observation: object, legal: list[object]) -> object:
        time.sleep(self.pause)
        return self.bot.choose(observation, legal)  # type: ignore[attr-defined]


def paste(size: int) -> Callable[[Terminal, threading.Event], None]:
    """A paste of ``size`` bytes of keys that do nothing in the lobby."""

    def flood(terminal: Terminal, stop: threading.Event) -> None:
        data = b"a" * size
        fd = terminal.child.child_fd
        with contextlib.suppress(OSError):  # the terminal closed at the end of the test
            while data and not stop.is_set():
                data = data[os.write(fd, data[:4096]) :]

    return flood


# Sets a terminal's size again and again, as fast as it goes (each change a SIGWINCH to ssh).
RESIZING = """
import fcntl, struct, sys, termios
fd, count = int(sys.argv[1]), 0
while True:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30 + count % 2, 100 + count % 3, 0, 0))
    count += 1
"""


def resizes(terminal: Terminal, stop: threading.Event) -> None:
    """The terminal's size changed until ``stop``, by a process of its own (so that the test's
    own event loop, measuring, is not slowed)."""
    fd = terminal.child.child_fd
    flood = subprocess.Popen([sys.executable, "-c", RESIZING, str(fd)], pass_fds=[fd])
    stop.wait()
    flood.kill()
    flood.wait()


async def playing_bots(port: int) -> tuple[list[asyncio.Task[int]], list[float]]:
    """Bob and Cid at a Jaipur table, each bot deciding in :data:`DECISION_EVERY` seconds;
    the times at which updates reach Bob."""
    table = await table_of_two(port, "jaipur", "Bob", "Cid")
    arrivals: list[float] = []
    tasks = []
    for name, seed in (("Bob", 1), ("Cid", 2)):
        client = TableClient("127.0.0.1", port, str(table), name, secret=f"{name}-{SECRET}")
        await client.join()
        player: BotPlayer = greedy(client, seed)
        player.bot = Paced(player.bot, DECISION_EVERY)  # type: ignore[assignment]
        if name == "Bob":
            player.on_update = lambda _: arrivals.append(time.monotonic())
        tasks.append(asyncio.get_running_loop().create_task(player.play()))
    return tasks, arrivals


async def lobby_answers(dan: LobbyClient, until: float) -> list[float]:
    """How long each of ``dan``'s lobby requests took, asked one after the other until
    ``until`` (a request that takes over 5 s counts as 5 s, and ends the asking)."""
    took = []
    while time.monotonic() < until:
        start = time.monotonic()
        try:
            await asyncio.wait_for(dan.tables(), 5)
        except TimeoutError:
            took.append(5.0)
            break
        took.append(time.monotonic() - start)
        await asyncio.sleep(0.05)
    return took


def drain(terminal: Terminal, stop: threading.Event) -> None:
    """Read what the ssh client draws, so that it never waits on its own terminal."""
    with contextlib.suppress(OSError, ValueError):  # the terminal closed at the end
        while not stop.is_set() and terminal.pump(0.1):
            pass


@pytest.mark.slow
@pytest.mark.parametrize(
    "flood",
    [paste(64 * 1024), paste(512 * 1024), resizes],
    ids=["paste-64k", "paste-512k", "resizes"],
)
async def test_a_flooding_ssh_session_stops_neither_the_lobby_nor_a_table(tmp_path, flood):
    ssh, key = needs_ssh(), new_key(tmp_path)
    port, ssh_port = free_port(), free_port()
    server = Process(
        str(tmp_path / "server.db"),
        port,
        "--ssh",
        str(ssh_port),
        "--state",
        str(tmp_path / "state"),
    )
    terminal = None
    stop = threading.Event()
    threads: list[threading.Thread] = []
    tasks: list[asyncio.Task[int]] = []
    try:
        await server.wait_for("Players with only ssh")
        terminal = ssh_terminal(ssh, ssh_port, key, tmp_path)
        await asyncio.to_thread(terminal.wait_for, "ann on 127.0.0.1")
        tasks, arrivals = await playing_bots(port)
        dan = LobbyClient("127.0.0.1", port, "Dan", f"Dan-{SECRET}")
        await dan.connect(create=True)
        while len(arrivals) < 4:  # the game is under way
            await asyncio.sleep(0.05)
        threads = [
            threading.Thread(target=target, args=(terminal, stop), daemon=True)
            for target in (flood, drain)
        ]
        start = time.monotonic()
        for thread in threads:
            thread.start()
        took = await lobby_answers(dan, start + FLOOD_SECONDS)
        end = time.monotonic()
        await dan.close()
        assert max(took) < ANSWER_WITHIN, f"lobby answers took up to {max(took):.2f} s"
        during = [start, *(t for t in arrivals if start <= t <= end), end]
        gaps = [later - earlier for earlier, later in itertools.pairwise(during)]
        assert len(during) > FLOOD_SECONDS / DECISION_EVERY / 2, "the table stopped playing"
        assert max(gaps) < 5 * DECISION_EVERY, f"the table stopped for {max(gaps):.2f} s"
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        if terminal is not None:
            terminal.kill()
        for thread in threads:
            thread.join(timeout=10)
        try:
            server.stop()
        finally:
            if server.popen.poll() is None:
                server.popen.kill()
