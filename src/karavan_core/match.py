"""A match: the seats, the current state, and unlimited undo and redo.

The match keeps every decision made with the state after it (states are small
frozen values, so this is cheap), and the decisions taken back, for redo.  It owns the
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
from enum import StrEnum
from typing import Any

from attrs import define, field, frozen

from karavan_core.engine import Action, Game, Observation, Result, State
from karavan_core.text import check_name, printable
from karavan_core.values import replace


class SeatKind(StrEnum):
    """Who plays a seat."""

    HUMAN = "human"
    BOT = "bot"


HUMAN = SeatKind.HUMAN
BOT = SeatKind.BOT
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
    kind: SeatKind = field(default=HUMAN, converter=SeatKind)
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
                return cls(bot_name(level, index + 1), BOT, level)
            return cls(check_name(name), BOT, level)
        return cls(check_name(text), HUMAN, None)


def bot_name(level: str, number: int | None = None) -> str:
    """A bot's name where none was given: "Hard bot", or "Hard bot 2" with a ``number``."""
    base = f"{printable(level).capitalize()[:12]} bot"
    return base if number is None else f"{base} {number}"


def bot_names(levels: Sequence[str | None]) -> list[str | None]:
    """The names the bots of a table take where none was given, by each seat's level
    (``None``: a human, who gets none): "Hard bot" for the only bot of its level, "Hard bot
    1" and "Hard bot 2" for two, numbered in the order they sit."""
    many = {level for level in levels if level is not None and levels.count(level) > 1}
    names: list[str | None] = []
    for index, level in enumerate(levels):
        number = levels[: index + 1].count(level) if level in many else None
        names.append(None if level is None else bot_name(level, number))
    return names


def parse_table(texts: Sequence[str]) -> list[Seat]:
    """The seats ``texts`` name, each read by :meth:`Seat.parse`, the bots given no name
    named by :func:`bot_names` (not by their seat: "Hard bot 2" at a table of two reads as
    if there were another)."""
    seats = [Seat.parse(text, index) for index, text in enumerate(texts)]
    unnamed = [
        seat.level
        if seat.is_bot and seat.name == Seat.parse(f"{BOT}:{seat.level}", index).name
        else None
        for index, seat in enumerate(seats)
    ]
    names = bot_names(unnamed)
    return [
        seat if name is None else replace(seat, name=name)
        for seat, name in zip(seats, names, strict=True)
    ]


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
    """A finished match: the result and every seat's charted score after each decision.

    ``rounds`` are the points of the series after which the scores start again from
    nothing (Jaipur's rounds): the chart draws each round's lines apart.
    """

    result: Result
    series: tuple[tuple[int, ...], ...]  # series[seat][i]: the score after decision i (0: deal)
    rounds: tuple[int, ...] = ()

    def sentence(self, names: Sequence[str]) -> str:
        """The end in one line: ``Ann wins (Ann 12, Bob 9).``"""
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, self.result.scores, strict=False))
        return f"{winners_sentence(names, self.result.winners)} ({scores})."


@define(kw_only=True)
class Ply:
    """One decision made: the decision, the state after it, and whether it opened a gesture.

    The public view after it, its line in the log, the scores after it and
    whether it showed its decider (or every player) something new are worked out the
    first time they are asked for, and kept with it.
    """

    action: Action
    after: State
    starts: bool = True
    public: Observation | None = None
    line: str | None = None
    scores: tuple[int, ...] | None = None
    revealing: bool | None = None
    revealing_all: bool | None = None


class Match:
    """A game in progress with its whole history (a :class:`~karavan_core.referee.Referee`
    runs it at a table).

    ``plies`` are the decisions made, oldest first; ``undone`` the decisions
    taken back, the next to redo first.  Undo moves plies from the one to the
    other and redo moves them back, as python-chess's move stack pops and pushes.
    """

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
        self.initial: State = (
            game.new_game(names, seed, self.options) if initial is None else initial
        )
        self._dealt: Observation | None = None  # the public view of the deal, once asked for
        self._dealt_scores: tuple[int, ...] | None = None  # the scores at the deal, the same
        self.plies: list[Ply] = []
        self.undone: list[Ply] = []
        self.hints = [0] * len(self.seats)  # hints each seat asked for (undo keeps them)
        # Take-backs each seat made past a decision that had revealed something (see the referee).
        self.takebacks = [0] * len(self.seats)
        self.revision = 0  # changes ever made (the save keeps it): a table's version number

    # -- reading --------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current state."""
        return self.plies[-1].after if self.plies else self.initial

    @property
    def states(self) -> list[State]:
        """Every state so far, the deal first (a new list: changing it changes nothing)."""
        return [self.initial, *(ply.after for ply in self.plies)]

    @property
    def history(self) -> list[Action]:
        """The decisions made, oldest first (a new list: changing it changes nothing)."""
        return [ply.action for ply in self.plies]

    @property
    def redo_actions(self) -> list[Action]:
        """The undone decisions, next first (a new list)."""
        return [ply.action for ply in self.undone]

    def state_at(self, index: int) -> State:
        """The state after ``index`` decisions (negative: counted from the end, -1 now)."""
        if index < 0:
            index += len(self.plies) + 1
        return self.plies[index - 1].after if index > 0 else self.initial

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

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over(self.state)

    def legal_actions(self) -> list[Action]:
        """The decisions open to the player to move."""
        return self.game.legal_actions(self.state)

    def view(self, player: int | None, index: int = -1) -> Observation:
        """What ``player`` (``None``: every player) sees of state number ``index``."""
        observation: Observation = self.game.observe(self.state_at(index), player)
        return observation

    def actor(self, index: int) -> int:
        """The seat that took decision number ``index`` of the history."""
        seat = self.state_at(index).to_move
        assert seat is not None
        return seat

    def revealed(self, index: int) -> bool:
        """Whether decision number ``index`` showed its decider something new (a card drawn,
        a tile turned): :meth:`Game.reveals`, worked out once and kept with the decision."""
        ply = self.plies[index]
        if ply.revealing is None:
            before = self.state_at(index)
            ply.revealing = self.game.reveals(self.game.observe(before, before.to_move), ply.action)
        return ply.revealing

    def showed(self, index: int, seat: int) -> bool:
        """Whether decision number ``index`` showed ``seat`` something new: its decider
        whatever :meth:`revealed` says, anyone else what it showed every player
        (:meth:`Game.reveals_to_all`; a card drawn into another's hand is not)."""
        if self.actor(index) == seat:
            return self.revealed(index)
        ply = self.plies[index]
        if ply.revealing_all is None:
            before = self.state_at(index)
            observation = self.game.observe(before, before.to_move)
            ply.revealing_all = self.game.reveals_to_all(observation, ply.action)
        return ply.revealing_all

    def last_move_of(self, seat: int) -> int:
        """How many decisions had been made once ``seat`` last decided (0 if it never has).

        What happened after that point is news to that player: the app marks it.
        """
        for index in range(len(self.plies) - 1, -1, -1):
            if self.actor(index) == seat:
                return index + 1
        return 0

    def public_views(self) -> list[Observation]:
        """The public view of every state so far, the deal first (what anyone at the table
        saw happen).  Each is worked out once and kept with its decision."""
        if self._dealt is None:
            self._dealt = self.game.observe(self.initial, None)
        views = [self._dealt]
        for ply in self.plies:
            if ply.public is None:
                ply.public = self.game.observe(ply.after, None)
            views.append(ply.public)
        return views

    def score_series(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's charted score after every decision so far (:meth:`Game.chart_scores`),
        each worked out once and kept with its decision."""
        if self._dealt_scores is None:
            self._dealt_scores = self.game.chart_scores(self.initial)
        results = [self._dealt_scores]
        for ply in self.plies:
            if ply.scores is None:
                ply.scores = self.game.chart_scores(ply.after)
            results.append(ply.scores)
        return tuple(tuple(scores[seat] for scores in results) for seat in range(len(self.seats)))

    def keep_scores(self, series: Sequence[Sequence[int]]) -> None:
        """Take ``series`` (``series[seat][i]``, as :meth:`score_series` gives it) as the
        charted scores: a game rebuilt from one player's view knows them from its record."""
        columns = list(zip(*series, strict=True))
        if len(columns) != len(self.plies) + 1:
            raise ValueError("The scores do not follow the game's decisions.")
        self._dealt_scores = tuple(columns[0])
        for ply, scores in zip(self.plies, columns[1:], strict=True):
            ply.scores = tuple(scores)

    def round_ends(self) -> tuple[int, ...]:
        """The points of :meth:`score_series` after which the scores start again from
        nothing (a round ended there and another follows)."""
        states = self.states
        return tuple(i for i in range(len(states) - 1) if self.game.ends_round(states[i]))

    def outcome(self) -> Outcome | None:
        """The result and the score series once the game is over; ``None`` before."""
        if not self.is_over():
            return None
        return Outcome(self.game.result(self.state), self.score_series(), self.round_ends())

    def log(self) -> list[str]:
        """The public log: the opening line, then every decision so far in words.

        Each line is worked out once, from the public views of the states
        before and after its decision (never by applying it again), and kept
        with its decision.
        """
        game = self.game
        views = self.public_views()
        lines = [game.describe_start(views[0])]
        for index, ply in enumerate(self.plies):
            if ply.line is None:
                ply.line = game.describe(views[index], ply.action, views[index + 1])
            lines.append(ply.line)
        return lines

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
        see :meth:`gesture_states`.  The redo list is dropped.
        """
        states = self.gesture_states(actions, by, legal)
        self.plies.extend(
            Ply(action=action, after=after, starts=index == 0)
            for index, (action, after) in enumerate(zip(actions, states[1:], strict=True))
        )
        self.undone.clear()
        self._changed()
        return self.state

    def push(self, action: Action, *, starts: bool = True) -> None:
        """Append one decision (``starts``: it opens a gesture) as a saved game replays it;
        ``IllegalAction`` if it is not legal now.  The redo list is left as it is."""
        self.plies.append(
            Ply(action=action, after=self.game.apply(self.state, action), starts=starts)
        )

    def can_undo(self) -> bool:
        """Whether there is a decision to take back."""
        return bool(self.plies)

    def can_redo(self) -> bool:
        """Whether there is an undone decision to replay."""
        return bool(self.undone)

    def undo_target(self, seat: int | None = None) -> int:
        """How many decisions remain after an undo.

        Undo goes back to the start of ``seat``'s last gesture, or (no seat given)
        of the last gesture of any human; with no such gesture, one decision back.
        """
        index = len(self.plies) - 1
        for candidate in range(len(self.plies) - 1, -1, -1):
            actor = self.actor(candidate)
            if actor == seat if seat is not None else not self.seats[actor].is_bot:
                index = candidate
                break
        while index > 0 and not self.plies[index].starts:
            index -= 1  # back to the first decision of that gesture
        return index

    def last_human(self) -> int | None:
        """The human seat that decided last, or ``None`` if no human has decided yet."""
        for index in range(len(self.plies) - 1, -1, -1):
            seat = self.actor(index)
            if not self.seats[seat].is_bot:
                return seat
        return None

    def undo(self, keep: int | None = None) -> bool:
        """Take back decisions until ``keep`` remain (default: :meth:`undo_target`).

        Returns ``False`` if there is nothing to take back.
        """
        if not self.plies:
            return False
        self.take_back_to(self.undo_target() if keep is None else keep)
        self._changed()
        return True

    def take_back_to(self, keep: int) -> None:
        """Move the decisions after the first ``keep`` to the front of the redo list."""
        self.undone[:0] = self.plies[keep:]
        del self.plies[keep:]

    def bump(self) -> None:
        """Count a change at the table that is not one of the match's own (a take-back asked)."""
        self.revision += 1

    def count_takeback(self, seat: int) -> None:
        """Note that ``seat`` took back a decision that had revealed something (saved)."""
        self.takebacks[seat] += 1

    def redo(self) -> bool:
        """Replay the next undone gesture and the bot decisions after it; ``False`` if none."""
        if not self.undone:
            return False
        first = True
        while self.undone and (first or not self.undone[0].starts or self._bot_to_move()):
            self.plies.append(self.undone.pop(0))
            first = False
        self._changed()
        return True

    def _bot_to_move(self) -> bool:
        seat = self.current_seat
        return seat is not None and seat.is_bot

    def _changed(self) -> None:
        self.revision += 1
