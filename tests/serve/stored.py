"""The store's tests' helpers: accounts, and tables started straight in the store."""

from __future__ import annotations

from datetime import datetime

from karavan_net.clocks import Clock
from karavan_net.serve.store import (
    AccountInfo,
    KeyKind,
    SeatClock,
    SeatSpec,
    Start,
    Starter,
    Store,
    TableRecord,
    TableSpec,
    key_digest,
)


def account(store: Store, name: str) -> AccountInfo:
    return store.accounts.create(name, KeyKind.SECRET, key_digest(f"secret of {name}"))


def starting(deadline: datetime | None = None, bank_left: float = 0.0) -> Starter:
    """A start with a game at revision 0 whose first seat moves, due by ``deadline``."""

    def start(table: TableRecord, now: datetime) -> Start:
        clock = SeatClock(bank_left=bank_left, deadline=deadline, stood_in=False)
        return Start(save={"revision": 0}, to_move=0, clocks={0: clock})

    return start


def started_table(
    store: Store,
    owner: AccountInfo,
    clock: Clock | None = None,
    deadline: datetime | None = None,
    seed: int = 5,
) -> int:
    """A table of ``owner``'s against an easy bot, started (its game at revision 0)."""
    spec = TableSpec(
        game="jaipur",
        seats=(SeatSpec(), SeatSpec(kind="bot", level="easy")),
        clock=clock or Clock(),
    )
    return store.tables.create(spec, owner, seed, start=starting(deadline)).id
