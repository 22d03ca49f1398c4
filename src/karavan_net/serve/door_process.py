"""The ssh door's own process: ``python -m karavan_net.serve.door_process``.

``karavan serve --ssh PORT`` starts it (:mod:`karavan_net.serve.door_keeper`) so that
the door's work (ssh's cryptography, the players' pseudo-terminals) never runs on the
tables' event loop.  It has its own event loop and its own connection to the database.

It reads its :class:`DoorConfig` as one JSON line on standard input (so that the database's
URL, password and all, is never on a command line), then says what happens as JSON lines on
standard output: ``{"listening": PORT, "fingerprint": "SHA256:... (ED25519)"}`` once the door
is open (or ``{"failed": WHY}``), then ``{"event": LINE}`` for each line worth telling.  It
stops, telling every player why, on SIGTERM or SIGINT, or when its standard input closes
(the server that started it is gone).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

from attrs import asdict, frozen

from karavan_net.serve.ssh import SshDoor
from karavan_net.serve.store import Store


@frozen
class DoorConfig:
    """What the door's process needs: the database, the lobby's address, the state folder
    (host key and each key's folder), the installed ``karavan`` command, and where to listen."""

    database: str
    lobby: str
    state: str
    karavan: str
    host: str
    port: int

    def to_json(self) -> str:
        """One line of JSON."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, line: str) -> DoorConfig:
        """The configuration read back from :meth:`to_json`'s line."""
        return cls(**json.loads(line))


def tell(**message: Any) -> None:
    """One line to the server that started this process."""
    print(json.dumps(message), flush=True)


async def serve(config: DoorConfig) -> int:
    """Open the door, and keep it open until told to stop."""
    try:
        store = await asyncio.to_thread(Store.open, config.database)
    except Exception as error:  # the server could open it a moment ago: say why, and end
        tell(failed=f"cannot open the database: {type(error).__name__}")
        return 1
    state = Path(config.state)
    door = SshDoor(store, config.lobby, state / "keys", config.karavan, events=_event)
    try:
        try:
            port = await door.start(config.host, config.port, state / "ssh_host_key")
        except OSError as error:
            tell(failed=f"cannot listen: {error.strerror or error}")
            return 2
        tell(listening=port, fingerprint=door.fingerprint)
        await _stopped()
        await door.stop()
        return 0
    finally:
        await asyncio.to_thread(store.close)


def _event(line: str) -> None:
    tell(event=line)


async def _stopped() -> None:
    """Wait for SIGTERM, SIGINT, or the end of standard input."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)

    def readable() -> None:
        try:
            gone = not os.read(0, 4096)
        except OSError:
            gone = True
        if gone:
            loop.remove_reader(0)
            stop.set()

    loop.add_reader(0, readable)
    await stop.wait()


def main() -> int:
    """Read the configuration, then serve."""
    return asyncio.run(serve(DoorConfig.from_json(sys.stdin.readline())))


if __name__ == "__main__":
    sys.exit(main())
