"""Tables and the lobby: new tables, seats, the start, each change of a game, listings, clocks.

A table's game is kept as its save envelope and replayed, verified, whenever it is
loaded (:func:`karavan_core.saves.match_from_envelope`).  A change is written with the
revision it follows (:meth:`Tables.record_all`), so a writer that is out of date is told
so instead of overwriting a newer game.  The seat that fills a table and the table's
start are one transaction, as are a rated game's result and its ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import String, bindparam, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, defer, selectinload

from karavan_core.text import plural
from karavan_net.clocks import shifted
from karavan_net.serve.schema import Account, GameTable, TableSeat
from karavan_net.serve.store.ratings import Ratings
from karavan_net.serve.store.records import (
    AccountInfo,
    Decision,
    Starter,
    Status,
    StoreError,
    TableCaps,
    TableRecord,
    TableSpec,
    aware,
    name_key,
    table_record,
)
from karavan_net.serve.store.sessions import Sessions

WITH_SEATS = [selectinload(GameTable.seats), selectinload(GameTable.creator)]
LOBBY_LIMIT = 200  # tables in one listing: the lobby filters by game for more

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
        log_marks=bindparam("b_marks"),
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


class Tables:
    """The lobby's tables, their seats and their games."""

    def __init__(self, sessions: Sessions, ratings: Ratings) -> None:
        self._sessions = sessions
        self._ratings = ratings

    # -- a table's life --------------------------------------------------------------------
    def create(
        self,
        spec: TableSpec,
        creator: AccountInfo,
        seed: int,
        *,
        start: Starter,
        caps: TableCaps | None = None,
    ) -> TableRecord:
        """A new open table of ``spec``, ``creator`` in its first seat (if that is a person's);
        started by ``start`` at once if that seat was the only one left to take.  With
        ``caps``, :class:`StoreError` says why when ``creator`` has opened as many tables as
        they allow."""
        with self._sessions.begin(writes=True) as session:
            if caps is not None:
                waits = any(seat.kind == "human" for seat in spec.seats[1:])
                self._within_caps(session, creator, caps, waits=waits)
            now = self._sessions.now(session)
            table = table_row(spec, creator.id, seed, now)
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
            return started_if_full(session, table, now, start)

    @staticmethod
    def _within_caps(
        session: Session, creator: AccountInfo, caps: TableCaps, *, waits: bool
    ) -> None:
        """Refuse a new table of ``creator``'s past ``caps`` (one that ``waits`` for players
        counts among the waiting).  The creator's account row is locked first, so two tables
        asked for at once are counted one after the other."""
        session.execute(select(Account.id).where(Account.id == creator.id).with_for_update())
        counted = session.execute(
            select(GameTable.status, func.count())
            .where(
                GameTable.created_by == creator.id,
                GameTable.status.in_((Status.OPEN.value, Status.PLAYING.value)),
            )
            .group_by(GameTable.status)
        )
        opened = {status: int(count) for status, count in counted}
        waiting = opened.get(Status.OPEN.value, 0)
        if waits and waiting >= caps.waiting:
            raise StoreError(
                f"You have {plural(waiting, 'table')} waiting for players already: "
                "wait for them to fill before you open another."
            )
        if sum(opened.values()) >= caps.unfinished:
            raise StoreError(
                f"You have opened {plural(caps.unfinished, 'table')} that are not over yet: "
                "finish one before you open another."
            )

    def get(self, table_id: int, with_save: bool = True) -> TableRecord | None:
        """The stored table ``table_id``, if there is one."""
        with self._sessions.begin() as session:
            table = session.get(GameTable, table_id, options=WITH_SEATS)
            return None if table is None else table_record(table, with_save)

    def take_seat(
        self, table_id: int, seat: int | None, account: AccountInfo, *, start: Starter
    ) -> TableRecord:
        """Seat ``account`` at table ``table_id`` (in ``seat``, or the first it may take); the
        seat that fills the table starts it by ``start``, in the same transaction.

        A seat kept for a named player is that player's only.  Raises
        :class:`StoreError` with the reason when the seat cannot be taken.
        """
        with self._sessions.begin(writes=True) as session:
            table = session.get(GameTable, table_id, options=WITH_SEATS, with_for_update=True)
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
            now = self._sessions.now(session)
            table.updated_at = now
            session.flush()
            return started_if_full(session, table, now, start)

    def record_all(self, decisions: Sequence[Decision]) -> list[bool]:
        """Keep each table's game after its change (its save, whose revision follows the
        decision's ``after``, and its clocks), all in one transaction, one commit for them
        all; for each, whether it was kept: not if the stored game is no longer at ``after``
        or (with an ``owner``) that process no longer holds the table's lease.  A rated
        game's result is rated in the same transaction."""
        # Written in the order of the tables' ids, the order every transaction that changes
        # several tables locks them in (see Leases.renew); the ratings after them all.
        order = sorted(range(len(decisions)), key=lambda i: decisions[i].table_id)
        kept = [False] * len(decisions)
        with self._sessions.begin(writes=True) as session:
            now = self._sessions.now(session)
            connection = session.connection()
            for i in order:
                kept[i] = _record_in(connection, decisions[i], now)
            finished = []
            for one, decision in zip(kept, decisions, strict=True):
                if one and decision.rated is not None and decision.result is not None:
                    finished.append((decision.table_id, decision.rated, decision.result))
            self._ratings.rate_in(session, finished)
        return kept

    # -- listings --------------------------------------------------------------------------
    def lobby(self, game: str | None = None, limit: int = LOBBY_LIMIT) -> list[TableRecord]:
        """The open and running tables, those waiting for players first, newest first (no
        challenge waiting for its players: those are theirs to see)."""
        with self._sessions.begin() as session:
            query = (
                select(GameTable)
                .where(
                    GameTable.status.in_((Status.OPEN.value, Status.PLAYING.value)),
                    or_(GameTable.status == Status.PLAYING.value, GameTable.challenge.is_(False)),
                )
                .order_by(GameTable.status, GameTable.updated_at.desc(), GameTable.id.desc())
                .limit(limit)
                .options(*WITH_SEATS, defer(GameTable.save))  # a listing shows no game
            )
            if game is not None:
                query = query.where(GameTable.game == game)
            return [table_record(t, False) for t in session.scalars(query)]

    def of_account(self, account_id: int, *, over: bool = False) -> list[TableRecord]:
        """The tables where ``account_id`` sits: running ones, or (``over``) finished ones."""
        wanted = (Status.OVER.value,) if over else (Status.OPEN.value, Status.PLAYING.value)
        with self._sessions.begin() as session:
            query = (
                select(GameTable)
                .join(TableSeat)
                .where(TableSeat.account_id == account_id, GameTable.status.in_(wanted))
                .order_by(GameTable.updated_at.desc())
                .limit(LOBBY_LIMIT)
                .options(*WITH_SEATS)
            )
            if not over:  # a running game is shown at its table; a finished one is reviewed
                query = query.options(defer(GameTable.save))
            return [table_record(t, over) for t in session.scalars(query)]

    def my_turns(self, account_id: int) -> int:
        """How many running tables wait for ``account_id``'s decision."""
        with self._sessions.begin() as session:
            waiting = session.scalar(
                select(func.count())
                .select_from(GameTable)
                .join(TableSeat)
                .where(
                    TableSeat.account_id == account_id,
                    GameTable.status == Status.PLAYING.value,
                    GameTable.to_move == TableSeat.seat,
                    TableSeat.resigned.is_(None),  # a bot plays a resigned player's seat
                )
            )
            return int(waiting or 0)

    # -- clocks ----------------------------------------------------------------------------
    def due(self) -> list[int]:
        """The running tables where the seat to move is out of time now (the database's)."""
        with self._sessions.begin() as session:
            query = (
                select(GameTable.id)
                .join(TableSeat)
                .where(
                    GameTable.status == Status.PLAYING.value,
                    TableSeat.seat == GameTable.to_move,
                    TableSeat.deadline.is_not(None),
                    TableSeat.deadline <= self._sessions.now(session),
                )
            )
            return list(session.scalars(query))

    def shift_deadlines(self, since: datetime, table_id: int | None = None) -> tuple[int, float]:
        """Give back the time from ``since`` to the database's now: move running deadlines on
        by it, those of the tables no process holds (the server was down since), or of table
        ``table_id`` (its process was lost since); how many moved, and the seconds given."""
        moved = 0
        with self._sessions.begin() as session:
            gap = self._sessions.now(session) - since
            if gap <= timedelta():
                return 0, 0.0
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
                # The calls made about a deadline are about it still, once it has moved.
                if seat.turn_told == seat.deadline:
                    seat.turn_told = shifted(aware(seat.turn_told), gap)
                if seat.turn_reminded == seat.deadline:
                    seat.turn_reminded = shifted(aware(seat.turn_reminded), gap)
                seat.deadline = shifted(aware(seat.deadline), gap)
                moved += 1
        return moved, gap.total_seconds()


def table_row(spec: TableSpec, creator: int | None, seed: int, now: datetime) -> GameTable:
    """The row of a new open table of ``spec`` made by account ``creator`` at ``now``, dealt
    from ``seed``, its seats still to add."""
    return GameTable(
        game=spec.game,
        status=Status.OPEN.value,
        created_by=creator,
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
        challenge=spec.challenge,
        watchers_chat=spec.watchers_chat,
    )


def started_if_full(
    session: Session, table: GameTable, now: datetime, start: Starter
) -> TableRecord:
    """``table`` as it is, or, every person's seat taken, started by ``start``."""
    record = table_record(table)
    if record.wanted or record.status is not Status.OPEN:
        return record
    begun = start(record, now)
    table.status = Status.PLAYING.value
    table.save, table.to_move = begun.save, begun.to_move
    table.revision = int(begun.save["revision"])
    for seat in table.seats:
        clock = begun.clocks.get(seat.seat)
        if clock is not None:
            seat.bank_left, seat.deadline, seat.stood_in = (
                clock.bank_left,
                clock.deadline,
                clock.stood_in,
            )
    session.flush()
    return table_record(table)


def _record_in(connection: Connection, decision: Decision, now: datetime) -> bool:
    """Keep one decision in ``connection``'s transaction; whether it was kept.

    Core statements made once (see _KEEP_GAME): a busy server runs these for every decision
    of every table, and building them each time cost as much as running them.
    """
    values: dict[str, Any] = {
        "b_table_id": decision.table_id,
        "b_after": decision.after,
        "b_owner": decision.owner,
        "b_save": decision.save,
        "b_revision": int(decision.save["revision"]),
        "b_to_move": decision.to_move,
        "b_updated_at": now,
        "b_status": (Status.PLAYING if decision.result is None else Status.OVER).value,
        "b_result": decision.result,
        "b_marks": [[line, words] for line, words in decision.marks] or None,
    }
    if connection.execute(_KEEP_GAME, values).rowcount != 1:
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
