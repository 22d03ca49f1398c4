"""Absent players at a hosted table: their time away, and the bots that stand in for them.

A player whose connection is gone is away.  Once the table's away limit has
passed (if it has one), a bot plays their seat until they are back; the host
may also hand an absent player's seat to a bot, or call the bot off, at any
time.  A returning player takes the seat back from the bot at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from karavan_core.bots import BOT_LEVELS
from karavan_core.engine import IllegalAction
from karavan_core.referee import Referee
from karavan_core.text import printable
from karavan_net.seat_registry import SeatRegistry

AWAY_LEVEL = "hard"
"""The bot that plays an absent player's seat once the table's away limit has passed."""


class Presence:
    """The away timers and stand-in bots of ``seats``' absent players.

    ``say`` tells the host's console a line; ``changed`` is called whenever a
    bot takes or leaves a seat (the table tells everyone, and the bots move).
    """

    def __init__(
        self,
        referee: Referee,
        seats: SeatRegistry,
        *,
        say: Callable[[str], None],
        changed: Callable[[], None],
    ) -> None:
        self.referee = referee
        self.match = referee.match
        self.seats = seats
        self.say = say
        self.changed = changed
        self.away_limit: float | None = None  # seconds before a bot plays an absent seat
        self.away_level = AWAY_LEVEL
        self.levels: dict[int, str] = {}  # the level of each bot standing in, by seat
        self._timers: dict[int, asyncio.TimerHandle] = {}

    def start(self) -> None:
        """The table is served: the away time of each absent player starts."""
        for seat in self.seats.humans:
            if self.seats.claimed(seat) and seat not in self.seats.links:
                self.away_from_now(seat)

    def returned(self, seat: int) -> None:
        """``seat``'s player is here: no more waiting for them, and a bot gives the seat back."""
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if seat in self.referee.stand_ins:
            self.referee.stand_in(seat, None)
            self.levels.pop(seat, None)
            name = self.match.seats[seat].name
            self.say(f"{name} is back: the bot gives the seat back.")
        self.seats.hold_until_seated()

    def away_from_now(self, seat: int) -> None:
        """Start ``seat``'s away time, if the table has a limit."""
        if self.away_limit is None or seat in self.referee.stand_ins:
            return
        old = self._timers.pop(seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._timers[seat] = loop.call_later(self.away_limit, self._away_too_long, seat)

    def _away_too_long(self, seat: int) -> None:
        self._timers.pop(seat, None)
        if seat in self.seats.links or self.match.is_over() or seat in self.referee.stand_ins:
            return
        name, level = self.match.seats[seat].name, self.away_level
        self.say(
            f"{name} has been away too long: a {level} bot plays the seat until {name} is back."
        )
        self.stand_in(seat, level)

    def hand_to_bot(self, seat: int, level: str | None) -> str:
        """A bot of ``level`` plays absent ``seat`` until its player is back (``None``: the
        bot leaves, the seat waits for them).  Returns what the table is told."""
        name = self.seats.absent(seat)
        if level is None:
            if seat not in self.referee.stand_ins:
                raise IllegalAction(f"No bot plays {name}'s seat.")
            line = f"The bot leaves {name}'s seat: it waits for {name}."
        else:
            if level not in BOT_LEVELS:
                raise IllegalAction(
                    f"No bot level {printable(level)[:20]} ({', '.join(BOT_LEVELS)})."
                )
            line = f"The host hands {name}'s seat to a {level} bot until {name} is back."
        self.say(line)
        self.stand_in(seat, level)
        return line

    def stand_in(self, seat: int, level: str | None) -> None:
        """A bot of ``level`` plays ``seat`` from now on (``None``: none; its away time runs)."""
        self.referee.stand_in(seat, level)
        if level is None:
            self.levels.pop(seat, None)
            self.away_from_now(seat)
        else:
            self.levels[seat] = level
        self.seats.hold_until_seated()
        self.changed()

    def stop(self) -> None:
        """The table closes: no more waiting for anyone."""
        for timer in self._timers.values():
            timer.cancel()
