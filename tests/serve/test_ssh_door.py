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
from pathlib import Path

import pyte
import pytest

from karavan_net.accounts import account_for, accounts_file
from karavan_net.serve.ssh import SshDoor, fingerprint_words, host_key
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


def new_key(folder: Path) -> Path:
    """A new Ed25519 key in ``folder``, without a passphrase."""
    key = folder / "id_test"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    return key


def ssh_terminal(ssh: str, ssh_port: int, key: Path, folder: Path) -> Terminal:
    """Ann at the door with the real ssh client, in a 100x30 pseudo-terminal."""
    return Terminal(
        [ssh, "-tt", "-p", str(ssh_port), "-i", str(key),
         "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
         "-o", "LogLevel=ERROR", "ann@127.0.0.1"],
        100, 30, {"PATH": os.environ["PATH"], "TERM": "xterm-256color"}, folder,
    )  # fmt: skip


def test_the_key_is_the_account_named_after_the_ssh_user_when_free(tmp_path, database):
    store = Store.open(database)
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
    ssh, key = needs_ssh(), new_key(tmp_path)
    port, ssh_port = free_port(), free_port()
    server = subprocess.Popen(
        [KARAVAN, "serve", "--port", str(port), "--ssh", str(ssh_port),
         "--db", str(tmp_path / "server.db"), "--state", str(tmp_path / "state")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        for _ in range(4):
            line = server.stdout.readline()
            if line.startswith("Players with only ssh"):
                break
        else:
            pytest.fail(f"the door did not open: {line}")
        bob_playing = start_bob(port)
        terminal = ssh_terminal(ssh, ssh_port, key, tmp_path)
        terminal.wait_for("ann on 127.0.0.1")
        terminal.wait_for("Bob")  # Bob's table, in the lobby's list
        terminal.press("enter")  # the free seat, asked first
        terminal.wait_for("Sit at table")
        terminal.press("y")  # taken: the game starts, the table opens
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


def test_the_host_key_fingerprint_is_as_ssh_keygen_says_it(tmp_path):
    keygen = shutil.which("ssh-keygen")
    if keygen is None:
        pytest.skip("no ssh-keygen on this machine (apt-get install openssh-client)")
    path = tmp_path / "ssh_host_key"
    words = fingerprint_words(host_key(path))
    _, fingerprint, *_, kind = subprocess.run(
        [keygen, "-lf", str(path)], capture_output=True, text=True, check=True
    ).stdout.split()
    assert words == f"{fingerprint} {kind}"
    assert fingerprint_words(host_key(path)) == words  # the key is kept


@pytest.mark.slow
def test_a_server_that_stops_tells_its_ssh_players_in_words_and_gives_their_terminal_back(
    tmp_path,
):
    ssh, key = needs_ssh(), new_key(tmp_path)
    port, ssh_port = free_port(), free_port()
    state = tmp_path / "state"
    server = subprocess.Popen(
        [KARAVAN, "serve", "--port", str(port), "--ssh", str(ssh_port),
         "--db", str(tmp_path / "server.db"), "--state", str(state)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    terminal = None
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(5)]
        assert lines[3].startswith("Players with only ssh"), lines
        fingerprint = subprocess.run(
            ["ssh-keygen", "-lf", str(state / "ssh_host_key")],
            capture_output=True, text=True, check=True,
        ).stdout.split()[1]  # fmt: skip
        assert lines[4].startswith(f"The ssh door's host key: {fingerprint} (ED25519)"), lines
        terminal = ssh_terminal(ssh, ssh_port, key, tmp_path)
        terminal.wait_for("ann on 127.0.0.1")
        assert pyte.modes.DECTCEM not in terminal.screen.mode  # the app hides the cursor
        server.send_signal(signal.SIGTERM)
        terminal.wait_exit()
        server.wait(timeout=30)
        assert "The Karavan server is restarting: come back in a minute." in terminal.text(), (
            server.stdout.read()
        )
        modes = terminal.screen.mode
        assert pyte.modes.DECTCEM in modes  # the cursor shows again
        for private in (1000, 1003, 1006, 1049, 2004):  # no mouse, the normal screen, no paste
            assert private << 5 not in modes, private
        assert sessions(ssh_port, port) == 0
    finally:
        if terminal is not None:
            terminal.kill()
        if server.poll() is None:
            server.kill()
            server.wait()
