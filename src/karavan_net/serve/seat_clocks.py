"""A served table's clocks: each seat's time, the deadline of the seat to move, and the words
for a player who ran out of time or left the game."""

from __future__ import annotations

from datetime import datetime

from karavan_net.clocks import ABANDON_AFTER, Clock, duration
from karavan_net.protocol import SeatTime, TableClock
from karavan_net.serve.store import SeatClock, TableRecord
from karavan_net.serve.table_rules import wins


class SeatClocks:
    """The clocks of one table: each seat's bank, the deadline of the seat to move, and
    whether a bot stood in for a player whose time ran out."""

    def __init__(self, record: TableRecord) -> None:
        self.clock: Clock = record.clock
        self.rated = record.rated
        self.people = {
            seat.seat for seat in record.seats if seat.kind == "human" and seat.resigned is None
        }
        self.seats: dict[int, SeatClock] = {
            seat.seat: SeatClock(
                bank_left=seat.bank_left, deadline=seat.deadline, stood_in=seat.stood_in
            )
            for seat in record.seats
        }
        self.to_move = record.to_move
        # By log line: a stand-in's decision for a player late (kept with the table's game).
        self.marks: dict[int, str] = dict(record.log_marks)

    def unmark(self, lines: int) -> None:
        """The log is ``lines`` long: marks of lines a take-back took back go."""
        self.marks = {at: words for at, words in self.marks.items() if at < lines}

    def deadline(self) -> datetime | None:
        """When the seat to move runs out of time (``None``: it never does)."""
        if self.to_move is None:
            return None
        return self.seats[self.to_move].deadline

    def changed(self, to_move: int | None, now: datetime, *, stood_in: bool) -> None:
        """The table changed and ``to_move`` decides now.

        A turn's time runs while the same seat goes on deciding; when the turn
        passes, the seat that had it is charged what it used beyond the move's
        own time, and the next person to move gets a fresh deadline.  A
        decision a stand-in bot made leaves the mark on its seat; one the player
        made clears it (``stood_in``: a stand-in made this change).
        """
        before = self.to_move
        if before is not None and before in self.people:
            mine = self.seats[before]
            if stood_in:
                self.seats[before] = SeatClock(bank_left=0.0, deadline=None, stood_in=True)
            elif to_move != before:
                bank = self.clock.bank_after(mine.deadline, now, mine.bank_left)
                self.seats[before] = SeatClock(bank_left=bank, deadline=None, stood_in=False)
            else:
                self.seats[before] = SeatClock(
                    bank_left=mine.bank_left, deadline=mine.deadline, stood_in=False
                )
        if to_move is not None and to_move in self.people and to_move != before:
            mine = self.seats[to_move]
            deadline = self.clock.deadline(now, mine.bank_left, rated=self.rated)
            self.seats[to_move] = SeatClock(
                bank_left=mine.bank_left, deadline=deadline, stood_in=mine.stood_in
            )
        self.to_move = to_move

    def told(self) -> TableClock | None:
        """The clocks as every seat and watcher is told them (``None``: the table is
        untimed): each person's bank, and the deadline of the one to move, as kept."""
        clock = self.clock
        if not clock.timed:
            return None
        times = tuple(
            SeatTime(
                seat=seat,
                bank=round(mine.bank_left, 1),
                deadline=None if mine.deadline is None else mine.deadline.isoformat(),
                stood_in=mine.stood_in,
            )
            for seat, mine in sorted(self.seats.items())
            if seat in self.people
        )
        return TableClock(clock.kind.value, clock.move_seconds, clock.bank_seconds, times)

    def resign(self, seat: int) -> None:
        """``seat``'s player resigned: a bot plays the seat, with no time counted."""
        self.people.discard(seat)
        mine = self.seats[seat]
        self.seats[seat] = SeatClock(bank_left=mine.bank_left, deadline=None, stood_in=False)


def abandoned(names: list[str], seat: int, winners: list[int]) -> str:
    """The end of a game whose player ``seat`` left it waiting past its time."""
    waited = duration(ABANDON_AFTER)
    won = wins(names, winners)
    return f"{names[seat]} left the game waiting {waited}: it ends, and {won} by abandonment."


def timed_out_words(name: str) -> str:
    """What the log says after a decision a bot made for ``name``, whose time ran out."""
    return f"(A bot decided for {name}: their time ran out.)"
