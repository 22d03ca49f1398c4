"""The tables a server runs: each a hosted table whose match and clocks live in the store.

A :class:`ServedTable` is a :class:`~karavan_net.host.Host` (the one referee,
the one protocol, the same parts) whose players are proven by their accounts
and whose match is kept by its
:class:`~karavan_net.serve.store_keeper.StoreKeeper`: every change is committed
to the database, with the clocks, before any seat is shown it.  The clocks
(:class:`~karavan_net.serve.seat_clocks.SeatClocks`) give the seat to move a
deadline; when it passes, a bot of the table's stand-in level decides for that
player and everyone is told.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from attrs import evolve

from karavan_core.bots import table_bot
from karavan_core.match import Match, Outcome, bot_seed
from karavan_core.pacing import bot_decision
from karavan_core.referee import Change, ChangeKind, Referee
from karavan_net.broadcaster import Hooks
from karavan_net.host import Host
from karavan_net.link import Link, closing
from karavan_net.protocol import (
    NOTICE_TABLE,
    NOTICE_TIME,
    ChatLine,
    Rematched,
)
from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.database_clock import system_now
from karavan_net.serve.seat_clocks import SeatClocks, abandoned, timed_out_words
from karavan_net.serve.store import Decision, Status, TableRecord
from karavan_net.serve.store_keeper import StoreKeeper
from karavan_net.serve.table_rules import (
    aborted_words,
    ended_outcome,
    first_decisions,
    handed_over_words,
    rematch_words,
    resigned_words,
    result_of,
)
from karavan_net.storage import TableFile
from karavan_net.updates import TableState


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
    committed, on the thread that committed it.  Its players may resign, abort the game
    before everyone has decided, and ask for a rematch (the table's own rules,
    :mod:`~karavan_net.serve.table_rules`); ``rematch`` makes a rematch's table and
    gives its number.
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
        rematch: Callable[[int], Awaitable[int]] | None = None,
    ) -> None:
        self.record = record
        self.now = now
        self.clocks = SeatClocks(record)
        self.stand_in_deciding = False
        self.decided = first_decisions(match)  # the seats that have decided (none may abort)
        self.ended_as: Outcome | None = None  # a game the table ended before its rules did
        self.offers: set[int] = set()  # the seats that ask for a rematch
        self.rematched: int | None = None  # the rematch's table, once made
        self._make_rematch = rematch
        self._ending: asyncio.Task[None] | None = None  # the end by the table's rule, being kept
        self._said: str | None = None  # what everyone is told of a resignation or rematch
        self.lost = asyncio.Event()  # a change could not be kept: this process must let go
        self.keeper = StoreKeeper(
            commits, record, self.clocks, lambda: self.stand_in_deciding, owner, now, kept
        )
        self._late_bot = table_bot(record.stand_in, match.game, seed=bot_seed(match.seed, 99))
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
            hooks=Hooks(notice=self._notice, lost=self.lost.set, state=self.shown_state),
        )
        self.resigned = self.keeper.resigned
        self.state = TableState()
        self.dispatch.acts = self
        referee.subscribe(self._after_change)
        self.chat.resume(said)
        self.chat.watchers = record.watchers_chat
        self.chat.keep = partial(self._keep_line, commits)
        for seat in self.resigned:  # a bot plays on for each player who resigned
            self.presence.stand_in(seat, record.stand_in)
        if record.status is Status.OVER and not match.is_over():  # ended by the table's rule
            result = record.result or {}
            self.seats.end(str(result.get("sentence") or "The game is over."))
            self.ended_as = ended_outcome(match, result)
        self._restate()

    def _notice(self) -> str | None:
        return self._timed_out or self._said

    def clock_now(self) -> datetime | None:
        """The database's now, which the deadlines keep (each welcome tells it)."""
        return self.now()

    def _after_change(self, change: Change) -> None:
        if not self.stand_in_deciding:
            self._timed_out = None  # told once, with the change it was about
        seat = change.seat
        if change.kind is ChangeKind.PLAY and seat is not None:
            self.decided.add(seat)
        if seat in self.referee.humans and seat not in self.referee.stand_ins:
            self._said = None  # a player's own change: what was said before is old news
        self.clocks.unmark(len(self.referee.log()))
        self._restate()
        self.arm_clock()

    def shown_state(self) -> TableState:
        """The table's state as its seats are shown it: once a rated game's end is kept, with
        what it did to each player's rating."""
        ratings = self.keeper.ratings
        return evolve(self.state, ratings=ratings) if ratings else self.state

    def _restate(self) -> None:
        """What the table's own rules add to every view, as it is now."""
        self.state = TableState(
            ended=self.ended_as,
            abortable=self.abortable,
            resigned=tuple(self.resigned),
            rematch=tuple(sorted(self.offers)),
            clock=self.clocks.told(),
            notice_about=NOTICE_TIME if self._timed_out else NOTICE_TABLE,
            marks=tuple(sorted(self.clocks.marks.items())),
        )

    def _tell(self, sentence: str) -> None:
        """Tell everyone at the table ``sentence`` (and the server's output)."""
        self._said = sentence
        self.say(sentence)
        self._restate()
        self.broadcaster.broadcast()

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
        """Whether the game is over, by its rules or by the table's (abandoned, resigned,
        aborted)."""
        return self.match.is_over() or self.seats.ended is not None

    @property
    def abortable(self) -> bool:
        """Whether the game may still be aborted: a person at the table has not decided yet."""
        people = [seat for seat in self.referee.humans if seat not in self.resigned]
        return not self.finished and any(seat not in self.decided for seat in people)

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
        names = self.names
        winners = [other for other in range(len(names)) if other != seat]
        sentence = abandoned(names, seat, winners)
        await self.end_by_rule(sentence, winners, abandoned=seat)

    @property
    def names(self) -> list[str]:
        """The players' names, seat by seat."""
        return [player.name for player in self.match.seats]

    def end_by_rule(
        self, sentence: str, winners: list[int], *, rated: bool = True, **marks: Any
    ) -> asyncio.Task[None]:
        """End the game now by the table's rule (abandoned, resigned, aborted), ``winners``
        winning: nobody decides from here on, and once the end is kept (rated if the table
        is and ``rated``) everyone is told ``sentence`` and shown the result, or, with no
        winner (aborted), the table closes for them with it.  ``marks`` say how it ended."""
        self.seats.end(sentence)  # nobody decides while the end is kept
        self.arm_clock()  # no clock runs any more
        scores = list(self.referee.view(None).scores)
        result = result_of(scores, winners, sentence, self.resigned, **marks)
        keeping = self._keep_end(sentence, result, rated)
        self._ending = asyncio.get_running_loop().create_task(keeping)
        return self._ending

    async def _keep_end(self, sentence: str, result: dict[str, Any], rated: bool) -> None:
        try:
            await asyncio.to_thread(self.referee.flush)
            await asyncio.to_thread(self.keeper.end, self.match, result, rated)
        except OSError as error:
            self.say(f"The end of the game could not be kept: {error}")
            self.lost.set()  # the server lets the table go; it is loaded again as stored
            return
        self.ended_as = ended_outcome(self.match, result)
        if self.ended_as is None:
            self.say(sentence)
            await self.close(sentence, "over")
            return
        self._tell(sentence)
        self.over.set()

    async def _stand_in_decides(self) -> None:
        """A bot of the table's level decides for the player whose time ran out."""
        seat = self._late()
        if seat is None:
            self.arm_clock()  # woken a little early, by the database's clock: wait the rest
            return
        referee = self.referee
        turn = referee.bot_turn(instead_of=seat, bot=self._late_bot)
        if turn is None:
            return
        action = await bot_decision(turn, 0.0)
        if referee.revision != turn.revision:
            return  # the player decided meanwhile
        name = self.match.seats[seat].name
        self.stand_in_deciding = True
        self._timed_out = f"{name}'s time ran out: a {self.record.stand_in} bot decided for them."
        made = len(referee.log())  # the log line the decision makes
        self.clocks.marks[made] = timed_out_words(name)
        try:
            played = referee.play_bot(turn, action)
        finally:
            self.stand_in_deciding = False
        if not played:
            self.clocks.marks.pop(made, None)
            return
        self.say(self._timed_out or "")

    async def close(self, reason: str | None = None, why: str = "closed") -> None:
        """End the table in memory (its clock too); the store keeps it."""
        if self._timer is not None:
            self._timer.cancel()
        if self._thinking is not None:
            self._thinking.cancel()
        await super().close(reason, why)

    # -- the table's own rules (see table_rules) ----------------------------------------
    def resign(self, seat: int) -> str | None:
        """``seat``'s player gives the game up: at a table of two it ends, the other winning;
        with more, a bot plays the seat to the end; else the reason they may not."""
        if self.finished:
            return "The game is over."
        if seat in self.resigned:
            return "You have resigned this game already: a bot plays your seat."
        names = self.names
        playing = [s for s in range(len(names)) if s != seat and s not in self.resigned]
        if len(playing) <= 1:
            self.resigned.append(seat)
            self.end_by_rule(resigned_words(names, seat, playing), playing)
            return None
        self.resigned.append(seat)
        self.clocks.resign(seat)
        self.decided.add(seat)
        level = self.record.stand_in
        told = handed_over_words(names, seat, level, self.keeper.rated is not None)
        self.presence.stand_in(seat, level)
        self._tell(told)
        asyncio.get_running_loop().create_task(self._keep_resigned(seat))
        return None

    async def _keep_resigned(self, seat: int) -> None:
        try:
            await asyncio.to_thread(self.keeper.mark_resigned, seat)
        except OSError as error:
            self.say(f"A resignation could not be kept: {error}")

    def abort(self, seat: int) -> str | None:
        """``seat``'s player ends the game with no result, before every person has decided;
        else the reason they may not."""
        if self.finished:
            return "The game is over."
        if not self.abortable:
            return "Everyone has decided: the game can no longer be aborted, only resigned."
        rated = self.keeper.rated is not None
        self.end_by_rule(aborted_words(self.names[seat], rated), [], rated=False, aborted=seat)
        return None

    def ask_rematch(self, seat: int, accept: bool) -> str | None:
        """``seat``'s player asks for (``accept``: or agrees to) a rematch, or turns it down;
        else the reason they may not."""
        refused = self._no_rematch()
        if refused is not None:
            return refused
        names = self.names
        if not accept:
            if not self.offers:
                return "Nobody asks for a rematch."
            self.offers.clear()
            self._tell(f"{names[seat]} does not want a rematch.")
            return None
        if seat in self.offers:
            return "You have asked for a rematch already: it waits for the others."
        self.offers.add(seat)
        waiting = [s for s in self.referee.humans if s not in self.offers]
        if waiting:
            self._tell(rematch_words(names, sorted(self.offers), waiting))
            return None
        self._ending = asyncio.get_running_loop().create_task(self._start_rematch())
        return None

    def _no_rematch(self) -> str | None:
        """Why no rematch may be asked for now, if it may not."""
        if not self.finished or (self._ending is not None and not self._ending.done()):
            return "A rematch comes once the game is over."
        if self._make_rematch is None:
            return "This table cannot start a rematch."
        if self.rematched is not None or len(self.offers) == len(self.referee.humans):
            return "The rematch is being set up."
        return None

    async def _start_rematch(self) -> None:
        """Everyone agreed: the rematch's table is made, and everyone here is sent to it."""
        assert self._make_rematch is not None
        try:
            table = await self._make_rematch(self.record.id)
        except Exception as error:  # the store's refusal, or the database's own
            self.offers.clear()
            self._tell(f"The rematch could not be set up: {error}")
            return
        self.rematched = table
        self.say(f"Everyone agreed to a rematch: it is played at table {table}.")
        for seat, link in self.seats.everyone():
            words = f"The rematch is played at table {table}."
            sent = Rematched(table) if link.minor >= 5 else closing(words, "over", link.minor)
            self.broadcaster.send(seat, sent, link)
            link.close()
        self.seats.clear()
