"""The server's own marks: moments it keeps about itself (when it was last seen running) and
values made once for all its processes (its identity)."""

from __future__ import annotations

from datetime import datetime

from karavan_net.serve.schema import ServerMark
from karavan_net.serve.store.records import aware
from karavan_net.serve.store.sessions import Sessions


class Marks:
    """Moments kept by name, each the database's now when it was stamped."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def stamp(self, key: str) -> datetime:
        """Keep the database's now under ``key``; that now."""
        with self._sessions.begin() as session:
            now = self._sessions.now(session)
            statement = self._sessions.insert(ServerMark).values(key=key, value=now.isoformat())
            # Every process stamps the same keys: one statement, whoever comes first.
            statement = statement.on_conflict_do_update(
                index_elements=[ServerMark.key], set_={"value": now.isoformat()}
            )
            session.execute(statement)
            return now

    def stamped(self, key: str) -> datetime | None:
        """The moment kept under ``key``, if any."""
        with self._sessions.begin() as session:
            row = session.get(ServerMark, key)
            return None if row is None else aware(datetime.fromisoformat(row.value))

    def keep_first(self, key: str, value: str) -> str:
        """Keep ``value`` under ``key`` unless something is kept there already; what is kept.

        Every process of one database asks at its start: the first one's value stands for
        them all (the server's identity is made this way).
        """
        statement = self._sessions.insert(ServerMark).values(key=key, value=value)
        statement = statement.on_conflict_do_nothing(index_elements=[ServerMark.key])
        with self._sessions.begin() as session:
            session.execute(statement)
            kept = session.get(ServerMark, key)
            assert kept is not None
            return kept.value
