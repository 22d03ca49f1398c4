"""The host's own controls at a table hosted from this terminal.

There the host frees an absent player's seat or hands it to a bot, shows the
lines that tell the players how to join, starts a rematch, and leaving the
table closes it for everyone (it stays saved).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from karavan_core.bots import BOT_LEVELS
from karavan_core.engine import IllegalAction
from karavan_core.match import BOT
from karavan_core.text import clean_name
from karavan_net.hosting import HostControl
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.remote_link import RemoteLink
from karavan_tui.screens.seat import SeatDriver

# The title of the host's note that says how to join; it goes once every seat is taken.
HOSTING = "Hosting"


def presence_words(name: str, status: str, stand_in: str | None) -> str:
    """A seat as the host's Seats list says it."""
    said = {"away": "away", "empty": "free, waiting for a player"}.get(status, status)
    if stand_in:
        said += f", a {clean_name(stand_in)} bot plays"
    return f"{name}: {said}"


class HostDesk:
    """The host's controls (``control``) at ``driver``'s table, which ``link`` shows."""

    def __init__(self, driver: SeatDriver, control: HostControl, link: RemoteLink) -> None:
        self.driver = driver
        self.control = control
        self.link = link

    def invitation(self) -> str:
        """How the players whose seat nobody has taken join ("" once the game is over)."""
        update = self.link.latest
        if update is None or update.outcome is not None:
            return ""
        empty = {info.name for info in update.seats if info.status == "empty"}
        lines = [line.strip() for line in self.control.invitation if line.startswith("  ")]
        wanted = [line for line in lines if line.rsplit("--name ", 1)[-1] in empty]
        return "\n".join(wanted)

    def invite(self) -> None:
        """Show again the lines that tell the players how to join."""
        if self.control.invitation:
            self.driver.notify("\n".join(self.control.invitation), title=HOSTING, timeout=30)

    def absent_seats(self) -> list[int]:
        """The people's seats whose player is not at the table now."""
        latest = self.link.latest
        if latest is None or latest.outcome is not None:
            return []
        return [
            index
            for index, info in enumerate(latest.seats)
            if index != self.driver.viewer and info.kind != BOT and info.status != "here"
        ]

    def choose_seat(self) -> None:
        """Free an absent player's seat, or hand it to a bot (or take the bot off)."""
        seats, latest = self.absent_seats(), self.link.latest
        if not seats or latest is None:
            self.driver.notify("Every player is at the table.")
            return
        infos, names = latest.seats, self.link.seats
        labels = [presence_words(names[i].name, infos[i].status, infos[i].stand_in) for i in seats]

        def picked(index: int) -> None:
            self.seat_actions(seats[index])

        self.driver.screen.choose("Whose seat?", labels, picked, beside=False)

    def seat_actions(self, seat: int) -> None:
        """What the host may do with absent ``seat``: free it, a bot of some level, or no bot."""
        latest, control = self.link.latest, self.control
        if latest is None:
            return
        name = self.link.seats[seat].name
        info = latest.seats[seat]
        # Each option: its words, and the bot level it hands the seat to ("" frees it).
        options: list[tuple[str, str | None]] = []
        if info.status == "away":
            options.append((f"Free the seat: whoever joins as {name} takes it", ""))
        options += [(f"A {level} bot plays it until {name} is back", level) for level in BOT_LEVELS]
        if info.stand_in:
            options.append((f"Take the bot off: the seat waits for {name}", None))

        def picked(index: int) -> None:
            level = options[index][1]
            doing = control.free(seat) if level == "" else control.hand_to_bot(seat, level)
            asyncio.get_running_loop().create_task(self._manage(doing))

        words = [words for words, _ in options]
        self.driver.screen.choose(f"{name}'s seat", words, picked, beside=False)

    def rematch(self) -> None:
        """A new game with the same seats."""
        asyncio.get_running_loop().create_task(self._manage(self.control.rematch(), None))

    async def _manage(self, doing: Coroutine[Any, Any, str], title: str | None = "Seats") -> None:
        """Carry out the host's change to the table; say what came of it (under ``title``, if
        the table does not tell it anyway), or why it was not done."""
        try:
            said = await doing
        except IllegalAction as error:
            self.driver.notify(str(error), title="Not done", severity="warning")
            return
        if title is not None:
            self.driver.notify(said, title=title)

    def close_table(self) -> None:
        """Leaving closes the table for everyone: at once once the game is over, else once
        the host says so."""
        app = self.driver.screen.app
        latest = self.link.latest
        if latest is not None and latest.outcome is not None:
            app.exit()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                app.exit()

        question = (
            "Close the table for everyone? The game stays saved: "
            "karavan host --resume reopens it and the players come back."
        )
        app.push_screen(ConfirmScreen(question, yes="Close"), answered)
