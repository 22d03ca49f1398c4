"""A bot lent to a `karavan serve` server: it takes open seats and plays N games.

``karavan join SERVER --bot LEVEL --games N --name NAME`` logs in as the bot's
own account (made the first time), then, game after game: plays at a table of
its own that is running, else waits for one of its tables to fill, else takes
the first free seat the lobby offers.  It prints a line for each game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from karavan_core.text import plural, printable
from karavan_net.accounts import Account
from karavan_net.bot_client import BotPlayer
from karavan_net.client import HostUnreachable, JoinRefused
from karavan_net.lobby import TableLine
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError

LOOK_SECONDS = 2.0  # how often an idle bot looks at the lobby again


def _free_seat(line: TableLine) -> bool:
    return (
        line.status == "open"
        and line.my_seat is None
        and any(
            seat.kind == "human" and seat.name is None and seat.reserved_for is None
            for seat in line.seats
        )
    )


async def lend_bot(
    account: Account,
    level: str,
    games: int,
    out: Callable[[str], None],
    create: bool,
    *,
    ca: str | None = None,
    pinned: Callable[[str], None] | None = None,
) -> int:
    """Play ``games`` games as ``account`` (made if ``create``) with a bot of ``level``;
    0 once they are played, 1 if the server is lost.  ``ca`` checks a ``wss://`` server's
    certificate besides the system's CAs; ``pinned`` hears the identity the server proved,
    the first time (none was pinned)."""
    lobby = LobbyClient.for_account(account, ca)
    await lobby.connect(create=create)
    if pinned is not None and account.identity is None and lobby.identity is not None:
        pinned(lobby.identity)
    played = 0
    try:
        while played < games:
            mine = await lobby.mine()
            running = [line for line in mine.tables if line.status == "playing"]
            if running:
                table = running[0].id
                out(f"Playing at table {table} ({running[0].game}) as a {level} bot.")
                client = lobby.table(table)
                await client.join()
                await BotPlayer(client, level, out=out).play()
                played += 1
                continue
            if not any(line.status == "open" for line in mine.tables):
                free = [line for line in (await lobby.tables()).tables if _free_seat(line)]
                if free:
                    with_seat = await lobby.take(free[0].id)
                    if with_seat.started:
                        continue
            await asyncio.sleep(LOOK_SECONDS)
    except (HostUnreachable, JoinRefused, LobbyDeclinedError) as error:
        out(printable(f"The server is lost: {error}"))
        return 1
    finally:
        await lobby.close()
    out(f"{plural(games, 'game')} played.")
    return 0
