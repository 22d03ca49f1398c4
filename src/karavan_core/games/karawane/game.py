"""Karawane for the engine contract: setup, the legal decisions, scoring and what each sees.

The rules themselves are in :mod:`.rules` and their words in :mod:`.words`;
this class puts them behind :class:`~karavan_core.engine.Game`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from karavan_core.engine import Action, Result
from karavan_core.games.karawane import components as C
from karavan_core.games.karawane import words
from karavan_core.games.karawane.components import CITY
from karavan_core.games.karawane.rules import (
    apply_decision,
    can_go_deeper,
    legal_decisions,
    refusal,
    score,
    sorted_cards,
)
from karavan_core.games.karawane.state import (
    ACTION_TYPES,
    KarawaneObservation,
    KarawaneState,
    PlaySandstorm,
)
from karavan_core.games.shell import GameShell
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.values import copied


class Karawane(GameShell[KarawaneState, KarawaneObservation]):
    """Karawane for 2 to 4 players."""

    name = "karawane"
    title = "Karawane"
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    action_types = ACTION_TYPES

    # -- setup ----------------------------------------------------------------------------
    def deal(self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]) -> KarawaneState:
        """Every camel in the city; each player shuffles their own deck and draws a hand."""
        n = len(players)
        hands, decks = [], []
        for _ in range(n):
            rng, deck = rng.shuffled(C.DECK)
            hands.append(sorted_cards(deck[: C.HAND_SIZE]))
            decks.append(deck[C.HAND_SIZE :])
        rng, first = self.first_player(options, n, rng)
        deeper = options.get(C.DEEPER_RULE_OPTION, True)
        if not isinstance(deeper, bool):
            raise ValueError(f"The option {C.DEEPER_RULE_OPTION} is true or false.")
        return KarawaneState(
            players=players,
            rng=rng,
            first_player=first,
            current=first,
            camels=((CITY,) * C.CAMELS_PER_PLAYER,) * n,
            hands=tuple(hands),
            decks=tuple(decks),
            played=((),) * n,
            deeper_in_oasis=deeper,
        )

    # -- decisions ---------------------------------------------------------------------------
    def legal_actions(self, state: KarawaneState) -> list[Action]:
        """Every card play with an effect; failing those, every card played without one."""
        return legal_decisions(state)

    def why_illegal(self, state: KarawaneState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``."""
        if state.over:
            return "The game is over."
        why = refusal(state, action)
        return None if why is None else words.refusal(state, action, why)

    def _apply(self, state: KarawaneState, action: Action) -> KarawaneState:
        return apply_decision(state, action)

    # -- scoring --------------------------------------------------------------------------------
    def result(self, state: KarawaneState) -> Result:
        """Points of the oasis squares held; everyone on the top score wins."""
        scores = tuple(score(line) for line in state.camels)
        best = max(scores)
        winners = tuple(seat for seat, points in enumerate(scores) if points == best)
        return words.outcome(state, scores, winners)

    # -- information ------------------------------------------------------------------------------
    def observe(self, state: KarawaneState, player: int | None) -> KarawaneObservation:
        """The board, every played pile and all counts, plus ``player``'s own hand."""
        return copied(
            KarawaneObservation,
            state,
            player=player,
            hand=None if player is None else state.hands[player],
            hand_sizes=tuple(len(hand) for hand in state.hands),
            deck_sizes=tuple(len(deck) for deck in state.decks),
        )

    def reveals(self, observation: KarawaneObservation, action: Action) -> bool:
        """Every card played is replaced from the deck: each decision shows a new card."""
        return True

    def reveals_to_all(self, observation: KarawaneObservation, action: Action) -> bool:
        """Only the sandstorm: every player draws a new hand.  The card drawn after any other
        goes to its decider's hand, from their own deck: nobody else sees it."""
        return isinstance(action, PlaySandstorm)

    def sample_state(self, observation: KarawaneObservation, rng: random.Random) -> KarawaneState:
        """Deal every unseen card at random: others' hands and every deck's order."""
        obs = observation
        assert obs.hand is not None, "a state is sampled from a player's observation"
        hands, decks = [], []
        for seat, played in enumerate(obs.played):
            unseen = list(C.DECK)
            known = played + obs.hand if seat == obs.player else played
            for card in known:
                unseen.remove(card)
            shuffle(rng, unseen)
            if seat == obs.player:
                hands.append(obs.hand)
                decks.append(tuple(unseen))
            else:
                size = obs.hand_sizes[seat]
                hands.append(sorted_cards(unseen[:size]))
                decks.append(tuple(unseen[size:]))
        return copied(
            KarawaneState, obs, rng=fresh_rng(rng), hands=tuple(hands), decks=tuple(decks)
        )

    def unfilled(self, state: KarawaneState) -> str | None:
        """A hand short of its cards while its owner's deck still holds some."""
        for name, hand, deck in zip(state.players, state.hands, state.decks, strict=True):
            if len(hand) < C.HAND_SIZE and deck:
                return f"{name} holds {len(hand)} cards while their deck holds {len(deck)}."
        return None

    def older_rules_matter(self, state: KarawaneState) -> bool:
        """The player to move could take a camel deeper into the oasis, which the older rule
        (a camel in the oasis never moves again) did not allow."""
        return can_go_deeper(state)

    def inventory(self, state: KarawaneState) -> Counter[str]:
        """Every player's camels and cards, wherever they are."""
        counts: Counter[str] = Counter()
        for seat in range(len(state.players)):
            counts[f"seat {seat} camel"] += len(state.camels[seat])
            for pile in (state.hands[seat], state.decks[seat], state.played[seat]):
                counts.update(f"seat {seat} {card.value}" for card in pile)
        return counts


GAME = Karawane(words)
