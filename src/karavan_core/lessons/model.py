"""A lesson and its steps: a real deal, every decision of one game, and what to teach on the way."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from attrs import field, frozen

from karavan_core.engine import Action, Game, State
from karavan_core.registry import get_game


@frozen(kw_only=True)
class Step:
    """One step of a lesson.

    ``at`` is the number of decisions played when the step begins.  With
    ``decisions`` (one gesture's worth: buying is Buy then Pay), the step waits
    for the learner to make ``moves[at:at + decisions]``; with none, for the
    learner to read ``say`` and go on.  ``task`` is the short instruction of the
    status line, ``why`` the reason given when another legal decision is tried:
    one for the whole step, or one for each of its decisions (a reason for the
    first is no reason for the second: paper is not why you draw blind);
    ``teaches`` the rules (by id) the step teaches.
    """

    at: int
    say: str
    task: str
    decisions: int = 0
    why: str | tuple[str, ...] = ""
    teaches: tuple[str, ...] = ()

    @property
    def end(self) -> int:
        """The number of decisions played once the step is done."""
        return self.at + self.decisions

    def reason(self, index: int) -> str:
        """Why the step's decision number ``index`` (from 0) is the one to make."""
        if isinstance(self.why, str):
            return self.why
        return self.why[min(index, len(self.why) - 1)]


def _ordered(_: object, __: object, steps: tuple[Step, ...]) -> None:
    for before, after in itertools.pairwise(steps):
        if after.at < before.end:
            raise ValueError("A lesson's steps follow one another through its moves.")


@frozen(kw_only=True)
class Lesson:
    """A guided game: the deal, every decision of it, and the steps that teach it."""

    game_name: str
    seed: int
    first_player: int
    moves: tuple[Action, ...]
    steps: tuple[Step, ...] = field(validator=_ordered)
    welcome: str = ""  # what the lesson is, said on the menu that lists the lessons

    @property
    def game(self) -> Game[Any, Any, Any]:
        """The game this lesson teaches."""
        return get_game(self.game_name)

    @property
    def options(self) -> dict[str, Any]:
        """The options of its deal."""
        return {"first_player": self.first_player}

    @property
    def rules(self) -> frozenset[str]:
        """Every rule some step teaches."""
        return frozenset(rule for step in self.steps for rule in step.teaches)

    def deal(self, players: Sequence[str]) -> State:
        """The lesson's deal, for ``players`` (names: the learner first)."""
        state: State = self.game.new_game(players, self.seed, self.options)
        return state

    def states(self, players: Sequence[str]) -> Iterator[State]:
        """Every state of the lesson's game, the deal first (each move checked as it goes)."""
        game = self.game
        state = self.deal(players)
        yield state
        for move in self.moves:
            state = game.apply(state, move)
            yield state
