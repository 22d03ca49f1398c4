"""Clocks: how long a player may think, and what happens when the time is up.

A **live** table gives each decision ``move_seconds`` and, beyond that, a bank of
``bank_seconds`` for the whole game (30 s a move + 5 min, say); a **turn-based**
table gives each decision hours or days and no bank.  When a player's time runs
out, a bot of the table's stand-in level decides for them and everyone is told
(Board Game Arena's practice); the seat stays marked until its player decides in
time again.

An untimed table has no clock, but a **rated** one may not be held hostage by a
player who is losing and leaves: the person to move has :data:`ABANDON_AFTER` to
decide, and past that the game ends by abandonment, that player last, and is rated.

A seat to move is kept as its deadline and what is left of its bank, so that a
decision is charged by its deadline alone, and time the server was down is given
back by moving every deadline on by the gap (:func:`shifted`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum

from attrs import frozen

from karavan_core.text import plural


class ClockKind(StrEnum):
    """Whether a table is timed, and how."""

    NONE = "none"
    LIVE = "live"
    TURN = "turn"


MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR
LIVE_MOVE = (10, 30 * MINUTE)  # the shortest and longest time a move at a live table
LIVE_BANK = (0, 2 * HOUR)
TURN_MOVE = (HOUR, 14 * DAY)  # lichess's correspondence games run from 1 to 14 days
ABANDON_AFTER = 3 * DAY
"""How long the person to move at a rated untimed table may leave it waiting."""
# What the lobby offers, most used first.
PRESETS: dict[str, tuple[ClockKind, int, int]] = {
    "untimed": (ClockKind.NONE, 0, 0),
    "30s+5m": (ClockKind.LIVE, 30, 5 * MINUTE),
    "60s+10m": (ClockKind.LIVE, 60, 10 * MINUTE),
    "1h": (ClockKind.TURN, HOUR, 0),
    "1d": (ClockKind.TURN, DAY, 0),
    "3d": (ClockKind.TURN, 3 * DAY, 0),
    "14d": (ClockKind.TURN, 14 * DAY, 0),
}


@frozen(kw_only=True)
class Clock:
    """A table's clock rule."""

    kind: ClockKind = ClockKind.NONE
    move_seconds: int = 0
    bank_seconds: int = 0

    @classmethod
    def checked(cls, kind: str, move_seconds: int, bank_seconds: int) -> Clock:
        """The clock asked for; ``ValueError`` with a sentence if it is not one a table can have."""
        try:
            which = ClockKind(kind)
        except ValueError:
            raise ValueError("A clock is none, live or turn-based.") from None
        if which is ClockKind.NONE:
            return cls()
        low, high = LIVE_MOVE if which is ClockKind.LIVE else TURN_MOVE
        if not low <= move_seconds <= high:
            raise ValueError(
                f"A {which.value} clock gives a move from {duration(low)} to {duration(high)}."
            )
        if which is ClockKind.TURN and bank_seconds:
            raise ValueError("A turn-based clock has no bank.")
        if not LIVE_BANK[0] <= bank_seconds <= LIVE_BANK[1]:
            raise ValueError(f"A bank is at most {duration(LIVE_BANK[1])}.")
        return cls(kind=which, move_seconds=move_seconds, bank_seconds=bank_seconds)

    @property
    def timed(self) -> bool:
        """Whether the table has a clock at all."""
        return self.kind is not ClockKind.NONE

    def describe(self) -> str:
        """The clock in a few words: "30 s a move + 5 min", "1 day a move", "untimed"."""
        if not self.timed:
            return "untimed"
        text = f"{duration(self.move_seconds)} a move"
        if self.bank_seconds:
            text += f" + {duration(self.bank_seconds)}"
        return text

    def deadline(self, now: datetime, bank_left: float, *, rated: bool = False) -> datetime | None:
        """When a decision that becomes due at ``now`` runs out of time (``None``: never).
        Untimed, a ``rated`` table's game is abandoned once its time is up."""
        if not self.timed:
            return now + timedelta(seconds=ABANDON_AFTER) if rated else None
        return now + timedelta(seconds=self.move_seconds + bank_left)

    def bank_after(self, deadline: datetime | None, now: datetime, bank_left: float) -> float:
        """The bank left after a decision made at ``now`` that was due by ``deadline``.

        Time beyond the move's own comes out of the bank; a bank never grows.
        """
        if deadline is None:
            return bank_left
        left = (deadline - now).total_seconds()
        return max(0.0, min(bank_left, left))


def shifted(deadline: datetime | None, gap: timedelta) -> datetime | None:
    """``deadline`` moved on by ``gap``: time the server was not running is not charged."""
    return None if deadline is None else deadline + gap


def duration(seconds: float) -> str:
    """``seconds`` in the largest unit that fits whole: "30 s", "5 min", "2 h", "3 days"."""
    whole = round(seconds)
    for size, unit in ((DAY, "day"), (HOUR, "h"), (MINUTE, "min")):
        if whole >= size and whole % size == 0:
            count = whole // size
            return plural(count, "day") if unit == "day" else f"{count} {unit}"
    return f"{whole} s"


def time_left(deadline: datetime | None, now: datetime) -> str:
    """What is left until ``deadline``, roughly, for a list: "4 min", "2 h", "3 days", "late"."""
    if deadline is None:
        return ""
    left = (deadline - now).total_seconds()
    if left <= 0:
        return "late"
    for size, unit in ((DAY, "day"), (HOUR, "h"), (MINUTE, "min")):
        if left >= size:
            count = int(left // size)
            return plural(count, "day") if unit == "day" else f"{count} {unit}"
    return f"{int(left)} s"


def skew(told: str, mine: datetime) -> float:
    """Seconds a server's clock (``told``, ISO 8601, when it was sent) is ahead of ``mine``
    (when it came): 0 where it tells none, or what is not a time with its zone."""
    try:
        theirs = datetime.fromisoformat(told)
    except ValueError:
        return 0.0
    if theirs.tzinfo is None or mine.tzinfo is None:
        return 0.0
    return (theirs - mine).total_seconds()
