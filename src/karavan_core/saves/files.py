"""The file side of saves: where they live, reading them safely, writing them atomically.

Reading takes only regular files (a FIFO or a device named ``*.json`` is
refused at once, never waited on) and never more than :data:`MAX_BYTES` plus
one byte.  Writing goes through a temporary file of our own naming in the
same folder, fsync and a rename, so a crash leaves the old file or the new
one; the temporary files of an interrupted write are removed at the next start.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import unicodedata
from datetime import datetime
from pathlib import Path

MAX_BYTES = 10 * 1024 * 1024
SAVES_ENV = "KARAVAN_SAVES"
MAX_STEM = 64  # characters in a save's name, without ".json"
# Letters and digits of any language ("Mäng õhtul"), then spaces, dots, dashes, underscores.
_STEM_CHARACTERS = re.compile(r"[^\W_][\w .-]*")
# ".NAME.PID.RANDOM.tmp": whose they are, so that only abandoned ones are removed.
_TEMP = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp$")

_UMASK = os.umask(0)
os.umask(_UMASK)
_NEW_FILE_MODE = 0o666 & ~_UMASK


class FileProblem(Exception):
    """A file that cannot be read as a save; ``str()`` says why, as a clause."""


def default_saves_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where saves go: ``override``, else ``$KARAVAN_SAVES``, else ``./saves``."""
    if override:
        return Path(override)
    env = os.environ.get(SAVES_ENV)
    return Path(env) if env else Path.cwd() / "saves"


def check_saves_dir(folder: Path) -> None:
    """Make sure saves can be written in ``folder`` (created if need be); ``OSError`` if not."""
    folder.mkdir(parents=True, exist_ok=True)
    if not folder.is_dir():
        raise NotADirectoryError(f"{folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"{folder} cannot be written to")


def check_writable(path: Path) -> None:
    """Raise ``OSError`` unless a file can be written at ``path``; its content stays as it is.

    Trying is the only sure test (permissions, read-only mounts, a folder in
    the way): an existing file is opened for appending, a new one is made and
    removed again.
    """
    if path.is_dir():
        raise IsADirectoryError("it is a folder")
    if path.exists():
        with path.open("a"):
            return
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.close(fd)
    path.unlink()


def read_limited(path: Path) -> bytes:
    """The bytes of the regular file at ``path``; :class:`FileProblem` if it is not one."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileProblem("no such file") from None
    except IsADirectoryError:
        raise FileProblem("a folder, not a save file") from None
    except OSError as error:
        raise FileProblem(f"cannot be read ({error.strerror})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem("a folder, not a save file")
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem("not a regular file (a device, a pipe or a socket)")
        if info.st_size > MAX_BYTES:
            raise FileProblem(
                f"file is {info.st_size / 1e6:.1f} MB, larger than a save can be "
                f"({MAX_BYTES // (1024 * 1024)} MB)"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:  # the file may grow while it is read: stop one byte past
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise FileProblem(f"cannot be read ({error.strerror})") from None
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise FileProblem(f"larger than a save can be ({MAX_BYTES // (1024 * 1024)} MB)")
    return b"".join(chunks)


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file.

    An existing file keeps its permission bits; a new one gets the usual ones.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = _NEW_FILE_MODE
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), mode)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:  # make the rename itself durable where the platform allows it
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, but belongs to somebody else
        return True
    return True


def remove_abandoned_temps(folder: Path, *, deep: bool = True) -> list[Path]:
    """Remove the temporary files that interrupted writes left in ``folder``; returns them.

    Only files of our own naming whose writing process has ended are removed,
    so another Karavan saving at the same moment keeps its file.  ``deep``:
    in its subfolders too (a save opened from elsewhere has only its own
    folder looked at).
    """
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for root, dirs, names in os.walk(folder):
        if not deep:
            dirs.clear()
        for name in names:
            found = _TEMP.match(name)
            if found and not _alive(int(found["pid"])):
                path = Path(root) / name
                try:
                    path.unlink()
                except OSError:
                    continue
                removed.append(path)
    return removed


def save_files(folder: Path) -> list[Path]:
    """Every ``*.json`` in ``folder`` and its subfolders (links to folders are not followed)."""
    found: list[Path] = []
    if not folder.is_dir():
        return found
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [Path(root) / n for n in sorted(names) if n.endswith(".json") and n[0] != "."]
    return found


def check_stem(stem: str) -> str:
    """A save name as typed (``.json`` may follow), checked; ``ValueError`` says why not."""
    # One spelling for each name (a decomposed "ä" from a Mac's keyboard names the same file).
    name = unicodedata.normalize("NFC", stem.strip())
    if name.lower().endswith(".json"):
        name = name[: -len(".json")].rstrip()
    if not name:
        raise ValueError("Type a name for the save.")
    if len(name) > MAX_STEM:
        raise ValueError(f"A save name can have at most {MAX_STEM} characters, not {len(name)}.")
    if not _STEM_CHARACTERS.fullmatch(name):
        raise ValueError(
            "A save name may hold letters and digits of any language, spaces, dots, dashes "
            "and underscores, and starts with a letter or digit."
        )
    return name


def new_save_path(folder: Path, game_name: str, stem: str | None = None) -> Path:
    """A fresh file name in ``folder``: ``stem.json`` or ``GAME-YYYYMMDD-HHMMSS.json``.

    ``stem`` is checked first (:func:`check_stem`, ``ValueError``); an
    existing file is never reused: a counter is added until the name is free.
    """
    base = check_stem(stem) if stem is not None else None
    base = base or f"{game_name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    path = folder / f"{base}.json"
    counter = 2
    while path.exists() or path.is_symlink():
        path = folder / f"{base}-{counter}.json"
        counter += 1
    return path
