"""The server's SSH door: ``ssh -p PORT name@server`` plays with nothing installed.

The door is an asyncssh server that accepts any public key and no password: the
key is the account.  Each session runs the installed Karavan app in a
pseudo-terminal of its own, in a process of its own (as ``karavan web`` runs one
per browser tab), opened at Play online for this server's own lobby; the
terminal's type, size and every resize follow the client, and the session's
process is ended and reaped when the connection drops.

Each key has a folder of its own under the server's state folder (named by a
digest of the key's fingerprint), holding that player's settings and the
account the app logs in with.  The first time, the account takes the SSH user
name if it is free (otherwise the app asks for a name); from then on the key
finds it again, and the account's secret never leaves the server's machine.
Sessions are capped in all, per key and per address.  The door's host key is
made on its first start and kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import os
import pty
import signal
import struct
import termios
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from karavan_core.saves import atomic_write
from karavan_core.text import check_name, printable
from karavan_net.accounts import Account, account_for, accounts_file, keep, new_secret
from karavan_net.serve.store import KeyKind, Store, StoreError, key_digest

with warnings.catch_warnings():  # asyncssh still names DSA, which cryptography deprecates
    warnings.simplefilter("ignore")
    import asyncssh

MAX_SESSIONS = 32  # sessions at once, in all (each a process of some 45 MB)
SESSIONS_PER_KEY = 3
SESSIONS_PER_ADDRESS = 8
READ_SIZE = 65536


def host_key(path: Path) -> asyncssh.SSHKey:
    """The door's host key kept at ``path``, made (Ed25519, readable by its owner only) the
    first time."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519")
    path.parent.mkdir(parents=True, exist_ok=True)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    key.write_private_key(str(path))
    return key


def _resize(fd: int, columns: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class SshDoor:
    """The SSH door of a server whose lobby listens on ``lobby`` (``HOST:PORT``, loopback).

    ``state`` is the folder of the players' folders; ``karavan`` the installed command.
    """

    def __init__(
        self,
        store: Store,
        lobby: str,
        state: Path,
        karavan: str,
        *,
        events: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.state = state
        self.karavan = karavan
        self.events = events
        self.sessions: Counter[str] = Counter()  # by key and by address
        self.total = 0
        self._listener: asyncssh.SSHAcceptor | None = None
        self.port = 0

    def _say(self, line: str) -> None:
        if self.events is not None:
            self.events(printable(line))

    async def start(self, host: str, port: int, key_path: Path) -> int:
        """Listen on ``host``:``port`` with the host key kept at ``key_path``; the port."""
        door = self

        class Door(asyncssh.SSHServer):
            def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
                self.conn = conn

            def begin_auth(self, username: str) -> bool:
                return True  # a key is always asked for

            def password_auth_supported(self) -> bool:
                return False

            def kbdint_auth_supported(self) -> bool:
                return False

            def public_key_auth_supported(self) -> bool:
                return True

            def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
                self.conn.set_extra_info(karavan_key=key.get_fingerprint("sha256"))
                return True  # any key: it is the account

        self._listener = await asyncssh.create_server(
            Door,
            host,
            port,
            server_host_keys=[host_key(key_path)],
            process_factory=door.session,
            encoding=None,
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            sftp_factory=None,
            keepalive_interval=30,
        )
        sockets = self._listener.sockets
        self.port = sockets[0].getsockname()[1] if sockets else port
        return self.port

    async def stop(self) -> None:
        """Stop listening; the sessions end with their connections."""
        if self._listener is not None:
            self._listener.close()
            await self._listener.wait_closed()

    # -- a session -----------------------------------------------------------------------------
    async def session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        """One player's session: the app in a pseudo-terminal, until either side ends."""
        conn = process.get_extra_info("connection")
        fingerprint = conn.get_extra_info("karavan_key") or ""
        address = (process.get_extra_info("peername") or ("?",))[0]
        if process.get_terminal_type() is None:
            process.stdout.write(b"Karavan needs a terminal: connect with ssh -t.\r\n")
            process.exit(1)
            return
        key, where = f"key {fingerprint}", f"address {address}"
        if (
            self.total >= MAX_SESSIONS
            or self.sessions[key] >= SESSIONS_PER_KEY
            or self.sessions[where] >= SESSIONS_PER_ADDRESS
        ):
            process.stdout.write(b"Karavan is full just now: try again in a while.\r\n")
            process.exit(1)
            return
        self.total += 1
        self.sessions.update((key, where))
        try:
            folder = await asyncio.to_thread(
                self.prepare, fingerprint, process.get_extra_info("username") or ""
            )
            await self.run_app(process, folder)
        finally:
            self.total -= 1
            self.sessions.subtract((key, where))

    def prepare(self, fingerprint: str, username: str) -> Path:
        """The key's folder, with its settings and (once there is one) its account, made ready
        for the app: the account the key proves, else one named ``username`` if it is free."""
        folder = self.state / hashlib.sha256(fingerprint.encode()).hexdigest()[:32]
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        settings = folder / "settings.json"
        data = {"last_server": self.lobby}
        if settings.exists():
            with contextlib.suppress(Exception):
                data = {**json.loads(settings.read_text()), "last_server": self.lobby}
        atomic_write(settings, json.dumps(data))
        kept = accounts_file(settings)
        account = self._account(fingerprint, username, kept)
        if account is not None:
            keep(kept, account)
        return folder

    def _account(self, fingerprint: str, username: str, kept: Path) -> Account | None:
        """The account the key proves (linked now if the app made it last time), or a new
        one in the SSH user name; ``None`` where the app must ask for a name."""
        store = self.store
        known = account_for(kept, self.lobby)
        proven = store.accounts.by_key(KeyKind.SSH, fingerprint)
        if known is not None:
            mine = store.accounts.by_key(KeyKind.SECRET, key_digest(known.secret))
            if mine is not None:
                if proven is None:
                    store.accounts.add_key(mine.id, KeyKind.SSH, fingerprint)
                return Account(self.lobby, mine.name, known.secret)
        secret = new_secret()
        if proven is not None:
            store.accounts.add_key(proven.id, KeyKind.SECRET, key_digest(secret))
            return Account(self.lobby, proven.name, secret)
        try:
            name = check_name(username)
            made = store.accounts.create(name, KeyKind.SSH, fingerprint)
        except (ValueError, StoreError):
            return None  # the app asks for a name
        store.accounts.add_key(made.id, KeyKind.SECRET, key_digest(secret))
        self._say(f"{made.name} came in by ssh for the first time.")
        return Account(self.lobby, made.name, secret)

    async def run_app(self, process: asyncssh.SSHServerProcess[bytes], folder: Path) -> None:
        """The app in a pseudo-terminal the size of the client's, its bytes both ways."""
        columns, rows = process.get_terminal_size()[:2]
        master, slave = pty.openpty()
        _resize(master, columns or 80, rows or 24)
        client_env = process.env
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(folder),
            "LANG": "C.UTF-8",
            "TERM": process.get_terminal_type() or "xterm-256color",
            "KARAVAN_SETTINGS": str(folder / "settings.json"),
            "KARAVAN_SAVES": str(folder / "saves"),
        }
        if "NO_COLOR" in client_env:
            env["NO_COLOR"] = "1"
        if client_env.get("COLORTERM") in ("truecolor", "24bit"):
            env["COLORTERM"] = client_env["COLORTERM"]
        child = await asyncio.create_subprocess_exec(
            self.karavan,
            "online",
            self.lobby,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=folder,
            start_new_session=True,
            preexec_fn=_take_terminal,
        )
        os.close(slave)
        try:
            await self._pump(process, master, child)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGHUP)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(child.wait(), 5)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)
            await child.wait()  # reaped
            os.close(master)
        with contextlib.suppress(Exception):
            process.exit(child.returncode or 0)

    async def _pump(
        self, process: asyncssh.SSHServerProcess[bytes], master: int, child: Any
    ) -> None:
        """Copy the app's output to the client and the client's keys to the app, until the
        app ends or the connection drops."""
        loop = asyncio.get_running_loop()
        out_done = loop.create_future()

        def readable() -> None:
            try:
                data = os.read(master, READ_SIZE)
            except OSError:
                data = b""
            if not data:
                loop.remove_reader(master)
                if not out_done.done():
                    out_done.set_result(None)
                return
            process.stdout.write(data)

        loop.add_reader(master, readable)
        keys = loop.create_task(self._keys(process, master))
        ended = loop.create_task(child.wait())
        try:
            await asyncio.wait({keys, ended, out_done}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            loop.remove_reader(master)
            keys.cancel()

    @staticmethod
    async def _keys(process: asyncssh.SSHServerProcess[bytes], master: int) -> None:
        while True:
            try:
                data = await process.stdin.read(READ_SIZE)
            except asyncssh.TerminalSizeChanged as change:
                _resize(master, change.width or 80, change.height or 24)
                continue
            except (asyncssh.BreakReceived, asyncssh.SignalReceived):
                continue
            if not data:
                return
            os.write(master, data)


def _take_terminal() -> None:
    """In the app's process, before it runs: its pseudo-terminal becomes its own."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
