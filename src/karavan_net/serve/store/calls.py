"""The calls owed to players of turn-based tables: their turn, and their time running out.

A player who gave the server a web hook (``Account.notify_url``) is called once when a
turn-based table waits for their decision, and once more when less than a tenth of its time
is left.  Each seat keeps the deadline it was last called about (``turn_told``,
``turn_reminded``), so each call is owed once a deadline, whichever process finds it and
however often the server restarts: it is claimed in the database before it is made.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from karavan_net.clocks import TURN_MOVE, ClockKind
from karavan_net.serve.schema import Account, GameTable, TableSeat
from karavan_net.serve.store.records import Status, TurnCall, aware
from karavan_net.serve.store.sessions import Sessions

REMINDED_AT = 0.1
"""The share of a turn's time left when its player is called again."""
_SOONEST = timedelta(seconds=TURN_MOVE[1] * REMINDED_AT)  # no reminder is due sooner than this
_TOLD, _REMINDED = TableSeat.turn_told, TableSeat.turn_reminded


class TurnCalls:
    """The calls owed on the players' web hooks."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def due(self, present: Collection[tuple[int, int]] = ()) -> list[TurnCall]:
        """The calls owed now, each claimed (it is not owed again): a turn-based table waits
        for a player who has a web hook, and they were not called about this deadline yet, or
        less than a tenth of its time is left and they were not called about that.  Seats in
        ``present`` (table and seat) are at their table now: they are called later, if the
        table still waits for them once they have gone."""
        calls = []
        with self._sessions.begin() as session:
            now = self._sessions.now(session)
            for row in session.execute(_owed(now)).all():
                table_id, game, move_seconds, seat, deadline, told, url = row
                moment = aware(deadline)
                if (table_id, seat) in present or moment is None or not url:
                    continue
                late = (moment - now).total_seconds() < move_seconds * REMINDED_AT
                reminder = told is not None and told == deadline
                if (late or not reminder) and _claim(session, row, late, reminder):
                    call = TurnCall(
                        url=url, table_id=table_id, game=game, deadline=moment, reminder=reminder
                    )
                    calls.append(call)
        return calls


def _owed(now: datetime) -> Any:
    """The seats a turn-based table waits for now whose player has a web hook and may be owed
    a call: their table, game, move's time, seat, deadline, the deadline they were told of,
    and their web hook."""
    seat_to_move = and_(TableSeat.table_id == GameTable.id, TableSeat.seat == GameTable.to_move)
    return (
        select(
            GameTable.id,
            GameTable.game,
            GameTable.move_seconds,
            TableSeat.seat,
            TableSeat.deadline,
            _TOLD,
            Account.notify_url,
        )
        .join(TableSeat, seat_to_move)
        .join(Account, Account.id == TableSeat.account_id)
        .where(
            GameTable.status == Status.PLAYING.value,
            GameTable.clock == ClockKind.TURN.value,
            TableSeat.deadline > now,
            Account.notify_url.is_not(None),
            or_(
                _TOLD.is_(None),
                TableSeat.deadline != _TOLD,
                and_(
                    TableSeat.deadline <= now + _SOONEST,
                    or_(_REMINDED.is_(None), TableSeat.deadline != _REMINDED),
                ),
            ),
        )
    )


def _claim(session: Session, row: Any, late: bool, reminder: bool) -> bool:
    """Mark the call owed to ``row``'s seat made (the reminder, or the turn told and, if
    ``late``, the reminder with it); whether this transaction claimed it (another process
    may have, meanwhile)."""
    table_id, _, _, seat, deadline, _, _ = row
    mark = _REMINDED if reminder else _TOLD
    marks = {"turn_reminded": deadline} if late else {}
    if not reminder:
        marks["turn_told"] = deadline
    claim = (
        update(TableSeat)
        .where(
            TableSeat.table_id == table_id,
            TableSeat.seat == seat,
            TableSeat.deadline == deadline,
            or_(mark.is_(None), mark != TableSeat.deadline),
        )
        .values(**marks)
    )
    return session.connection().execute(claim).rowcount == 1
