"""Karakorum for the engine contract: setup, the legal decisions, scoring and what each sees.

The rules themselves are in :mod:`.rules` and their words in :mod:`.words`;
this class puts them behind :class:`~karavan_core.engine.Game`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from karavan_core.engine import Action, Result
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum import words
from karavan_core.games.karakorum.components import PEAKS
from karavan_core.games.karakorum.rules import (
    ALL_CARDS,
    ALL_GOALS,
    apply_decision,
    end_round,
    legal_decisions,
    refusal,
    start_round,
)
from karavan_core.games.karakorum.state import (
    ACTION_TYPES,
    Card,
    KarakorumObservation,
    KarakorumState,
    Reveal,
    Step,
)
from karavan_core.games.shell import GameShell
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.values import copied, replace


class Karakorum(GameShell[KarakorumState, KarakorumObservation]):
    """Karakorum for 2 to 4 players."""

    name = "karakorum"
    title = "Karakorum"
    private_views = False  # every card is face up; only the deck's order is hidden, from all
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    action_types = ACTION_TYPES
    score_label = "Points if it ended now"
    score_note = "all expeditions closed"  # as the end closes them: see result
    final_label = "Points"

    # -- setup --------------------------------------------------------------------
    def deal(
        self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]
    ) -> KarakorumState:
        """Shuffle the summit cards, lay out the goal cards and start the first round."""
        n = len(players)
        rng, deck = rng.shuffled(ALL_CARDS)
        rng, first = self.first_player(options, n, rng)
        state = KarakorumState(
            players=players,
            rng=rng,
            first_player=first,
            active=first,
            current=first,
            step=Step.REVEAL,
            deck=deck,
            table=(),
            held=((),) * n,
            expeditions=((),) * n,
            tracks=((0,) * len(PEAKS),) * n,
            goals=ALL_GOALS,
            claimed=((),) * n,
            discard=(),
        )
        return start_round(state)

    # -- decisions ------------------------------------------------------------------
    def legal_actions(self, state: KarakorumState) -> list[Action]:
        """Every decision open to the player to move, as the predicates of each kind allow."""
        return legal_decisions(state)

    def why_illegal(self, state: KarakorumState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``."""
        if state.step is Step.OVER:
            return "The game is over."
        why = refusal(state, action)
        return None if why is None else words.refusal(state, action, why)

    def _apply(self, state: KarakorumState, action: Action) -> KarakorumState:
        return apply_decision(state, action)

    # -- scoring ------------------------------------------------------------------------
    def result(self, state: KarakorumState) -> Result:
        """Winners: an instant 30/30/30 winner, else the best champion (see the notes).

        A game still in play is scored as if it ended now: as if the round under
        way were the last and had just ended, so the first-player marker passes on
        and every expedition is closed (the end's own rules).  Cards taken and
        not yet placed count for nothing.
        """
        if state.step is Step.OVER:
            return words.final_result(state)
        ended = words.final_result(end_round(replace(state, deck=())))
        return replace(ended, notes=(words.NOT_OVER, *ended.notes))

    def score_words(
        self, observation: KarakorumObservation, scores: Sequence[int]
    ) -> tuple[str, ...]:
        """ "out" for a player who leads no peak (if the game ended now), as the result says;
        the others' points.  Only the deck's order is hidden, and the end does not read it."""
        state = self.sample_state(observation, random.Random(0))
        if state.step is not Step.OVER:
            state = end_round(replace(state, deck=()))
        return words.standing_words(state, scores)

    # -- information ----------------------------------------------------------------------
    def observe(self, state: KarakorumState, player: int | None) -> KarakorumObservation:
        """Everything on the table; of the deck only its size (the same for every player)."""
        return copied(KarakorumObservation, state, player=player, deck_size=len(state.deck))

    def reveals(self, observation: KarakorumObservation, action: Action) -> bool:
        """Revealing, and whatever ends the round: the next one opens with cards revealed.

        The deck's order is all that is hidden, and whether a decision ends the
        round does not depend on it, so any deal from the observation tells.
        """
        if isinstance(action, Reveal):
            return True
        dealt = self.sample_state(observation, random.Random(0))
        if action not in self.legal_actions(dealt):
            return False  # refused anyway, for reasons the player can see
        return len(apply_decision(dealt, action).deck) < len(dealt.deck)

    def sample_state(self, observation: KarakorumObservation, rng: random.Random) -> KarakorumState:
        """Shuffle the summit cards not in sight into a deck of the observed size."""
        return self._deal(observation, self._unseen(observation), rng)

    def sampler(
        self, observation: KarakorumObservation
    ) -> Callable[[random.Random], KarakorumState]:
        """Deals from one observation: its unseen cards are counted once, not at every deal."""
        return partial(self._deal, observation, self._unseen(observation))

    def _deal(
        self, obs: KarakorumObservation, unseen: tuple[Card, ...], rng: random.Random
    ) -> KarakorumState:
        deck = list(unseen)
        shuffle(rng, deck)
        # The expeditions closed at the end are kept for the result's words only: a game
        # still to be played has none (the observation leaves them out).
        return copied(
            KarakorumState, obs, rng=fresh_rng(rng), deck=tuple(deck), final_expeditions=()
        )

    def _unseen(self, obs: KarakorumObservation) -> tuple[Card, ...]:
        """The summit cards out of ``obs``'s sight, in ``ALL_CARDS`` order."""
        unseen = Counter(ALL_CARDS)
        unseen.subtract(obs.table + obs.discard)
        for cards in obs.held:
            unseen.subtract(cards)
        for exps in obs.expeditions:
            for exp in exps:
                unseen.subtract(exp.cards)
        return tuple(unseen.elements())

    def unfilled(self, state: KarakorumState) -> str | None:
        """A round whose revealing has left the table empty while the deck holds cards."""
        if state.step in (Step.REVEAL, Step.TAKE, Step.TAKE_MORE) and not state.table:
            return "No card lies revealed in a round that has begun."
        if state.step is Step.REVEAL and not state.deck:
            return "The active player is asked to reveal from an empty deck."
        return None

    def inventory(self, state: KarakorumState) -> Counter[str]:
        """Every summit card and goal card in the state."""
        cards = list(state.deck + state.table + state.discard)
        for held in state.held:
            cards += held
        for exps in state.expeditions:
            for exp in exps:
                cards += exp.cards
        counts: Counter[str] = Counter(f"summit {card}" for card in cards)
        goals = list(state.goals)
        for claimed in state.claimed:
            goals += claimed
        counts.update(f"goal {goal.color.value} {goal.kind.value}" for goal in goals)
        return counts

    # -- words ----------------------------------------------------------------------------
    def describe_start(self, observation: KarakorumObservation) -> str:
        """The first round's first player and the card(s) revealed for them at once."""
        return words.describe_start(observation)


GAME = Karakorum(words)
