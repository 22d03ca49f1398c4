"""Jaipur for the engine contract: the match's deal, the legal decisions, seals and views.

The rules themselves are in :mod:`.rules` and their words in :mod:`.words`;
this class puts them behind :class:`~karavan_core.engine.Game`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from operator import add
from typing import Any

from karavan_core.engine import Action, Result
from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur import words
from karavan_core.games.jaipur.components import CAMEL, CARDS, GOODS, Card
from karavan_core.games.jaipur.rules import (
    N_GOODS,
    apply_decision,
    bonus_pile,
    cards_of,
    counts_of,
    deal_round,
    legal_decisions,
    refusal,
)
from karavan_core.games.jaipur.scoring import round_scores
from karavan_core.games.jaipur.state import (
    ACTION_TYPES,
    JaipurObservation,
    JaipurState,
    RoundScore,
    Sell,
    TakeCamels,
    TakeGood,
)
from karavan_core.games.shell import GameShell
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.values import copied, replace


class Jaipur(GameShell[JaipurState, JaipurObservation]):
    """Jaipur for two players: first to two seals wins the match."""

    name = "jaipur"
    title = "Jaipur"
    min_players = C.PLAYERS
    max_players = C.PLAYERS
    action_types = ACTION_TYPES
    score_label = "Seals"
    chart_label = "rupees"

    # -- setup --------------------------------------------------------------------
    def deal(self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]) -> JaipurState:
        """Deal the first round of a new match."""
        rng, first = self.first_player(options, C.PLAYERS, rng)
        return deal_round(players, rng, (0,) * C.PLAYERS, (), first)

    # -- decisions ------------------------------------------------------------------
    def legal_actions(self, state: JaipurState) -> list[Action]:
        """Take one good, take the camels, every exchange, every sale (in that order)."""
        return legal_decisions(state)

    def why_illegal(self, state: JaipurState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``."""
        if state.over:
            return "The match is over."
        why = refusal(state, action)
        return None if why is None else words.refusal(state, action, why)

    def _apply(self, state: JaipurState, action: Action) -> JaipurState:
        return apply_decision(state, action, words.round_story)

    # -- scoring ------------------------------------------------------------------------
    def round_scores(self, state: JaipurState) -> tuple[RoundScore, ...]:
        """Each player's takings if the round in progress ended now (camel token included)."""
        return round_scores(state)

    def chart_scores(self, state: JaipurState) -> tuple[int, ...]:
        """The rupees of the round in play: the goods and bonus tokens won in it so far, or,
        where a round has just ended, its total (the camel token too)."""
        if self.ends_round(state):
            return tuple(score.total for score in state.rounds[-1].scores)
        return tuple(
            sum(map(sum, goods)) + sum(map(sum, bonus))
            for goods, bonus in zip(state.goods_won, state.bonus_won, strict=True)
        )

    def ends_round(self, state: JaipurState) -> bool:
        """Whether ``state`` follows the end of a round: the next one dealt, nothing played
        in it yet, or the match over."""
        return bool(state.rounds) and (state.over or state.turn == 0)

    def result(self, state: JaipurState) -> Result:
        """Seals as scores; the breakdown per round; notes on every seal.

        Mid-match it shows the round in progress too, without the values of
        anyone's bonus tokens (those stay hidden until the round ends).
        """
        seals = state.seals
        best = max(seals)
        winners = tuple(seat for seat, n in enumerate(seals) if n == best)
        breakdown = tuple(words.breakdown(state, seat) for seat in range(len(state.players)))
        return Result(seals, winners, breakdown, words.match_notes(state, winners))

    # -- information ----------------------------------------------------------------------
    def observe(self, state: JaipurState, player: int | None) -> JaipurObservation:
        """The public table plus ``player``'s own hand and bonus token values.

        The public view (``player=None``) has neither.
        """
        return copied(
            JaipurObservation,
            state,
            player=player,
            deck_size=len(state.deck),
            hand=None if player is None else state.hands[player],
            hand_sizes=tuple(sum(hand) for hand in state.hands),
            bonus_pile_sizes=tuple(len(pile) for pile in state.bonus_piles),
            bonus_won=None if player is None else state.bonus_won[player],
            bonus_counts=tuple(tuple(len(v) for v in held) for held in state.bonus_won),
        )

    def reveals(self, observation: JaipurObservation, action: Action) -> bool:
        """Taking from the market (it refills from the deck), a sale that wins a bonus token,
        and whatever ends the round (the next is dealt; the bonus tokens are shown).

        An exchange refills nothing and never ends a round.
        """
        if isinstance(action, TakeGood | TakeCamels):
            return True
        if not isinstance(action, Sell):
            return False
        pile = bonus_pile(action.count)
        if pile is not None and observation.bonus_pile_sizes[pile]:
            return True
        return self._ends_round(observation, action)

    def reveals_to_all(self, observation: JaipurObservation, action: Action) -> bool:
        """Taking from the market (it refills in sight) and whatever ends the round; a bonus
        token's value is shown to its winner alone."""
        if isinstance(action, TakeGood | TakeCamels):
            return True
        return isinstance(action, Sell) and self._ends_round(observation, action)

    def _ends_round(self, observation: JaipurObservation, action: Sell) -> bool:
        """Whether the sale ends the round (the next is dealt, the bonus tokens are shown)."""
        # It shows on the goods piles: any deal tells.
        dealt = self.sample_state(observation, random.Random(0))
        if action not in self.legal_actions(dealt):
            return False  # refused anyway, for reasons the player can see
        after = self._apply(dealt, action)
        return after.over or len(after.rounds) > len(dealt.rounds)

    def sample_state(self, observation: JaipurObservation, rng: random.Random) -> JaipurState:
        """Deal the unseen cards and bonus tokens at random, consistent with ``observation``."""
        return self.sampler(observation)(rng)

    def sampler(self, observation: JaipurObservation) -> Callable[[random.Random], JaipurState]:
        """``sample_state`` for many deals: the unseen cards are found once, then shuffled."""
        obs = observation
        assert obs.player is not None and obs.hand is not None and obs.bonus_won is not None
        other = 1 - obs.player
        # The goods the rival was seen to take are surely in their hand; the rest is a guess.
        theirs_known = obs.known[other]
        seen = zip(obs.market[:CAMEL], obs.hand, obs.discard, theirs_known, strict=True)
        unseen = tuple(n - sum(s) for n, s in zip(C.CARD_COUNTS[:CAMEL], seen, strict=True))
        unseen_goods = cards_of(unseen)
        size = obs.hand_sizes[other] - sum(theirs_known)
        # Only camels no one holds are in the deck.
        camels = [Card.CAMEL] * (C.CARD_COUNTS[CAMEL] - obs.market[CAMEL] - sum(obs.herds))
        unseen_tokens = []
        for k, values in enumerate(C.BONUS_TOKENS):
            left = list(values)
            for value in obs.bonus_won[k]:
                left.remove(value)
            unseen_tokens.append(left)
        theirs_counts = obs.bonus_counts[other]
        # Every deal is this state with the hidden parts (and the generator) replaced.
        table = copied(
            JaipurState, obs, rng=Rng(0), deck=(), hands=(), bonus_piles=(), bonus_won=()
        )

        def deal(rng: random.Random) -> JaipurState:
            goods = unseen_goods.copy()
            shuffle(rng, goods)
            guessed = counts_of(goods[:size], N_GOODS)
            hands = [obs.hand, obs.hand]
            hands[other] = tuple(map(add, theirs_known, guessed))
            deck = goods[size:] + camels
            shuffle(rng, deck)
            bonus_piles, theirs = [], []
            for tokens, count in zip(unseen_tokens, theirs_counts, strict=True):
                tokens = tokens.copy()
                shuffle(rng, tokens)
                theirs.append(tuple(tokens[:count]))
                bonus_piles.append(tuple(tokens[count:]))
            bonus_won = [obs.bonus_won, obs.bonus_won]
            bonus_won[other] = tuple(theirs)
            return replace(
                table,
                rng=fresh_rng(rng),
                deck=tuple(deck),
                hands=tuple(hands),
                bonus_piles=tuple(bonus_piles),
                bonus_won=tuple(bonus_won),
            )

        return deal

    def unfilled(self, state: JaipurState) -> str | None:
        """A market short of its five cards in a round still being played."""
        if not state.over and sum(state.market) < C.MARKET_SIZE:
            return f"The market holds {sum(state.market)} cards, not {C.MARKET_SIZE}."
        return None

    def inventory(self, state: JaipurState) -> Counter[str]:
        """Every card and token of the round in progress (or the last round, once over)."""
        counts: Counter[str] = Counter()
        cards = list(state.market)
        for goods in (*state.hands, state.discard):
            for i, n in enumerate(goods):
                cards[i] += n
        cards[CAMEL] += sum(state.herds)
        for card in state.deck:
            cards[card.index] += 1
        for card, n in zip(CARDS, cards, strict=True):
            counts[f"card {card.value}"] = n
        for i, good in enumerate(GOODS):
            tokens = state.goods_piles[i] + sum((won[i] for won in state.goods_won), ())
            counts.update(f"goods token {good.value} {v}" for v in tokens)
        for k, size in enumerate(C.BONUS_SIZES):
            tokens = state.bonus_piles[k] + sum((won[k] for won in state.bonus_won), ())
            counts.update(f"bonus token {size}-card {v}" for v in tokens)
        counts["camel token"] = 1
        return counts


GAME = Jaipur(words)
