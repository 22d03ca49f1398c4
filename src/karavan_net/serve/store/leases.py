"""Leases and processes: which server process runs each live table, and which processes run.

Several processes may share one database.  Each table in play is run by one process at a
time, which holds its lease and renews it while it runs the table; a process says it runs
(and learns where the others listen) the same way.  Every lease's end is the database's
now plus the lease's length, and is compared with the database's now: a process whose own
clock is wrong can neither take a table whose lease still runs nor make its own lease or
another's look lapsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import delete, select, update

from karavan_net.clocks import ClockKind
from karavan_net.serve.schema import GameTable, ServerProcess
from karavan_net.serve.store.records import Lease, Status, aware
from karavan_net.serve.store.sessions import Sessions


class Leases:
    """The tables' leases and the processes that hold them."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def take(self, table_id: int, owner: str, address: str, seconds: float) -> Lease:
        """Let process ``owner`` (reached at ``address``) run table ``table_id`` for
        ``seconds``, unless another process holds it and its lease still runs."""
        with self._sessions.begin(writes=True) as session:
            table = session.get(GameTable, table_id, with_for_update=True)
            if table is None:
                return Lease(held=False, address=None, lapsed=None)
            now = self._sessions.now(session)
            until = aware(table.lease_until)
            others = table.lease_owner is not None and table.lease_owner != owner
            # A process at our own address is an earlier run of ours, lost: no waiting for it.
            earlier = table.lease_address == address
            if others and not earlier and until is not None and until > now:
                return Lease(held=False, address=table.lease_address, lapsed=None)
            table.lease_owner, table.lease_address = owner, address
            table.lease_until = now + timedelta(seconds=seconds)
            return Lease(held=True, address=address, lapsed=until if others else None)

    def renew(self, owner: str, table_ids: Sequence[int], seconds: float) -> set[int]:
        """Renew ``owner``'s leases of ``table_ids``; the tables it still holds."""
        if not table_ids:
            return set()
        with self._sessions.begin(writes=True) as session:
            # The rows are locked in the order of their ids, as Tables.record_all writes
            # them: two transactions that take the same rows in different orders would each
            # wait for the other until PostgreSQL ends one as a deadlock (after a second).
            held = session.scalars(
                select(GameTable.id)
                .where(GameTable.id.in_(table_ids), GameTable.lease_owner == owner)
                .order_by(GameTable.id)
                .with_for_update()
            ).all()
            until = self._sessions.now(session) + timedelta(seconds=seconds)
            session.execute(
                update(GameTable).where(GameTable.id.in_(held)).values(lease_until=until)
            )
            return set(held)

    def release(self, owner: str, table_id: int) -> None:
        """``owner`` no longer runs table ``table_id``."""
        with self._sessions.begin() as session:
            session.execute(
                update(GameTable)
                .where(GameTable.id == table_id, GameTable.lease_owner == owner)
                .values(lease_owner=None, lease_until=None, lease_address=None)
            )

    def orphans(self) -> list[int]:
        """The live tables being played that no process runs now (their process was lost)."""
        with self._sessions.begin() as session:
            now = self._sessions.now(session)
            query = select(GameTable.id).where(
                GameTable.status == Status.PLAYING.value,
                GameTable.clock == ClockKind.LIVE.value,
                (GameTable.lease_owner.is_(None)) | (GameTable.lease_until < now),
            )
            return list(session.scalars(query))

    def announce(self, owner: str, address: str, seconds: float) -> list[str]:
        """Process ``owner``, reached at ``address``, runs for ``seconds`` more; the addresses
        of the other processes running now.  A process is forgotten once that time has
        passed without its saying so again."""
        with self._sessions.begin() as session:
            now = self._sessions.now(session)
            until = now + timedelta(seconds=seconds)
            statement = self._sessions.insert(ServerProcess)
            statement = statement.values(owner=owner, address=address, alive_until=until)
            statement = statement.on_conflict_do_update(
                index_elements=[ServerProcess.owner],
                set_={"address": address, "alive_until": until},
            )
            session.execute(statement)
            session.execute(delete(ServerProcess).where(ServerProcess.alive_until < now))
            others = select(ServerProcess.address).where(
                ServerProcess.owner != owner, ServerProcess.address != address
            )
            return sorted(set(session.scalars(others)))

    def withdraw(self, owner: str) -> None:
        """Process ``owner`` stops running."""
        with self._sessions.begin() as session:
            session.execute(delete(ServerProcess).where(ServerProcess.owner == owner))
