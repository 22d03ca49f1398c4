"""Door mode: the app a server's ssh door runs for each player (``KARAVAN_DOOR``).

Over ssh the app runs on the server's machine, for anyone with a key, so there it is that
server's lobby and nothing more: its tables, watching, the player's finished games (their
replay too), the settings and the rules.  Everything that would use the machine itself is
refused, not only hidden: local games and lessons (the bots' and the Expert's searches on
the server's CPU), reviews, saved games and screenshots (files on its disk), and other
servers or hosts ("Join a table", another address under Play online).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import SystemCommand
from textual.screen import Screen

from karavan_tui.context import Karavan

REFUSED = frozenset(
    {
        "new_game",  # a local game
        "learn",  # a lesson: a local game too
        "resume",  # a saved game
        "load",  # the saved games
        "save",  # a file on the server's disk
        "screenshot",  # likewise
        "join",  # a table at any address
        "review",  # the Expert's search over a whole game
        "other_server",  # Play online somewhere else
    }
)
"""What door mode refuses, by action name."""

AT_THE_DOOR = "Over ssh, Karavan is this server's lobby: its tables, games, settings and rules."


def at_door(app: Karavan) -> bool:
    """Whether ``app`` runs behind an ssh door."""
    return app.config.door is not None


def door_refuses(app: Karavan, what: str, *, tell: bool = True) -> bool:
    """Whether ``app``, behind an ssh door, refuses ``what`` (an action's name from
    :data:`REFUSED`); if it does and ``tell``, the player is told why."""
    if not at_door(app) or what not in REFUSED:
        return False
    if tell:
        app.notify(AT_THE_DOOR, title="Not over ssh", severity="warning")
    return True


class DoorMode(Karavan):
    """The part of the app that refuses, behind an ssh door, what door mode refuses: its keys
    do nothing (and are not shown), and no command offers it."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys of what door mode refuses do nothing behind an ssh door."""
        return not door_refuses(self, action, tell=False)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands, but the screenshot behind an ssh door (a file on the server)."""
        for command in super().get_system_commands(screen):
            if not (at_door(self) and command.title == "Screenshot"):
                yield command

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """Save a screenshot, except behind an ssh door."""
        if door_refuses(self, "screenshot"):
            return None
        return super().deliver_screenshot(filename, path, time_format)
