"""What one account or one address may take of a server, so that nobody can fill it for all.

A stranger may make accounts, open the lobby, open tables; each of these is capped, so that
a flood from one place slows that place only:

- accounts made from one address come at a bounded rate (:attr:`Limits.new_accounts`);
- lobby connections are capped per account (a newcomer proves the account, so the oldest of
  its connections gives way: a player back after a drop is never kept out) and per address
  (a newcomer past the cap is refused: an address cannot send another's players away);
- an account may open tables at a bounded rate, have a few waiting for players and a
  bounded number not yet over (bots' tables count: their bots think on the server).

Addresses are as the server sees them: every connection through a proxy on this machine
comes from loopback, one address, unless the server is told it sits behind one.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from attrs import frozen

from karavan_net.guard import Allowance, Buckets, is_loopback
from karavan_net.serve.store import TableCaps

C = TypeVar("C", bound=Hashable)


TABLE_CAPS = TableCaps(waiting=5, unfinished=20)
NEW_TABLES = Allowance(rate=1 / 30, burst=10)  # ten at once, then one every 30 s
NEW_ACCOUNTS = Allowance(rate=10 / 3600, burst=10)  # ten at once, then ten an hour
# This machine's own address is the doors' (ssh, web): their players share it, and the doors
# cap their own visitors, so it makes accounts at a larger rate.
NEW_LOCAL_ACCOUNTS = Allowance(rate=60 / 3600, burst=30)


@frozen(kw_only=True)
class Limits:
    """The caps a server keeps (see the module's docstring); the defaults suit a public one."""

    lobby_per_account: int = 4
    lobby_per_address: int = 64
    tables: TableCaps = TABLE_CAPS
    new_tables: Allowance = NEW_TABLES
    new_accounts: Allowance = NEW_ACCOUNTS
    new_local_accounts: Allowance = NEW_LOCAL_ACCOUNTS

    @classmethod
    def with_accounts_per_hour(cls, count: int) -> Limits:
        """The default limits, but ``count`` accounts an hour from one address (at once, too),
        and at least as many from this machine's own."""
        per_hour = Allowance(rate=count / 3600, burst=count)
        local = per_hour if count > NEW_LOCAL_ACCOUNTS.burst else NEW_LOCAL_ACCOUNTS
        return cls(new_accounts=per_hour, new_local_accounts=local)


NEW_ACCOUNTS_REFUSED = "Too many new accounts from your address: try again in an hour."
NEW_TABLES_REFUSED = "You open tables faster than this server allows: try again in a minute."
ADDRESS_FULL = "Too many lobby connections from your address: close one and try again."
REPLACED = "Your account opened the lobby from another place: this one is closed."


class LobbyGate(Generic[C]):
    """The lobby's connections ``C`` by account and by address, and the allowances of new
    accounts (per address) and new tables (per account), as ``limits`` says.

    All on the event loop; ``clock`` (seconds, only growing) is the monotonic clock unless a
    test gives its own.
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._by_account: dict[int, list[C]] = {}
        self._by_address: Counter[str] = Counter()
        self._addresses: dict[C, tuple[int, str]] = {}
        self._new_accounts = _allowance(limits.new_accounts, clock)
        self._new_local_accounts = _allowance(limits.new_local_accounts, clock)
        self._new_tables = _allowance(limits.new_tables, clock)

    def may_make_account(self, address: str) -> bool:
        """Whether an account may be made from ``address`` now (counted if so)."""
        buckets = self._new_local_accounts if is_loopback(address) else self._new_accounts
        return _take(buckets, address)

    def may_open_table(self, account_id: int) -> bool:
        """Whether ``account_id`` may open a table now (counted if so)."""
        return _take(self._new_tables, str(account_id))

    def admit(self, connection: C, account_id: int, address: str) -> list[C]:
        """Let ``connection`` of ``account_id`` from ``address`` in; the account's connections
        that give way for it (to be closed).  :class:`PermissionError` if ``address`` holds
        all it may."""
        if self._by_address[address] >= self.limits.lobby_per_address:
            raise PermissionError(ADDRESS_FULL)
        mine = self._by_account.setdefault(account_id, [])
        giving_way = mine[: max(0, len(mine) + 1 - self.limits.lobby_per_account)]
        for old in giving_way:
            self.left(old)
        self._by_account.setdefault(account_id, []).append(connection)
        self._by_address[address] += 1
        self._addresses[connection] = (account_id, address)
        return giving_way

    def left(self, connection: C) -> None:
        """``connection`` is gone (or gave way)."""
        found = self._addresses.pop(connection, None)
        if found is None:
            return
        account_id, address = found
        self._by_address[address] -= 1
        if self._by_address[address] <= 0:
            del self._by_address[address]
        mine = self._by_account.get(account_id, [])
        if connection in mine:
            mine.remove(connection)
        if not mine:
            self._by_account.pop(account_id, None)

    def of_account(self, account_id: int) -> tuple[C, ...]:
        """The lobby connections of ``account_id`` now, oldest first."""
        return tuple(self._by_account.get(account_id, ()))

    def everyone(self) -> tuple[C, ...]:
        """Every lobby connection let in and not gone."""
        return tuple(self._addresses)

    def from_address(self, address: str) -> int:
        """How many lobby connections ``address`` holds now."""
        return self._by_address[address]


def _allowance(allowance: Allowance, clock: Callable[[], float]) -> Buckets:
    """A bucket per key for ``allowance``."""
    return Buckets(allowance.rate, allowance.burst, 0.0, clock, remembered=4096)


def _take(buckets: Buckets, key: str) -> bool:
    """Take one from ``key``'s bucket if it has one (refused, not slowed, past the burst)."""
    bucket = buckets.get(key)
    if not bucket.ready():
        return False
    bucket.take()
    return True
