"""How a served table keeps its game: every change committed to the store, with the clocks
and, once the game is over, its result and ratings, before any seat is shown it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from attrs import frozen

from karavan_core.match import Match
from karavan_core.saves import Envelopes, envelope
from karavan_core.text import listed
from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.database_clock import system_now
from karavan_net.serve.seat_clocks import SeatClocks
from karavan_net.serve.store import Decision, RatedGame, SeatClock, TableRecord
from karavan_net.serve.table_rules import result_of


@frozen(kw_only=True)
class Position:
    """A table's game as it is to be kept: its save, who moves, the seats' clocks, and its
    result once it is over."""

    save: dict[str, Any]
    to_move: int | None
    clocks: dict[int, SeatClock]
    result: dict[str, Any] | None
    marks: tuple[tuple[int, str], ...] = ()  # words the table adds to lines of its log


class StoreKeeper:
    """Where a served table's referee keeps its match: the store, with the clocks.

    It is a :class:`~karavan_core.storage.Storage`: :meth:`snapshot` is called
    on the table's thread at every change, :meth:`write` on the writer's thread,
    through the server's :class:`~karavan_net.serve.commits.CommitQueue` (the
    tables' changes committed together).  A write that finds the stored game
    moved on (another process wrote it) fails, and the table is closed rather
    than overwrite it.  A rated table's last change carries its players' accounts:
    the store rates its result in the transaction that keeps it.  ``kept`` (if given)
    hears each change once it is committed, on the thread that committed it.
    """

    def __init__(
        self,
        commits: CommitQueue,
        record: TableRecord,
        clocks: SeatClocks,
        stand_in_deciding: Callable[[], bool],
        owner: str | None = None,
        now: Callable[[], datetime] = system_now,
        kept: Callable[[Decision], None] | None = None,
    ) -> None:
        self.commits = commits
        self.now = now  # the database's time, as the server follows it
        self.told = kept
        self.owner = owner  # the process whose lease lets it write the table
        self.stand_in_deciding = stand_in_deciding
        self.table_id = record.id
        accounts = tuple(seat.account_id for seat in record.seats)
        # Only people are rated: a table with a bot's seat never is.
        self.rated = (
            RatedGame(game=record.game, accounts=tuple(a for a in accounts if a is not None))
            if record.rated and None not in accounts
            else None
        )
        self.accounts = accounts
        # Once a rated game's end is kept: each seat's rating before and after it.
        self.ratings: tuple[tuple[int, int], ...] = ()
        self.clocks = clocks
        self.resigned = record.resigned  # the seats whose players resigned, in that order
        self.kept = record.revision
        self.envelopes = Envelopes()  # on the table's thread: each decision turned into data once

    def snapshot(self, match: Match) -> Position:
        """The match, its clocks and (once over) its result, to keep."""
        self.clocks.changed(match.to_move, self.now(), stood_in=self.stand_in_deciding())
        outcome = match.outcome()
        result = None
        if outcome is not None:
            names = [seat.name for seat in match.seats]
            sentence = outcome.sentence(names)
            if self.resigned:
                gave_up = listed([names[seat] for seat in self.resigned])
                sentence += f" {gave_up} resigned."
            played = outcome.result
            result = result_of(played.scores, played.winners, sentence, self.resigned)
        clocks = dict(self.clocks.seats)  # its values are frozen: a copy of the mapping will do
        return Position(
            save=self.envelopes.of(match),
            to_move=match.to_move,
            clocks=clocks,
            result=result,
            marks=tuple(sorted(self.clocks.marks.items())),
        )

    def write(self, snapshot: Position) -> None:
        """Commit ``snapshot``; ``OSError`` if it cannot be (the writer reports it)."""
        self._keep(
            snapshot.save, snapshot.to_move, snapshot.clocks, snapshot.result, marks=snapshot.marks
        )

    def end(self, match: Match, result: dict[str, Any], rated: bool = True) -> None:
        """Keep ``match`` as it stands, its game ended by the table's rule with ``result``
        (rated if the table is and ``rated``), its clocks stopped; ``OSError`` if it
        cannot be."""
        self.clocks.changed(None, self.now(), stood_in=False)
        marks = tuple(sorted(self.clocks.marks.items()))
        self._keep(envelope(match), None, dict(self.clocks.seats), result, rated, marks=marks)

    def mark_resigned(self, seat: int) -> None:
        """Keep that ``seat``'s player resigned (the last of :attr:`resigned`); ``OSError``
        if it cannot be."""
        try:
            self.commits.store.seating.resigned(self.table_id, seat, len(self.resigned))
        except Exception as error:  # the database's own errors
            raise OSError(f"the database refused it ({type(error).__name__})") from None

    def _keep(
        self,
        save: dict[str, Any],
        to_move: int | None,
        clocks: dict[int, SeatClock],
        result: dict[str, Any] | None,
        rated: bool = True,
        *,
        marks: tuple[tuple[int, str], ...] = (),
    ) -> None:
        decision = Decision(
            table_id=self.table_id,
            after=self.kept,
            save=save,
            to_move=to_move,
            clocks=clocks,
            result=result,
            owner=self.owner,
            rated=self.rated if rated else None,
            marks=marks,
        )
        try:
            kept = self.commits.record(decision)
        except Exception as error:  # the database's own errors: the writer reports an OSError
            raise OSError(f"the database refused the change ({type(error).__name__})") from None
        if not kept:
            raise OSError("the table is run elsewhere now")
        self.kept = int(save["revision"])
        if decision.rated is not None and decision.result is not None:
            self.ratings = self._rated()  # before the end is shown: its update carries them
        if self.told is not None:
            self.told(decision)

    def _rated(self) -> tuple[tuple[int, int], ...]:
        """What the game just kept did to each seat's rating (none if it cannot be read: the
        lobby's finished tables show it all the same)."""
        try:
            changes = self.commits.store.ratings.changes([self.table_id])
        except Exception:  # the database's own errors
            return ()
        pairs = [changes.get((self.table_id, account or 0)) for account in self.accounts]
        return () if None in pairs else tuple(pair for pair in pairs if pair is not None)
