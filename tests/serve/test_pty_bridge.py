"""The ssh door's pty bridge, on a real pseudo-terminal: a paste goes in at the pace the app
reads it while the event loop goes on, the app's output waits while the client cannot take
it, and a flood of window changes reaches the app as a few, the newest last."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import struct
import termios
import threading
import time
import tty

from karavan_net.serve import pty_bridge
from karavan_net.serve.pty_bridge import RESIZE_EVERY, PtyBridge

PACKET = 32768  # the most an ssh channel delivers at once


class FakeChannel:
    """An ssh channel as the bridge sees it: what it was sent, and whether it delivers."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self.paused = False
        self.pauses = 0

    def write(self, data: bytes) -> None:
        self.sent += data

    def pause_reading(self) -> None:
        self.paused = True
        self.pauses += 1

    def resume_reading(self) -> None:
        self.paused = False


def raw_pty() -> tuple[int, int]:
    """A pseudo-terminal whose app side passes every byte as it is."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    return master, slave


async def until(condition, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_a_paste_goes_in_as_the_app_reads_it_and_the_loop_goes_on():
    master, slave = raw_pty()
    channel = FakeChannel()
    bridge = PtyBridge(channel, master, lambda: None)
    paste = bytes(range(256)) * 2048  # 512 KB
    got = bytearray()

    def slow_app() -> None:  # reads 4 KB every 2 ms: about 2 MB/s
        while len(got) < len(paste):
            got.extend(os.read(slave, 4096))
            time.sleep(0.002)

    app = threading.Thread(target=slow_app)
    app.start()
    lags, most_pending = [], 0
    for start in range(0, len(paste), PACKET):  # as the channel delivers: never while paused
        await until(lambda: not channel.paused)
        before = time.monotonic()
        bridge.keys(paste[start : start + PACKET])
        lags.append(time.monotonic() - before)
        most_pending = max(most_pending, len(bridge.pending))
        await asyncio.sleep(0)
    await asyncio.to_thread(app.join, 30)
    assert bytes(got) == paste  # all of it, in order
    assert channel.pauses > 0 and not channel.paused  # the channel waited for the app
    assert most_pending <= PACKET and max(lags) < 0.05  # no write waited on the loop
    bridge.close()
    os.close(master)
    os.close(slave)


async def test_the_apps_output_waits_while_the_client_cannot_take_it():
    master, slave = raw_pty()
    channel = FakeChannel()
    ended = asyncio.Event()
    bridge = PtyBridge(channel, master, ended.set)
    bridge.start()
    bridge.pause_output()  # the channel's write buffer is full
    output = os.urandom(256 * 1024)
    written = [0]

    def app() -> None:
        for start in range(0, len(output), 4096):
            written[0] += os.write(slave, output[start : start + 4096])
        os.close(slave)

    writer = threading.Thread(target=app)
    writer.start()
    await asyncio.sleep(0.3)
    assert channel.sent == b"" and written[0] < len(output)  # the app waits in its own pty
    bridge.resume_output()
    await until(ended.is_set)
    await asyncio.to_thread(writer.join, 30)
    assert bytes(channel.sent) == output
    os.close(master)


async def test_a_flood_of_window_changes_reaches_the_app_as_a_few_the_newest_last(monkeypatch):
    master, slave = raw_pty()
    applied = []
    set_size = pty_bridge.set_size

    def counted(fd: int, columns: int, rows: int) -> None:
        applied.append((columns, rows))
        set_size(fd, columns, rows)

    monkeypatch.setattr(pty_bridge, "set_size", counted)
    bridge = PtyBridge(FakeChannel(), master, lambda: None)
    start = time.monotonic()
    for count in range(5000):
        bridge.resize(100 + count % 7, 30 + count % 5)
    bridge.resize(123, 45)
    await until(lambda: applied and applied[-1] == (123, 45))
    rows, columns = struct.unpack("HHHH", fcntl.ioctl(slave, termios.TIOCGWINSZ, bytes(8)))[:2]
    assert (columns, rows) == (123, 45)
    assert len(applied) <= 2 + (time.monotonic() - start) / RESIZE_EVERY
    bridge.close()
    os.close(master)
    os.close(slave)
