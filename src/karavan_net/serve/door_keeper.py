"""The ssh door's process, kept by the server that runs it: started, watched, started again
with a growing wait if it dies, and stopped with the server.

The door (:mod:`karavan_net.serve.door_process`) runs in a process of its own so that
nothing its sessions do (a big paste, a flood of window changes, ssh's cryptography) takes
time from the tables' event loop.  It is started in a session of its own, so that Ctrl+C in
the server's terminal reaches only the server, which then stops the door in order: each
player is told why before the connection closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Callable

from attrs import evolve, frozen

from karavan_net.serve.door_process import DoorConfig

FIRST_WAIT = 1.0  # seconds before a door that died is started again; doubled each time
LONGEST_WAIT = 30.0
STEADY = 60.0  # seconds a door must stay up for the next wait to be the first again
OPEN_SECONDS = 30.0  # how long a door may take to open
STOP_SECONDS = 20.0  # how long a door may take to tell its players and end (then it is killed)


class DoorFailed(Exception):
    """The door could not open; the message says why."""


@frozen
class DoorOpen:
    """An open door: its port and its host key's fingerprint (``SHA256:... (ED25519)``)."""

    port: int
    fingerprint: str


class DoorKeeper:
    """Runs the door of ``config`` in its own process for as long as the server runs;
    ``events`` gets each line the door tells, and the keeper's own."""

    def __init__(self, config: DoorConfig, events: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.events = events
        self.process: asyncio.subprocess.Process | None = None
        self.stopping = False
        self._opened: asyncio.Future[DoorOpen] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None

    def _say(self, line: str) -> None:
        if self.events is not None:
            self.events(line)

    async def start(self) -> DoorOpen:
        """Start the door and wait until it listens; :class:`DoorFailed` says why it cannot."""
        opened = await self._launch()
        self.config = evolve(self.config, port=opened.port)  # a door started again: same port
        self._watcher = asyncio.get_running_loop().create_task(self._watch())
        return opened

    async def _launch(self) -> DoorOpen:
        loop = asyncio.get_running_loop()
        self.process = process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "karavan_net.serve.door_process",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        assert process.stdin is not None
        process.stdin.write(self.config.to_json().encode() + b"\n")
        self._opened = opened = loop.create_future()
        self._reader = loop.create_task(self._read(process))
        try:
            return await asyncio.wait_for(opened, OPEN_SECONDS)
        except (DoorFailed, TimeoutError) as error:
            await self._end(process)
            if isinstance(error, DoorFailed):
                raise
            raise DoorFailed(f"it did not open within {OPEN_SECONDS:.0f} s") from None

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        """The door's lines: open (or why not), then what happens."""
        assert process.stdout is not None
        opened = self._opened
        async for raw in process.stdout:
            try:
                line = json.loads(raw)
            except ValueError:
                self._say(raw.decode(errors="replace").rstrip())
                continue
            if "listening" in line and opened is not None and not opened.done():
                opened.set_result(DoorOpen(int(line["listening"]), str(line["fingerprint"])))
            elif "failed" in line and opened is not None and not opened.done():
                opened.set_exception(DoorFailed(str(line["failed"])))
            elif "event" in line:
                self._say(str(line["event"]))
        if opened is not None and not opened.done():
            opened.set_exception(DoorFailed("its process ended"))

    async def _watch(self) -> None:
        """Start the door again whenever it dies, waiting longer each time it dies soon."""
        loop = asyncio.get_running_loop()
        wait = FIRST_WAIT
        while True:
            started = loop.time()
            assert self.process is not None
            status = await self.process.wait()
            if self.stopping:
                return
            if loop.time() - started >= STEADY:
                wait = FIRST_WAIT
            self._say(f"The ssh door stopped (exit status {status}): opening it in {wait:.0f} s.")
            await asyncio.sleep(wait)
            wait = min(wait * 2, LONGEST_WAIT)
            try:
                await self._launch()
            except DoorFailed as error:
                self._say(f"The ssh door did not open again: {error}.")
                continue
            self._say("The ssh door is open again.")

    async def stop(self) -> None:
        """Stop the door: each player is told why, then the door's process ends."""
        self.stopping = True
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        if self.process is not None:
            await self._end(self.process)

    async def _end(self, process: asyncio.subprocess.Process) -> None:
        """Ask ``process`` to end, kill it if it takes too long, and reap it."""
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
        await process.wait()
        if process.stdin is not None:
            process.stdin.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
