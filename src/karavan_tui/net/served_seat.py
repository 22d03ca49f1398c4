"""A seat at a `karavan serve` server's table: a hosted table's seat, and the server's own
rules beside the game's.

A player there may resign (**g**, give up), abort the game while not everyone has made a
first decision (**k**), and once it is over ask for (or agree to) a rematch (**m**, at the
table or on the game-over screen).  Each asks once in a dialog before it is sent; the
server says it to everyone at the table, and a rematch everyone agreed to opens at a new
table, which this seat's client follows by itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType

from karavan_net.client import TableClient
from karavan_net.protocol import Abort, Rematch, Resign
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.remote import REMOTE_KEYS, RemoteTable
from karavan_tui.screens.seat import keys_with
from karavan_tui.screens.table import TableScreen
from karavan_tui.words import listed

SERVED_KEYS = keys_with(
    REMOTE_KEYS,
    "seats",
    [
        # Not in the Footer, which must hold the game's keys at 80 columns: the palette
        # lists them too.
        Binding("g", "resign", "Resign", show=False, tooltip="Give the game up", id="resign"),
        Binding("k", "abort", "Abort", show=False, tooltip="End it with no result", id="abort"),
        Binding(
            "m", "rematch", "Rematch", show=False, tooltip="The same seats again", id="rematch"
        ),
    ],
)
ABORT_QUESTION = (
    "Abort the game? It ends with no result for anyone, and is not rated. Everyone at the "
    "table is told."
)


def resign_question(others: list[str], players: int) -> str:
    """The question before resigning a game of ``players``, ``others`` still in it."""
    if players == 2:
        return f"Resign the game? {listed(others)} wins it, and it counts as your loss."
    return (
        "Resign the game? A bot plays your seat to the end, and you are ranked last. "
        "Everyone at the table is told."
    )


def rematch_question(asking: list[str]) -> str:
    """The question before asking for a rematch, or agreeing to the one ``asking`` asked for."""
    if asking:
        return (
            f"Agree to the rematch {listed(asking)} asked for? The same seats and settings "
            "at a new table, which opens for everyone."
        )
    return (
        "Ask for a rematch: the same seats and settings at a new table? It opens for "
        "everyone once they all agree."
    )


def confirm(question: str, yes: str, no: str = "Cancel") -> ConfirmScreen:
    """The dialog that asks ``question`` once: ``yes`` (y) or ``no`` (n, Esc)."""
    return ConfirmScreen(question, yes=yes, no=f"{no} (n)")


class ServedSeat(RemoteTable):
    """A player's seat (or a watcher's place) at a server's table."""

    BINDINGS: ClassVar[list[BindingType]] = SERVED_KEYS
    SERVED = True
    FAR_END = "the server"

    def allows(self, name: str) -> bool | None:
        """Resign while the game goes on, abort while the server allows it, a rematch once
        it is over; each only for a player, while connected."""
        if name in ("resign", "abort", "rematch"):
            return self.may(name)
        return super().allows(name)

    def may(self, name: str) -> bool:
        """Whether this player may ``resign``, ``abort`` or ask for a ``rematch`` now."""
        update = self.latest
        if update is None or self.viewer is None or not self.online or self.ending:
            return False
        over = update.outcome is not None
        if name == "resign":
            return not over and self.viewer not in update.resigned
        if name == "abort":
            return not over and update.abortable
        return over and self.viewer not in update.rematch

    def resign_question(self) -> str:
        """What resigning does here, asked before it is done."""
        update = self.latest
        gone = () if update is None else update.resigned
        others = [
            seat.name for index, seat in enumerate(self.seats) if index not in (self.viewer, *gone)
        ]
        return resign_question(others, len(self.seats))

    def rematch_question(self) -> str:
        """Asking for a rematch, or agreeing to the one others ask for."""
        update = self.latest
        return rematch_question(
            [] if update is None else [self.seat_name(s) for s in update.rematch]
        )

    def _confirmed(
        self,
        name: str,
        question: str,
        yes: str,
        message: Resign | Abort | Rematch,
        refusal: Rematch | None = None,
    ) -> None:
        """Ask ``question`` once; on yes (and if still allowed) send ``message``, on no the
        ``refusal`` if there is one (the others are told)."""

        def answered(agreed: bool | None) -> None:
            sent = message if agreed else refusal
            if agreed is not None and sent is not None and self.may(name):
                self._send(self.client.send(sent))

        no = "Cancel" if refusal is None else "Decline"
        self.app.push_screen(confirm(question, yes, no), answered)

    def do_resign(self) -> None:
        """Give the game up, once confirmed."""
        if self.may("resign"):
            self._confirmed("resign", self.resign_question(), "Resign", Resign())

    def do_abort(self) -> None:
        """End the game with no result, once confirmed."""
        if self.may("abort"):
            self._confirmed("abort", ABORT_QUESTION, "Abort", Abort())

    def do_rematch(self) -> None:
        """Ask for (or agree to) a rematch, once confirmed."""
        if self.may("rematch"):
            asked = self.latest is not None and bool(self.latest.rematch)
            refusal = Rematch(accept=False) if asked else None  # the others asked: say no
            self._confirmed("rematch", self.rematch_question(), "Rematch", Rematch(), refusal)
        elif self.latest is not None and self.viewer in self.latest.rematch:
            self.notify("You asked for a rematch: it waits for the others.", title="Rematch")

    def commands(self) -> Iterator[SystemCommand]:
        """The table's commands, and the server's own rules where they apply now."""
        yield from super().commands()
        if self.may("resign"):
            yield SystemCommand("Resign", "Give the game up (asked once)", self.do_resign)
        if self.may("abort"):
            yield SystemCommand("Abort", "End the game with no result", self.do_abort)
        if self.may("rematch"):
            yield SystemCommand("Rematch", "The same seats again", self.do_rematch)


def open_served_table(app: App[Any], client: TableClient) -> None:
    """Open ``client``'s seat at a server's table (already joined) above the screen shown,
    the server's lobby."""
    app.push_screen(TableScreen(ServedSeat(client)))
