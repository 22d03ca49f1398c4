"""The tables' chat: each line kept with its table, read back when the table is loaded."""

from __future__ import annotations

from sqlalchemy import select

from karavan_net.protocol import ChatLine
from karavan_net.serve.schema import ChatRow
from karavan_net.serve.store.sessions import Sessions


class Chats:
    """The lines said at the tables, by table and number."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def add(self, table_id: int, line: ChatLine) -> None:
        """Keep ``line``, said at table ``table_id`` (a line kept already stays as it is)."""
        statement = (
            self._sessions.insert(ChatRow)
            .values(
                table_id=table_id,
                number=line.number,
                seat=line.seat,
                name=line.name,
                text=line.text,
            )
            .on_conflict_do_nothing(index_elements=[ChatRow.table_id, ChatRow.number])
        )
        with self._sessions.begin() as session:
            session.execute(statement.values(said_at=self._sessions.now(session)))

    def of_table(self, table_id: int, last: int) -> list[ChatLine]:
        """The ``last`` lines said at table ``table_id``, in order."""
        with self._sessions.begin() as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id)
                .order_by(ChatRow.number.desc())
                .limit(last)
            )
            lines = [ChatLine(row.number, row.name, row.text, row.seat) for row in rows]
        return lines[::-1]
