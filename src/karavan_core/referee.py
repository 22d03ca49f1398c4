"""The referee: one match at one table, whatever the table is.

The local table (hot-seat or against bots) and the host of a networked table
run a game through a :class:`Referee`; neither changes the match itself.  The
referee says whose decision it is and whether a bot takes it, plays a gesture
(one seat's decisions in a row) all or nothing through one legality path,
decides who may take back what, gives each seat its view of the table, tells
its listeners what changed and keeps the match in its storage after every
change.

It runs no thread and no event loop: a bot's decision is worked out by the
table's own worker from a :class:`BotTurn` and handed back with
:meth:`Referee.play_bot`, which plays it only if nothing changed meanwhile.
Call it from one thread (the UI's, or the host's event loop).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from attrs import frozen

from karavan_core.bots import Bot, table_bot
from karavan_core.engine import Action, Game, IllegalAction, Observation
from karavan_core.match import Match, Outcome, bot_seed
from karavan_core.storage import Runner, SaveFile, SaveWriter, Storage
from karavan_core.takebacks import (
    TAKEBACK_SECONDS,
    Change,
    ChangeKind,
    TakeBack,
    TakeBackRequest,
    TakeBacks,
    bot_agrees,
    takeback_listing,
    takeback_notice,
    takeback_question,
)

# The take-back names are the referee's too: its users import them from here.
__all__ = [
    "TAKEBACK_SECONDS",
    "BotTurn",
    "Change",
    "ChangeKind",
    "Referee",
    "SeatView",
    "TakeBack",
    "TakeBackRequest",
    "bot_agrees",
    "takeback_listing",
    "takeback_question",
]


@frozen(kw_only=True)
class BotTurn:
    """What a bot needs to decide, off the referee's thread: its view and its choices.

    ``opens``: this decision is the first of the bot's turn (another seat decided
    last, or nobody yet); the table pauses before such a decision only.
    ``for_person``: the bot decides in the name of the person who plays the seat
    (whose time ran out), not as the seat's bot or stand-in.
    """

    revision: int
    seat: int
    observation: Observation
    legal: tuple[Action, ...]
    bot: Bot
    opens: bool = True
    for_person: bool = False

    def choose(self) -> Action:
        """The bot's decision (slow: call it from a worker)."""
        return self.bot.choose(self.observation, list(self.legal))

    def pause(self, between_turns: float) -> float:
        """Seconds to wait before this decision is played, the bot's thinking included.

        A turn may be several decisions (Karakorum's reveals, takes and placings,
        Karakum's two draws): pausing ``between_turns`` before each one would
        make a round of bots drag, so only a turn's first decision waits and the
        rest follow as soon as they are chosen.
        """
        return between_turns if self.opens else 0.0


@frozen(kw_only=True)
class SeatView:
    """The table as one seat sees it now (``seat`` ``None``: the public view).

    ``legal`` holds that seat's decisions when it is a human's turn to decide,
    and nothing otherwise.  ``since`` is how many decisions that seat has seen
    made: up to its own last one (for the public view, all but the latest).
    ``before`` is what it saw then and ``news`` the decisions made since, when
    there are any.  ``log`` is the public log (its first line is the deal, so
    decision ``i`` is line ``i + 1``).
    """

    game: Game[Any, Any, Any]
    revision: int
    seat: int | None
    observation: Observation
    legal: tuple[Action, ...]
    log: tuple[str, ...]
    since: int
    before: Observation | None
    news: tuple[Action, ...]
    scores: tuple[int, ...]
    can_undo: bool
    can_redo: bool
    outcome: Outcome | None
    request: TakeBackRequest | None = None  # a take-back waiting for answers
    notice: str | None = None  # what this seat is told of the last change, if a take-back

    @property
    def to_answer(self) -> bool:
        """Whether this seat's answer to a take-back is awaited."""
        return self.request is not None and self.seat in self.request.waiting

    def preview(self, action: Action) -> str:
        """``action`` in words before it is taken, from this seat's observation only."""
        return self.game.preview(self.observation, action)

    def choices(self, distinct: bool = False) -> list[tuple[Action, str]]:
        """The legal decisions with their words.

        With ``distinct``, decisions that read the same (two face-up silks) are
        the same to the player and listed once, the first of them.
        """
        pairs = [(action, self.preview(action)) for action in self.legal]
        if not distinct:
            return pairs
        listed: dict[str, Action] = {}
        for action, words in pairs:
            listed.setdefault(words, action)
        return [(action, words) for words, action in listed.items()]


T = TypeVar("T")
# The changes the match makes (and counts) itself.
MATCH_CHANGES = frozenset({ChangeKind.PLAY, ChangeKind.UNDO, ChangeKind.REDO, ChangeKind.HINT})
BotMaker = Callable[[str, Game[Any, Any, Any], int], Bot]


def _make_bot(level: str, game: Game[Any, Any, Any], seed: int) -> Bot:
    # A bot at the table thinks within its level's cap, whatever the machine's load.
    return table_bot(level, game, seed)


class Referee:
    """Runs ``match``: turns, bots, gestures, take-backs, views and storage.

    ``storage`` (if given) keeps the match after every change, through one
    background writer (whose writes run on ``writes_on``, if given).  ``bots``
    builds the bot of each bot seat (tests may pass their own).  A take-back
    request not answered within
    ``takeback_seconds`` lapses: the table that runs a clock calls
    :meth:`lapse` once that time is up.
    """

    def __init__(
        self,
        match: Match,
        *,
        storage: Storage[Any] | None = None,
        writes_on: Runner | None = None,
        bots: BotMaker = _make_bot,
        takeback_seconds: float = TAKEBACK_SECONDS,
    ) -> None:
        self.match = match
        self.game = match.game
        self._kept: Callable[[int], None] | None = None
        self.writer = None if storage is None else SaveWriter(storage, runs=writes_on)
        self._make_bot = bots
        self.bots: dict[int, Bot] = {
            seat: bots(info.level or "random", self.game, bot_seed(match.seed, seat))
            for seat, info in enumerate(match.seats)
            if info.is_bot
        }
        # Bots playing a person's seat while they are away (a hosted table's), by seat.
        self.stand_ins: dict[int, Bot] = {}
        self.held: str | None = None  # while set: why nobody may decide now
        self.takeback_seconds = takeback_seconds
        self.takebacks = TakeBacks(match, self.bots, self.stand_ins, self._changed)
        # The last change, with the take-back request it answered or carried out.
        self.last_change: tuple[Change, TakeBackRequest | None] | None = None
        self._listeners: list[Callable[[Change], None]] = []
        # Views and listings worked out once per stamp (see _stamp): no change can leave one stale.
        self._cache: dict[object, Any] = {}
        self._cached_at: tuple[object, ...] | None = None

    @property
    def revision(self) -> int:
        """The table's version: it grows with every change, across restarts too."""
        return self.match.revision

    # -- who decides --------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat that decides now (``None`` once the game is over)."""
        return self.match.to_move

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.match.is_over()

    def bot_to_move(self) -> int | None:
        """The bot seat that decides now, if a bot does (and the table is not held)."""
        seat = self.to_move
        if seat is None or self.held is not None:
            return None
        if seat not in self.bots and seat not in self.stand_ins:
            return None
        return seat  # a take-back asked for does not hold a bot up: it goes back too

    def legal(self) -> tuple[Action, ...]:
        """The decisions open to the seat to move (listed once per revision)."""
        return self._cached("legal", lambda: tuple(self.match.legal_actions()))

    # -- playing ------------------------------------------------------------------------
    def refusal(self, seat: int, actions: Sequence[Action]) -> str | None:
        """Why ``seat`` may not play ``actions`` now, or ``None`` if :meth:`play` would."""
        try:
            self._check(seat, actions)
        except IllegalAction as error:
            return str(error)
        return None

    def play(self, seat: int, actions: Sequence[Action]) -> None:
        """Play ``actions`` as one gesture of ``seat`` (one take-back unit), or none of them.

        Raises :class:`IllegalAction` with the reason, and changes nothing, when
        the gesture may not be played.
        """
        self._may_decide(seat)
        # The match walks the gesture once (Match.gesture_states) and changes nothing if it fails.
        self.match.play(*actions, by=seat, legal=self.legal())
        # A person who plays instead of answering ends the request (the asker withdraws it).
        ended = self.takebacks.person_played()
        self._changed(ChangeKind.PLAY, seat, len(actions), about=ended)

    def _check(self, seat: int, actions: Sequence[Action]) -> None:
        """The one legality path: :class:`IllegalAction` unless ``seat`` may play ``actions``."""
        self._may_decide(seat)
        self.match.gesture_states(actions, by=seat, legal=self.legal())

    def _may_decide(self, seat: int) -> None:
        """:class:`IllegalAction` unless ``seat`` may decide now (whatever the decisions)."""
        match = self.match
        if match.is_over():
            raise IllegalAction("The game is over.")
        if self.held is not None:
            raise IllegalAction(self.held)
        if match.to_move != seat:
            name = match.seats[match.to_move].name if match.to_move is not None else "nobody"
            raise IllegalAction(f"It is not your turn: {name} decides now.")
        if seat in self.bots:
            raise IllegalAction(f"A bot plays {match.seats[seat].name}'s seat.")
        if seat in self.stand_ins:
            name = match.seats[seat].name
            raise IllegalAction(f"A bot plays {name}'s seat until {name} is back.")

    def _may_decide_now(self, seat: int) -> bool:
        try:
            self._may_decide(seat)
        except IllegalAction:
            return False
        return True

    def bot_turn(self, instead_of: int | None = None, bot: Bot | None = None) -> BotTurn | None:
        """What a bot needs to decide now, or ``None`` if no bot decides now: the one way
        every bot decision is made (played with :meth:`play_bot`).

        Without arguments: the bot seat or stand-in to move.  With ``instead_of``
        and ``bot``: ``bot`` decides in the name of that seat's person (a served
        table's player whose time ran out), if it is theirs to decide now.
        """
        if instead_of is None:
            seat = self.bot_to_move()
            if seat is None:
                return None
            bot = self.bots.get(seat) or self.stand_ins[seat]
        else:
            seat = instead_of
            if bot is None or not self._may_decide_now(seat):
                return None
        match = self.match
        return BotTurn(
            revision=self.revision,
            seat=seat,
            observation=self.game.observe(match.state, seat),
            legal=self.legal(),
            bot=bot,
            opens=not match.plies or match.actor(len(match.plies) - 1) != seat,
            for_person=instead_of is not None,
        )

    def play_bot(self, turn: BotTurn, action: Action) -> bool:
        """Play a bot's decision for ``turn``; ``False`` (nothing played) if the table moved on."""
        if turn.revision != self.revision:
            return False
        if turn.for_person:  # the person's own decision, by the one legality path
            try:
                self.play(turn.seat, [action])
            except IllegalAction:
                return False
            return True
        if self.bot_to_move() != turn.seat:
            return False
        self.match.play(action, by=turn.seat, legal=self.legal())
        self.takebacks.bot_played(for_a_person=turn.seat in self.stand_ins)
        self._changed(ChangeKind.PLAY, turn.seat, 1)
        return True

    def count_hint(self, seat: int) -> None:
        """Note that ``seat`` asked for a hint (the save keeps the count)."""
        self.match.count_hint(seat)
        self._changed(ChangeKind.HINT, seat, 0)

    def hold(self, reason: str | None) -> None:
        """Stop every decision, saying ``reason`` to whoever tries (``None``: go on)."""
        self.held = reason

    # -- absent players -----------------------------------------------------------------
    def stand_in(self, seat: int, level: str | None) -> None:
        """A bot of ``level`` plays person ``seat``'s decisions from now on (``None``: none,
        the person plays again).  Raises :class:`IllegalAction` for a seat that is no person's."""
        if seat not in self.humans:
            raise IllegalAction("Only a person's seat can be handed to a bot.")
        if level is None:
            self.stand_ins.pop(seat, None)
        else:
            made = self._make_bot(level, self.game, bot_seed(self.match.seed, seat))
            self.stand_ins[seat] = made
            self.takebacks.stand_ins_answer()

    # -- take-backs (the table's policy: see TakeBacks) ----------------------------------
    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play."""
        return self.match.humans

    @property
    def request(self) -> TakeBackRequest | None:
        """The take-back request waiting for consent, if one is open."""
        return self.takebacks.request

    def takeback(self, seat: int) -> TakeBack:
        """What taking back ``seat``'s last gesture would take back (see TakeBacks.takeback)."""
        return self.takebacks.takeback(seat)

    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not take back now, or ``None`` if it may (perhaps by asking)."""
        return self.takebacks.undo_refusal(seat)

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last gesture, or ask the others first (``False``: asked)."""
        return self.takebacks.undo(seat)

    def answer(self, seat: int, accept: bool, number: int | None = None) -> None:
        """``seat``'s answer to the take-back asked for (request ``number``, if named)."""
        self.takebacks.answer(seat, accept, number)

    def withdraw(self, seat: int) -> None:
        """``seat`` no longer asks to take back; raises if it has no request open."""
        self.takebacks.withdraw(seat)

    def lapse(self, number: int) -> bool:
        """Request ``number`` lapses if it is still open; whether it did."""
        return self.takebacks.lapse(number)

    def redo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not play an undone gesture again now, or ``None`` if it may."""
        return self.takebacks.redo_refusal(seat)

    def redo(self, seat: int | None) -> None:
        """Play the next undone gesture again (and the bots' after it); else raise."""
        self.takebacks.redo(seat)

    def sharing_taker(self) -> int | None:
        """Whose decision an undo takes back where the humans share one keyboard."""
        return self.takebacks.sharing_taker()

    # -- views --------------------------------------------------------------------------
    def view(self, seat: int | None) -> SeatView:
        """The table as ``seat`` sees it now (``None``: the public view)."""
        return self._cached(("view", seat), lambda: self._view(seat))

    def _view(self, seat: int | None) -> SeatView:
        match = self.match
        since = self.seen_by(seat)
        made = len(match.history)
        human_turn = seat is not None and seat == match.to_move and self.bot_to_move() is None
        legal = self.legal() if human_turn and self.held is None else ()
        return SeatView(
            game=self.game,
            revision=self.revision,
            seat=seat,
            observation=match.view(seat),
            legal=legal,
            log=self.log(),
            since=since,
            before=None if since == made else match.view(seat, since),
            news=tuple(match.history[since:]),
            scores=self.scores(),
            can_undo=seat is not None and self.undo_refusal(seat) is None,
            can_redo=seat is not None and self.redo_refusal(seat) is None,
            outcome=self.outcome(),
            request=self.request,
            notice=self.notice(seat),
        )

    def notice(self, seat: int | None) -> str | None:
        """What ``seat`` is told of the last change where it was a take-back's (else ``None``)."""
        if self.last_change is None:
            return None
        change, request = self.last_change
        names = [info.name for info in self.match.seats]
        return takeback_notice(change, request, names, seat)

    def seen_by(self, seat: int | None) -> int:
        """How many decisions ``seat`` has seen made: up to its own last one.

        The public view (nobody at the keyboard) has seen all but the latest.
        """
        if seat is None:
            return max(0, len(self.match.history) - 1)
        return self.match.last_move_of(seat)

    def log(self) -> tuple[str, ...]:
        """The public log, the deal first."""
        return self._cached("log", lambda: tuple(self.match.log()))

    def scores(self) -> tuple[int, ...]:
        """Every seat's score so far."""
        return self._cached("scores", lambda: self.game.result(self.match.state).scores)

    def outcome(self) -> Outcome | None:
        """The result and the score series, once the game is over."""
        return self._cached("outcome", self.match.outcome)

    def _stamp(self) -> tuple[object, ...]:
        """All a view depends on besides its seat: the match's revision (every change to the
        match or the table's take-backs counts one), the hold and who stands in for whom."""
        return (self.revision, self.held, tuple(sorted(self.stand_ins)))

    def _cached(self, key: object, make: Callable[[], T]) -> T:
        stamp = self._stamp()
        # A state set on the match from outside (a staged position) counts no revision: the
        # state itself is checked too, by identity.
        if stamp != self._cached_at or self._cache.get("state") is not self.match.state:
            self._cache, self._cached_at = {"state": self.match.state}, stamp
        if key not in self._cache:
            self._cache[key] = make()
        value: T = self._cache[key]
        return value

    # -- listeners and storage ----------------------------------------------------------
    def subscribe(self, listener: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``listener`` after every change; returns the function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    @property
    def save_error(self) -> OSError | None:
        """Why the last save failed, if it did."""
        return None if self.writer is None else self.writer.error

    def flush(self) -> None:
        """Wait until the newest position is kept."""
        if self.writer is not None:
            self.writer.flush()

    def keep_now(self) -> None:
        """Write the match as it is now and wait for it (``OSError`` if that fails).

        A host does this before the first decision, so that the save it names
        exists from the start.
        """
        if self.writer is not None:
            self.writer.submit(self.match)
            self.writer.flush()
            if self.writer.error is not None:
                raise self.writer.error

    def when_kept(self, listener: Callable[[int], None] | None) -> None:
        """Have ``listener`` hear each revision once its save has been written (or has failed).

        It is called on the writer's thread (see :class:`SaveWriter`); without
        storage it is never called, as nothing waits for a disk.
        """
        self._kept = listener
        if self.writer is not None:
            self.writer.kept = listener

    def relocate(self, path: Path) -> None:
        """Keep the match in the save file ``path`` from now on (written at once; ``OSError``).

        The old file, if the storage was one, is removed: one game, one file.
        """
        self.flush()
        new = SaveFile(path)
        new.write(new.snapshot(self.match))
        old = None if self.writer is None else self.writer.storage
        self.writer = SaveWriter(new, self._kept)
        if isinstance(old, SaveFile) and old.path != path:
            old.path.unlink(missing_ok=True)

    def _changed(
        self,
        kind: ChangeKind,
        seat: int | None,
        decisions: int,
        *,
        about: TakeBackRequest | None = None,
    ) -> None:
        if kind not in MATCH_CHANGES:
            self.match.bump()  # the match counted its own change already
        if self.writer is not None:
            self.writer.submit(self.match)
        change = Change(kind, seat, decisions, self.revision)
        self.last_change = (change, about if about is not None else self.request)
        for listener in list(self._listeners):
            listener(change)
