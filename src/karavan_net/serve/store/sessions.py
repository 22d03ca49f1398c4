"""The one session factory the store's repositories share, and the database's own clock.

Every time the store keeps or compares (a lease's end, a deadline, when a table changed)
is the database's now, read in the transaction that uses it: processes sharing a
database may have clocks that disagree, the database has one.  On PostgreSQL that is
``clock_timestamp()``; SQLite, running inside the process, has the machine's clock, to
the millisecond.  The now is read into Python and bound as a parameter, so it is written
and compared exactly as the stored times are (SQLite keeps them as text).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, text
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, sessionmaker

from karavan_net.serve.schema import Base

# The database's now, in UTC: PostgreSQL's as it is at the call (not the transaction's start).
_NOW = {
    "postgresql": text("SELECT clock_timestamp()"),
    "sqlite": text("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')"),
}
_INSERT = {"postgresql": postgresql_insert, "sqlite": sqlite_insert}
WRITES = "karavan_writes"  # the execution option of a transaction that writes by what it reads


def sqlite_begin(connection: Connection) -> None:
    """Begin an SQLite transaction ourselves (the driver, left to itself, begins one only at
    the first write, so what a transaction read before it was not read inside it): at once
    with the write lock for one that writes by what it reads."""
    immediate = connection.get_execution_options().get(WRITES, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


class Sessions:
    """Transactions on ``engine``, each a session whose values outlive it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._factory = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def begin(self, *, writes: bool = False) -> Iterator[Session]:
        """One transaction: committed at the end of the block, rolled back if it raises.

        One that reads and then ``writes`` by what it read (a seat taken, a count checked, a
        lease taken) holds the database's write lock from its start on SQLite (PostgreSQL
        locks the rows it reads ``FOR UPDATE``): no other writer comes in between.
        """
        with self._factory() as session, session.begin():
            if writes:
                session.connection(execution_options={WRITES: True})
            yield session

    def now(self, session: Session) -> datetime:
        """The database's now, read in ``session``'s transaction."""
        value = session.execute(_NOW[self.dialect]).scalar_one()
        if isinstance(value, str):  # SQLite: UTC, as text
            return datetime.fromisoformat(value).replace(tzinfo=UTC)
        assert isinstance(value, datetime)
        return value.astimezone(UTC)

    def insert(self, table: type[Base]) -> Any:
        """An INSERT into ``table`` that may say what to do on a conflict, in this database's
        dialect (both it supports have ON CONFLICT)."""
        return _INSERT[self.dialect](table)
