"""The ssh door: a player with only an ssh client plays at the server (the real `ssh` command
in a pseudo-terminal, read through pyte), and the door's accounts."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest

from karavan_net.accounts import account_for, accounts_file
from karavan_net.serve.ssh import SshDoor
from karavan_net.serve.store import KeyKind, Store
from tests.e2e.terminal import Terminal
from tests.net.helpers import free_port

from .test_serve_command import KARAVAN


def needs_ssh() -> str:
    ssh = shutil.which("ssh")
    if ssh is None:
        if os.environ.get("CI"):
            pytest.fail("no ssh client on this machine: .ci/run installs openssh-client")
        pytest.skip("no ssh client on this machine (apt-get install openssh-client)")
    return ssh


def test_the_key_is_the_account_named_after_the_ssh_user_when_free(tmp_path):
    store = Store.open(str(tmp_path / "server.db"))
    door = SshDoor(store, "127.0.0.1:7700", tmp_path / "keys", KARAVAN)
    folder = door.prepare("SHA256:ann-key", "ann")
    account = account_for(accounts_file(folder / "settings.json"), "127.0.0.1:7700")
    assert account is not None and account.name == "ann"
    assert store.accounts.by_key(KeyKind.SSH, "SHA256:ann-key") is not None
    assert oct((folder).stat().st_mode & 0o777) == "0o700"
    # The same key again: the same folder and account, whatever user name it brings.
    again = door.prepare("SHA256:ann-key", "root")
    assert again == folder
    assert account_for(accounts_file(again / "settings.json"), "127.0.0.1:7700").name == "ann"
    # Another key whose user name is taken: the app will ask for a name.
    other = door.prepare("SHA256:other-key", "ann")
    assert account_for(accounts_file(other / "settings.json"), "127.0.0.1:7700") is None
    store.close()


@pytest.mark.slow
def test_a_player_with_only_ssh_plays_resizes_and_leaves(tmp_path):
    ssh = needs_ssh()
    key = tmp_path / "id_test"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    port, ssh_port = free_port(), free_port()
    server = subprocess.Popen(
        [KARAVAN, "serve", "--port", str(port), "--ssh", str(ssh_port),
         "--db", str(tmp_path / "server.db"), "--state", str(tmp_path / "state")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        for _ in range(3):
            line = server.stdout.readline()
            if line.startswith("Players with only ssh"):
                break
        else:
            pytest.fail(f"the door did not open: {line}")
        bob_playing = start_bob(port)
        terminal = Terminal(
            [ssh, "-tt", "-p", str(ssh_port), "-i", str(key),
             "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
             "-o", "LogLevel=ERROR", "ann@127.0.0.1"],
            100, 30, {"PATH": os.environ["PATH"], "TERM": "xterm-256color"}, tmp_path,
        )  # fmt: skip
        terminal.wait_for("ann on 127.0.0.1")
        terminal.wait_for("Bob")  # Bob's table, in the lobby's list
        terminal.press("enter")  # take the free seat: the game starts, the table opens
        terminal.wait_until(lambda text: "Market" in text and "ann" in text, "the Jaipur table")
        # A move by keys: the list of decisions, the first of them.
        played = re.compile(r"\bann (takes|sells|exchanges|gives)")
        deadline = time.monotonic() + 60
        while not played.search(terminal.text()) and time.monotonic() < deadline:
            terminal.press("a")
            terminal.read_for(0.5)
            terminal.press("enter")
            terminal.read_for(1.0)
        assert played.search(terminal.text()), terminal.text()
        # A resize follows the client: the app draws at the new size.
        terminal.child.setwinsize(40, 120)
        terminal.screen.resize(40, 120)
        terminal.settle()
        assert max(len(line) for line in terminal.lines()) > 100  # it fills the wider screen
        # The connection drops: the session's process ends and is reaped.
        terminal.kill()
        gone = time.monotonic() + 20
        while sessions(ssh_port, port) and time.monotonic() < gone:
            time.sleep(0.2)
        assert sessions(ssh_port, port) == 0
        bob_playing.terminate()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)


def sessions(ssh_port: int, port: int) -> int:
    """How many app processes the door runs for this server now."""
    found = subprocess.run(
        ["pgrep", "-f", f"karavan online 127.0.0.1:{port}"], capture_output=True, text=True
    )
    return len(found.stdout.split())


def start_bob(port: int) -> subprocess.Popen[bytes]:
    """Bob opens a Jaipur table with an open seat, and a bot of his plays his seat."""
    script = f"""
import asyncio
from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient

async def main():
    lobby = LobbyClient("127.0.0.1", {port}, "Bob", "b" * 43)
    await lobby.connect(create=True)
    made = await lobby.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
    while (await lobby.mine()).tables[0].status != "playing":
        await asyncio.sleep(0.2)
    client = TableClient("127.0.0.1", {port}, str(made.table), "Bob", secret="b" * 43)
    await client.join()
    await BotPlayer(client, "random", out=print).play()

asyncio.run(main())
"""
    return subprocess.Popen([sys.executable, "-c", script])
