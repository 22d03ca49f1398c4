"""Karakum invariants over random legal play, found by hypothesis."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karavan_core import get_game
from karavan_core.games.karakum.rules import fits, payments, price, units
from karavan_core.games.karakum.state import Buy, Step

GAME = get_game("karakum")


def play(seed: int, players: int, choices: list[int]):
    """Follow ``choices`` (indices into the legal decisions) from a seeded deal; yield states."""
    state = GAME.new_game([f"P{i}" for i in range(players)], seed)
    yield state
    for choice in choices:
        if GAME.is_over(state):
            return
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[choice % len(legal)])
        yield state


games = given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=300),
)


@settings(max_examples=60, deadline=None)
@games
def test_caravans_always_chain_and_left_camels_never_fit_between_turns(seed, players, choices):
    for state in play(seed, players, choices):
        for caravan, left in zip(state.caravans, state.lefts, strict=True):
            assert all(fits(caravan[:i], caravan[i]) for i in range(len(caravan)))
            if state.step is Step.CHOOSE:
                assert not any(fits(caravan, camel) for camel in left)


@settings(max_examples=60, deadline=None)
@games
def test_buying_is_offered_exactly_when_some_payment_exists(seed, players, choices):
    for state in play(seed, players, choices):
        if state.step is not Step.CHOOSE:
            continue
        hand = state.hands[state.current]
        legal = GAME.legal_actions(state)
        for slot, camel in enumerate(state.market):
            if camel is None:
                continue
            cost = price(state.market, slot)
            offered = Buy(slot) in legal
            assert offered == (units(hand, camel.color) >= cost)
            assert offered == bool(payments(hand, camel.color, cost))


@settings(max_examples=60, deadline=None)
@games
def test_market_keeps_five_camels_until_the_last_turn(seed, players, choices):
    for state in play(seed, players, choices):
        if not GAME.is_over(state):
            assert all(camel is not None for camel in state.market)
        assert sum(state.discard) >= 0 and all(n >= 0 for hand in state.hands for n in hand)


@settings(max_examples=40, deadline=None)
@games
def test_score_is_caravan_plus_half_left(seed, players, choices):
    for state in play(seed, players, choices):
        scores = GAME.result(state).scores
        for seat in range(players):
            caravan = sum(c.value for c in state.caravans[seat])
            assert scores[seat] == caravan + sum(c.value for c in state.lefts[seat]) // 2
