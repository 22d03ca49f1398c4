"""What the lobby does about a table beside sitting at it: decline a challenge made to me
(**d**) and stand up from a table that has not started (**s**), each asked once.

The server tells the others at the table (a line in their lobby), and answers in words,
which are shown as plain text.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.screen import Screen

from karavan_core.registry import get_game
from karavan_core.text import plural, printable
from karavan_net.client import HostUnreachable
from karavan_net.lobby import TableLine
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError, LobbyRefusedError
from karavan_tui.net.served_seat import confirm


def challenges_words(count: int) -> str:
    """The lobby's status line about the challenges waiting for my answer ("" for none)."""
    if not count:
        return ""
    return (
        f"{plural(count, 'challenge')} for you at the top of the tables: Enter accepts, "
        "d declines. "
    )


def challenge_sent(table: int) -> str:
    """What the challenger is told once the challenge's table is made."""
    return (
        f"Your challenge is at table {table}: its table opens here once it is taken up "
        "(s takes it back from My tables)."
    )


def where(line: TableLine) -> str:
    """A table in a few words: "table 4 (Jaipur, 30 s a move + 5 min)"."""
    return f"table {line.id} ({get_game(line.game).title}, {line.clock})"


Refresh = Callable[[], object]
"""Ask for the lobby's lists again."""


def decline(
    screen: Screen[Any], client: LobbyClient, line: TableLine | None, refresh: Refresh
) -> None:
    """Decline the challenge at ``line``, once confirmed; its challenger is told."""
    if line is None or not line.challenge or line.my_seat is not None:
        screen.notify("Only a challenge made to you can be declined.", title="No challenge")
        return
    by = line.created_by or "its maker"
    question = f"Decline the challenge of {by} at {where(line)}? {by} is told."
    _asked(screen, question, "Decline", lambda: client.decline(line.id), refresh)


def stand_up(
    screen: Screen[Any], client: LobbyClient, line: TableLine | None, refresh: Refresh
) -> None:
    """Leave my seat at ``line``'s table, which has not started, once confirmed."""
    if line is None or line.my_seat is None or line.status != "open":
        screen.notify(
            "Only a seat at a table that has not started can be left: at a started game, "
            "resign it at its table.",
            title="Not waiting",
        )
        return
    question = f"Stand up from {where(line)}? The others there are told."
    _asked(screen, question, "Stand up", lambda: client.stand_up(line.id), refresh)


def _asked(
    screen: Screen[Any],
    question: str,
    yes: str,
    request: Callable[[], Awaitable[str]],
    refresh: Refresh,
) -> None:
    """Ask ``question``; on yes make the ``request``, and say what it did (or why not)."""

    async def send() -> None:
        try:
            said = await request()
        except (HostUnreachable, LobbyDeclinedError, LobbyRefusedError) as error:
            screen.notify(printable(str(error)), title="Not done", severity="warning")
            return
        screen.notify(said, title=yes)
        refresh()

    def answered(agreed: bool | None) -> None:
        if agreed:
            screen.run_worker(send(), group="lobby-act", exit_on_error=False)

    screen.app.push_screen(confirm(question, yes), answered)
