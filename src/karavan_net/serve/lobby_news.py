"""Telling the lobby's followers that its lists changed, a burst of changes told once.

A lobby connection that sent :class:`~karavan_net.lobby.Follow` follows the lobby:
once a table is created, a seat taken, a game started or ended, or (at a table with no
live clock) a turn passed, :meth:`LobbyNews.changed` is told, and a moment later every
follower the change concerns is sent its lists again (:class:`~karavan_net.lobby.Lists`,
``pushed``).  The lists are read on the database's thread, once for each account and
follow; a follower whose lists read the same as the last ones it was sent is sent nothing,
and one that is slow to read gets the newest lists only, never a backlog.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable

from attrs import evolve, frozen

from karavan_net import lobby as wire
from karavan_net.serve.store import AccountInfo
from karavan_net.server import Connection

PUSH_DELAY = 0.25
"""Seconds a change waits for the changes that follow it: a burst is pushed once."""


@frozen
class Follower:
    """A lobby connection that follows: its account, and the lists it asked for."""

    account: AccountInfo
    ask: wire.Follow


class LobbyNews:
    """The lobby's followers, each sent its lists again after the changes that concern it.

    ``lists`` reads an account's lists (on the database's thread); ``failed`` hears a read
    that failed (that follower is sent nothing this time, the others are); ``pushed`` (if
    given) is called once the lists of a burst of changes have gone out.
    """

    def __init__(
        self,
        lists: Callable[[AccountInfo, wire.Follow], Awaitable[wire.Lists]],
        failed: Callable[[str, Exception], None],
        *,
        delay: float = PUSH_DELAY,
        pushed: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.lists = lists
        self.failed = failed
        self.delay = delay
        self.pushed = pushed
        self.followers: dict[Connection, Follower] = {}
        self._sent: dict[Connection, str] = {}  # the lists each follower was sent last
        self._everyone = False  # a change every follower is to hear of is waiting
        self._accounts: set[int] = set()  # the accounts a waiting change concerns
        self._pushing: asyncio.Task[None] | None = None

    def follow(
        self, connection: Connection, account: AccountInfo, ask: wire.Follow, answer: wire.Lists
    ) -> None:
        """``connection`` of ``account`` follows ``ask`` now; it was just sent ``answer``."""
        self.followers[connection] = Follower(account, ask)
        self._sent[connection] = _pushed(answer)

    def left(self, connection: Connection) -> None:
        """``connection`` is gone (or follows no more)."""
        self.followers.pop(connection, None)
        self._sent.pop(connection, None)

    def changed(self, accounts: Iterable[int] | None = None) -> None:
        """The lists changed: every follower's (``accounts``: only those accounts')."""
        if accounts is None:
            self._everyone = True
        else:
            self._accounts.update(accounts)
        if self._pushing is None or self._pushing.done():
            self._pushing = asyncio.get_running_loop().create_task(self._push())

    async def close(self) -> None:
        """Stop pushing (the server stops)."""
        if self._pushing is not None:
            self._pushing.cancel()
        self.followers.clear()
        self._sent.clear()

    async def _push(self) -> None:
        """Wait for the burst to end, then send the lists it changed; again while changes
        came meanwhile."""
        while self._everyone or self._accounts:
            await asyncio.sleep(self.delay)
            everyone, accounts = self._everyone, self._accounts
            self._everyone, self._accounts = False, set()
            read: dict[tuple[int, wire.Follow], str | None] = {}
            for connection, follower in list(self.followers.items()):
                if everyone or follower.account.id in accounts:
                    await self._send(connection, follower, read)
            if self.pushed is not None:
                await self.pushed()

    async def _send(
        self,
        connection: Connection,
        follower: Follower,
        read: dict[tuple[int, wire.Follow], str | None],
    ) -> None:
        """Send ``follower`` its lists if they changed (read once for each account and ask)."""
        key = (follower.account.id, follower.ask)
        if key not in read:
            try:
                read[key] = _pushed(await self.lists(follower.account, follower.ask))
            except Exception as error:  # the database's: this follower hears of the next change
                read[key] = None
                self.failed(f"push the lobby's lists to {follower.account.name}", error)
        text = read[key]
        if text is None or self.followers.get(connection) != follower:
            return  # not read, or the connection left (or asked for other lists) meanwhile
        if self._sent.get(connection) == text:
            return
        self._sent[connection] = text
        connection.refresh(lambda: text)


def _pushed(lists: wire.Lists) -> str:
    """``lists`` as a push sends them."""
    return wire.SERVER.encode(evolve(lists, pushed=True))
