"""The contract every game implements.

One small interface serves the app, the bots, the saves and the tests alike
(compare OpenSpiel's ``State`` API or python-chess's ``Board``):

* a game is a stateless :class:`Game` object, found with ``get_game(name)``;
* a :class:`State` is a frozen attrs value: :meth:`Game.apply` returns a new
  one and never touches its input;
* every turn, however many steps the rulebook gives it, is a sequence of
  single decisions, each chosen from the finite list :meth:`Game.legal_actions`;
* all randomness comes from the :class:`~karavan_core.rng.Rng` inside the state;
* words shown to players come from observations only: :meth:`Game.preview`
  from the decider's, :meth:`Game.describe` (the log) from the public view
  (:meth:`Game.observe` with no player), so they cannot name a hidden card.
"""

from __future__ import annotations

import abc
import enum
import random
import typing
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar, Generic, TypeVar, cast

from attrs import field, frozen

from karavan_core.rng import Rng


class IllegalAction(ValueError):
    """An action the rules do not allow here; ``str(error)`` is a sentence for the player."""


REVEALING_GESTURE = (
    "A gesture cannot go on past a decision that reveals something: "
    "send the rest once you have seen it."
)
# After the words of the decision with which a gesture's player's turn ended.
TURN_ENDED = "That ends your turn, so the rest cannot be played with it."


@frozen
class Action:
    """Base class of every game's actions (one decision of one player)."""


class _Turns:
    """Whose turn it is, shared by states and observations alike."""

    __slots__ = ()

    @property
    def to_move(self) -> int | None:  # pragma: no cover - every game overrides it
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: the one way to ask, in every game."""
        return self.to_move is None


class UntilOver(_Turns):
    """Turns for a game whose ``over`` field says it has ended; ``current`` is the seat to move.

    A game's state and its observation both take it, so the two cannot disagree.
    """

    __slots__ = ()
    current: int
    over: bool

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` once the game is over."""
        return None if self.over else self.current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (read straight from the field: asked at every step)."""
        return self.over


class UntilOverStep(_Turns):
    """Turns for a game whose ``step`` reaches the class's ``over_step`` once it has ended."""

    __slots__ = ()
    over_step: ClassVar[enum.Enum]
    current: int
    step: enum.Enum

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` once the game is over."""
        return None if self.step is self.over_step else self.current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (read straight from the field: asked at every step)."""
        return self.step is self.over_step


@frozen(slots=False)  # fields in a dict, not slots: see values.replace
class State(_Turns):
    """Base class of every game's state.

    Each game adds its own fields after the two every state carries: the
    players' names (in seat order) and the random generator.  It offers
    ``to_move``: the seat number of the one player who must decide now, or
    ``None`` once the game is over.
    """

    players: tuple[str, ...]
    rng: Rng


@frozen
class Observation(_Turns):
    """Base class of what one player may know of a state, and nothing more.

    ``player`` is the seat it was made for, or ``None`` for the public view:
    what every player at the table sees (the curtain, the log, a spectator).
    Each game adds its own fields after these two and offers ``to_move`` like
    a state.  It never carries the state's random generator: that would
    reveal the deck order.
    """

    player: int | None
    players: tuple[str, ...]


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


S = TypeVar("S", bound=State)
O = TypeVar("O", bound=Observation)  # noqa: E741 - S, O, A mirror the contract's three types
A = TypeVar("A", bound=Action)


class Game(abc.ABC, Generic[S, O, A]):
    """A game's rules over its state, observation and action types.

    Subclasses are singletons registered by name and hold nothing that
    changes: any thread may use one at any time.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Taken from the class's ``Game[State, Observation, Action]`` base: written once.
    state_type: ClassVar[type[State]]
    observation_type: ClassVar[type[Observation]]
    action_types: ClassVar[tuple[type[Action], ...]]
    score_label: ClassVar[str] = "Points"  # what ``result(state).scores`` count, as a title
    final_label: ClassVar[str | None] = None  # the title once the game is over, if another
    # A few words under the scores while the game is on, saying what they count.
    score_note: ClassVar[str | None] = None
    # What ``chart_scores`` count, said on the results chart, where not ``result``'s scores.
    chart_label: ClassVar[str | None] = None
    # Whether a player sees anything the others do not (a hand): without it a hot-seat
    # table needs no curtain between players, every observation being the public view.
    private_views: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            origin = typing.get_origin(base)
            if isinstance(origin, type) and issubclass(origin, Game):
                # Game[S, O, A] or a shell of it taking the state and observation first.
                cls.state_type, cls.observation_type = typing.get_args(base)[:2]

    # -- setting up -------------------------------------------------------
    def new_game(
        self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None
    ) -> S:
        """Deal a new game for ``players`` (names, in seat order) from ``seed``.

        ``options`` may name ``first_player`` (a seat number); otherwise the
        first player is drawn with the game's own generator.  ``ValueError``
        for a number of players the game is not for.
        """
        self.check_players(players)
        return self.deal(tuple(players), Rng(seed), options or {})

    @abc.abstractmethod
    def deal(self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]) -> S:
        """The first state of a game for ``players`` (a number the game is for), dealt with
        ``rng``; :meth:`first_player` reads ``options``."""

    def check_players(self, players: Sequence[str]) -> None:
        """Raise ``ValueError`` unless the number of players suits this game."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"{self.title} is for {self.player_counts}, not {len(players)}.")

    @property
    def player_counts(self) -> str:
        """How many players the game is for, in words: "2 to 4 players", "exactly 2 players"."""
        low, high = self.min_players, self.max_players
        return f"exactly {low} players" if low == high else f"{low} to {high} players"

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
    def legal_actions(self, state: S) -> list[A]:
        """Every decision the player to move may take now (empty once over)."""

    def apply(self, state: S, action: Action, legal: Sequence[A] | None = None) -> S:
        """Return the state after ``action``; raise :class:`IllegalAction` if it is not allowed.

        The door of the engine: whatever ``action`` was built from, it is
        either equal to one of :meth:`legal_actions` (and that legal instance
        is applied, so a ``"gold"`` where an enum belongs is harmless) or
        refused with a sentence.  A caller that has just listed ``state``'s
        decisions hands the listing over as ``legal``, so they are not listed
        again.
        """
        # A Sequence of Actions, so that index() takes any action (a list[A]'s wants an A).
        listing: Sequence[Action] = self.legal_actions(state) if legal is None else legal
        # Most callers pass an instance taken from legal_actions: finding it by
        # identity compares integers in C, where ``index`` would call the
        # actions' Python ``__eq__`` on every one listed before it.
        ids = list(map(id, listing))
        where = ids.index(id(action)) if id(action) in ids else None
        if where is None:  # not that very instance: compare by value
            try:
                where = listing.index(action)
            except Exception:  # not among them, or not even comparable: either way refused
                raise IllegalAction(self.refusal(state, action)) from None
        return self._apply(state, cast(A, listing[where]))

    def gesture_states(
        self,
        state: S,
        actions: Sequence[A],
        by: int | None = None,
        legal: Sequence[A] | None = None,
    ) -> list[S]:
        """The states a gesture (one player's decisions in a row: buy, then pay) leads
        through from ``state``, ``state`` first, without playing it.

        ``by`` (if given) is the seat the gesture is for: each decision must be
        that seat's to take.  A gesture may not run past a decision that reveals
        something its decider cannot see yet (:meth:`reveals`): the decisions
        after it would be chosen blind, and trying them would answer from the
        hidden cards.  ``legal`` is the listing of ``state``'s decisions, if the
        caller has it.  Raises :class:`IllegalAction` with the first refusal,
        each decided from what the decider can see.
        """
        if not actions:
            raise IllegalAction("A gesture holds at least one decision.")
        states = [state]
        last = len(actions) - 1
        for index, action in enumerate(actions):
            now = states[-1]
            if by is not None and now.to_move != by:
                if index == 0:
                    raise IllegalAction("A gesture holds only your own decisions.")
                # The turn passed part-way: say which decision ended it, in the decider's words.
                ended = self.preview(self.observe(states[-2], by), actions[index - 1])
                raise IllegalAction(f"{ended} {TURN_ENDED}")
            if index < last and self.reveals(self.observe(now, now.to_move), action):
                raise IllegalAction(REVEALING_GESTURE)
            states.append(self.apply(now, action, legal if index == 0 else None))
        return states

    def apply_legal(self, state: S, action: A) -> S:
        """Like :meth:`apply` for an action just taken from :meth:`legal_actions`.

        Skips the legality check, which search bots would otherwise pay for at
        every step of every playout.  Anything else must use :meth:`apply`.
        """
        return self._apply(state, action)

    def refusal(self, state: S, action: object) -> str:
        """The sentence that refuses ``action``, an action that is not legal in ``state``."""
        try:
            reason = self.why_illegal(state, action)
        except Exception:  # a malformed action can trip the precise checks
            reason = None
        if reason is None:
            return f"That is not a move you can make now ({self._prompt_of(state)})."
        return reason

    def why_illegal(self, state: S, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None`` if it is.

        The default compares against :meth:`legal_actions`; games override it
        with precise sentences (the rules' own reasons).
        """
        if self.is_over(state):
            return "The game is over."
        if action in self.legal_actions(state):
            return None
        return f"That is not a move you can make now ({self._prompt_of(state)})."

    def _prompt_of(self, state: S) -> str:
        return self.prompt(self.observe(state, state.to_move))

    @abc.abstractmethod
    def _apply(self, state: S, action: A) -> S:
        """Apply an action already known to be legal."""

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
        return state.is_over

    @abc.abstractmethod
    def result(self, state: S) -> Result:
        """Scores, winners and the per-player breakdown.

        Also defined mid-game, where it gives the score if the game ended now,
        counted by the end's own rules (the app shows it in its score panel, where
        :attr:`score_note` may say what it counts, and, unless :meth:`chart_scores`
        says otherwise, charts it over the game).
        """

    def chart_scores(self, state: S) -> tuple[int, ...]:
        """Each player's score at ``state`` as the results chart follows it over the game.

        The result's scores, unless they count something else than what play is
        about (Jaipur's seals, where each round is played for rupees).  Charted
        only once the game is over, when every hidden value it counts is shown.
        """
        return self.result(state).scores

    def score_words(self, observation: O, scores: Sequence[int]) -> tuple[str, ...]:
        """Each seat's ``scores`` (:meth:`result`'s, at the state ``observation`` is of) as a
        score board says them beside the table: the number, unless the game has a word
        for it (Karakorum's "out" for a player out of the fight for victory, as its
        result says).  From the observation alone, so a client far from the referee says
        the same."""
        return tuple(str(score) for score in scores)

    def ends_round(self, state: S) -> bool:
        """Whether the decision that led to ``state`` ended a round after which the
        :meth:`chart_scores` start again from nothing (the chart draws each round's
        lines apart).  Never, unless a game says so."""
        return False

    # -- information ----------------------------------------------------------
    @abc.abstractmethod
    def observe(self, state: S, player: int | None) -> O:
        """Everything ``player`` may know of ``state``, and nothing more.

        With ``player=None``, the public view: what every player sees, no
        hand or other private part included.
        """

    @abc.abstractmethod
    def disclose(self, state: S) -> tuple[tuple[str, str], ...]:
        """Every part of ``state`` some player cannot see, in words: (what, which cards) rows.

        Hands, decks in order, hidden tokens: what a replay shows once the game
        is over, when every card may be turned face up.  Never shown earlier.
        """

    def reveals(self, observation: O, action: A) -> bool:
        """Whether taking ``action`` may show its decider something ``observation`` lacks.

        A card drawn or turned up, a bonus token's value, a new deal: after such a
        decision the decider's next observation depends on what it could not see
        before.  Worked out from the observation alone, so asking tells nothing.
        A gesture may not run past such a decision, and taking one back is not
        free.  The default says yes to every decision; each game says precisely.
        """
        return True

    def reveals_to_all(self, observation: O, action: A) -> bool:
        """Whether taking ``action`` may show every player something new, not only its
        decider: a card turned up where all can see it, a new deal.

        A card only its decider sees (drawn into a hand) is not: a bot's private
        draw tells the others nothing, so it does not make taking back past it
        cost consent.  The default is :meth:`reveals`; a game whose draws are
        private says so.
        """
        return self.reveals(observation, action)

    @abc.abstractmethod
    def sample_state(self, observation: O, rng: random.Random) -> S:
        """A full state consistent with a player's ``observation``, hidden parts from ``rng``."""

    def sampler(self, observation: O) -> Callable[[random.Random], S]:
        """``sample_state`` for one observation, to be called many times (once per deal).

        The search deals the hidden cards hundreds of times from one
        observation; a game may work out once here what every deal shares
        (which cards are unseen, the fields that stay as observed).  Each call
        of the result is ``sample_state(observation, rng)``.
        """
        return partial(self.sample_state, observation)

    # -- words ------------------------------------------------------------------
    @abc.abstractmethod
    def preview(self, observation: O, action: A) -> str:
        """The words for ``action`` before it is taken, from the decider's observation alone.

        Tells only what is certain from that observation (a hidden card it
        would reveal stays unnamed); the move list, the pickers and hints use it.
        """

    @abc.abstractmethod
    def describe(self, before: O, action: A, after: O) -> str:
        """The log's words for ``action``, from the public views before and after it.

        Every player reads the log, so it is built from ``observe(state, None)``
        of the two states and can tell only what everyone saw happen: the
        decision itself, cards it revealed, what followed on its own.
        """

    def describe_start(self, observation: O) -> str:
        """The log's first line: the game as dealt, from its public view."""
        seat = observation.to_move
        first = "nobody" if seat is None else observation.players[seat]
        return f"A new game of {self.title}: {first} plays first."

    @abc.abstractmethod
    def prompt(self, observation: O) -> str:
        """What the player to move must decide now, in words (for the status line)."""

    @abc.abstractmethod
    def unfilled(self, state: S) -> str | None:
        """A place the rules keep filled (a face-up row, a market, a hand) that stands empty
        while a card could fill it, in words; ``None`` when there is none.

        Each game states its own places; the conformance suite asks after every decision.
        """

    def older_rules_matter(self, state: S) -> bool:
        """Whether a rule of this game changed since an older save format could decide
        otherwise in ``state``.

        :mod:`karavan_core.saves` replays an older save by the rules it was played with only
        if its game ever met such a state; otherwise the game is the same under today's
        rules.  A game whose rules never changed never meets one.
        """
        return False

    @abc.abstractmethod
    def inventory(self, state: S) -> Counter[str]:
        """Every physical component in the state, counted (no card is ever made or lost)."""
