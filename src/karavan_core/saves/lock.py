"""One game, one window: an advisory lock on a save while a window plays it.

Two windows playing one save would each write their own game over the other's. A window
that plays a save holds an exclusive ``flock`` on a lock file beside it (``.NAME.lock``:
the save itself is replaced at every write, and a lock on a replaced file locks nothing).
The operating system lets the lock go when the window's process ends, however it ends, so
a crashed window never leaves a game locked: the lock file's presence means nothing, only
a held lock does.  A lock file is removed by its holder as it lets go; one left by a crash
is reused.

Where the platform has no ``flock`` (Windows), nothing is locked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path

LOCKS = sys.platform != "win32"  # Windows has no flock: nothing is kept from two windows there
if LOCKS:
    import fcntl

OPEN_ELSEWHERE = "This game is open in another window."


class OpenElsewhere(OSError):
    """The save is played in another window: an ``OSError`` (busy) whose ``strerror`` says
    so in a sentence, so that whoever reports a file it cannot write reports this too."""

    def __init__(self, save: Path) -> None:
        super().__init__(errno.EBUSY, OPEN_ELSEWHERE, str(save))
        self.save = save


def lock_path(save: Path) -> Path:
    """The lock file of ``save``: hidden beside it, never listed among the saves."""
    return save.with_name(f".{save.name}.lock")


def _try_lock(save: Path) -> int | None:
    """An open descriptor holding ``save``'s lock, or ``None`` if another holds it.

    The lock is taken on the file the path names once locked: a holder letting go
    removes its file, so a lock taken on a file just removed is taken again.
    """
    path = lock_path(save)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        except BaseException:
            os.close(fd)
            raise
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # its holder removed it as we took it: the lock is on the new file


class SaveLock:
    """The lock of the save a window plays (see the module); taking it raises
    :class:`OpenElsewhere` when another window holds it."""

    def __init__(self, save: Path) -> None:
        self.save = save
        self._fd: int | None = None
        if LOCKS:
            self._fd = _try_lock(save)
            if self._fd is None:
                raise OpenElsewhere(save)

    def release(self) -> None:
        """Let the save go (its lock file removed while still held, so no window waits on
        a file about to vanish)."""
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(lock_path(self.save))
        os.close(self._fd)
        self._fd = None


def open_elsewhere(save: Path) -> bool:
    """Whether another window plays ``save`` now (its lock is held)."""
    if not LOCKS or not lock_path(save).exists():
        return False
    try:
        probe = SaveLock(save)
    except OpenElsewhere:
        return True
    except OSError:  # a folder we cannot write: nobody plays it from here either
        return False
    probe.release()  # nobody held it: its file goes with the probe
    return False
