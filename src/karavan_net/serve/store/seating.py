"""Who sits at a table outside its game: standing up before it starts, a challenge declined,
a resignation kept, a rematch of the same seats.

Each is one transaction over the table's row, locked first, so that two players who stand
up, take a seat or decline at the same moment are served one after the other.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, defer

from karavan_net.serve.schema import GameTable, TableSeat
from karavan_net.serve.store.records import (
    AccountInfo,
    Starter,
    Status,
    StoreError,
    TableRecord,
    TableSpec,
    name_key,
    table_record,
)
from karavan_net.serve.store.sessions import Sessions
from karavan_net.serve.store.tables import LOBBY_LIMIT, WITH_SEATS, started_if_full, table_row


class Seating:
    """Standing up, challenges, resignations and rematches, over ``sessions``."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def _locked(self, session: Session, table_id: int) -> GameTable:
        table = session.get(GameTable, table_id, options=WITH_SEATS, with_for_update=True)
        if table is None:
            raise StoreError("There is no such table.")
        return table

    def stand_up(self, table_id: int, account: AccountInfo) -> TableRecord:
        """Free ``account``'s seat at table ``table_id``, which has not started (a seat a
        challenge kept for them is kept for them again).  A table nobody sits at any more,
        or a challenge its challenger leaves, is closed (:attr:`Status.CLOSED`).  Raises
        :class:`StoreError` with the reason if they may not stand up."""
        with self._sessions.begin(writes=True) as session:
            table = self._locked(session, table_id)
            mine = next((s for s in table.seats if s.account_id == account.id), None)
            if mine is None:
                raise StoreError("You have no seat at this table.")
            if table.status != Status.OPEN.value:
                raise StoreError("That game has started: resign it at its table instead.")
            challenger = mine.seat == 0
            mine.account_id, mine.name = None, None
            if table.challenge and not challenger:
                mine.reserved_for = account.name
            nobody = all(s.account_id is None for s in table.seats)
            if nobody or (table.challenge and challenger):
                table.status = Status.CLOSED.value
            table.updated_at = self._sessions.now(session)
            session.flush()
            return table_record(table)

    def decline(self, table_id: int, account: AccountInfo) -> TableRecord:
        """Decline the challenge at table ``table_id`` made to ``account``: it ends there,
        never played, its result saying so to its challenger.  Raises :class:`StoreError`
        with the reason if there is no such challenge to them."""
        with self._sessions.begin(writes=True) as session:
            table = self._locked(session, table_id)
            if not table.challenge or table.status != Status.OPEN.value:
                raise StoreError("There is no challenge waiting at that table.")
            mine = name_key(account.name)
            theirs = [
                s
                for s in table.seats
                if s.account_id == account.id
                or (s.reserved_for is not None and name_key(s.reserved_for) == mine)
            ]
            if not theirs:
                raise StoreError("That challenge is not to you.")
            if theirs[0].seat == 0:
                raise StoreError("You made that challenge: stand up to take it back.")
            sentence = f"{account.name} declined the challenge."
            table.status = Status.OVER.value
            table.result = {"sentence": sentence, "declined": account.name}
            table.updated_at = self._sessions.now(session)
            session.flush()
            return table_record(table)

    def challenges_for(self, account: AccountInfo) -> list[TableRecord]:
        """The challenges waiting for ``account`` (a seat kept for them), newest first."""
        with self._sessions.begin() as session:
            query = (
                select(GameTable)
                .join(TableSeat)
                .where(
                    GameTable.status == Status.OPEN.value,
                    GameTable.challenge.is_(True),
                    TableSeat.reserved_for == account.name,  # a challenge keeps the account's name
                )
                .order_by(GameTable.updated_at.desc(), GameTable.id.desc())
                .limit(LOBBY_LIMIT)
                .options(*WITH_SEATS, defer(GameTable.save))
            )
            return [table_record(t, False) for t in session.scalars(query)]

    def resigned(self, table_id: int, seat: int, order: int) -> None:
        """Keep that the player of ``seat`` at table ``table_id`` resigned, ``order``-th (a bot
        plays the seat from now on)."""
        with self._sessions.begin() as session:
            row = session.get(TableSeat, (table_id, seat))
            if row is not None:
                row.resigned = order

    def rematch(self, table_id: int, seed: int, *, start: Starter) -> TableRecord:
        """A new table of finished table ``table_id``'s game, settings and seats (the same
        players in them, the same bots), dealt from ``seed`` and started by ``start``."""
        with self._sessions.begin(writes=True) as session:
            old = session.get(GameTable, table_id, options=WITH_SEATS)
            if old is None or old.status != Status.OVER.value or old.save is None:
                raise StoreError("Only a game played to its end has a rematch.")
            now = self._sessions.now(session)
            was = table_record(old, with_save=False)
            spec = TableSpec(
                game=was.game,
                seats=(),
                clock=was.clock,
                takebacks=was.takebacks,
                rated=was.rated,
                stand_in=was.stand_in,
            )
            table = table_row(spec, old.created_by, seed, now)
            for seat in old.seats:
                table.seats.append(
                    TableSeat(
                        seat=seat.seat,
                        kind=seat.kind,
                        level=seat.level,
                        account_id=seat.account_id,
                        name=seat.name,
                        bank_left=float(was.clock.bank_seconds),
                        stood_in=False,
                    )
                )
            session.add(table)
            session.flush()
            return started_if_full(session, table, now, start)
