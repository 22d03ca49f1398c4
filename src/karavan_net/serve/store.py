"""The server's store: accounts, tables, games, clocks and ratings in one database.

SQLAlchemy 2 over an SQLite file by default or PostgreSQL by URL, with the same
code; the schema is Alembic's (:meth:`Store.migrate` brings any database to the
newest revision).  Every method is one transaction and returns plain values,
never rows tied to a session; the server calls them from a worker thread.

A table's game is kept as its save envelope and replayed, verified, whenever it
is loaded (:func:`karavan_core.saves.match_from_envelope`).  A change is written
with the revision it follows (:meth:`Store.record_all`), so a writer that is out of
date is told so instead of overwriting a newer game.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from attrs import frozen
from sqlalchemy import (
    Engine,
    String,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, defer, selectinload

from karavan_core.text import check_name
from karavan_net.clocks import Clock, ClockKind, shifted
from karavan_net.serve.ratings import Skill
from karavan_net.serve.schema import (
    Account,
    AccountKey,
    Base,
    GameTable,
    Rating,
    RatingChange,
    ServerMark,
    ServerProcess,
    TableSeat,
)

MIGRATIONS = Path(__file__).with_name("migrations")
MIGRATING = 0x6B617261  # the advisory lock processes take to migrate the schema one at a time
_WITH_SEATS = [selectinload(GameTable.seats), selectinload(GameTable.creator)]
LOBBY_LIMIT = 200  # tables in one listing: the lobby filters by game for more
UNTIMED = Clock()


class StoreError(Exception):
    """A request the store refuses; ``str()`` is a sentence for the player."""


class KeyKind(StrEnum):
    """How an account is proven."""

    SECRET = "secret"  # the app's secret, kept in the player's settings
    SSH = "ssh"  # an SSH public key


class Status(StrEnum):
    """Where a table is in its life."""

    OPEN = "open"  # seats wait for players
    PLAYING = "playing"
    OVER = "over"


def key_digest(secret: str) -> str:
    """What the store keeps of an account's secret (a high-entropy token: SHA-256 will do)."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def name_key(name: str) -> str:
    """A name as it is compared: two names that differ only in case are the same."""
    return name.strip().casefold()


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive times: they were written in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


# -- what the store gives back ----------------------------------------------------------------


@frozen
class AccountInfo:
    """An account: its number and name."""

    id: int
    name: str


@frozen(kw_only=True)
class SeatSpec:
    """A seat as a new table asks for it: open, kept for a named player, or a bot's."""

    kind: str = "human"  # "human" or "bot"
    level: str | None = None
    reserved_for: str | None = None  # a player's name


@frozen(kw_only=True)
class TableSpec:
    """A new table: its game, seats, clock, take-back rule and whether it is rated."""

    game: str
    seats: tuple[SeatSpec, ...]
    clock: Clock = UNTIMED
    takebacks: str = "consent"  # "consent" or "none"
    rated: bool = False
    stand_in: str = "hard"  # the bot level that decides for a player out of time


@frozen(kw_only=True)
class SeatRecord:
    """A seat of a stored table."""

    seat: int
    kind: str
    level: str | None
    account_id: int | None
    name: str | None
    reserved_for: str | None
    bank_left: float
    deadline: datetime | None
    stood_in: bool

    @property
    def free(self) -> bool:
        """Whether anyone may take this seat (a person's, not taken, kept for nobody)."""
        return self.kind == "human" and self.account_id is None and self.reserved_for is None


@frozen(kw_only=True)
class TableRecord:
    """A stored table: its settings, seats and (once started) its save envelope."""

    id: int
    game: str
    status: Status
    created_by: str | None
    created_at: datetime
    updated_at: datetime
    clock: Clock
    takebacks: str
    rated: bool
    stand_in: str
    seed: int
    revision: int
    to_move: int | None
    seats: tuple[SeatRecord, ...]
    save: dict[str, Any] | None = None
    result: dict[str, Any] | None = None

    def seat_of(self, account_id: int) -> int | None:
        """The seat ``account_id`` holds here, if any."""
        return next((s.seat for s in self.seats if s.account_id == account_id), None)

    @property
    def wanted(self) -> int:
        """How many people's seats are still to be taken."""
        return sum(1 for s in self.seats if s.kind == "human" and s.account_id is None)


@frozen(kw_only=True)
class Lease:
    """What asking for a table's lease gave: whether it is held now, where the process that
    holds it listens, and (taken over from a process that was lost) when that one's lease
    ran out."""

    held: bool
    address: str | None
    lapsed: datetime | None


@frozen(kw_only=True)
class SeatClock:
    """A seat's clock after a change: its bank, its deadline, whether a bot stood in."""

    bank_left: float
    deadline: datetime | None
    stood_in: bool


@frozen(kw_only=True)
class Decision:
    """A table's game after a change, to keep: its save (whose revision follows ``after``),
    who moves, the seats' clocks, the result once it is over, and (when several processes
    share the database) the process whose lease lets it write the table."""

    table_id: int
    after: int
    save: dict[str, Any]
    to_move: int | None
    clocks: dict[int, SeatClock]
    result: dict[str, Any] | None = None
    owner: str | None = None


# A table's game after a decision, kept over the revision it follows (and, when the process is
# named, only while that process holds the table's lease); a seat's clock with it.
_KEEP_GAME = (
    update(GameTable)
    .where(
        GameTable.id == bindparam("b_table_id"),
        GameTable.revision == bindparam("b_after"),
        or_(
            bindparam("b_owner", type_=String).is_(None),
            GameTable.lease_owner == bindparam("b_owner"),
        ),
    )
    .values(
        save=bindparam("b_save"),
        revision=bindparam("b_revision"),
        to_move=bindparam("b_to_move"),
        updated_at=bindparam("b_updated_at"),
        status=bindparam("b_status"),
        result=bindparam("b_result"),
    )
)
_KEEP_CLOCK = (
    update(TableSeat)
    .where(TableSeat.table_id == bindparam("b_table_id"), TableSeat.seat == bindparam("b_at"))
    .values(
        bank_left=bindparam("b_bank_left"),
        deadline=bindparam("b_deadline"),
        stood_in=bindparam("b_stood_in"),
    )
)


# -- the store ---------------------------------------------------------------------------------


def _sqlite_pragmas(connection: Any, _: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers go on while a decision is written
    cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def database_url(value: str) -> str:
    """A ``--db`` value as a SQLAlchemy URL: a URL as it is, a path as an SQLite file."""
    if "://" in value:
        if value.startswith("postgresql://"):  # the driver SQLAlchemy prefers: psycopg 3
            return "postgresql+psycopg://" + value.removeprefix("postgresql://")
        return value
    return f"sqlite:///{Path(value).expanduser()}"


class Store:
    """The server's database."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        self.engine: Engine = create_engine(self.url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)

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

    # -- the schema ------------------------------------------------------------------------
    def _alembic(self) -> Config:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        return config

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to ``revision`` (the newest by default), step by step."""
        config = self._alembic()
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
        return ScriptDirectory.from_config(self._alembic()).get_current_head()

    def _insert(self, table: type[Base]) -> Any:
        """An INSERT into ``table`` that may say what to do on a conflict, in this database's
        dialect (both it supports have ON CONFLICT)."""
        dialects = {"postgresql": postgresql_insert, "sqlite": sqlite_insert}
        return dialects[self.engine.dialect.name](table)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    # -- accounts --------------------------------------------------------------------------
    def account_by_key(self, kind: KeyKind, digest: str) -> AccountInfo | None:
        """The account proven by the key ``digest`` of ``kind``, if there is one."""
        with self._session() as session:
            row = session.scalar(
                select(AccountKey)
                .where(AccountKey.kind == kind.value, AccountKey.digest == digest)
                .options(selectinload(AccountKey.account))
            )
            if row is None or not hmac.compare_digest(row.digest, digest):
                return None
            return AccountInfo(row.account.id, row.account.name)

    def account_named(self, name: str) -> AccountInfo | None:
        """The account called ``name`` (in any case), if there is one."""
        with self._session() as session:
            row = session.scalar(select(Account).where(Account.name_key == name_key(name)))
            return None if row is None else AccountInfo(row.id, row.name)

    def create_account(self, name: str, kind: KeyKind, digest: str) -> AccountInfo:
        """A new account called ``name``, proven by the key ``digest``; :class:`StoreError`
        if the name is unfit or taken, or the key already proves an account."""
        try:
            name = check_name(name)
        except ValueError as error:
            raise StoreError(str(error)) from None
        now = _now()
        try:
            with self._session() as session:
                account = Account(name=name, name_key=name_key(name), created_at=now)
                session.add(account)
                session.flush()
                session.add(
                    AccountKey(
                        account_id=account.id, kind=kind.value, digest=digest, created_at=now
                    )
                )
                session.flush()
                return AccountInfo(account.id, account.name)
        except IntegrityError:
            if self.account_by_key(kind, digest) is not None:
                raise StoreError("That key already belongs to an account.") from None
            raise StoreError(f"The name {name} is taken on this server: choose another.") from None

    def add_key(self, account_id: int, kind: KeyKind, digest: str) -> None:
        """Let the key ``digest`` of ``kind`` prove account ``account_id`` too (an SSH key, or
        the secret of a session the SSH door opens); a key already kept changes nothing."""
        try:
            with self._session() as session:
                session.add(
                    AccountKey(
                        account_id=account_id, kind=kind.value, digest=digest, created_at=_now()
                    )
                )
        except IntegrityError:
            return

    # -- tables ----------------------------------------------------------------------------
    def create_table(self, spec: TableSpec, creator: AccountInfo, seed: int) -> TableRecord:
        """A new open table of ``spec``, ``creator`` in its first seat (if that is a person's)."""
        now = _now()
        with self._session() as session:
            table = GameTable(
                game=spec.game,
                status=Status.OPEN.value,
                created_by=creator.id,
                created_at=now,
                updated_at=now,
                clock=spec.clock.kind.value,
                move_seconds=spec.clock.move_seconds,
                bank_seconds=spec.clock.bank_seconds,
                takebacks=spec.takebacks,
                rated=spec.rated,
                stand_in=spec.stand_in,
                seed=seed,
                revision=0,
            )
            for index, seat in enumerate(spec.seats):
                mine = index == 0 and seat.kind == "human"
                table.seats.append(
                    TableSeat(
                        seat=index,
                        kind=seat.kind,
                        level=seat.level,
                        account_id=creator.id if mine else None,
                        name=creator.name if mine else None,
                        reserved_for=None if mine else seat.reserved_for,
                        bank_left=float(spec.clock.bank_seconds),
                        stood_in=False,
                    )
                )
            session.add(table)
            session.flush()
            return _table_record(table)

    def table(self, table_id: int, with_save: bool = True) -> TableRecord | None:
        """The stored table ``table_id``, if there is one."""
        with self._session() as session:
            table = session.get(GameTable, table_id, options=_WITH_SEATS)
            return None if table is None else _table_record(table, with_save)

    def take_seat(self, table_id: int, seat: int | None, account: AccountInfo) -> TableRecord:
        """Seat ``account`` at table ``table_id`` (in ``seat``, or the first it may take).

        A seat kept for a named player is that player's only.  Raises
        :class:`StoreError` with the reason when the seat cannot be taken.
        """
        with self._session() as session:
            table = session.get(GameTable, table_id, options=_WITH_SEATS, with_for_update=True)
            if table is None:
                raise StoreError("There is no such table.")
            if any(s.account_id == account.id for s in table.seats):
                raise StoreError("You have a seat at this table already.")
            if table.status != Status.OPEN.value:
                raise StoreError("That table has no free seat: it has started.")
            mine = name_key(account.name)

            def kept_for_me(s: TableSeat) -> bool:
                return s.reserved_for is not None and name_key(s.reserved_for) == mine

            fitting = [
                s
                for s in table.seats
                if s.kind == "human"
                and s.account_id is None
                and (s.reserved_for is None or kept_for_me(s))
            ]
            if seat is not None:
                fitting = [s for s in fitting if s.seat == seat]
            if not fitting:
                raise StoreError("That seat is not free for you.")
            chosen = min(fitting, key=lambda s: (not kept_for_me(s), s.seat))
            chosen.account_id, chosen.name, chosen.reserved_for = account.id, account.name, None
            table.updated_at = _now()
            session.flush()
            return _table_record(table)

    def start(
        self, table_id: int, save: dict[str, Any], to_move: int | None, clocks: dict[int, SeatClock]
    ) -> None:
        """The table has every player: it starts with the game ``save`` (revision 0)."""
        with self._session() as session:
            table = session.get(GameTable, table_id, options=_WITH_SEATS)
            if table is None:
                raise StoreError("There is no such table.")
            table.status = Status.PLAYING.value
            table.save, table.to_move, table.revision = save, to_move, int(save["revision"])
            table.updated_at = _now()
            self._set_clocks(table, clocks)

    def record_all(self, decisions: Sequence[Decision]) -> list[bool]:
        """Keep each table's game after its change (its save, whose revision follows the
        decision's ``after``, and its clocks), all in one transaction, one commit for them
        all; for each, whether it was kept: not if the stored game is no longer at ``after``
        or (with an ``owner``) that process no longer holds the table's lease."""
        # Written in the order of the tables' ids, the order every transaction that changes
        # several tables locks them in (see renew_leases).
        order = sorted(range(len(decisions)), key=lambda i: decisions[i].table_id)
        kept = [False] * len(decisions)
        with self._session() as session:
            for i in order:
                kept[i] = self._record_in(session, decisions[i])
        return kept

    @staticmethod
    def _record_in(session: Session, decision: Decision) -> bool:
        # Core statements made once (see _KEEP_GAME): a busy server runs these for every
        # decision of every table, and building them each time cost as much as running them.
        connection = session.connection()
        changed = connection.execute(
            _KEEP_GAME,
            {
                "b_table_id": decision.table_id,
                "b_after": decision.after,
                "b_owner": decision.owner,
                "b_save": decision.save,
                "b_revision": int(decision.save["revision"]),
                "b_to_move": decision.to_move,
                "b_updated_at": _now(),
                "b_status": (Status.PLAYING if decision.result is None else Status.OVER).value,
                "b_result": decision.result,
            },
        )
        if changed.rowcount != 1:
            return False
        if decision.clocks:
            connection.execute(
                _KEEP_CLOCK,
                [
                    {
                        "b_table_id": decision.table_id,
                        "b_at": seat,
                        "b_bank_left": clock.bank_left,
                        "b_deadline": clock.deadline,
                        "b_stood_in": clock.stood_in,
                    }
                    for seat, clock in decision.clocks.items()
                ],
            )
        return True

    @staticmethod
    def _set_clocks(table: GameTable, clocks: dict[int, SeatClock]) -> None:
        for seat in table.seats:
            clock = clocks.get(seat.seat)
            if clock is not None:
                seat.bank_left, seat.deadline, seat.stood_in = (
                    clock.bank_left,
                    clock.deadline,
                    clock.stood_in,
                )

    def lobby(self, game: str | None = None, limit: int = LOBBY_LIMIT) -> list[TableRecord]:
        """The open and running tables, those waiting for players first, newest first."""
        with self._session() as session:
            query = (
                select(GameTable)
                .where(GameTable.status.in_((Status.OPEN.value, Status.PLAYING.value)))
                .order_by(GameTable.status, GameTable.updated_at.desc(), GameTable.id.desc())
                .limit(limit)
                .options(*_WITH_SEATS, defer(GameTable.save))  # a listing shows no game
            )
            if game is not None:
                query = query.where(GameTable.game == game)
            return [_table_record(t, False) for t in session.scalars(query)]

    def tables_of(self, account_id: int, *, over: bool = False) -> list[TableRecord]:
        """The tables where ``account_id`` sits: running ones, or (``over``) finished ones."""
        wanted = (Status.OVER.value,) if over else (Status.OPEN.value, Status.PLAYING.value)
        with self._session() as session:
            query = (
                select(GameTable)
                .join(TableSeat)
                .where(TableSeat.account_id == account_id, GameTable.status.in_(wanted))
                .order_by(GameTable.updated_at.desc())
                .limit(LOBBY_LIMIT)
                .options(*_WITH_SEATS)
            )
            if not over:  # a running game is shown at its table; a finished one is reviewed
                query = query.options(defer(GameTable.save))
            return [_table_record(t, over) for t in session.scalars(query)]

    def my_turns(self, account_id: int) -> int:
        """How many running tables wait for ``account_id``'s decision."""
        with self._session() as session:
            waiting = session.scalar(
                select(func.count())
                .select_from(GameTable)
                .join(TableSeat)
                .where(
                    TableSeat.account_id == account_id,
                    GameTable.status == Status.PLAYING.value,
                    GameTable.to_move == TableSeat.seat,
                )
            )
            return int(waiting or 0)

    def running(self) -> list[TableRecord]:
        """Every table being played, with its game (the server resumes the timed ones)."""
        with self._session() as session:
            query = (
                select(GameTable)
                .where(GameTable.status == Status.PLAYING.value)
                .options(*_WITH_SEATS)
            )
            return [_table_record(t, False) for t in session.scalars(query)]

    def due(self, now: datetime) -> list[int]:
        """The running tables where the seat to move is out of time at ``now``."""
        with self._session() as session:
            query = (
                select(GameTable.id)
                .join(TableSeat)
                .where(
                    GameTable.status == Status.PLAYING.value,
                    TableSeat.seat == GameTable.to_move,
                    TableSeat.deadline.is_not(None),
                    TableSeat.deadline <= now,
                )
            )
            return list(session.scalars(query))

    def next_deadline(self) -> datetime | None:
        """The soonest deadline of a seat to move at any running table."""
        with self._session() as session:
            query = (
                select(func.min(TableSeat.deadline))
                .join(GameTable)
                .where(
                    GameTable.status == Status.PLAYING.value, TableSeat.seat == GameTable.to_move
                )
            )
            return _aware(session.scalar(query))

    def shift_deadlines(self, gap: timedelta, table_id: int | None = None) -> int:
        """Move running deadlines on by ``gap``: those of the tables no process holds (the
        server was down), or of table ``table_id`` (its process was lost); how many moved."""
        moved = 0
        with self._session() as session:
            query = (
                select(TableSeat)
                .join(GameTable)
                .where(GameTable.status == Status.PLAYING.value, TableSeat.deadline.is_not(None))
            )
            if table_id is None:
                query = query.where(GameTable.lease_owner.is_(None))
            else:
                query = query.where(GameTable.id == table_id)
            for seat in session.scalars(query):
                seat.deadline = shifted(_aware(seat.deadline), gap)
                moved += 1
        return moved

    # -- leases: which process runs a table ------------------------------------------------
    def take_lease(self, table_id: int, owner: str, address: str, seconds: float) -> Lease:
        """Let process ``owner`` (reached at ``address``) run table ``table_id`` for
        ``seconds``, unless another process holds it and its lease still runs."""
        now = _now()
        with self._session() as session:
            table = session.get(GameTable, table_id, with_for_update=True)
            if table is None:
                return Lease(held=False, address=None, lapsed=None)
            until = _aware(table.lease_until)
            others = table.lease_owner is not None and table.lease_owner != owner
            # A process at our own address is an earlier run of ours, lost: no waiting for it.
            earlier = table.lease_address == address
            if others and not earlier and until is not None and until > now:
                return Lease(held=False, address=table.lease_address, lapsed=None)
            table.lease_owner, table.lease_address = owner, address
            table.lease_until = now + timedelta(seconds=seconds)
            return Lease(held=True, address=address, lapsed=until if others else None)

    def renew_leases(self, owner: str, table_ids: Sequence[int], seconds: float) -> set[int]:
        """Renew ``owner``'s leases of ``table_ids``; the tables it still holds."""
        if not table_ids:
            return set()
        until = _now() + timedelta(seconds=seconds)
        with self._session() as session:
            # The rows are locked in the order of their ids, as :meth:`record_all` writes
            # them: two transactions that take the same rows in different orders would each
            # wait for the other until PostgreSQL ends one as a deadlock (after a second).
            held = session.scalars(
                select(GameTable.id)
                .where(GameTable.id.in_(table_ids), GameTable.lease_owner == owner)
                .order_by(GameTable.id)
                .with_for_update()
            ).all()
            session.execute(
                update(GameTable).where(GameTable.id.in_(held)).values(lease_until=until)
            )
            return set(held)

    def release(self, owner: str, table_id: int) -> None:
        """``owner`` no longer runs table ``table_id``."""
        with self._session() as session:
            session.execute(
                update(GameTable)
                .where(GameTable.id == table_id, GameTable.lease_owner == owner)
                .values(lease_owner=None, lease_until=None, lease_address=None)
            )

    def orphans(self, now: datetime) -> list[int]:
        """The live tables being played that no process runs now (their process was lost)."""
        with self._session() as session:
            query = select(GameTable.id).where(
                GameTable.status == Status.PLAYING.value,
                GameTable.clock == ClockKind.LIVE.value,
                (GameTable.lease_owner.is_(None)) | (GameTable.lease_until < now),
            )
            return list(session.scalars(query))

    def announce(self, owner: str, address: str, seconds: float) -> list[str]:
        """Process ``owner``, reached at ``address``, runs for ``seconds`` more; the addresses
        of the other processes running now."""
        now = _now()
        until = now + timedelta(seconds=seconds)
        statement = self._insert(ServerProcess)
        statement = statement.values(owner=owner, address=address, alive_until=until)
        statement = statement.on_conflict_do_update(
            index_elements=[ServerProcess.owner], set_={"address": address, "alive_until": until}
        )
        with self._session() as session:
            session.execute(statement)
            session.execute(delete(ServerProcess).where(ServerProcess.alive_until < now))
            others = select(ServerProcess.address).where(
                ServerProcess.owner != owner, ServerProcess.address != address
            )
            return sorted(set(session.scalars(others)))

    def withdraw(self, owner: str) -> None:
        """Process ``owner`` stops running."""
        with self._session() as session:
            session.execute(delete(ServerProcess).where(ServerProcess.owner == owner))

    # -- ratings ---------------------------------------------------------------------------
    def skills(self, game: str, account_ids: Sequence[int]) -> list[Skill]:
        """The ratings of ``account_ids`` in ``game`` (a newcomer's where there is none)."""
        with self._session() as session:
            rows = {
                r.account_id: r
                for r in session.scalars(
                    select(Rating).where(Rating.game == game, Rating.account_id.in_(account_ids))
                )
            }
        return [
            Skill(rows[a].mu, rows[a].sigma, rows[a].games) if a in rows else Skill()
            for a in account_ids
        ]

    def shown_ratings(self, account_ids: set[int]) -> dict[tuple[str, int], int]:
        """The ratings players see of ``account_ids``, by game and account (rated ones only)."""
        if not account_ids:
            return {}
        with self._session() as session:
            rows = session.scalars(select(Rating).where(Rating.account_id.in_(account_ids)))
            return {(r.game, r.account_id): Skill(r.mu, r.sigma, r.games).shown for r in rows}

    def rate(self, table_id: int, game: str, new: dict[int, tuple[Skill, Skill]]) -> None:
        """Keep the new ratings of a finished rated table: account -> (before, after)."""
        with self._session() as session:
            for account_id, (before, after) in new.items():
                row = session.get(Rating, (account_id, game))
                if row is None:
                    row = Rating(account_id=account_id, game=game)
                    session.add(row)
                row.mu, row.sigma, row.games = after.mu, after.sigma, after.games
                session.add(
                    RatingChange(
                        table_id=table_id,
                        account_id=account_id,
                        before=float(before.shown),
                        after=float(after.shown),
                    )
                )

    def rating_changes(self, table_id: int) -> dict[int, tuple[int, int]]:
        """What a finished rated table did to each player's rating: account -> (before, after)."""
        with self._session() as session:
            rows = session.scalars(select(RatingChange).where(RatingChange.table_id == table_id))
            return {r.account_id: (round(r.before), round(r.after)) for r in rows}

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[str, Skill]]:
        """The best rated players of ``game``, best first."""
        with self._session() as session:
            query = (
                select(Account.name, Rating)
                .join(Rating, Rating.account_id == Account.id)
                .where(Rating.game == game)
            )
            rows = [(name, Skill(r.mu, r.sigma, r.games)) for name, r in session.execute(query)]
        rows.sort(key=lambda row: row[1].shown, reverse=True)
        return rows[:limit]

    # -- the server's own marks ------------------------------------------------------------
    def mark(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key``."""
        statement = self._insert(ServerMark).values(key=key, value=value)
        # Every process marks the same keys: one statement, whoever comes first.
        statement = statement.on_conflict_do_update(
            index_elements=[ServerMark.key], set_={"value": value}
        )
        with self._session() as session:
            session.execute(statement)

    def mark_first(self, key: str, value: str) -> str:
        """Keep ``value`` under ``key`` unless a value is kept there already; the value kept."""
        statement = self._insert(ServerMark).values(key=key, value=value)
        statement = statement.on_conflict_do_nothing(index_elements=[ServerMark.key])
        with self._session() as session:
            session.execute(statement)
        kept = self.read_mark(key)
        assert kept is not None
        return kept

    def read_mark(self, key: str) -> str | None:
        """The value kept under ``key``, if any."""
        with self._session() as session:
            row = session.get(ServerMark, key)
            return None if row is None else row.value


def _table_record(table: GameTable, with_save: bool = True) -> TableRecord:
    """The stored ``table`` as a value (its game's save only ``with_save``)."""
    creator = table.creator
    return TableRecord(
        id=table.id,
        game=table.game,
        status=Status(table.status),
        created_by=None if creator is None else creator.name,
        created_at=_aware(table.created_at) or _now(),
        updated_at=_aware(table.updated_at) or _now(),
        clock=Clock(
            kind=ClockKind(table.clock),
            move_seconds=table.move_seconds,
            bank_seconds=table.bank_seconds,
        ),
        takebacks=table.takebacks,
        rated=table.rated,
        stand_in=table.stand_in,
        seed=table.seed,
        revision=table.revision,
        to_move=table.to_move,
        seats=tuple(
            SeatRecord(
                seat=s.seat,
                kind=s.kind,
                level=s.level,
                account_id=s.account_id,
                name=s.name,
                reserved_for=s.reserved_for,
                bank_left=s.bank_left,
                deadline=_aware(s.deadline),
                stood_in=s.stood_in,
            )
            for s in table.seats
        ),
        save=table.save if with_save else None,
        result=table.result if with_save else None,
    )
