"""The chat of a hosted table, as the player's Karavan has it: what is shown, said and muted.

A host that has a chat tells each client so (a :class:`~karavan_net.protocol.Chat`, whose
``open`` says whether this client may write in it: a watcher may not everywhere).  The
player writes a line, or picks a quick phrase; ``/mute NAME`` hides a player's lines (as
"Mute NAME" in the quick phrases does, and ctrl+o for who spoke last) and ``/unmute NAME``
shows them again.  A player who turns the chat off in the settings is shown none and
writes none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from textual.widget import Widget

from karavan_core.match import Seat
from karavan_net.client import TableClient
from karavan_net.protocol import Chat
from karavan_tui.context import karavan_app
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.net.chat_panel import QUICK_PHRASES, ChatPanel
from karavan_tui.screens.table import TableScreen

WATCHERS_READ = "Watchers read this table's chat: only its players write in it."


class Talker(Protocol):
    """The seat (or watcher's place) at a hosted table that the chat belongs to."""

    client: TableClient
    screen: TableScreen
    viewer: int | None

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats as the host described them."""

    def notify(self, message: str, **kwargs: Any) -> None:
        """A toast over the table."""

    def not_sent(self) -> str:
        """Why nothing is sent while the connection is down."""


class TableTalk:
    """The chat at ``driver``'s table: its :attr:`panel`, and the names muted there."""

    def __init__(self, driver: Talker) -> None:
        self.driver = driver
        self.muted: set[str] = set()  # case-folded names whose lines are not shown
        self.panel = ChatPanel(self.say, self.phrases, self.mute_last)
        driver.client.on_chat = self.heard

    def shown(self) -> bool:
        """Whether the table has a chat and the player reads it."""
        on = karavan_app(self.driver.screen).settings.chat
        return on and self.driver.client.chat_open is not None

    def show(self) -> None:
        """Show the chat as it is now (none where it is off)."""
        shown = self.shown()
        if not shown and self.panel.is_open:
            self.panel.close()
        self.panel.show(self.driver.client.chat if shown else (), self.muted)

    def open(self) -> None:
        """Open the line to write in."""
        if self.shown():
            self.panel.open()

    def heard(self, chat: Chat) -> None:
        """The host sent lines of the chat (or said why ours was not said)."""
        if chat.refused and self.shown():
            self.driver.notify(chat.refused, title="Chat", severity="warning")
        self.show()
        self.driver.screen.refresh_bindings()  # the chat's key shows once the host has one

    def say(self, text: str) -> None:
        """Say ``text`` at the table, or do the chat command it is (``/mute NAME``)."""
        command, _, name = text.partition(" ")
        if command in ("/mute", "/unmute") and name.strip():
            self.mute(name.strip(), command == "/mute")
            return
        if self.driver.client.chat_open is False:
            self.driver.notify(WATCHERS_READ, title="Chat", severity="warning")
            return
        self.driver.screen.run_worker(self._send(text), exit_on_error=False)

    async def _send(self, text: str) -> None:
        if not await self.driver.client.say(text):
            self.driver.notify(self.driver.not_sent(), severity="warning")

    def speakers(self) -> list[str]:
        """The other people at the table, and the watchers who have spoken, by name."""
        driver = self.driver
        names = [seat.name for i, seat in enumerate(driver.seats) if i != driver.viewer]
        names += [line.name for line in driver.client.chat if line.seat is None]
        mine = driver.client.name.casefold()
        bots = {seat.name for seat in driver.seats if seat.is_bot}
        return [n for n in dict.fromkeys(names) if n not in bots and n.casefold() != mine]

    def phrases(self) -> None:
        """Offer the quick phrases, and to mute (or show again) each other player."""
        names = self.speakers()
        mutes = [
            (f"Unmute {name}" if name.casefold() in self.muted else f"Mute {name}", name)
            for name in names
        ]
        options = [*QUICK_PHRASES, *(words for words, _ in mutes)]

        def picked(index: int | None) -> None:
            if index is None:
                return
            if index < len(QUICK_PHRASES):
                self.say(QUICK_PHRASES[index])
            else:
                name = mutes[index - len(QUICK_PHRASES)][1]
                self.mute(name, name.casefold() not in self.muted)

        chooser = ChoiceScreen("Say, or mute a player", options, hint="Enter picks, Esc closes")
        self.driver.screen.app.push_screen(chooser, picked)

    def mute_last(self) -> None:
        """Mute who spoke last, if anyone else has spoken."""
        mine = self.driver.client.name.casefold()
        for line in reversed(self.driver.client.chat):
            if line.name.casefold() not in (mine, *self.muted):
                self.mute(line.name, True)
                return
        self.driver.notify("Nobody else has said anything to mute.", title="Chat")

    def mute(self, name: str, on: bool) -> None:
        """Hide (``on``) or show again the lines of the player called ``name``."""
        key = name.casefold()
        if on:
            self.muted.add(key)
            said = f"{name}'s lines are hidden: /unmute {name} shows them again."
        else:
            self.muted.discard(key)
            said = f"{name}'s lines are shown again."
        self.driver.notify(said, title="Chat")
        self.show()


class Chatting:
    """A table driver's part that has a chat: the panel under the table, and its key."""

    chat: TableTalk

    def below(self) -> Iterator[Widget]:
        """The table's chat, under the table."""
        yield self.chat.panel

    def do_chat(self) -> None:
        """Open the chat's line to write in."""
        self.chat.open()
