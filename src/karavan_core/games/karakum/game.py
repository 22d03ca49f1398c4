"""Karakum for the engine contract: setup, the legal decisions, scoring and what each sees.

The rules themselves are in :mod:`.rules` and their words in :mod:`.words`;
this class puts them behind :class:`~karavan_core.engine.Game`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from karavan_core.engine import Action, Result
from karavan_core.games.karakum import components as C
from karavan_core.games.karakum import words
from karavan_core.games.karakum.components import RESOURCES
from karavan_core.games.karakum.rules import (
    ALL_CAMELS,
    BUY,
    DRAW,
    NO_CARDS,
    PASS,
    TAKE_CARD,
    apply_decision,
    buyings,
    cards_of,
    drawing,
    hand_from,
    join_action,
    joinings,
    minus,
    pay_actions,
    payment_terms,
    plus,
    refusal,
    takings,
)
from karavan_core.games.karakum.state import (
    ACTION_TYPES,
    DrawCard,
    KarakumObservation,
    KarakumState,
    Pay,
    Step,
    TakeCard,
)
from karavan_core.games.shell import GameShell
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.text import plural
from karavan_core.values import copied, replace


class Karakum(GameShell[KarakumState, KarakumObservation]):
    """Karakum for 2 to 4 players."""

    name = "karakum"
    title = "Karakum"
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    action_types = ACTION_TYPES

    # -- setup --------------------------------------------------------------------
    def deal(self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]) -> KarakumState:
        """Deal a new game: camels removed by player count, market, hands and row."""
        n = len(players)
        rng, camels = rng.shuffled(ALL_CAMELS)
        removed_count = C.CAMELS_REMOVED[n]
        removed, camels = camels[:removed_count], camels[removed_count:]
        market, camel_deck = camels[: C.MARKET_SIZE], camels[C.MARKET_SIZE :]
        rng, deck = rng.shuffled(cards_of(C.RESOURCE_COUNTS))
        hands = tuple(
            hand_from(deck[i * C.STARTING_HAND : (i + 1) * C.STARTING_HAND]) for i in range(n)
        )
        deck = deck[n * C.STARTING_HAND :]
        row, deck = deck[: C.ROW_SIZE], deck[C.ROW_SIZE :]
        rng, first = self.first_player(options, n, rng)
        refills = options.get(C.ROW_RULE_OPTION, True)
        if not isinstance(refills, bool):
            raise ValueError(f"The option {C.ROW_RULE_OPTION} is true or false.")
        return KarakumState(
            players=players,
            rng=rng,
            first_player=first,
            current=first,
            step=Step.CHOOSE,
            camel_deck=camel_deck,
            removed=removed,
            market=market,
            resource_deck=deck,
            row=row,
            discard=NO_CARDS,
            hands=hands,
            caravans=((),) * n,
            lefts=((),) * n,
            payment_refills_row=refills,
        )

    # -- decisions ------------------------------------------------------------------
    def legal_actions(self, state: KarakumState) -> list[Action]:
        """Every decision open to the player to move, as the predicates of each kind allow."""
        step = state.step
        if step is Step.PAY:  # every payment, generated rather than filtered (see _payments)
            return list(pay_actions(*payment_terms(state)))
        if step is Step.JOIN:
            return [join_action(i) for i, why in enumerate(joinings(state)) if why is None]
        actions: list[Action] = [
            TAKE_CARD[i] for i, why in enumerate(takings(state)) if why is None
        ]
        if drawing(state) is None:
            actions.append(DRAW)
        if step is Step.CHOOSE:
            actions += [BUY[i] for i, why in enumerate(buyings(state)) if why is None]
            return actions or [PASS]  # passing is legal exactly when nothing else is
        return actions

    def why_illegal(self, state: KarakumState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``."""
        if state.step is Step.OVER:
            return "The game is over."
        why = refusal(state, action)
        return None if why is None else words.refusal(state, action, why)

    def _apply(self, state: KarakumState, action: Action) -> KarakumState:
        return apply_decision(state, action)

    # -- scoring ------------------------------------------------------------------------
    def score(self, state: KarakumState, seat: int) -> int:
        """Caravan points plus half the left-side points, rounded down."""
        caravan = sum(c.value for c in state.caravans[seat])
        return caravan + sum(c.value for c in state.lefts[seat]) // 2

    def result(self, state: KarakumState) -> Result:
        """Scores, winners (tie-break: the longest caravan) and each player's breakdown."""
        n = len(state.players)
        scores = tuple(self.score(state, seat) for seat in range(n))
        lengths = tuple(len(state.caravans[seat]) for seat in range(n))
        best = max(scores)
        tied = [seat for seat in range(n) if scores[seat] == best]
        longest = max(lengths[seat] for seat in tied)
        winners = tuple(seat for seat in tied if lengths[seat] == longest)
        breakdown = []
        for seat in range(n):
            caravan, left = state.caravans[seat], state.lefts[seat]
            left_points = sum(c.value for c in left)
            chain_points = plural(sum(c.value for c in caravan), "point")
            chain = f"{plural(len(caravan), 'camel')}, {chain_points}"
            on_left = f"{plural(left_points, 'point')}, half is {left_points // 2}"
            breakdown.append(
                (
                    ("Caravan", chain),
                    ("Left of the master", on_left),
                    ("Total", str(scores[seat])),
                    ("Tie-break: caravan length", str(lengths[seat])),
                )
            )
        names = [state.players[seat] for seat in winners]
        notes: list[str] = []
        if len(tied) > 1:
            tied_names = " and ".join(state.players[s] for s in tied)
            notes.append(
                f"{tied_names} tie on {plural(best, 'point')}; the longest caravan breaks the tie."
            )
        if len(winners) > 1:
            notes.append(f"{' and '.join(names)} share the victory.")
        else:
            notes.append(f"{names[0]} wins with {plural(best, 'point')}.")
        return Result(scores, winners, tuple(breakdown), tuple(notes))

    # -- information ----------------------------------------------------------------------
    def observe(self, state: KarakumState, player: int | None) -> KarakumObservation:
        """The public table plus ``player``'s own hand (no hand in the public view)."""
        return copied(
            KarakumObservation,
            state,
            player=player,
            camel_deck_size=len(state.camel_deck),
            resource_deck_size=len(state.resource_deck),
            hand=None if player is None else state.hands[player],
            hand_sizes=tuple(sum(hand) for hand in state.hands),
        )

    def reveals(self, observation: KarakumObservation, action: Action) -> bool:
        """Taking or drawing a card (the row refills from the deck), paying (a camel comes up)."""
        return isinstance(action, TakeCard | DrawCard | Pay)

    def reveals_to_all(self, observation: KarakumObservation, action: Action) -> bool:
        """Taking a card (the row refills in sight) or paying (a camel comes up); a card
        drawn from the deck goes to its decider's hand unseen by the others."""
        return isinstance(action, TakeCard | Pay)

    def sample_state(self, observation: KarakumObservation, rng: random.Random) -> KarakumState:
        """Deal the unseen camels and resources at random, consistent with ``observation``."""
        return self.sampler(observation)(rng)

    def sampler(self, observation: KarakumObservation) -> Callable[[random.Random], KarakumState]:
        """``sample_state`` for many deals: the unseen cards are found once, then shuffled."""
        obs = observation
        assert obs.hand is not None, "a state is sampled from a player's observation"
        seen = Counter(c for c in obs.market if c is not None)
        for line in obs.caravans + obs.lefts:
            seen.update(line)
        unseen = [camel for camel in ALL_CAMELS if not seen[camel]]
        deck_size = obs.camel_deck_size
        known = plus(plus(obs.hand, obs.discard), hand_from([c for c in obs.row if c]))
        hidden = cards_of(minus(C.RESOURCE_COUNTS, known))
        # Every deal is this state with the hidden parts (and the generator) replaced.
        table = copied(
            KarakumState, obs, rng=Rng(0), camel_deck=(), removed=(), resource_deck=(), hands=()
        )

        def deal(rng: random.Random) -> KarakumState:
            camels = unseen.copy()
            shuffle(rng, camels)
            cards = hidden.copy()
            shuffle(rng, cards)
            hands = []
            start = 0
            for seat, size in enumerate(obs.hand_sizes):
                if seat == obs.player:
                    hands.append(obs.hand)
                else:
                    hands.append(hand_from(cards[start : start + size]))
                    start += size
            return replace(
                table,
                rng=fresh_rng(rng),
                camel_deck=tuple(camels[:deck_size]),
                removed=tuple(camels[deck_size:]),
                resource_deck=tuple(cards[start:]),
                hands=tuple(hands),
            )

        return deal

    def unfilled(self, state: KarakumState) -> str | None:
        """An empty face-up place while the deck or discards hold a card; an empty market
        place while the camel deck holds one."""
        if None in state.row and (state.resource_deck or any(state.discard)):
            return "A face-up resource place is empty while the deck or discards hold cards."
        if None in state.market and state.camel_deck:
            return "A market place is empty while the camel deck holds camels."
        return None

    def older_rules_matter(self, state: KarakumState) -> bool:
        """An unfilled place: before a payment refilled the face-up row, it stayed empty."""
        return self.unfilled(state) is not None

    def inventory(self, state: KarakumState) -> Counter[str]:
        """Every camel and resource card in the state."""
        counts: Counter[str] = Counter()
        camels = list(state.camel_deck) + list(state.removed)
        camels += [c for c in state.market if c is not None]
        for line in state.caravans + state.lefts:
            camels += line
        counts.update(f"camel {c}" for c in camels)
        cards = plus(state.discard, hand_from(state.resource_deck))
        cards = plus(cards, hand_from([c for c in state.row if c is not None]))
        for hand in state.hands:
            cards = plus(cards, hand)
        for res, n in zip(RESOURCES, cards, strict=True):
            counts[f"resource {res.value}"] += n
        return counts


GAME = Karakum(words)
