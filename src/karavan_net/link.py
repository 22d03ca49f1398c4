"""One client connection, as a table sees it: anything with ``send``, ``refresh`` and ``close``.

The server and the tests drive a table alike through this: the server's
connections write their frames from tasks of their own, the tests' keep them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from karavan_net.protocol import Closed, HostMessage, Refused


class Link(Protocol):
    """One client connection, as the host sees it: its seat, and the revision of the
    protocol it speaks (:data:`~karavan_net.protocol.MINOR`; 0 for an older Karavan)."""

    seat: int | None
    minor: int

    def send(self, text: str) -> None:
        """Queue ``text`` (one frame) for the client."""

    def refresh(self, frame: Callable[[], str | None]) -> None:
        """Send what ``frame()`` builds when the frames queued before have gone.

        A refresh not yet sent is replaced by the newer one; ``frame()`` may
        return ``None`` (nothing to send then).
        """

    def close(self, text: str | None = None) -> None:
        """Send ``text`` (if any) as the last frame, then close the connection."""


def closing(reason: str, why: str, minor: int) -> HostMessage:
    """The last message to a client whose table ends (an older client: a refusal)."""
    return Closed(reason, why) if minor >= 1 else Refused(reason)
