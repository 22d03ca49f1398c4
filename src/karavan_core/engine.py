"""The contract every game implements.

One small interface serves the app, the bots, the saves and the tests alike
(compare OpenSpiel's ``State`` API or python-chess's ``Board``):

* a game is a stateless :class:`Game` object, found with ``get_game(name)``;
* a :class:`State` is a frozen attrs value: :meth:`Game.apply` returns a new
  one and never touches its input;
* every turn, however many steps the rulebook gives it, is a sequence of
  single decisions, each chosen from the finite list :meth:`Game.legal_actions`;
* all randomness comes from the :class:`~karavan_core.rng.Rng` inside the state.
"""

from __future__ import annotations

import abc
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from attrs import field, frozen

from karavan_core.rng import Rng


class IllegalAction(ValueError):
    """An action the rules do not allow here; ``str(error)`` is a sentence for the player."""


@frozen
class Action:
    """Base class of every game's actions (one decision of one player)."""


@frozen
class State:
    """Base class of every game's state.

    Each game adds its own fields; every state carries the players' names
    (for the log) and the random generator, and offers ``to_move``: the seat
    number of the one player who must decide now, or ``None`` once the game is over.
    """

    @property
    def to_move(self) -> int | None:  # pragma: no cover - every game overrides it
        raise NotImplementedError


@frozen
class Observation:
    """Base class of what one player may know of a state, and nothing more.

    Each game's observation carries ``player`` (the seat it was made for),
    ``players`` (the names) and offers ``to_move`` like a state.  It never
    carries the state's random generator: that would reveal the deck order.
    """


@frozen
class Result:
    """The outcome of a finished game.

    ``breakdown[seat]`` lists ``(label, value)`` lines explaining that player's
    score; ``notes`` are sentences that explain how the winners were found.
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    breakdown: tuple[tuple[tuple[str, str], ...], ...]
    notes: tuple[str, ...] = field(default=())


class Game(abc.ABC):
    """A game's rules.  Subclasses are stateless singletons registered by name."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type[State]]
    observation_type: ClassVar[type[Observation]]
    action_types: ClassVar[tuple[type[Action], ...]]

    # -- setting up -------------------------------------------------------
    @abc.abstractmethod
    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> State:
        """Deal a new game for ``players`` (names, in seat order) from ``seed``.

        ``options`` may name ``first_player`` (a seat number); otherwise the
        first player is drawn with the game's own generator.
        """

    def check_players(self, players: Sequence[str]) -> None:
        """Raise ``ValueError`` unless the number of players suits this game."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {len(players)}."
            )

    @staticmethod
    def first_player(options: Mapping[str, Any] | None, players: int, rng: Rng) -> tuple[Rng, int]:
        """The seat named by ``options["first_player"]``, or one drawn with ``rng``.

        Returns the (possibly advanced) generator and the seat; ``ValueError``
        if the option names no seat.
        """
        first = (options or {}).get("first_player")
        if first is None:
            return rng.randrange(players)
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise ValueError(f"The first player must be a seat from 0 to {players - 1}.")
        return rng, first

    # -- playing ------------------------------------------------------------
    @abc.abstractmethod
    def legal_actions(self, state: State) -> list[Action]:
        """Every decision the player to move may take now (empty once over)."""

    def apply(self, state: State, action: Action) -> State:
        """Return the state after ``action``; raise :class:`IllegalAction` if it is not allowed."""
        reason = self.why_illegal(state, action)
        if reason is not None:
            raise IllegalAction(reason)
        return self._apply(state, action)

    def apply_legal(self, state: State, action: Action) -> State:
        """Like :meth:`apply` for an action just taken from :meth:`legal_actions`.

        Skips the legality check, which search bots would otherwise pay for at
        every step of every playout.  Anything else must use :meth:`apply`.
        """
        return self._apply(state, action)

    def why_illegal(self, state: State, action: Action) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None`` if it is.

        The default compares against :meth:`legal_actions`; games override it
        with cheaper checks and more precise sentences.
        """
        if self.is_over(state):
            return "The game is over."
        if action in self.legal_actions(state):
            return None
        return f"That is not a move you can make now ({self.prompt(state)})."

    @abc.abstractmethod
    def _apply(self, state: State, action: Action) -> State:
        """Apply an action already known to be legal."""

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        return state.to_move is None

    @abc.abstractmethod
    def result(self, state: State) -> Result:
        """Scores, winners and the per-player breakdown.

        Also defined mid-game, where it gives the score so far (the app shows it
        in its score panel and charts it over the game).
        """

    # -- information ----------------------------------------------------------
    @abc.abstractmethod
    def observe(self, state: State, player: int) -> Observation:
        """Everything ``player`` may know of ``state``, and nothing more."""

    @abc.abstractmethod
    def sample_state(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with ``observation``, hidden parts drawn from ``rng``."""

    @abc.abstractmethod
    def describe(self, state: State, action: Action) -> str:
        """``action`` taken in ``state`` as one plain sentence for the log."""

    @abc.abstractmethod
    def prompt(self, state: State) -> str:
        """What the player to move must decide now, in words (for the status line)."""

    @abc.abstractmethod
    def inventory(self, state: State) -> Counter[str]:
        """Every physical component in the state, counted (no card is ever made or lost)."""
