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

from karavan_core.bots import Bot, make_bot
from karavan_core.engine import Action, Game, IllegalAction, Observation
from karavan_core.match import Match, Outcome, bot_seed
from karavan_core.storage import SaveFile, SaveWriter, Storage


@frozen
class Change:
    """What just happened at the table.

    ``kind`` is ``"play"`` (``decisions`` decisions made by ``seat``),
    ``"undo"`` (``decisions`` taken back, asked by ``seat``), ``"redo"``
    (``decisions`` played again) or ``"hint"`` (``seat`` asked for a hint).
    ``revision`` is the table's revision after the change.
    """

    kind: str
    seat: int | None
    decisions: int
    revision: int


@frozen
class BotTurn:
    """What a bot needs to decide, off the referee's thread: its view and its choices."""

    revision: int
    seat: int
    observation: Observation
    legal: tuple[Action, ...]
    bot: Bot

    def choose(self) -> Action:
        """The bot's decision (slow: call it from a worker)."""
        return self.bot.choose(self.observation, list(self.legal))


@frozen
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
BotMaker = Callable[[str, Game[Any, Any, Any], int], Bot]


def _make_bot(level: str, game: Game[Any, Any, Any], seed: int) -> Bot:
    return make_bot(level, game, seed=seed)


class Referee:
    """Runs ``match``: turns, bots, gestures, take-backs, views and storage.

    ``storage`` (if given) keeps the match after every change, through one
    background writer.  ``bots`` builds the bot of each bot seat (tests may
    pass their own).
    """

    def __init__(
        self,
        match: Match,
        *,
        storage: Storage | None = None,
        bots: BotMaker = _make_bot,
    ) -> None:
        self.match = match
        self.game = match.game
        self.writer = None if storage is None else SaveWriter(storage)
        self.bots: dict[int, Bot] = {
            seat: bots(info.level or "random", self.game, bot_seed(match.seed, seat))
            for seat, info in enumerate(match.seats)
            if info.is_bot
        }
        self.revision = 0  # changes since the referee took the match
        self.held: str | None = None  # while set: why nobody may decide now
        self._listeners: list[Callable[[Change], None]] = []
        self._cache: dict[object, Any] = {}

    # -- who decides --------------------------------------------------------------------
    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play."""
        return self.match.humans

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
        if seat is None or seat not in self.bots or self.held is not None:
            return None
        return seat

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
        self._check(seat, actions)
        self.match.play(*actions, by=seat, legal=self.legal())
        self._changed("play", seat, len(actions))

    def _check(self, seat: int, actions: Sequence[Action]) -> None:
        """The one legality path: :class:`IllegalAction` unless ``seat`` may play ``actions``."""
        match = self.match
        if match.is_over():
            raise IllegalAction("The game is over.")
        if self.held is not None:
            raise IllegalAction(self.held)
        if match.to_move != seat:
            name = match.seats[match.to_move].name if match.to_move is not None else "nobody"
            raise IllegalAction(f"It is not your turn: {name} decides now.")
        match.gesture_states(actions, by=seat, legal=self.legal())

    def bot_turn(self) -> BotTurn | None:
        """What the bot to move needs to decide, or ``None`` if no bot decides now."""
        seat = self.bot_to_move()
        if seat is None:
            return None
        observation = self.game.observe(self.match.state, seat)
        return BotTurn(self.revision, seat, observation, self.legal(), self.bots[seat])

    def play_bot(self, turn: BotTurn, action: Action) -> bool:
        """Play a bot's decision for ``turn``; ``False`` (nothing played) if the table moved on."""
        if turn.revision != self.revision or self.bot_to_move() != turn.seat:
            return False
        self.match.play(action, by=turn.seat, legal=self.legal())
        self._changed("play", turn.seat, 1)
        return True

    def count_hint(self, seat: int) -> None:
        """Note that ``seat`` asked for a hint (the save keeps the count)."""
        self.match.count_hint(seat)
        self._changed("hint", seat, 0)

    def hold(self, reason: str | None) -> None:
        """Stop every decision, saying ``reason`` to whoever tries (``None``: go on)."""
        if reason != self.held:
            self.held = reason
            self._cache.clear()

    # -- taking back --------------------------------------------------------------------
    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not take back now, or ``None`` if it may.

        A player takes back their own last gesture, and the bots' decisions
        after it, while no other human has decided since.
        """
        match = self.match
        if not match.history:
            return "There is nothing to take back."
        actor = match.actor(match.undo_target())
        if match.seats[actor].is_bot:
            return "You have made no decision to take back."
        if seat is not None and actor != seat:
            return (
                f"{match.seats[actor].name} has decided since your last decision: "
                "it can no longer be taken back."
            )
        return None

    def undo(self, seat: int | None) -> None:
        """Take back ``seat``'s last gesture (and the bots' after it), or raise with the reason."""
        reason = self.undo_refusal(seat)
        if reason is not None:
            raise IllegalAction(reason)
        before = len(self.match.history)
        self.match.undo()
        self._changed("undo", seat, before - len(self.match.history))

    def redo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not play an undone gesture again now, or ``None`` if it may."""
        match = self.match
        if not match.future:
            return "There is nothing to redo."
        if seat is not None and match.to_move != seat:
            return "Only the player who took a decision back can play it again."
        return None

    def redo(self, seat: int | None) -> None:
        """Play the next undone gesture again (and the bots' after it); else raise."""
        reason = self.redo_refusal(seat)
        if reason is not None:
            raise IllegalAction(reason)
        before = len(self.match.history)
        self.match.redo()
        self._changed("redo", seat, len(self.match.history) - before)

    # -- views --------------------------------------------------------------------------
    def view(self, seat: int | None) -> SeatView:
        """The table as ``seat`` sees it now (``None``: the public view)."""
        return self._cached(("view", seat), lambda: self._view(seat))

    def _view(self, seat: int | None) -> SeatView:
        match = self.match
        since = self.seen_by(seat)
        made = len(match.history)
        human_turn = seat is not None and seat == match.to_move and seat not in self.bots
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
        )

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

    def _cached(self, key: object, make: Callable[[], T]) -> T:
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

    def relocate(self, path: Path) -> None:
        """Keep the match in the save file ``path`` from now on (written at once; ``OSError``).

        The old file, if the storage was one, is removed: one game, one file.
        """
        self.flush()
        new = SaveFile(path)
        new.write(new.snapshot(self.match))
        old = None if self.writer is None else self.writer.storage
        self.writer = SaveWriter(new)
        if isinstance(old, SaveFile) and old.path != path:
            old.path.unlink(missing_ok=True)

    def _changed(self, kind: str, seat: int | None, decisions: int) -> None:
        self.revision += 1
        self._cache.clear()
        if self.writer is not None:
            self.writer.submit(self.match)
        change = Change(kind, seat, decisions, self.revision)
        for listener in list(self._listeners):
            listener(change)
