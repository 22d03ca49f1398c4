"""A hosted table's connection as its seat sees it: dropped (reconnecting), back, or closed
for good, and what a decision made meanwhile becomes (refused in words, nothing changed)."""

from __future__ import annotations

from typing import Any

from karavan_core.text import printable
from karavan_net.client import TableClient
from karavan_net.protocol import Update
from karavan_tui.context import karavan_app
from karavan_tui.screens.table import TableScreen


class Connected:
    """The part of a hosted table's seat driver that follows its connection."""

    FAR_END = "the host"  # what the table is reached through, in words
    client: TableClient
    screen: TableScreen
    online: bool
    waiting: bool  # a decision is on its way
    ending: str | None  # why the table ended for this Karavan, once it has

    @property
    def latest(self) -> Update | None:
        """The latest update the host sent."""
        raise NotImplementedError

    def notify(self, message: str, **kwargs: Any) -> None:
        """A toast over the table."""
        raise NotImplementedError

    def connection_changed(self, connected: bool) -> None:
        """Show that we are reconnecting, and when we are back."""
        self.online = connected
        if connected:
            self.notify("Back at the table.")
        else:
            if self.waiting:  # sent, but no answer came: it may never have arrived
                self.notify(
                    "The connection dropped before your decision was confirmed: once back, "
                    "the table shows whether it was played.",
                    severity="warning",
                )
            self.waiting = False
            self.notify("The connection to the table dropped: reconnecting...", severity="warning")
        self.screen.redraw()  # the status, and the clocks: paused, or counting again
        self.screen.refresh_bindings()

    def closed(self, reason: str) -> None:
        """The table is gone for good (or for this Karavan: its seat was taken elsewhere)."""
        self.online = False
        self.ending = printable(reason)
        over = self.latest is not None and self.latest.outcome is not None
        titles = {"replaced": "Seat taken elsewhere", "closed": "The host closed the table"}
        self.notify(
            reason,
            title=titles.get(self.client.closed_why or "", "The table is closed"),
            severity="information" if over else "error",
            timeout=10,
        )
        karavan_app(self.screen).tell_turn(False)
        self.screen.redraw()
        self.screen.refresh_bindings()

    def not_sent(self) -> str:
        """Why nothing is sent while the connection is down (and nothing changed)."""
        return f"Not sent: reconnecting to {self.FAR_END}."

    def _unsent(self) -> None:
        """What we sent did not go: the connection is down."""
        self.waiting = False
        self.notify(self.not_sent(), severity="warning")
        self.screen.redraw()
