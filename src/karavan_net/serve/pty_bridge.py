"""The bytes between an ssh session and its app's pseudo-terminal, flow-controlled both ways.

The pty's master side is non-blocking and watched by the event loop, so one session never
holds up the others:

- The client's keys are written as the app reads them.  What the pty does not take at once is
  kept (one packet at most) while the ssh channel stops delivering; its SSH window then fills
  and the client waits: a big paste goes in at the pace the app reads it.
- The app's output is read only while the channel can send it.  Once the channel's write
  buffer is full it says so (:meth:`PtyBridge.pause_output`), and the app's next write waits
  in its own pty: a slow client slows only its own app.
- Window changes are coalesced: the newest size is applied, at most every
  :data:`RESIZE_EVERY` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import struct
import termios
from collections.abc import Callable
from typing import Protocol

READ_SIZE = 16384  # bytes of the app's output read at once
RESIZE_EVERY = 0.05  # seconds: the most often a new size reaches the app


class Channel(Protocol):
    """The side of an ssh channel the bridge uses."""

    def write(self, data: bytes) -> None:
        """Send ``data`` to the client."""

    def pause_reading(self) -> None:
        """Deliver no more of the client's data for now."""

    def resume_reading(self) -> None:
        """Deliver the client's data again."""


def set_size(fd: int, columns: int, rows: int) -> None:
    """Give the pseudo-terminal of ``fd`` the size ``columns`` x ``rows`` (the app is sent
    SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class PtyBridge:
    """Copies the bytes between ``channel`` and the pty ``master`` until the app's side
    closes; then ``ended`` is called (once)."""

    def __init__(self, channel: Channel, master: int, ended: Callable[[], None]) -> None:
        self.channel = channel
        self.master = master
        self.ended = ended
        self.loop = asyncio.get_running_loop()
        self.pending = b""  # the client's bytes the app has not read yet
        self.writing = False  # waiting for the pty to take ``pending`` (the channel paused)
        self.reading = False  # the app's output is being read
        self.closed = False
        self.size: tuple[int, int] | None = None  # the newest size not applied yet
        self._resizing: asyncio.TimerHandle | None = None
        self._resized_at = 0.0
        os.set_blocking(master, False)

    def start(self) -> None:
        """Begin reading the app's output."""
        self.resume_output()

    # -- the client's keys, to the app -----------------------------------------------------------
    def keys(self, data: bytes) -> None:
        """The client typed (or pasted) ``data``: to the app as it reads it."""
        if self.closed:
            return
        self.pending += data
        if not self.writing:
            self._write()

    def _write(self) -> None:
        try:
            written = os.write(self.master, self.pending)
        except BlockingIOError:
            written = 0
        except OSError:  # the app is gone: what it never read is dropped
            written = len(self.pending)
        self.pending = self.pending[written:]
        if self.pending and not self.writing:
            self.writing = True
            self.channel.pause_reading()
            self.loop.add_writer(self.master, self._write)
        elif not self.pending and self.writing:
            self.writing = False
            self.loop.remove_writer(self.master)
            self.channel.resume_reading()

    # -- the app's output, to the client ---------------------------------------------------------
    def pause_output(self) -> None:
        """The channel's write buffer is full: read nothing more from the app for now."""
        if self.reading:
            self.reading = False
            self.loop.remove_reader(self.master)

    def resume_output(self) -> None:
        """The channel can send again: read the app's output."""
        if not self.reading and not self.closed:
            self.reading = True
            self.loop.add_reader(self.master, self._read)

    def _read(self) -> None:
        try:
            data = os.read(self.master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app's side of the pty is closed
            data = b""
        if not data:
            self.close()
            self.ended()
            return
        self.channel.write(data)

    # -- the window's size -----------------------------------------------------------------------
    def resize(self, columns: int, rows: int) -> None:
        """The client's window is now ``columns`` x ``rows``: the app gets the newest size, at
        most every :data:`RESIZE_EVERY` seconds."""
        self.size = (max(columns, 1), max(rows, 1))
        if self._resizing is None and not self.closed:
            wait = max(0.0, self._resized_at + RESIZE_EVERY - self.loop.time())
            self._resizing = self.loop.call_later(wait, self._apply_size)

    def _apply_size(self) -> None:
        self._resizing = None
        if self.size is None or self.closed:
            return
        columns, rows = self.size
        self.size = None
        self._resized_at = self.loop.time()
        with contextlib.suppress(OSError):  # the app is gone
            set_size(self.master, columns, rows)

    # -- the end ---------------------------------------------------------------------------------
    def close(self) -> None:
        """Stop copying (the master stays open: its owner closes it)."""
        if self.closed:
            return
        self.closed = True
        self.pause_output()
        if self.writing:
            self.writing = False
            self.loop.remove_writer(self.master)
        self.pending = b""
        if self._resizing is not None:
            self._resizing.cancel()
            self._resizing = None
