"""The seat secrets a player's Karavan remembers, to take a seat back after a restart.

The host gives each seat a secret at its first join; whoever holds it may
take the seat again.  A client keeps it in memory for reconnecting, and here
in a small file beside the settings (readable by its owner only), so that a
closed terminal or a reloaded browser tab can join again as the same player.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from karavan_core.saves import atomic_write, read_limited

KEPT = 50  # tables remembered; the oldest are forgotten first


def _key(host: str, port: int, code: str, name: str) -> str:
    return f"{host}:{port} {code} {name.casefold()}"


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(read_limited(path))
    except Exception:  # missing or unreadable: nothing remembered
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def remembered(path: Path | None, host: str, port: int, code: str, name: str) -> str | None:
    """The secret kept for that seat, if any."""
    if path is None:
        return None
    return _read(path).get(_key(host, port, code, name))


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock beside ``path`` while it is read, changed and written.

    Every Karavan on a machine shares the file (two terminals, or the tabs of
    ``karavan web``): without the lock, two that join at the same moment both
    read it and the second write loses the first one's secret, and that
    player can never take the seat back after a drop.
    """
    lock = path.with_name(f".{path.name}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        if sys.platform != "win32":
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd is closed
        yield
    finally:
        os.close(fd)


def remember(path: Path | None, host: str, port: int, code: str, name: str, secret: str) -> None:
    """Keep ``secret`` for that seat (a file that cannot be written is no reason to stop)."""
    if path is None:
        return
    key = _key(host, port, code, name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(path):
            kept = _read(path)
            kept.pop(key, None)
            kept[key] = secret
            while len(kept) > KEPT:
                kept.pop(next(iter(kept)))
            if not path.exists():
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            atomic_write(path, json.dumps(kept))
    except OSError:
        return


def seats_file(settings_path: Path) -> Path:
    """Where the seat secrets live: beside the settings file."""
    return settings_path.with_name("seats.json")
