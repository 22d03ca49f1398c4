"""Jaipur review: rules and rulings that test_jaipur.py did not pin down yet.

Each test names the rule it checks (trading-game sheet or the trading-game
section of RULINGS.md).  States are built from a real deal with attrs.evolve;
Ann is seat 0 and moves first, Bob is seat 1.
"""

from __future__ import annotations

import random

from attrs import evolve

from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur.components import CAMEL, Card
from karavan_core.games.jaipur.state import Exchange, Sell, TakeCamels, TakeGood
from tests.core.rules_helpers import log_line
from tests.core.rules_helpers import refuse as refuse_in
from tests.core.test_jaipur import (
    CLOTH,
    DIAMONDS,
    GAME,
    GOLD,
    LEATHER,
    NO_BONUS,
    SPICE,
    goods,
    hands,
    market,
)


def table(**changes):
    """A fresh deal with Ann to move, then ``changes`` applied."""
    state = GAME.new_game(["Ann", "Bob"], seed=21, options={"first_player": 0})
    return evolve(state, **changes)


def refuse(state, action) -> str:
    """Illegal: refused with a sentence, nothing changed, and not listed either."""
    assert action not in GAME.legal_actions(state)
    return refuse_in(GAME, state, action)


def ex(take: dict, give: dict | None = None, camels: int = 0) -> Exchange:
    return Exchange(goods(**take), goods(**(give or {})), camels)


# -- components, as RULINGS.md lists them -----------------------------------------------


def test_deck_of_55_counts_every_kind_as_the_rulings_list_it():
    """Diamonds 6, gold 6, silver 6, cloth 8, spice 8, leather 10, camels 11."""
    expected = {
        "diamonds": 6,
        "gold": 6,
        "silver": 6,
        "cloth": 8,
        "spice": 8,
        "leather": 10,
        "camel": 11,
    }
    inventory = GAME.inventory(table())
    assert {card.value: inventory[f"card {card.value}"] for card in Card} == expected
    assert sum(expected.values()) == 55


def test_goods_token_piles_hold_the_rulings_values_top_first():
    state = table()
    assert state.goods_piles == (
        (7, 7, 5, 5, 5),
        (6, 6, 5, 5, 5),
        (5, 5, 5, 5, 5),
        (5, 3, 3, 2, 2, 1, 1),
        (5, 3, 3, 2, 2, 1, 1),
        (4, 3, 2, 1, 1, 1, 1, 1, 1),
    )


def test_bonus_piles_hold_the_rulings_values():
    state = table()
    assert [sorted(pile, reverse=True) for pile in state.bonus_piles] == [
        [3, 3, 2, 2, 2, 1, 1],
        [6, 6, 5, 5, 4, 4],
        [10, 10, 9, 8, 8],
    ]


def test_the_camel_token_is_worth_five_and_two_seals_win():
    state = table(deck=(), market=market(camel=4, cloth=1), herds=(2, 1), seals=(1, 0))
    after = GAME.apply(state, TakeGood(CLOTH))
    ann, bob = after.rounds[0].scores
    assert (ann.camel_token, ann.total, bob.total) == (5, 5, 0)
    assert after.over and after.seals == (2, 0)  # the second seal ends the match


def test_each_round_is_set_up_afresh_with_three_camels_and_two_deck_cards():
    state = table(deck=(), market=market(camel=4, cloth=1), herds=(2, 1))
    after = GAME.apply(state, TakeGood(CLOTH))
    assert len(after.rounds) == 1 and not after.over
    # the new round: 52-card round deck minus the 2 market cards and 2 x 5 dealt
    assert after.market[CAMEL] >= C.MARKET_CAMELS and sum(after.market) == C.MARKET_SIZE
    assert len(after.deck) == 55 - C.MARKET_CAMELS - 2 - 10
    assert all(
        sum(h) + herd == C.HAND_SIZE for h, herd in zip(after.hands, after.herds, strict=True)
    )
    assert after.goods_piles == C.GOODS_TOKENS and after.discard == goods()
    assert after.goods_won == ((((),) * 6),) * 2 and after.bonus_won == (NO_BONUS, NO_BONUS)
    assert GAME.inventory(after)["card camel"] == 11


# -- exchange ------------------------------------------------------------------------------


def test_exchange_may_give_a_good_that_is_in_the_market_but_not_taken():
    """Only types being taken are barred; a type already lying in the market is fine."""
    state = table(
        market=market(camel=0, spice=2, cloth=3),
        hands=hands(goods(cloth=2, leather=1)),
        herds=(0, 0),
    )
    action = ex({"spice": 2}, {"cloth": 2})
    assert action in GAME.legal_actions(state)
    after = GAME.apply(state, action)
    assert after.market == market(cloth=5)
    assert after.hands[0] == goods(spice=2, leather=1)


def test_exchange_paid_with_camels_only_comes_out_of_the_herd():
    state = table(
        market=market(camel=1, spice=2, silver=2), hands=hands(goods(cloth=1)), herds=(3, 0)
    )
    assert "only 3 camels" in refuse(state, ex({"spice": 2, "silver": 2}, camels=4))
    action = ex({"spice": 2, "silver": 1}, camels=3)
    after = GAME.apply(state, action)
    assert after.herds == (0, 0) and after.market == market(camel=4, silver=1)
    assert after.hands[0] == goods(cloth=1, spice=2, silver=1)


def test_exchange_never_refills_and_never_ends_the_round_on_an_empty_deck():
    state = table(deck=(), market=market(camel=1, spice=2, silver=2), hands=hands(goods(cloth=2)))
    after = GAME.apply(state, ex({"spice": 2}, {"cloth": 2}))
    assert after.rounds == () and after.to_move == 1 and after.deck == ()


def test_exchange_with_seven_in_hand_can_only_give_goods():
    state = table(
        market=market(camel=1, spice=2, silver=2), hands=hands(goods(cloth=7)), herds=(4, 0)
    )
    exchanges = [a for a in GAME.legal_actions(state) if isinstance(a, Exchange)]
    assert exchanges and all(a.camels == 0 for a in exchanges)
    assert "8 cards" in refuse(state, ex({"spice": 2}, {"cloth": 1}, camels=1))


# -- sell ----------------------------------------------------------------------------------


def test_a_sale_of_six_gets_no_bonus_once_the_five_card_pile_is_empty():
    """5 or more cards take from the 5-card pile only while it lasts; never from a smaller one."""
    state = table(hands=hands(goods(leather=6)), bonus_piles=((3, 2), (6, 5), ()))
    after = GAME.apply(state, Sell(LEATHER, 6))
    assert after.bonus_won[0] == NO_BONUS and after.bonus_piles == state.bonus_piles
    assert len(after.goods_won[0][LEATHER.index]) == 6
    assert "no 5-card bonus token is left" in log_line(GAME, state, Sell(LEATHER, 6))


def test_a_precious_sale_that_outruns_its_pile_gets_what_is_left_and_the_bonus():
    piles = list(C.GOODS_TOKENS)
    piles[GOLD.index] = (5,)
    state = table(
        hands=hands(goods(gold=4)), goods_piles=tuple(piles), bonus_piles=((1,), (4,), (8,))
    )
    after = GAME.apply(state, Sell(GOLD, 4))
    assert after.goods_won[0][GOLD.index] == (5,)
    assert after.bonus_won[0] == ((), (4,), ())
    assert after.hands[0] == goods() and after.discard == goods(gold=4)


def test_a_single_precious_card_cannot_be_sold_even_into_an_empty_pile():
    piles = list(C.GOODS_TOKENS)
    piles[DIAMONDS.index] = ()
    state = table(hands=hands(goods(diamonds=1, cloth=1)), goods_piles=tuple(piles))
    assert "2 or more" in refuse(state, Sell(DIAMONDS, 1))


def test_the_third_empty_pile_ends_the_round_at_once_with_the_sale_counted():
    """The seller's tokens and bonus from the ending sale count in the round's scores."""
    piles = list(C.GOODS_TOKENS)
    piles[DIAMONDS.index] = piles[GOLD.index] = ()
    piles[SPICE.index] = (2, 1, 1)
    state = table(
        hands=hands(goods(spice=3)),
        goods_piles=tuple(piles),
        bonus_piles=((2,), (5,), (9,)),
        herds=(0, 0),
    )
    after = GAME.apply(state, Sell(SPICE, 3))
    assert len(after.rounds) == 1
    ann = after.rounds[0].scores[0]
    assert ann.goods_tokens == (2, 1, 1) and ann.bonus_tokens == (2,) and ann.total == 6
    assert after.rounds[0].winner == 0 and after.starter == 1  # Bob lost, Bob starts


# -- no passing -----------------------------------------------------------------------------


def test_a_player_always_has_a_move_and_there_is_no_pass():
    rng = random.Random(4)
    for seed in range(6):
        state = GAME.new_game(["Ann", "Bob"], seed)
        while not state.over:
            legal = GAME.legal_actions(state)
            assert legal
            assert all(isinstance(a, TakeGood | TakeCamels | Exchange | Sell) for a in legal)
            state = GAME.apply(state, legal[rng.randrange(len(legal))])


# -- hidden information ---------------------------------------------------------------------


def test_bonus_values_are_revealed_once_the_round_ends():
    state = table(
        deck=(),
        market=market(camel=4, cloth=1),
        herds=(0, 0),
        bonus_won=(((3,), (), ()), ((), (6,), ())),
    )
    seen_before = GAME.observe(state, 0)
    assert seen_before.bonus_counts == ((1, 0, 0), (0, 1, 0))
    assert 6 not in [v for pile in seen_before.bonus_won for v in pile]
    after = GAME.apply(state, TakeGood(CLOTH))
    seen = GAME.observe(after, 0)
    assert seen.rounds[0].scores[1].bonus_tokens == (6,)
    assert "Bob takes the seal" in seen.rounds[0].reason
