"""The server's store: accounts, tables, games, clocks and ratings in one database.

SQLAlchemy 2 over an SQLite file by default or PostgreSQL by URL, with the same
code; the schema is Alembic's (:meth:`Store.migrate` brings any database to the
newest revision).  :class:`Store` opens the database and holds its repositories,
each over the one session factory (:class:`~karavan_net.serve.store.sessions.Sessions`):
``accounts``, ``tables`` (and the lobby's listings), ``leases`` (and the processes),
``ratings``, ``marks``, ``chats`` (what was said at each table) and ``calls`` (the calls
owed on the players' web hooks).  Every method of theirs is one transaction and returns
plain values (:mod:`karavan_net.serve.store.records`), never rows tied to a session;
the server calls them from worker threads.  Every time they keep or compare is the
database's own now, never the calling process's.
"""

from __future__ import annotations

import contextlib
import os
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, make_url, text
from sqlalchemy.exc import ArgumentError

from karavan_net.codec import dumps
from karavan_net.serve.store.accounts import Accounts
from karavan_net.serve.store.calls import TurnCalls
from karavan_net.serve.store.chat import Chats
from karavan_net.serve.store.leases import Leases
from karavan_net.serve.store.marks import Marks
from karavan_net.serve.store.ratings import Ratings
from karavan_net.serve.store.records import (
    AccountInfo,
    Decision,
    KeyKind,
    Lease,
    RatedGame,
    SeatClock,
    SeatRecord,
    SeatSpec,
    Start,
    Starter,
    Status,
    StoreError,
    TableCaps,
    TableRecord,
    TableSpec,
    TurnCall,
    key_digest,
    name_key,
)
from karavan_net.serve.store.sessions import Sessions, sqlite_begin
from karavan_net.serve.store.tables import LOBBY_LIMIT, Tables

__all__ = [
    "LOBBY_LIMIT",
    "AccountInfo",
    "Decision",
    "KeyKind",
    "Lease",
    "RatedGame",
    "SeatClock",
    "SeatRecord",
    "SeatSpec",
    "Start",
    "Starter",
    "Status",
    "Store",
    "StoreError",
    "TableCaps",
    "TableRecord",
    "TableSpec",
    "TurnCall",
    "database_url",
    "key_digest",
    "name_key",
    "redacted",
    "shown_database",
]

MIGRATIONS = Path(__file__).parent.parent / "migrations"
MIGRATING = 0x6B617261  # the advisory lock processes take to migrate the schema one at a time
PRIVATE = 0o600  # an SQLite file's mode (and so its WAL's and shared memory's): its owner's


def database_url(value: str) -> str:
    """A ``--db`` value as a SQLAlchemy URL: a URL as it is, a path as an SQLite file."""
    if "://" in value:
        if value.startswith("postgresql://"):  # the driver SQLAlchemy prefers: psycopg 3
            return "postgresql+psycopg://" + value.removeprefix("postgresql://")
        return value
    return f"sqlite:///{Path(value).expanduser()}"


def shown_database(value: str) -> str:
    """A ``--db`` value as it may be printed: a path as it is, a URL without its password."""
    if "://" not in value:
        return value
    try:
        return make_url(value).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return "(a database URL that cannot be read)"


def redacted(text: str, value: str) -> str:
    """``text`` (an error's words, say) without the password of the ``--db`` value ``value``,
    wherever it shows the URL."""
    try:
        password = make_url(value).password if "://" in value else None
    except (ArgumentError, ValueError):
        return text.replace(value, "(the database URL)")
    return text if not password else text.replace(f":{password}@", ":***@")


def _keep_private(path: Path) -> None:
    """Make the SQLite file ``path`` its owner's alone before SQLite opens it: a new one is
    made so, one made before (and its WAL and shared memory) is changed to it.  SQLite
    gives the WAL and shared-memory files it makes the main file's mode."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE))
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        # (a file of another user's is left as it is: only its owner may change it)
        with contextlib.suppress(FileNotFoundError, PermissionError):
            if each.stat().st_mode & 0o077:
                each.chmod(PRIVATE)


def _sqlite_pragmas(connection: Any, _: Any) -> None:
    connection.isolation_level = None  # transactions are begun by sqlite_begin, not the driver
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers go on while a decision is written
    cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    """The server's database, opened at ``url``, and its repositories."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        # Every decision writes its table's whole save: orjson turns it into JSON some ten
        # times quicker than the standard library, which SQLAlchemy would use.
        self.engine: Engine = create_engine(
            self.url, future=True, json_serializer=dumps, json_deserializer=orjson.loads
        )
        if self.engine.dialect.name == "sqlite":
            path = self.engine.url.database
            if path and path != ":memory:" and not path.startswith("file:"):
                _keep_private(Path(path))
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", sqlite_begin)
        self.sessions = Sessions(self.engine)
        self.accounts = Accounts(self.sessions)
        self.ratings = Ratings(self.sessions)
        self.tables = Tables(self.sessions, self.ratings)
        self.leases = Leases(self.sessions)
        self.marks = Marks(self.sessions)
        self.chats = Chats(self.sessions)
        self.calls = TurnCalls(self.sessions)

    @classmethod
    def open(cls, url: str) -> Store:
        """The store at ``url``, its schema brought to the newest revision."""
        if "://" not in url:
            Path(url).expanduser().parent.mkdir(parents=True, exist_ok=True)
        store = cls(url)
        store.migrate()
        return store

    def close(self) -> None:
        """Let go of every connection."""
        self.engine.dispose()

    def now(self) -> datetime:
        """The database's now (in UTC)."""
        with self.sessions.begin() as session:
            return self.sessions.now(session)

    # -- the schema ------------------------------------------------------------------------
    def alembic(self) -> Config:
        """Alembic's configuration for this program's migrations (the connection is handed
        to it in ``attributes["connection"]``)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        return config

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to ``revision`` (the newest by default), step by step."""
        config = self.alembic()
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Processes starting together migrate one after the other (the lock is the
                # transaction's, let go at its end).
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATING})
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    def schema_revision(self) -> str | None:
        """The schema revision the database is at (``None``: an empty database)."""
        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def newest_revision(self) -> str | None:
        """The newest schema revision this program knows."""
        return ScriptDirectory.from_config(self.alembic()).get_current_head()
