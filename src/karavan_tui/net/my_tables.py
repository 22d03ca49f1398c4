"""My tables, one key away: the part of the app that finds the server's lobby open under
whatever is shown and goes back to its tab of my tables (**F2**, or the command palette;
from the title, into the lobby of the server last played on), and that opens the lobby
the title screen hands over when a table of mine starts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from karavan_tui.context import Karavan
from karavan_tui.messages import OpenLobby
from karavan_tui.net.lobby_screen import LobbyScreen
from karavan_tui.screens.title import TitleScreen


class MyTables(Karavan):
    """The app's way back to the lobby's tab of my tables."""

    # From anywhere online (a table, a finished game, a dialog): the lobby's My tables.
    BINDINGS = [Binding("f2", "my_tables", "My tables", key_display="F2")]

    def on_open_lobby(self, message: OpenLobby) -> None:
        """The title screen hands its lobby client over: a live table of the player's
        started, and opens in the lobby."""
        self.push_screen(LobbyScreen(message.client, message.account, pull=message.table))

    def lobby(self) -> LobbyScreen | None:
        """The server's lobby, if one is open (under whatever is shown)."""
        lobbies = [screen for screen in self.screen_stack if isinstance(screen, LobbyScreen)]
        return lobbies[-1] if lobbies else None

    lobby_tab = "lobby"  # the tab the next lobby opens on

    def first_lobby_tab(self) -> str:
        """The tab a lobby opening now shows first (``mine`` once, when asked for)."""
        tab, self.lobby_tab = self.lobby_tab, "lobby"
        return tab

    def action_my_tables(self) -> None:
        """Back to the lobby, on its tab of my tables (any table open over it is left); from
        the title, into the lobby of the server last played on, on that tab."""
        lobby = self.lobby()
        if lobby is not None:
            self.show_title()  # the lobby is the home of the screens above it
            lobby.show_my_tables()
        elif isinstance(self.screen, TitleScreen):
            self.lobby_tab = "mine"
            self.action_online(direct=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """My tables is a key of the online screens (where a lobby is open, under them: the
        lobby has a key of its own) and of the title (where it is not shown)."""
        if action == "my_tables":
            lobby = self.lobby()
            return isinstance(self.screen, TitleScreen) or lobby not in (None, self.screen)
        return super().check_action(action, parameters)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """My tables in the command palette, wherever a lobby is open; then the others."""
        if self.lobby() is not None:
            yield SystemCommand("My tables", "The lobby's tab of my tables", self.action_my_tables)
        yield from super().get_system_commands(screen)
