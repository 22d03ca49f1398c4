"""The server's tables, as SQLAlchemy 2 declarative classes.

The schema is versioned by Alembic (``migrations/``): these classes describe the
newest revision, and every change to them comes with a migration.  A table's
game is kept as its save envelope (the save format of
:mod:`karavan_core.saves`), replayed and verified whenever it is loaded.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    """The declarative base of every server table."""


class Account(Base):
    """A player: a name unique on the server, proven by the keys of :class:`AccountKey`."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)  # the name, case-folded
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Where the server calls the player when a turn-based table waits for them (a web hook).
    notify_url: Mapped[str | None] = mapped_column(String(500))
    keys: Mapped[list[AccountKey]] = relationship(back_populates="account")


class AccountKey(Base):
    """One way to prove an account: the hash of an app secret, or an SSH key's fingerprint."""

    __tablename__ = "account_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # "secret" or "ssh"
    digest: Mapped[str] = mapped_column(String(128), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    account: Mapped[Account] = relationship(back_populates="keys")


class GameTable(Base):
    """A table of the lobby: its settings, its seats and, once it starts, its game."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open, playing, over
    created_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    clock: Mapped[str] = mapped_column(String(16))  # none, live, turn
    move_seconds: Mapped[int] = mapped_column(Integer)
    bank_seconds: Mapped[int] = mapped_column(Integer)
    takebacks: Mapped[str] = mapped_column(String(16))  # consent or none
    rated: Mapped[bool] = mapped_column(Boolean)
    stand_in: Mapped[str] = mapped_column(String(16))  # the bot level that plays for the late
    watchers_chat: Mapped[bool] = mapped_column(Boolean, default=False)  # watchers may chat
    # A table made for the players its seats are kept for, who may decline it.
    challenge: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    seed: Mapped[int] = mapped_column(BigInteger)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer)
    save: Mapped[dict[str, object] | None] = mapped_column(JSON)  # the save envelope
    result: Mapped[dict[str, object] | None] = mapped_column(JSON)
    # What the table adds to lines of its log: [line, words] pairs (a stand-in's decision).
    log_marks: Mapped[list[Any] | None] = mapped_column(JSON)
    # The server process running the table now (several may share one database), until
    # when unless it renews its lease, and where its players reach it.
    lease_owner: Mapped[str | None] = mapped_column(String(64))
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    lease_address: Mapped[str | None] = mapped_column(String(300))
    seats: Mapped[list[TableSeat]] = relationship(
        back_populates="table", order_by="TableSeat.seat", cascade="all, delete-orphan"
    )
    creator: Mapped[Account | None] = relationship()


class TableSeat(Base):
    """One seat of a table: open, kept for a named player, taken by an account, or a bot's."""

    __tablename__ = "table_seats"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # human or bot
    level: Mapped[str | None] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    reserved_for: Mapped[str | None] = mapped_column(String(64))  # a player's name
    name: Mapped[str | None] = mapped_column(String(64))
    bank_left: Mapped[float] = mapped_column(Float)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    stood_in: Mapped[bool] = mapped_column(Boolean, default=False)
    # The deadlines its player was called about on their web hook: that the turn is theirs,
    # and that less than a tenth of its time is left (each called once a deadline).
    turn_told: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    turn_reminded: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The player resigned and a bot plays the seat: the order they did (1 for the first).
    resigned: Mapped[int | None] = mapped_column(Integer)
    table: Mapped[GameTable] = relationship(back_populates="seats")


class ChatRow(Base):
    """A line said at a table's chat, kept with its game (``seat``: ``None`` for a watcher)."""

    __tablename__ = "table_chat"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    said_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Rating(Base):
    """An account's rating in one game (openskill's mu and sigma)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatingChange(Base):
    """What one rated game did to one player's rating (shown at its end)."""

    __tablename__ = "rating_changes"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


class ServerMark(Base):
    """A value the server keeps about itself, such as when it was last seen running."""

    __tablename__ = "server_marks"

    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ServerProcess(Base):
    """A server process running on this database: where its clients reach it, and until when
    it is known to run (it says so again before then)."""

    __tablename__ = "server_processes"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(300))
    alive_until: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# The lobby lists the newest open and running tables, by status (those waiting for players
# first), of every game or of one: these indexes hold them in that order, so a listing reads
# its page of tables instead of sorting every table kept.
Index("ix_tables_listing", GameTable.status, GameTable.updated_at.desc(), GameTable.id.desc())
Index(
    "ix_tables_game_listing",
    GameTable.game,
    GameTable.status,
    GameTable.updated_at.desc(),
    GameTable.id.desc(),
)
