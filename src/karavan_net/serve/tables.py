"""The tables a server runs: each a hosted table whose match and clocks live in the store.

A :class:`ServedTable` is a :class:`~karavan_net.host.Host` (the one referee,
the one protocol, the same parts) whose players are proven by their accounts
and whose match is kept by :class:`StoreKeeper`: every change is committed to
the database, with the clocks, before any seat is shown it.  The clocks
(:class:`SeatClocks`) give the seat to move a deadline; when it passes, a bot of
the table's stand-in level decides for that player and everyone is told.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from attrs import frozen

from karavan_core.bots import make_bot
from karavan_core.engine import IllegalAction
from karavan_core.match import Match, bot_seed
from karavan_core.referee import BotTurn, Referee
from karavan_core.saves import Envelopes, envelope
from karavan_core.text import listed
from karavan_net.broadcaster import Hooks
from karavan_net.clocks import ABANDON_AFTER, Clock, duration
from karavan_net.host import Host
from karavan_net.link import Link
from karavan_net.protocol import ChatLine
from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.database_clock import system_now
from karavan_net.serve.store import Decision, RatedGame, SeatClock, Status, TableRecord
from karavan_net.storage import TableFile


class SeatClocks:
    """The clocks of one table: each seat's bank, the deadline of the seat to move, and
    whether a bot stood in for a player whose time ran out."""

    def __init__(self, record: TableRecord) -> None:
        self.clock: Clock = record.clock
        self.rated = record.rated
        self.people = {seat.seat for seat in record.seats if seat.kind == "human"}
        self.seats: dict[int, SeatClock] = {
            seat.seat: SeatClock(
                bank_left=seat.bank_left, deadline=seat.deadline, stood_in=seat.stood_in
            )
            for seat in record.seats
        }
        self.to_move = record.to_move

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


def abandoned(names: list[str], seat: int, winners: list[int]) -> str:
    """The end of a game whose player ``seat`` left it waiting past its time."""
    won = listed([names[winner] for winner in winners])
    verb = "wins" if len(winners) == 1 else "win"
    waited = duration(ABANDON_AFTER)
    return (
        f"{names[seat]} left the game waiting {waited}: it ends, and {won} {verb} by abandonment."
    )


@frozen(kw_only=True)
class Position:
    """A table's game as it is to be kept: its save, who moves, the seats' clocks, and its
    result once it is over."""

    save: dict[str, Any]
    to_move: int | None
    clocks: dict[int, SeatClock]
    result: dict[str, Any] | None


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
        self.clocks = clocks
        self.kept = record.revision
        self.envelopes = Envelopes()  # on the table's thread: each decision turned into data once

    def snapshot(self, match: Match) -> Position:
        """The match, its clocks and (once over) its result, to keep."""
        self.clocks.changed(match.to_move, self.now(), stood_in=self.stand_in_deciding())
        outcome = match.outcome()
        result = None
        if outcome is not None:
            names = [seat.name for seat in match.seats]
            result = {
                "scores": list(outcome.result.scores),
                "winners": list(outcome.result.winners),
                "sentence": outcome.sentence(names),
            }
        clocks = dict(self.clocks.seats)  # its values are frozen: a copy of the mapping will do
        return Position(
            save=self.envelopes.of(match), to_move=match.to_move, clocks=clocks, result=result
        )

    def write(self, snapshot: Position) -> None:
        """Commit ``snapshot``; ``OSError`` if it cannot be (the writer reports it)."""
        self._keep(snapshot.save, snapshot.to_move, snapshot.clocks, snapshot.result)

    def end(self, match: Match, result: dict[str, Any]) -> None:
        """Keep ``match`` as it stands, its game ended by the table's rule with ``result``
        (rated if the table is), its clocks stopped; ``OSError`` if it cannot be."""
        self.clocks.changed(None, self.now(), stood_in=False)
        self._keep(envelope(match), None, dict(self.clocks.seats), result)

    def _keep(
        self,
        save: dict[str, Any],
        to_move: int | None,
        clocks: dict[int, SeatClock],
        result: dict[str, Any] | None,
    ) -> None:
        decision = Decision(
            table_id=self.table_id,
            after=self.kept,
            save=save,
            to_move=to_move,
            clocks=clocks,
            result=result,
            owner=self.owner,
            rated=self.rated,
        )
        try:
            kept = self.commits.record(decision)
        except Exception as error:  # the database's own errors: the writer reports an OSError
            raise OSError(f"the database refused the change ({type(error).__name__})") from None
        if not kept:
            raise OSError("the table is run elsewhere now")
        self.kept = int(save["revision"])
        if self.told is not None:
            self.told(decision)


class ServedTable(Host):
    """A table of the server: a host whose seats belong to accounts, kept in the store.

    ``record`` is the table as stored and ``match`` its game, replayed from it;
    ``now`` tells the database's time, as the server follows it, for its clocks.
    ``events`` (if given) hears what happens at this table (the server's log says
    which table it is).  It may be made on any thread, and is then handed to the
    event loop that runs it.  It plugs into the host's parts where it differs: every
    seat is told when a stand-in decided for a player out of time (the broadcaster's
    notice), and a change the store refuses (another process runs the table now, or
    the database failed) is never shown: :attr:`lost` is set, and the server lets the
    table go.  Its chat goes on from the lines ``said`` there before, and keeps each new
    one in the store (its watchers write in it if the table lets them).  Its output
    says who comes and goes and how the game ends, not every decision (those are in
    the database; a line for each, from every table, would bury the rest and cost the
    server a write for each).  ``kept`` (if given) hears each change once it is
    committed, on the thread that committed it.
    """

    def __init__(
        self,
        commits: CommitQueue,
        record: TableRecord,
        match: Match,
        *,
        owner: str | None = None,
        bot_delay: float = 0.6,
        events: Callable[[str], None] | None = None,
        now: Callable[[], datetime] = system_now,
        kept: Callable[[Decision], None] | None = None,
        said: Sequence[ChatLine] = (),
    ) -> None:
        self.record = record
        self.now = now
        self.clocks = SeatClocks(record)
        self.stand_in_deciding = False
        self.lost = asyncio.Event()  # a change could not be kept: this process must let go
        self.keeper = StoreKeeper(
            commits, record, self.clocks, lambda: self.stand_in_deciding, owner, now, kept
        )
        self._late_bot = make_bot(record.stand_in, match.game, seed=bot_seed(match.seed, 99))
        self._timer: asyncio.TimerHandle | None = None
        self._thinking: asyncio.Task[None] | None = None
        self._last_seen = now()
        self._timed_out: str | None = None  # what everyone is told of the stand-in's decision
        referee = Referee(match, storage=self.keeper, writes_on=commits.run_write)
        # Every person's seat is its account's from the start: no code, no seat secret.
        claimed = {seat.seat: "-" for seat in record.seats if seat.kind == "human"}
        super().__init__(
            referee,
            f"table {record.id}",
            TableFile(None, "", claimed),
            bot_delay=bot_delay,
            events=events,
            tell_decisions=False,
            hooks=Hooks(notice=lambda: self._timed_out, lost=self.lost.set),
        )
        referee.subscribe(self._after_change)
        self.chat.resume(said)
        self.chat.watchers = record.watchers_chat
        self.chat.keep = partial(self._keep_line, commits)
        if record.status is Status.OVER and not match.is_over():  # ended by abandonment
            self.seats.end(str((record.result or {}).get("sentence") or "The game is over."))

    def _after_change(self, _: object) -> None:
        if not self.stand_in_deciding:
            self._timed_out = None  # told once, with the change it was about
        self.arm_clock()

    def _keep_line(self, commits: CommitQueue, line: ChatLine) -> None:
        """Keep ``line`` of the chat with the table's game, on a writer's thread: the table's
        loop never waits for the database (one that fails is told, and the line is lost)."""
        loop = asyncio.get_running_loop()
        table_id = self.record.id

        def write() -> None:
            try:
                commits.store.chats.add(table_id, line)
            except Exception as error:  # the database's own
                failed = f"A chat line could not be kept ({type(error).__name__})."
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(self.say, failed)

        commits.run_write(write)

    def admit_account(self, link: Link, account_id: int, secret: str, minor: int) -> bool:
        """Seat ``link`` in the seat of ``account_id``, proven by its ``secret`` (which the
        welcome gives back, for the client to come back with); ``False`` if it has no seat."""
        seat = self.record.seat_of(account_id)
        if seat is None:
            return False
        self.admit(link, seat, secret, minor)
        return True

    def quiet_for(self) -> float:
        """Seconds since anyone was last here (0 while someone is)."""
        if self.links or self.watchers:
            self._last_seen = self.now()
            return 0.0
        return (self.now() - self._last_seen).total_seconds()

    @property
    def finished(self) -> bool:
        """Whether the game is over, by its rules or by the table's (abandoned)."""
        return self.match.is_over() or self.seats.ended is not None

    @property
    def idle(self) -> bool:
        """Whether nobody is here and no live clock runs: the table may leave memory."""
        live = self.record.clock.kind.value == "live" and not self.finished
        return not self.links and not self.watchers and not live

    # -- the clock ---------------------------------------------------------------------------
    def arm_clock(self) -> None:
        """Wake when the seat to move runs out of time (after every change, and at the start)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.clocks.deadline()
        if deadline is None or self.finished:
            return
        wait = max(0.0, (deadline - self.now()).total_seconds())
        self._timer = asyncio.get_running_loop().call_later(wait, self._time_up)

    def _time_up(self) -> None:
        self._timer = None
        if self._thinking is None or self._thinking.done():
            ending = self._stand_in_decides if self.record.clock.timed else self._abandoned
            self._thinking = asyncio.get_running_loop().create_task(ending())

    def _late(self) -> int | None:
        """The person to move, if their time is up."""
        seat = self.match.to_move
        deadline = self.clocks.deadline()
        if seat is None or deadline is None or deadline > self.now() or self.finished:
            return None
        return seat

    async def _abandoned(self) -> None:
        """The person to move at a rated untimed table let it wait past its time: the game
        ends by abandonment, that player last (rated so), and everyone is told."""
        seat = self._late()
        if seat is None:
            self.arm_clock()  # woken a little early, by the database's clock: wait the rest
            return
        names = [player.name for player in self.match.seats]
        winners = [other for other in range(len(names)) if other != seat]
        sentence = abandoned(names, seat, winners)
        scores = list(self.referee.view(None).scores)
        result = {"scores": scores, "winners": winners, "sentence": sentence, "abandoned": seat}
        self.seats.end(sentence)  # nobody decides while the end is kept
        try:
            await asyncio.to_thread(self.referee.flush)
            await asyncio.to_thread(self.keeper.end, self.match, result)
        except OSError as error:
            self.say(f"The end of the game could not be kept: {error}")
            self.lost.set()  # the server lets the table go; it is loaded again as stored
            return
        self.say(sentence)
        await self.close(sentence, "over")

    async def _stand_in_decides(self) -> None:
        """A bot of the table's level decides for the player whose time ran out."""
        seat = self._late()
        if seat is None:
            self.arm_clock()  # woken a little early, by the database's clock: wait the rest
            return
        referee = self.referee
        observation = referee.game.observe(self.match.state, seat)
        turn = BotTurn(
            revision=referee.revision,
            seat=seat,
            observation=observation,
            legal=referee.legal(),
            bot=self._late_bot,
        )
        action = await asyncio.to_thread(turn.choose)
        if referee.revision != turn.revision:
            return  # the player decided meanwhile
        name = self.match.seats[seat].name
        self.stand_in_deciding = True
        self._timed_out = f"{name}'s time ran out: a {self.record.stand_in} bot decided for them."
        try:
            referee.play(seat, [action])
        except IllegalAction:
            return
        finally:
            self.stand_in_deciding = False
        self.say(self._timed_out or "")

    async def close(self, reason: str | None = None, why: str = "closed") -> None:
        """End the table in memory (its clock too); the store keeps it."""
        if self._timer is not None:
            self._timer.cancel()
        if self._thinking is not None:
            self._thinking.cancel()
        await super().close(reason, why)
