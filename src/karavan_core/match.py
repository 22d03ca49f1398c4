"""A match: the seats, the current state, and unlimited undo and redo.

The match keeps every state of the game so far (states are small frozen
values, so this is cheap) and the decisions that led to them.  It owns the
units of undo: the decisions of one gesture (buying a camel is Buy, then Pay)
are played by one call and taken back together.  Undo goes back to the most
recent gesture of a human, taking back the bot decisions after it too; redo
replays that gesture and the bot decisions that followed it.

It also owns the log: one public line per decision, built from what every
player saw before and after it (never by applying the decision again).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from attrs import field, frozen
from attrs.validators import in_

from karavan_core.engine import Action, Game, Observation, Result, State
from karavan_core.text import check_name, printable

HUMAN = "human"
BOT = "bot"
MAX_SEED = 10**18  # seeds lie strictly between -MAX_SEED and MAX_SEED: at most 18 digits


def _fit_name(_: object, __: object, name: str) -> None:
    if check_name(name) != name:
        raise ValueError("A player name cannot start or end with spaces.")


@frozen
class Seat:
    """One player at the table: a name, and either a human or a bot of some level.

    The name is checked at construction (see :func:`~karavan_core.text.check_name`);
    a bot's level is checked against the known levels where seats come in
    (the command line, the new game dialog, a save).
    """

    name: str = field(validator=_fit_name)
    kind: str = field(default=HUMAN, validator=in_((HUMAN, BOT)))
    level: str | None = None

    def __attrs_post_init__(self) -> None:
        if (self.kind == BOT) != (self.level is not None):
            raise ValueError("A bot seat has a level, and a human seat has none.")

    @property
    def is_bot(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind == BOT

    @classmethod
    def parse(cls, text: str, index: int = 0) -> Seat:
        """Read ``Ann`` (a human) or ``bot:LEVEL`` / ``bot:LEVEL:Name`` (a bot)."""
        text = text.strip()
        if text.lower().startswith("bot:") or text.lower() == "bot":
            parts = text.split(":", 2)
            level = parts[1].strip().lower() if len(parts) > 1 and parts[1].strip() else "random"
            name = parts[2].strip() if len(parts) > 2 and parts[2].strip() else None
            if name is None:
                return cls(f"{printable(level).capitalize()[:12]} bot {index + 1}", BOT, level)
            return cls(check_name(name), BOT, level)
        return cls(check_name(text), HUMAN, None)


def names_differ(seats: Iterable[Seat]) -> bool:
    """Whether every seat has a name of its own, ignoring case (how players are told apart)."""
    names = [seat.name.casefold() for seat in seats]
    return len(set(names)) == len(names)


def seat_named(seats: Sequence[Seat], name: str) -> int | None:
    """The index of the seat called ``name`` (ignoring case and blanks around it), or ``None``."""
    wanted = name.strip().casefold()
    for index, seat in enumerate(seats):
        if seat.name.casefold() == wanted:
            return index
    return None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot playing ``seat`` in a match dealt from ``match_seed``.

    Every table derives it the same way, so a bot plays a saved match on as it
    would have at any other table.
    """
    return match_seed + 7919 * (seat + 1)


def winners_sentence(names: Sequence[str], winners: Sequence[int]) -> str:
    """``Ann wins`` or ``Ann and Bob win``: who won, in words."""
    who = " and ".join(names[seat] for seat in winners if 0 <= seat < len(names))
    return f"{who} {'win' if len(winners) > 1 else 'wins'}"


@frozen
class Outcome:
    """A finished match: the result and every seat's score after each decision."""

    result: Result
    series: tuple[tuple[int, ...], ...]  # series[seat][i]: the score after decision i (0: deal)

    def sentence(self, names: Sequence[str]) -> str:
        """The end in one line: ``Ann wins (Ann 12, Bob 9).``"""
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, self.result.scores, strict=False))
        return f"{winners_sentence(names, self.result.winners)} ({scores})."


class Match:
    """A game in progress with its whole history (a :class:`~karavan_core.referee.Referee`
    runs it at a table)."""

    seen_by: int | None = None
    """The seat whose view the states were dealt from (:mod:`karavan_core.seen`), if they
    were: such a match may be shown only as that seat, or everyone, saw it."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seats: Sequence[Seat],
        seed: int,
        options: Mapping[str, Any] | None = None,
        *,
        initial: State | None = None,
        created_at: str | None = None,
    ) -> None:
        if type(seed) is not int or not -MAX_SEED < seed < MAX_SEED:
            raise ValueError("The seed must be a whole number of at most 18 digits.")
        self.game = game
        self.seats = tuple(seats)
        self.seed = seed
        self.options = dict(options or {})
        self.created_at = created_at or _now()
        names = [seat.name for seat in self.seats]
        if initial is None:
            initial = game.new_game(names, seed, self.options)
        self.states: list[State] = [initial]
        self.history: list[Action] = []
        # Parallel to ``history``: whether each decision begins an undo unit
        # (False for the later decisions of one gesture).
        self.starts: list[bool] = []
        self.future: list[tuple[Action, bool]] = []  # undone decisions, next first
        self._log: list[str] = []  # log lines of history[:len(_log)], worked out once
        self._public: list[Observation] = []  # public views of states[:len(_public)], the same
        self.hints = [0] * len(self.seats)  # hints each seat asked for (undo keeps them)
        # Take-backs each seat made past a decision that had revealed something (see the referee).
        self.takebacks = [0] * len(self.seats)
        self.revision = 0  # changes ever made (the save keeps it): a table's version number

    # -- reading --------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current state."""
        return self.states[-1]

    @property
    def initial(self) -> State:
        """The state the match started from."""
        return self.states[0]

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` when the game is over."""
        return self.state.to_move

    @property
    def current_seat(self) -> Seat | None:
        """The seat that must decide now."""
        seat = self.to_move
        return None if seat is None else self.seats[seat]

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play, in seat order."""
        return tuple(i for i, seat in enumerate(self.seats) if not seat.is_bot)

    @property
    def redo_actions(self) -> list[Action]:
        """The undone decisions, next first."""
        return [action for action, _ in self.future]

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over(self.state)

    def legal_actions(self) -> list[Action]:
        """The decisions open to the player to move."""
        return self.game.legal_actions(self.state)

    def view(self, player: int | None, index: int = -1) -> Observation:
        """What ``player`` (``None``: every player) sees of state number ``index``."""
        observation: Observation = self.game.observe(self.states[index], player)
        return observation

    def actor(self, index: int) -> int:
        """The seat that took decision number ``index`` of the history."""
        seat = self.states[index].to_move
        assert seat is not None
        return seat

    def last_move_of(self, seat: int) -> int:
        """How many decisions had been made once ``seat`` last decided (0 if it never has).

        What happened after that point is news to that player: the app marks it.
        """
        for index in range(len(self.history) - 1, -1, -1):
            if self.actor(index) == seat:
                return index + 1
        return 0

    def public_views(self) -> list[Observation]:
        """The public view of every state so far, the deal first (what anyone at the table
        saw happen).  Each is worked out once and kept until its decision is undone."""
        for index in range(len(self._public), len(self.states)):
            self._public.append(self.view(None, index))
        return list(self._public)

    def score_series(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's score after every decision so far (``result`` is defined mid-game)."""
        results = [self.game.result(state).scores for state in self.states]
        return tuple(tuple(scores[seat] for scores in results) for seat in range(len(self.seats)))

    def outcome(self) -> Outcome | None:
        """The result and the score series once the game is over; ``None`` before."""
        if not self.is_over():
            return None
        return Outcome(self.game.result(self.state), self.score_series())

    def log(self) -> list[str]:
        """The public log: the opening line, then every decision so far in words.

        Each line is worked out once, from the public views of the states
        before and after its decision, and kept until that decision is undone.
        """
        game = self.game
        views = self.public_views()
        for index in range(len(self._log), len(self.history)):
            before, after = views[index], views[index + 1]
            self._log.append(game.describe(before, self.history[index], after))
        return [game.describe_start(views[0]), *self._log]

    # -- changing -------------------------------------------------------------
    def count_hint(self, seat: int) -> None:
        """Note that ``seat`` (a human) asked for a hint: the save keeps the count."""
        if self.seats[seat].is_bot:
            raise ValueError("Only a human player asks for hints.")
        self.hints[seat] += 1
        self._changed()

    def gesture_states(
        self,
        actions: Sequence[Action],
        by: int | None = None,
        legal: Sequence[Action] | None = None,
    ) -> list[State]:
        """The states ``actions`` lead through from now, without playing them.

        ``by`` (if given) is the seat the gesture is for: each decision must be
        that seat's to take.  A gesture may not run past a decision that reveals
        something its decider cannot see yet (:meth:`Game.reveals`): the
        decisions after it would be chosen blind, and trying them would answer
        from the hidden cards.  ``legal`` is the listing of the current state's
        decisions, if the caller has it (it saves listing them again).
        Raises ``IllegalAction`` with the first refusal, each decided from what
        the decider can see.
        """
        return self.game.gesture_states(self.state, actions, by, legal)

    def play(
        self, *actions: Action, by: int | None = None, legal: Sequence[Action] | None = None
    ) -> State:
        """Play one gesture: ``actions`` in order, taken back by one undo.

        Raises ``IllegalAction`` (and changes nothing) if any of them is not
        legal when its turn comes, or (with ``by``) not that seat's to take;
        see :meth:`gesture_states`.
        """
        states = self.gesture_states(actions, by, legal)
        self.states.extend(states[1:])
        self.history.extend(actions)
        self.starts.extend([True] + [False] * (len(actions) - 1))
        self.future.clear()
        self._changed()
        return self.state

    def can_undo(self) -> bool:
        """Whether there is a decision to take back."""
        return bool(self.history)

    def can_redo(self) -> bool:
        """Whether there is an undone decision to replay."""
        return bool(self.future)

    def undo_target(self, seat: int | None = None) -> int:
        """How many decisions remain after an undo.

        Undo goes back to the start of ``seat``'s last gesture, or (no seat given)
        of the last gesture of any human; with no such gesture, one decision back.
        """
        index = len(self.history) - 1
        for candidate in range(len(self.history) - 1, -1, -1):
            actor = self.actor(candidate)
            if actor == seat if seat is not None else not self.seats[actor].is_bot:
                index = candidate
                break
        while index > 0 and not self.starts[index]:
            index -= 1  # back to the first decision of that gesture
        return index

    def last_human(self) -> int | None:
        """The human seat that decided last, or ``None`` if no human has decided yet."""
        for index in range(len(self.history) - 1, -1, -1):
            seat = self.actor(index)
            if not self.seats[seat].is_bot:
                return seat
        return None

    def undo(self, keep: int | None = None) -> bool:
        """Take back decisions until ``keep`` remain (default: :meth:`undo_target`).

        Returns ``False`` if there is nothing to take back.
        """
        if not self.history:
            return False
        self._truncate(self.undo_target() if keep is None else keep)
        self._changed()
        return True

    def bump(self) -> None:
        """Count a change at the table that is not one of the match's own (a take-back asked)."""
        self.revision += 1

    def count_takeback(self, seat: int) -> None:
        """Note that ``seat`` took back a decision that had revealed something (saved)."""
        self.takebacks[seat] += 1

    def _truncate(self, keep: int) -> None:
        undone = list(zip(self.history[keep:], self.starts[keep:], strict=True))
        self.future[:0] = undone
        del self.history[keep:]
        del self.starts[keep:]
        del self.states[keep + 1 :]
        del self._log[keep:]
        del self._public[keep + 1 :]

    def redo(self) -> bool:
        """Replay the next undone gesture and the bot decisions after it; ``False`` if none."""
        if not self.future:
            return False
        first = True
        while self.future and (first or not self.future[0][1] or self._bot_to_move()):
            action, start = self.future[0]
            self.states.append(self.game.apply(self.state, action))
            self.future.pop(0)
            self.history.append(action)
            self.starts.append(start)
            first = False
        self._changed()
        return True

    def _bot_to_move(self) -> bool:
        seat = self.current_seat
        return seat is not None and seat.is_bot

    def _changed(self) -> None:
        self.revision += 1
