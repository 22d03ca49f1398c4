"""The server's SSH door: ``ssh -p PORT name@server`` plays with nothing installed.

The door is an asyncssh server that accepts any public key and no password: the
key is the account.  It runs in a process of its own
(:mod:`karavan_net.serve.door_process`), never on the tables' event loop.  Each
session runs the installed Karavan app in a pseudo-terminal of its own, in a
process of its own (as ``karavan web`` runs one per browser tab), in door mode:
the server's own lobby and nothing of the machine it runs on (no local games,
reviews, saves or other servers).  The terminal's type, size and every resize
follow the client, the bytes both ways are flow-controlled
(:mod:`karavan_net.serve.pty_bridge`), and the session's process is ended and
reaped when the connection drops.  When the door stops with the server, each
player is told so in words before the connection closes.

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
import hashlib
import json
import os
import pty
import signal
import sys
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from karavan_core.saves import atomic_write
from karavan_core.text import check_name, printable
from karavan_net.accounts import Account, account_for, accounts_file, keep, new_secret
from karavan_net.guard import Buckets
from karavan_net.lobby import DOOR_ENV
from karavan_net.serve.limits import NEW_ACCOUNTS
from karavan_net.serve.pty_bridge import PtyBridge, set_size
from karavan_net.serve.store import KeyKind, Store, StoreError, key_digest

with warnings.catch_warnings():  # asyncssh still names DSA, which cryptography deprecates
    warnings.simplefilter("ignore")
    import asyncssh

MAX_SESSIONS = 32  # sessions at once, in all (each a process of some 45 MB)
SESSIONS_PER_KEY = 3
SESSIONS_PER_ADDRESS = 8
WINDOW = 65536  # bytes of the client's typing the door holds at most before SSH pushes back
HANG_UP_SECONDS = 5.0  # how long an app is given to end on SIGHUP before it is killed
STOP_SECONDS = 10.0  # how long the door waits for its sessions to end when it stops
LEAVE_SECONDS = 3.0  # how long it then waits for the clients to leave by themselves
RESTARTING = "The Karavan server is restarting: come back in a minute."
# What puts a terminal back as it was before the app drew on it (the app, ended by the door,
# could not): the normal screen, the cursor, no mouse, no bracketed paste, no focus events,
# the kitty keyboard's flags popped, wrapping on, plain colours.
RESTORE = (
    b"\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l\x1b[?2004l\x1b[?2048l"
    b"\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?1004l\x1b[?7h\x1b[0m\r\n"
)


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


def fingerprint_words(key: asyncssh.SSHKey) -> str:
    """The key's fingerprint as ``ssh-keygen -lf`` and ssh's first connection say it:
    ``SHA256:... (ED25519)``."""
    kind = key.algorithm.decode().removeprefix("ssh-").split("-")[0].upper()  # ECDSA, RSA
    return f"{key.get_fingerprint('sha256')} ({kind})"


class DoorSession(asyncssh.SSHServerSession[bytes]):
    """One ssh session: its channel's events, handed on to the door and to the session's
    :class:`PtyBridge` once the app runs."""

    def __init__(self, door: SshDoor) -> None:
        self.door = door
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.bridge: PtyBridge | None = None
        self.lost = asyncio.Event()  # the connection dropped
        self.task: asyncio.Task[None] | None = None

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        """The channel is open."""
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        """A terminal is what the app needs."""
        return True

    def shell_requested(self) -> bool:
        """The app runs in place of a shell."""
        return True

    def exec_requested(self, command: str) -> bool:
        """The app runs whatever command is asked for (the command itself is not run)."""
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        """No sftp or other subsystem."""
        return False

    def session_started(self) -> None:
        """Start the app; the client's keys wait until it runs."""
        assert self.chan is not None
        self.chan.pause_reading()
        self.task = asyncio.get_running_loop().create_task(self.door.session(self))

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        """The client's keys, to the app."""
        if self.bridge is not None:
            self.bridge.keys(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        """The client's window changed size."""
        if self.bridge is not None:
            self.bridge.resize(width, height)

    def pause_writing(self) -> None:
        """The channel's write buffer is full."""
        if self.bridge is not None:
            self.bridge.pause_output()

    def resume_writing(self) -> None:
        """The channel's write buffer has room again."""
        if self.bridge is not None:
            self.bridge.resume_output()

    def break_received(self, msec: int) -> bool:
        """A break means nothing to the app."""
        return False

    def eof_received(self) -> bool:
        """The client sends nothing more: the session ends."""
        self.lost.set()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection dropped: the app is ended."""
        self.lost.set()


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
        self.running: set[DoorSession] = set()
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.stopping = asyncio.Event()
        self._listener: asyncssh.SSHAcceptor | None = None
        self.port = 0
        self.fingerprint = ""  # the host key's, as ssh-keygen -lf says it
        # The accounts the door makes itself, per address (prepare runs on worker threads).
        self._new_accounts = Buckets(
            NEW_ACCOUNTS.rate, NEW_ACCOUNTS.burst, 0.0, time.monotonic, remembered=4096
        )
        self._new_accounts_lock = threading.Lock()

    def _say(self, line: str) -> None:
        if self.events is not None:
            self.events(printable(line))

    async def start(self, host: str, port: int, key_path: Path) -> int:
        """Listen on ``host``:``port`` with the host key kept at ``key_path``; the port."""
        door = self

        class Door(asyncssh.SSHServer):
            def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
                self.conn = conn
                door.connections.add(conn)

            def connection_lost(self, exc: Exception | None) -> None:
                door.connections.discard(self.conn)

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

            def session_requested(self) -> DoorSession:
                return DoorSession(door)

        key = await asyncio.to_thread(host_key, key_path)
        self.fingerprint = fingerprint_words(key)
        self._listener = await asyncssh.create_server(
            Door,
            host,
            port,
            server_host_keys=[key],
            encoding=None,
            line_editor=False,
            window=WINDOW,
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
        """Stop listening; each session's app is ended and its player told why, in words,
        before the connection closes."""
        if self._listener is not None:
            self._listener.close()
        self.stopping.set()
        tasks = [session.task for session in self.running if session.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=STOP_SECONDS)
        # A client leaves once its session's channel is closed, after showing all it was sent
        # (closing the connection first could cut the last words short).
        closing = [asyncio.ensure_future(conn.wait_closed()) for conn in self.connections]
        if closing:
            await asyncio.wait(closing, timeout=LEAVE_SECONDS)
        for conn in list(self.connections):
            conn.close()
        if self._listener is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._listener.wait_closed(), LEAVE_SECONDS)

    # -- a session -----------------------------------------------------------------------------
    async def session(self, session: DoorSession) -> None:
        """One player's session: the app in a pseudo-terminal, until either side ends."""
        chan = session.chan
        assert chan is not None
        fingerprint = chan.get_extra_info("karavan_key") or ""
        address = (chan.get_extra_info("peername") or ("?",))[0]
        if chan.get_terminal_type() is None:
            chan.write(b"Karavan needs a terminal: connect with ssh -t.\r\n")
            chan.exit(1)
            return
        key, where = f"key {fingerprint}", f"address {address}"
        if (
            self.total >= MAX_SESSIONS
            or self.sessions[key] >= SESSIONS_PER_KEY
            or self.sessions[where] >= SESSIONS_PER_ADDRESS
        ):
            chan.write(b"Karavan is full just now: try again in a while.\r\n")
            chan.exit(1)
            return
        self.total += 1
        self.sessions.update((key, where))
        self.running.add(session)
        try:
            username = chan.get_extra_info("username") or ""
            folder = await asyncio.to_thread(self.prepare, fingerprint, username, address)
            await self.run_app(session, folder)
        finally:
            self.total -= 1
            self.sessions.subtract((key, where))
            self.running.discard(session)

    def prepare(self, fingerprint: str, username: str, address: str = "?") -> Path:
        """The key's folder, with its settings and (once there is one) its account, made ready
        for the app: the account the key proves, else one named ``username`` if it is free
        and ``address`` may make one now."""
        folder = self.state / hashlib.sha256(fingerprint.encode()).hexdigest()[:32]
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        settings = folder / "settings.json"
        data = {"last_server": self.lobby}
        if settings.exists():
            with contextlib.suppress(Exception):
                data = {**json.loads(settings.read_text()), "last_server": self.lobby}
        atomic_write(settings, json.dumps(data))
        kept = accounts_file(settings)
        account = self._account(fingerprint, username, kept, address)
        if account is not None:
            keep(kept, account)
        return folder

    def _account(self, fingerprint: str, username: str, kept: Path, address: str) -> Account | None:
        """The account the key proves (linked now if the app made it last time), or a new
        one in the SSH user name; ``None`` where the app must ask for a name (and the
        lobby then counts the account it makes)."""
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
        if not self._may_make_account(address):
            return None
        try:
            name = check_name(username)
            made = store.accounts.create(name, KeyKind.SSH, fingerprint)
        except (ValueError, StoreError):
            return None  # the app asks for a name
        store.accounts.add_key(made.id, KeyKind.SECRET, key_digest(secret))
        self._say(f"{made.name} came in by ssh for the first time.")
        return Account(self.lobby, made.name, secret)

    def _may_make_account(self, address: str) -> bool:
        """Whether the door may make an account for a key from ``address`` now (counted)."""
        with self._new_accounts_lock:
            bucket = self._new_accounts.get(address)
            if not bucket.ready():
                return False
            bucket.take()
            return True

    def app_env(self, chan: asyncssh.SSHServerChannel[bytes], folder: Path) -> dict[str, str]:
        """The app's environment: its folder, the client's terminal, door mode."""
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(folder),
            "LANG": "C.UTF-8",
            "TERM": chan.get_terminal_type() or "xterm-256color",
            "KARAVAN_SETTINGS": str(folder / "settings.json"),
            "KARAVAN_SAVES": str(folder / "saves"),
            DOOR_ENV: self.lobby,
        }
        client_env = chan.get_environment()
        if "NO_COLOR" in client_env:
            env["NO_COLOR"] = "1"
        if client_env.get("COLORTERM") in ("truecolor", "24bit"):
            env["COLORTERM"] = client_env["COLORTERM"]
        return env

    async def run_app(self, session: DoorSession, folder: Path) -> None:
        """The app in a pseudo-terminal the size of the client's, its bytes both ways."""
        chan = session.chan
        assert chan is not None
        columns, rows = chan.get_terminal_size()[:2]
        master, slave = pty.openpty()
        set_size(master, columns or 80, rows or 24)
        try:
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "karavan_net.serve.take_terminal",
                self.karavan,
                "online",
                self.lobby,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=self.app_env(chan, folder),
                cwd=folder,
                start_new_session=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        ended = asyncio.Event()  # the app's side of the pty closed: all its output is read
        session.bridge = bridge = PtyBridge(chan, master, ended.set)
        try:
            bridge.start()
            chan.resume_reading()
            status = await self._until_done(session, child, ended)
        finally:
            bridge.close()
            await _end(child)
            os.close(master)
        with contextlib.suppress(Exception):  # the connection may be gone
            if status is None and not session.lost.is_set():  # the door is stopping
                chan.write(RESTORE + RESTARTING.encode() + b"\r\n")
            chan.exit(status or 0)

    async def _until_done(
        self, session: DoorSession, child: asyncio.subprocess.Process, ended: asyncio.Event
    ) -> int | None:
        """Wait until the app ends (its exit status), or the connection drops or the door
        stops (``None``)."""
        waits = {
            asyncio.ensure_future(child.wait()),
            asyncio.ensure_future(ended.wait()),
            asyncio.ensure_future(session.lost.wait()),
            asyncio.ensure_future(self.stopping.wait()),
        }
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if session.lost.is_set() or self.stopping.is_set():
                return None
            # The app ended: what it wrote last (putting the terminal back) is still read.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended.wait(), 1)
            return await child.wait()
        finally:
            for wait in waits:
                wait.cancel()


async def _end(child: asyncio.subprocess.Process) -> None:
    """End the app's process group (hung up, then killed if it lingers) and reap it."""
    if child.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGHUP)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(child.wait(), HANG_UP_SECONDS)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    await child.wait()  # reaped
