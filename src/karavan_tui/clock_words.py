"""A timed table's clocks in words, worked out from the deadlines the server sent.

Pure functions: what a seat's clock says at a given moment.  A live clock reads as the
move's time left and the bank ("0:24 + 4:51"), a turn-based one as the time left in
whole units ("23 h left", "2 d 4 h left").  The seat to move counts down from its
deadline, an absolute moment, so the clock is worked out anew each time it is drawn and
never drifts; the others show what their next move starts with.
"""

from __future__ import annotations

import math
from datetime import datetime

from attrs import frozen

from karavan_net.protocol import SeatTime, TableClock

HURRY_SECONDS = 10
"""The last seconds of a live clock, marked (and the player's own rung in once)."""
MINUTE, HOUR, DAY = 60, 3600, 86400


@frozen
class Face:
    """What one seat's clock shows: its ``words``, whether it is ``running`` (the seat to
    move), whether it is in its last seconds (``hurry``: a live clock only) and whether a
    bot made the seat's last decision, its player's time having run out (``late``)."""

    words: str
    running: bool = False
    hurry: bool = False
    late: bool = False


def minutes(seconds: float) -> str:
    """``seconds`` (whole, rounded up: 0:00 is only ever time up) as "4:51", "1:02:05"."""
    whole = max(0, math.ceil(seconds))
    hours, rest = divmod(whole, HOUR)
    if hours:
        return f"{hours}:{rest // MINUTE:02d}:{rest % MINUTE:02d}"
    return f"{rest // MINUTE}:{rest % MINUTE:02d}"


def live_words(move: float, bank: float, banked: bool = True) -> str:
    """A live clock: the move's time and the bank, "0:24 + 4:51" (a table with no bank,
    ``banked`` false: "0:24")."""
    return f"{minutes(move)} + {minutes(bank)}" if banked else minutes(move)


def span(seconds: float) -> str:
    """A long time in its two largest units, rounded down: "2 d 4 h", "23 h", "5 min"."""
    whole = max(0, int(seconds))
    days, rest = divmod(whole, DAY)
    hours, rest = divmod(rest, HOUR)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h"
    if rest >= MINUTE:
        return f"{rest // MINUTE} min"
    return f"{rest} s"


def turn_words(left: float) -> str:
    """A turn-based clock: "23 h left", "2 d 4 h left"; "time is up" once it has run out."""
    return f"{span(left)} left" if left > 0 else "time is up"


def seconds_left(time: SeatTime, now: datetime) -> float | None:
    """Seconds until ``time``'s deadline from ``now`` (``None``: it has none, or none read)."""
    if time.deadline is None:
        return None
    try:
        deadline = datetime.fromisoformat(time.deadline)
    except ValueError:  # outside data: a deadline that is not one shows no count
        return None
    if deadline.tzinfo is None or now.tzinfo is None:
        return None
    return (deadline - now).total_seconds()


def face(clock: TableClock, time: SeatTime, now: datetime) -> Face:
    """What ``time``'s clock shows at ``now`` at a table of ``clock`` (marked ``late`` while
    a stand-in decides for its player)."""
    shown = _face(clock, time, now)
    return Face(shown.words, shown.running, shown.hurry, late=True) if time.stood_in else shown


def _face(clock: TableClock, time: SeatTime, now: datetime) -> Face:
    left = seconds_left(time, now)
    bank = max(0.0, time.bank)
    if clock.kind != "live":
        if left is None:
            return Face(f"{span(clock.move_seconds)} a move")
        return Face(turn_words(left), running=True)
    banked = clock.bank_seconds > 0
    if left is None:  # waiting: what its next move starts with
        return Face(live_words(clock.move_seconds, bank, banked))
    left = max(0.0, left)
    move, in_bank = max(0.0, left - bank), min(bank, left)
    words = live_words(move, in_bank, banked)
    return Face(words, running=True, hurry=left <= HURRY_SECONDS)


PAUSED = Face("paused")
"""The seat to move's clock while the connection is down: no count that may be wrong."""
PAUSED_WORDS = "Paused: reconnecting"
