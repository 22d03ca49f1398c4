"""The database's clock as a server process follows it, for the deadlines it writes.

Processes sharing a database may have clocks that disagree by seconds or minutes; the
database has one.  A process reads the database's now at each lease renewal and keeps how
far its own clock is from it, so that a seat's deadline is the database's now plus the
seat's time, and a timer waits for that deadline by the same reckoning, whatever the
process's own clock says.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta


def system_now() -> datetime:
    """This machine's clock, in UTC."""
    return datetime.now(UTC)


class DatabaseClock:
    """The database's now, followed from this process's clock ``own`` (tests skew it).

    Until it is first sampled it tells ``own``'s time.  A step of the process's clock is
    followed again at the next sample.
    """

    def __init__(self, own: Callable[[], datetime] = system_now) -> None:
        self._own = own
        self.offset = timedelta()  # the database's now less this process's

    def sample(self, read: Callable[[], datetime]) -> timedelta:
        """Read the database's now with ``read`` (a query, so on a worker thread) and keep
        how far it is from this process's clock at the middle of the read; that offset."""
        before = self._own()
        database = read()
        after = self._own()
        self.offset = database - (before + (after - before) / 2)
        return self.offset

    def now(self) -> datetime:
        """The database's now, as near as this process can tell."""
        return self._own() + self.offset
