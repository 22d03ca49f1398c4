"""Where the screens ask the app to go: messages that bubble up to it and it handles.

A screen never calls back into the app to move on; it posts one of these
(``self.post_message(BackToTitle())``) and the app decides what to open.
"""

from __future__ import annotations

from pathlib import Path

from textual.message import Message

from karavan_core.match import Match
from karavan_net.accounts import Account
from karavan_net.lobby_client import LobbyClient


class BackToTitle(Message):
    """Close everything above the title screen (and open the new game dialog if ``then_new``)."""

    def __init__(self, then_new: bool = False) -> None:
        super().__init__()
        self.then_new = then_new


class MatchMessage(Message):
    """A message about one match."""

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match


class GameOver(MatchMessage):
    """``match`` has ended at the local table: show its results."""


class OpenSave(Message):
    """Open the save at ``path`` at the table."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path


class OpenReview(MatchMessage):
    """The Expert's review of ``match``."""


class OpenReplay(MatchMessage):
    """Step through ``match`` from ``position`` (0: the deal)."""

    def __init__(self, match: Match, position: int = 0) -> None:
        super().__init__(match)
        self.position = position


class ShowRules(Message):
    """The rules, on ``game_name``'s page if given."""

    def __init__(self, game_name: str | None = None) -> None:
        super().__init__()
        self.game_name = game_name


class SaveOpenGame(Message):
    """Ask for a name for the game at the table and save it under it."""


class OpenLesson(Message):
    """Open the lesson of ``game_name`` at the step it had reached."""

    def __init__(self, game_name: str) -> None:
        super().__init__()
        self.game_name = game_name


class OpenMatch(MatchMessage):
    """Start ``match`` (a new game) at the local table."""


class OpenLobby(Message):
    """Open the lobby of ``client`` (logged in as ``account``), and in it the live table
    ``table`` of the player's that started."""

    def __init__(self, client: LobbyClient, account: Account, table: int) -> None:
        super().__init__()
        self.client = client
        self.account = account
        self.table = table
