"""Jaipur's rules, one test per rule: the how-to-play sheet and the trading-game rulings.

Scenario states are built from a real deal with only the relevant fields
changed (attrs.evolve).  Ann is seat 0 and moves first; Bob is seat 1.
"""

from __future__ import annotations

import random
from itertools import product

import pytest
from attrs import evolve

from karavan_core import get_game
from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur.components import CAMEL, GOODS, Card
from karavan_core.games.jaipur.state import Exchange, Sell, TakeCamels, TakeGood
from tests.core.rules_helpers import log_line, preview
from tests.core.rules_helpers import refuse as refuse_in

GAME = get_game("jaipur")
DIAMONDS, GOLD, SILVER, CLOTH, SPICE, LEATHER = GOODS
NO_BONUS = ((), (), ())


def goods(**counts: int) -> tuple[int, ...]:
    """Six goods counts from keywords: ``goods(spice=2, leather=1)``."""
    return tuple(counts.get(good.value, 0) for good in GOODS)


def market(camel: int = 0, **counts: int) -> tuple[int, ...]:
    """Seven market counts: the goods, then camels."""
    assert camel + sum(counts.values()) == C.MARKET_SIZE
    return goods(**counts) + (camel,)


def table(**changes):
    """A fresh deal with Ann to move, then ``changes`` applied."""
    state = GAME.new_game(["Ann", "Bob"], seed=7, options={"first_player": 0})
    return evolve(state, **changes)


def hands(ann=None, bob=None):
    return (ann or goods(), bob or goods())


def won(ann: tuple[int, ...] = (), bob: tuple[int, ...] = (), good: Card = LEATHER):
    """``goods_won`` with these token values under one good for each player."""
    i = good.index
    return tuple(
        tuple(values if g == i else () for g in range(len(GOODS))) for values in (ann, bob)
    )


def refuse(state, action) -> str:
    """Apply an illegal action: refused with a sentence, nothing changed, and not listed."""
    assert action not in GAME.legal_actions(state)
    return refuse_in(GAME, state, action)


def ex(take: dict[str, int], give: dict[str, int] | None = None, camels: int = 0) -> Exchange:
    return Exchange(goods(**take), goods(**(give or {})), camels)


def end_round(state):
    """End the round in progress at once: Ann takes a good and the empty deck cannot refill."""
    state = evolve(state, deck=(), market=market(camel=4, cloth=1))
    after = GAME.apply(state, TakeGood(CLOTH))
    assert len(after.rounds) == len(state.rounds) + 1
    return after


# -- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
def test_a_round_starts_with_three_camels_and_five_cards_each(seed):
    state = GAME.new_game(["Ann", "Bob"], seed)
    assert state.market[CAMEL] >= C.MARKET_CAMELS and sum(state.market) == C.MARKET_SIZE
    for seat in range(2):
        # dealt camels went to the herd: hand + herd is the five cards dealt
        assert sum(state.hands[seat]) + state.herds[seat] == C.HAND_SIZE
    assert len(state.deck) == 55 - C.MARKET_SIZE - 2 * C.HAND_SIZE
    inventory = GAME.inventory(state)
    assert sum(n for key, n in inventory.items() if key.startswith("card ")) == 55
    assert inventory["card camel"] == 11
    for pile, values in zip(state.bonus_piles, C.BONUS_TOKENS, strict=True):
        assert sorted(pile) == sorted(values)
    assert state.goods_piles == C.GOODS_TOKENS
    assert state.seals == (0, 0) and state.rounds == () and state.to_move == state.starter


def test_bonus_piles_and_deck_are_shuffled_by_the_seed():
    a, b = (GAME.new_game(["Ann", "Bob"], seed) for seed in (1, 2))
    assert a.deck != b.deck and a.bonus_piles != b.bonus_piles
    assert a == GAME.new_game(["Ann", "Bob"], 1)


def test_first_player_option_and_bad_seat():
    assert GAME.new_game(["Ann", "Bob"], 3, {"first_player": 1}).to_move == 1
    with pytest.raises(ValueError):
        GAME.new_game(["Ann", "Bob"], 3, {"first_player": 2})
    with pytest.raises(ValueError):
        GAME.new_game(["Ann", "Bob", "Cid"], 3)


# -- take one good -------------------------------------------------------------------------


def test_take_one_good_refills_from_the_deck_top():
    state = table(market=market(camel=3, spice=1, gold=1), hands=hands(goods(cloth=2)))
    top = state.deck[0]
    after = GAME.apply(state, TakeGood(SPICE))
    assert after.hands[0] == goods(cloth=2, spice=1)
    expected = list(goods(gold=1) + (3,))
    expected[top.index] += 1
    assert after.market == tuple(expected)
    assert after.deck == state.deck[1:]
    assert after.to_move == 1
    assert log_line(GAME, state, TakeGood(SPICE)) == "Ann takes 1 spice from the market."


def test_take_one_good_only_below_seven_cards():
    state = table(market=market(camel=3, spice=2), hands=hands(goods(leather=7)))
    assert not any(isinstance(a, TakeGood) for a in GAME.legal_actions(state))
    assert "7 cards" in refuse(state, TakeGood(SPICE))
    six = evolve(state, hands=hands(goods(leather=6)))
    assert TakeGood(SPICE) in GAME.legal_actions(six)
    assert GAME.apply(six, TakeGood(SPICE)).hands[0] == goods(leather=6, spice=1)


def test_take_one_good_needs_that_good_and_never_a_camel():
    state = table(market=market(camel=3, spice=2))
    assert "no gold" in refuse(state, TakeGood(GOLD))
    assert "all the camels" in refuse(state, TakeGood(Card.CAMEL))


# -- take the camels -----------------------------------------------------------------------


def test_take_camels_takes_them_all_and_refills():
    state = table(market=market(camel=3, spice=2), herds=(1, 0))
    after = GAME.apply(state, TakeCamels())
    assert after.herds == (4, 0)
    assert after.market[CAMEL] == sum(card is Card.CAMEL for card in state.deck[:3])
    assert sum(after.market) == C.MARKET_SIZE and after.deck == state.deck[3:]
    assert log_line(GAME, state, TakeCamels()) == "Ann takes all 3 camels from the market."


def test_take_camels_needs_a_camel_but_ignores_the_hand_limit():
    state = table(market=market(spice=5))
    assert "no camels" in refuse(state, TakeCamels())
    full = table(market=market(camel=2, spice=3), hands=hands(goods(leather=7)))
    assert TakeCamels() in GAME.legal_actions(full)  # camels never count as hand cards


# -- exchange ------------------------------------------------------------------------------


def exchange_table():
    return table(
        market=market(camel=1, spice=2, silver=1, leather=1),
        hands=hands(goods(leather=1, cloth=2)),
        herds=(3, 0),
    )


def test_exchange_moves_cards_both_ways_without_refill():
    state = exchange_table()
    action = ex({"spice": 2, "silver": 1}, {"leather": 1}, camels=2)
    after = GAME.apply(state, action)
    assert after.hands[0] == goods(cloth=2, spice=2, silver=1)
    assert after.herds == (1, 0)
    assert after.market == market(camel=3, leather=2)
    assert after.deck == state.deck  # an exchange never refills
    assert log_line(GAME, state, action) == (
        "Ann exchanges 2 camels + 1 leather for 1 silver + 2 spices."
    )


def test_exchange_takes_at_least_two_goods():
    state = exchange_table()
    assert "at least 2" in refuse(state, ex({"spice": 1}, {"cloth": 1}))
    assert all(sum(a.take) >= 2 for a in GAME.legal_actions(state) if isinstance(a, Exchange))


def test_exchange_never_takes_camels():
    state = exchange_table()
    for action in GAME.legal_actions(state):
        if isinstance(action, Exchange):
            after = GAME.apply(state, action)
            # the market's camels only grow by the camels given: none is ever taken
            assert after.market[CAMEL] == state.market[CAMEL] + action.camels
            assert sum(action.take) <= sum(state.market[:CAMEL])


def test_exchange_gives_back_exactly_as_many_cards():
    state = exchange_table()
    assert "exactly as many" in refuse(state, ex({"spice": 2}, {"cloth": 1}))
    assert "exactly as many" in refuse(state, ex({"spice": 2}, {"cloth": 2}, camels=1))


def test_exchange_never_gives_back_a_good_it_takes():
    state = evolve(exchange_table(), hands=hands(goods(leather=2, cloth=1)))
    message = refuse(state, ex({"spice": 1, "leather": 1}, {"leather": 2}))
    assert "cannot give back leather while taking leather" in message
    for action in GAME.legal_actions(state):
        if isinstance(action, Exchange):
            assert not any(t and g for t, g in zip(action.take, action.give, strict=True))


def test_exchange_leaves_at_most_seven_cards_in_hand():
    state = evolve(exchange_table(), hands=hands(goods(cloth=6)))
    # giving two camels for two goods would leave eight cards in hand
    assert "8 cards" in refuse(state, ex({"spice": 2}, camels=2))
    assert ex({"spice": 2}, {"cloth": 1}, camels=1) in GAME.legal_actions(state)
    assert ex({"spice": 2}, {"cloth": 2}) in GAME.legal_actions(state)


def test_exchange_gives_only_what_is_held_and_takes_only_what_is_there():
    state = exchange_table()
    assert "only 2 cloth" in refuse(state, ex({"spice": 2, "silver": 1}, {"cloth": 3}))
    assert "only 3 camels" in refuse(state, ex({"spice": 2, "silver": 1, "leather": 1}, camels=4))
    assert "only 1 silver" in refuse(state, ex({"silver": 2}, {"cloth": 2}))


def brute_force_exchanges(state) -> set[Exchange]:
    """Every exchange by the rules, written independently of the engine's enumeration."""
    seat = state.current
    hand, herd, mkt = state.hands[seat], state.herds[seat], state.market
    found = set()
    for take in product(*(range(n + 1) for n in mkt[:CAMEL])):
        if sum(take) < 2:
            continue
        for give in product(*(range(n + 1) for n in hand)):
            if any(t and g for t, g in zip(take, give, strict=True)):
                continue
            camels = sum(take) - sum(give)
            if 0 <= camels <= herd and sum(hand) + camels <= C.HAND_LIMIT:
                found.add(Exchange(take, give, camels))
    return found


def test_every_legal_exchange_is_listed_once_over_random_play():
    rng = random.Random(11)
    state = GAME.new_game(["Ann", "Bob"], 11)
    for _ in range(150):
        if state.over:
            break
        legal = GAME.legal_actions(state)
        listed = [a for a in legal if isinstance(a, Exchange)]
        assert len(listed) == len(set(listed))
        assert set(listed) == brute_force_exchanges(state)
        for action in listed[:20]:
            assert GAME.why_illegal(state, action) is None
        state = GAME.apply(state, legal[rng.randrange(len(legal))])


# -- sell ----------------------------------------------------------------------------------


def test_selling_takes_tokens_from_the_top_and_a_bonus():
    state = table(hands=hands(goods(leather=3, cloth=1)))
    bonus = state.bonus_piles[0][0]
    after = GAME.apply(state, Sell(LEATHER, 3))
    assert after.goods_won[0][LEATHER.index] == (4, 3, 2)
    assert after.goods_piles[LEATHER.index] == (1,) * 6
    assert after.bonus_won[0] == ((bonus,), (), ())
    assert after.bonus_piles[0] == state.bonus_piles[0][1:]
    assert after.hands[0] == goods(cloth=1) and after.discard == goods(leather=3)
    text = log_line(GAME, state, Sell(LEATHER, 3))
    assert text == "Ann sells 3 leather for 3 tokens worth 4 + 3 + 2 = 9, and a 3-card bonus token."
    assert str(bonus) not in text.split("=")[-1]  # the bonus value stays hidden in the log


@pytest.mark.parametrize(("count", "pile"), [(4, 1), (5, 2), (6, 2)])
def test_bigger_sales_take_from_the_bigger_bonus_piles(count, pile):
    state = table(hands=hands(goods(leather=count)))
    after = GAME.apply(state, Sell(LEATHER, count))
    assert after.bonus_won[0][pile] == state.bonus_piles[pile][:1]
    assert sum(map(len, after.bonus_won[0])) == 1
    assert len(after.goods_won[0][LEATHER.index]) == count


def test_small_sales_earn_no_bonus():
    state = table(hands=hands(goods(leather=2)))
    after = GAME.apply(state, Sell(LEATHER, 2))
    assert after.bonus_won[0] == NO_BONUS and after.bonus_piles == state.bonus_piles


def test_precious_goods_sell_two_or_more_at_a_time():
    state = table(hands=hands(goods(diamonds=2, gold=1, silver=1, cloth=1)))
    for good in (DIAMONDS, GOLD, SILVER):
        assert "2 or more" in refuse(state, Sell(good, 1))
    assert Sell(CLOTH, 1) in GAME.legal_actions(state)
    assert Sell(DIAMONDS, 2) in GAME.legal_actions(state)
    assert GAME.apply(state, Sell(DIAMONDS, 2)).goods_won[0][DIAMONDS.index] == (7, 7)


def test_camels_and_missing_cards_cannot_be_sold():
    state = table(hands=hands(goods(cloth=1)))
    assert "never be sold" in refuse(state, Sell(Card.CAMEL, 1))
    assert "only 1 cloth" in refuse(state, Sell(CLOTH, 2))
    assert "at least one" in refuse(state, Sell(CLOTH, 0))


def test_a_sale_that_empties_a_pile_gets_what_is_left():
    piles = list(C.GOODS_TOKENS)
    piles[SILVER.index] = (5, 5)
    state = table(hands=hands(goods(silver=3)), goods_piles=tuple(piles))
    after = GAME.apply(state, Sell(SILVER, 3))
    assert after.goods_won[0][SILVER.index] == (5, 5)
    assert after.goods_piles[SILVER.index] == ()
    assert after.bonus_won[0][0] == state.bonus_piles[0][:1]  # the bonus still comes
    assert after.rounds == () and after.to_move == 1  # one empty pile does not end the round
    assert "(the last of the pile)" in log_line(GAME, state, Sell(SILVER, 3))


def test_selling_into_an_empty_pile_is_allowed_but_pays_nothing():
    piles = list(C.GOODS_TOKENS)
    piles[CLOTH.index] = ()
    state = table(hands=hands(goods(cloth=1)), goods_piles=tuple(piles))
    after = GAME.apply(state, Sell(CLOTH, 1))
    assert after.goods_won[0][CLOTH.index] == () and after.discard == goods(cloth=1)
    assert "run out" in log_line(GAME, state, Sell(CLOTH, 1))


def test_no_bonus_once_its_pile_is_empty():
    state = table(hands=hands(goods(leather=3)), bonus_piles=((), (6,), (10,)))
    after = GAME.apply(state, Sell(LEATHER, 3))
    assert after.bonus_won[0] == NO_BONUS
    assert "no 3-card bonus token is left" in log_line(GAME, state, Sell(LEATHER, 3))


# -- end of a round ------------------------------------------------------------------------


def test_round_ends_when_three_goods_piles_are_empty():
    piles = list(C.GOODS_TOKENS)
    piles[DIAMONDS.index] = piles[GOLD.index] = ()
    piles[CLOTH.index] = (1,)
    state = table(hands=hands(goods(cloth=1)), goods_piles=tuple(piles))
    two_empty = GAME.apply(evolve(state, hands=hands(goods(spice=1))), Sell(SPICE, 1))
    assert two_empty.rounds == ()
    after = GAME.apply(state, Sell(CLOTH, 1))
    assert len(after.rounds) == 1
    assert after.rounds[0].ended_by == "three goods have run out of tokens"
    assert after.rounds[0].scores[0].goods_tokens == (1,)
    # a fresh round is dealt at once
    assert after.goods_piles == C.GOODS_TOKENS and len(after.deck) == 40
    assert after.round_number == 2


def test_round_ends_when_the_market_cannot_be_refilled():
    state = table(deck=(Card.SPICE,), market=market(camel=2, cloth=3), herds=(0, 0))
    after = GAME.apply(state, TakeCamels())  # two places to fill, one card left
    assert len(after.rounds) == 1
    assert after.rounds[0].ended_by == "the market could not be refilled"
    assert after.rounds[0].scores[0].herd == 2


def test_round_goes_on_when_the_deck_just_suffices():
    state = table(deck=(Card.SPICE,), market=market(camel=3, cloth=2))
    after = GAME.apply(state, TakeGood(CLOTH))
    assert after.rounds == () and after.deck == () and sum(after.market) == C.MARKET_SIZE
    # the next take that needs a refill ends the round
    assert len(GAME.apply(after, TakeCamels()).rounds) == 1


def test_camel_token_goes_to_the_larger_herd():
    after = end_round(table(herds=(4, 2)))
    ann, bob = after.rounds[0].scores
    assert (ann.camel_token, bob.camel_token) == (C.CAMEL_TOKEN, 0)
    assert "Ann's herd of 4 beats Bob's 2" in after.rounds[0].reason


def test_camel_token_goes_to_nobody_on_equal_herds():
    after = end_round(table(herds=(3, 3), goods_won=won((4,), ())))
    ann, bob = after.rounds[0].scores
    assert ann.camel_token == bob.camel_token == 0
    assert "nobody takes the camel token" in after.rounds[0].reason
    assert after.rounds[0].winner == 0 and after.seals == (1, 0)


def test_the_higher_total_takes_the_seal():
    state = table(herds=(0, 1), goods_won=won((4, 3), (5,)), bonus_won=(NO_BONUS, ((3,), (), ())))
    after = end_round(state)
    ann, bob = after.rounds[0].scores
    assert (ann.total, bob.total) == (7, 5 + 3 + 5)
    assert after.rounds[0].winner == 1 and after.seals == (0, 1)
    assert "Bob takes the seal with 13 points to 7." in after.rounds[0].reason


def test_the_chart_follows_the_rupees_of_each_round_not_the_seals():
    """Mid-round: the goods and bonus tokens won so far (no camel token yet); at the
    round's end, its total; then the next round starts again from nothing."""
    state = table(herds=(0, 1), goods_won=won((4, 3), (5,)), bonus_won=(NO_BONUS, ((3,), (), ())))
    assert GAME.chart_scores(state) == (7, 8) and not GAME.ends_round(state)
    after = end_round(state)
    assert after.seals == (0, 1) and GAME.result(after).scores == (0, 1)
    assert GAME.ends_round(after) and GAME.chart_scores(after) == (7, 5 + 3 + 5)
    taking = next(a for a in GAME.legal_actions(after) if not isinstance(a, Sell))
    played = GAME.apply(after, taking)
    assert not GAME.ends_round(played) and GAME.chart_scores(played) == (0, 0)


def test_tie_on_points_goes_to_more_bonus_tokens():
    state = table(
        herds=(0, 0),
        goods_won=won((5, 5), (4,)),
        bonus_won=(NO_BONUS, ((3,), (), ())),
    )
    after = end_round(state)
    assert [s.total for s in after.rounds[0].scores] == [10, 7]
    state = evolve(state, goods_won=won((5, 5), (5, 2)), bonus_won=(NO_BONUS, ((3,), (), ())))
    after = end_round(state)
    assert [s.total for s in after.rounds[0].scores] == [10, 10]
    assert after.rounds[0].winner == 1
    assert "more bonus tokens (1 to 0)" in after.rounds[0].reason


def test_tie_on_points_and_bonus_goes_to_more_goods_tokens():
    state = table(
        herds=(0, 0),
        goods_won=won((1, 1, 1, 1), (2, 2)),
        bonus_won=(((2,), (), ()), ((2,), (), ())),
    )
    after = end_round(state)
    assert [s.total for s in after.rounds[0].scores] == [6, 6]
    assert after.rounds[0].winner == 0
    assert "more goods tokens (4 to 2)" in after.rounds[0].reason


def test_a_complete_tie_awards_no_seal_and_the_other_player_starts():
    state = table(herds=(2, 2), goods_won=won((3,), (3,)), seals=(1, 0))
    after = end_round(state)
    assert after.rounds[0].winner is None and after.seals == (1, 0)
    assert "nobody takes a seal" in after.rounds[0].reason
    assert not after.over and after.starter == 1 and after.to_move == 1


@pytest.mark.parametrize("loser", [0, 1])
def test_the_loser_of_a_round_starts_the_next(loser):
    state = table(herds=(0, 0), goods_won=won((5,), ()) if loser == 1 else won((), (5,)))
    after = end_round(state)
    assert after.rounds[0].winner == 1 - loser
    assert after.starter == loser and after.to_move == loser
    assert after.rounds[0].starter == 0


def test_two_seals_end_the_match():
    state = table(seals=(1, 1), herds=(0, 0), goods_won=won((5,), ()))
    after = end_round(state)
    assert after.over and after.to_move is None and after.seals == (2, 1)
    assert GAME.legal_actions(after) == []
    assert "The match is over" in refuse(after, TakeCamels())
    result = GAME.result(after)
    assert result.scores == (2, 1) and result.winners == (0,)
    assert result.notes[-1] == "Ann wins the match with 2 seals to 1."
    assert ("Round 1 total", "5, seal") in result.breakdown[0]
    text = log_line(GAME, evolve(state, deck=(), market=market(camel=4, cloth=1)), TakeGood(CLOTH))
    assert text.endswith("Ann wins the match with 2 seals to 1.")


def test_one_seal_does_not_end_the_match():
    after = end_round(table(herds=(0, 0), goods_won=won((5,), ())))
    assert not after.over and after.seals == (1, 0) and after.to_move == 1


def test_result_mid_round_hides_bonus_values():
    state = table(bonus_won=(((3,), (), ()), ((1,), (9,), ())), goods_won=won((4, 3), ()))
    result = GAME.result(state)
    assert result.scores == (0, 0) and result.winners == (0, 1)
    lines = dict(result.breakdown[1])
    assert lines["Round 1 bonus tokens so far"] == "2 tokens, values hidden"
    assert dict(result.breakdown[0])["Round 1 goods tokens so far"] == "7 (2 tokens)"
    assert "9" not in " ".join(v for _, v in result.breakdown[1])
    assert "round 1 is in progress" in result.notes[-1]


def test_round_summaries_stay_in_the_state():
    after = end_round(table(herds=(3, 1), goods_won=won((4,), (1, 1))))
    summary = after.rounds[0]
    assert summary.number == 1 and summary.starter == 0
    assert summary.scores[0].total == 9 and summary.scores[1].total == 2
    result = GAME.result(after)
    assert result.notes[0] == summary.reason
    assert ("Round 1 camel token", "5 (herd of 3)") in result.breakdown[0]


# -- hidden information --------------------------------------------------------------------


def test_observation_hides_deck_order_opponent_hand_and_bonus_values():
    state = table(
        hands=hands(goods(cloth=2), goods(spice=3)),
        bonus_won=(((2,), (), ()), ((3,), (6,), ())),
        bonus_piles=((3, 2, 2, 1, 1), (6, 5, 5, 4, 4), C.BONUS_TOKENS[2]),
    )
    other = evolve(
        state,
        deck=tuple(reversed(state.deck)),
        hands=hands(goods(cloth=2), goods(leather=3)),
        bonus_won=(((2,), (), ()), ((1,), (4,), ())),
        bonus_piles=((3, 3, 2, 2, 1), (6, 6, 5, 5, 4), C.BONUS_TOKENS[2]),
        rng=evolve(state.rng, counter=99),
    )
    seen = GAME.observe(state, 0)
    assert GAME.observe(other, 0) == seen
    assert GAME.observe(other, 1) != GAME.observe(state, 1)
    assert seen.bonus_counts == ((1, 0, 0), (1, 1, 0)) and seen.bonus_won == ((2,), (), ())
    assert seen.hand_sizes == (2, 3) and seen.deck_size == len(state.deck)
    assert not hasattr(seen, "rng") and not hasattr(seen, "deck")


def test_goods_taken_in_view_are_known_until_given_or_sold():
    """Players see what a rival takes from the market; the observation remembers it."""
    state = table(
        market=market(camel=1, leather=2, spice=2),
        hands=hands(goods(cloth=2, silver=1), goods()),
        known=(goods(), goods()),
    )
    assert state.known == (goods(), goods())  # a dealt hand is secret
    state = GAME.apply(state, TakeGood(LEATHER))
    assert state.known[0] == goods(leather=1)
    state = evolve(state, current=0, market=market(camel=1, leather=1, spice=2, gold=1))
    state = GAME.apply(state, ex({"spice": 2}, {"leather": 1, "cloth": 1}))
    # The leather went back; giving a cloth says nothing about the cloth still held.
    assert state.known[0] == goods(spice=2)
    assert state.hands[0] == goods(cloth=1, silver=1, spice=2)
    state = evolve(state, current=0)
    state = GAME.apply(state, Sell(SPICE, 1))
    assert state.known[0] == goods(spice=1)
    assert GAME.observe(state, 1).known == state.known
    state = evolve(state, current=0, market=market(camel=2, gold=3))
    assert GAME.apply(state, TakeCamels()).known == state.known


def test_a_new_round_forgets_what_was_known():
    state = table(known=(goods(leather=3), goods(spice=1)))
    assert end_round(state).known == (goods(), goods())


def test_sampled_rival_hands_hold_the_goods_seen_going_in():
    state = table()
    bob = state.hands[1]
    kinds = [good for good, n in enumerate(bob) if n]
    assert sum(bob) >= 2 and len(kinds) >= 2
    known = tuple(n if good != kinds[0] else n - 1 for good, n in enumerate(bob))
    state = evolve(state, known=(goods(), known))
    seen = GAME.observe(state, 0)
    rng = random.Random(4)
    guesses = set()
    for _ in range(50):
        sampled = GAME.sample_state(seen, rng)
        guessed = sampled.hands[1]
        assert all(g >= k for g, k in zip(guessed, known, strict=True))
        assert sum(guessed) == sum(bob)
        assert GAME.observe(sampled, 0) == seen
        assert GAME.inventory(sampled) == GAME.inventory(state)
        guesses.add(guessed)
    assert len(guesses) > 1  # the one unseen card is still a guess


def test_sampled_states_match_the_observation_and_inventory():
    rng = random.Random(3)
    state = GAME.new_game(["Ann", "Bob"], 3)
    for _ in range(60):
        for player in (0, 1):
            seen = GAME.observe(state, player)
            sampled = GAME.sample_state(seen, random.Random(rng.random()))
            assert GAME.observe(sampled, player) == seen
            assert GAME.inventory(sampled) == GAME.inventory(state)
        legal = GAME.legal_actions(state)
        state = GAME.apply(state, legal[rng.randrange(len(legal))])


def test_inventory_counts_every_card_and_token():
    inventory = GAME.inventory(table())
    assert inventory["card leather"] == 10 and inventory["card camel"] == 11
    assert inventory["goods token diamonds 7"] == 2
    assert inventory["bonus token 5-card 10"] == 2
    assert inventory["camel token"] == 1
    tokens = sum(n for key, n in inventory.items() if key.startswith("goods token"))
    assert tokens == sum(map(len, C.GOODS_TOKENS))


def test_why_illegal_agrees_with_legal_actions():
    rng = random.Random(5)
    state = GAME.new_game(["Ann", "Bob"], 5)
    candidates = [TakeCamels(), *(TakeGood(g) for g in GOODS)]
    candidates += [Sell(g, n) for g in GOODS for n in range(1, 4)]
    for _ in range(200):
        if state.over:
            break
        legal = set(GAME.legal_actions(state))
        for action in candidates:
            assert (GAME.why_illegal(state, action) is None) == (action in legal)
        action = rng.choice(sorted(legal, key=repr))
        state = GAME.apply(state, action)


# -- words before a decision ---------------------------------------------------------------


def test_a_sale_that_ends_the_round_says_so_but_not_who_takes_the_seal():
    """Bonus tokens are hidden until the round ends: the preview cannot know the totals."""
    piles = (C.GOODS_TOKENS[0], (), (), C.GOODS_TOKENS[3], C.GOODS_TOKENS[4], (1,))
    state = table(
        goods_piles=piles,
        hands=hands(goods(leather=1), goods(spice=2)),
        bonus_won=(((3,), (), ()), ((1,), (10,), ())),
    )
    words = preview(GAME, state, Sell(LEATHER, 1))
    assert words == (
        "Ann sells 1 leather for 1 token worth 1. "
        "3 goods are then out of tokens, so the round ends."
    )
    assert "seal" not in words and "points" not in words
    line = log_line(GAME, state, Sell(LEATHER, 1))
    assert "takes the seal" in line  # once the round is over, its totals are public


def test_taking_the_last_card_says_the_round_ends_without_naming_a_card():
    state = table(deck=(), market=market(camel=4, cloth=1))
    assert preview(GAME, state, TakeGood(CLOTH)) == (
        "Ann takes 1 cloth from the market. The deck cannot refill the market, so the round ends."
    )


def test_the_public_view_holds_no_hand_and_no_bonus_value():
    state = table(bonus_won=(((3,), (), ()), ((1,), (), ())))
    public = GAME.observe(state, None)
    assert public.player is None and public.hand is None and public.bonus_won is None
    assert public.hand_sizes == tuple(sum(hand) for hand in state.hands)
    assert public.bonus_counts == ((1, 0, 0), (1, 0, 0))


# == A review of the rules against the trading-game sheet and docs/rulings.md ==============
# These scenarios were written for another deal (seed 21).


def table_21(**changes):
    """The deal the review's scenarios were written for, Ann to move, ``changes`` applied."""
    state = GAME.new_game(["Ann", "Bob"], seed=21, options={"first_player": 0})
    return evolve(state, **changes)


# -- components, as docs/rulings.md lists them ---------------------------------------------


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
    inventory = GAME.inventory(table_21())
    assert {card.value: inventory[f"card {card.value}"] for card in Card} == expected
    assert sum(expected.values()) == 55


def test_goods_token_piles_hold_the_rulings_values_top_first():
    state = table_21()
    assert dict(zip(GOODS, state.goods_piles, strict=True)) == {
        Card.DIAMONDS: (7, 7, 5, 5, 5),
        Card.GOLD: (6, 6, 5, 5, 5),
        Card.SILVER: (5, 5, 5, 5, 5),
        Card.CLOTH: (5, 3, 3, 2, 2, 1, 1),
        Card.SPICE: (5, 3, 3, 2, 2, 1, 1),
        Card.LEATHER: (4, 3, 2, 1, 1, 1, 1, 1, 1),
    }


def test_bonus_piles_hold_the_rulings_values():
    state = table_21()
    assert [sorted(pile, reverse=True) for pile in state.bonus_piles] == [
        [3, 3, 2, 2, 2, 1, 1],
        [6, 6, 5, 5, 4, 4],
        [10, 10, 9, 8, 8],
    ]


def test_the_camel_token_is_worth_five_and_two_seals_win():
    state = table_21(deck=(), market=market(camel=4, cloth=1), herds=(2, 1), seals=(1, 0))
    after = GAME.apply(state, TakeGood(CLOTH))
    ann, bob = after.rounds[0].scores
    assert (ann.camel_token, ann.total, bob.total) == (5, 5, 0)
    assert after.over and after.seals == (2, 0)  # the second seal ends the match


def test_each_round_is_set_up_afresh_with_three_camels_and_two_deck_cards():
    state = table_21(deck=(), market=market(camel=4, cloth=1), herds=(2, 1))
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
    state = table_21(
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
    state = table_21(
        market=market(camel=1, spice=2, silver=2), hands=hands(goods(cloth=1)), herds=(3, 0)
    )
    assert "only 3 camels" in refuse(state, ex({"spice": 2, "silver": 2}, camels=4))
    action = ex({"spice": 2, "silver": 1}, camels=3)
    after = GAME.apply(state, action)
    assert after.herds == (0, 0) and after.market == market(camel=4, silver=1)
    assert after.hands[0] == goods(cloth=1, spice=2, silver=1)


def test_exchange_never_refills_and_never_ends_the_round_on_an_empty_deck():
    state = table_21(
        deck=(), market=market(camel=1, spice=2, silver=2), hands=hands(goods(cloth=2))
    )
    after = GAME.apply(state, ex({"spice": 2}, {"cloth": 2}))
    assert after.rounds == () and after.to_move == 1 and after.deck == ()


def test_exchange_with_seven_in_hand_can_only_give_goods():
    state = table_21(
        market=market(camel=1, spice=2, silver=2), hands=hands(goods(cloth=7)), herds=(4, 0)
    )
    exchanges = [a for a in GAME.legal_actions(state) if isinstance(a, Exchange)]
    assert exchanges and all(a.camels == 0 for a in exchanges)
    assert "8 cards" in refuse(state, ex({"spice": 2}, {"cloth": 1}, camels=1))


# -- sell ----------------------------------------------------------------------------------


def test_a_sale_of_six_gets_no_bonus_once_the_five_card_pile_is_empty():
    """5 or more cards take from the 5-card pile only while it lasts; never from a smaller one."""
    state = table_21(hands=hands(goods(leather=6)), bonus_piles=((3, 2), (6, 5), ()))
    after = GAME.apply(state, Sell(LEATHER, 6))
    assert after.bonus_won[0] == NO_BONUS and after.bonus_piles == state.bonus_piles
    assert len(after.goods_won[0][LEATHER.index]) == 6
    assert "no 5-card bonus token is left" in log_line(GAME, state, Sell(LEATHER, 6))


def test_a_precious_sale_that_outruns_its_pile_gets_what_is_left_and_the_bonus():
    piles = list(C.GOODS_TOKENS)
    piles[GOLD.index] = (5,)
    state = table_21(
        hands=hands(goods(gold=4)), goods_piles=tuple(piles), bonus_piles=((1,), (4,), (8,))
    )
    after = GAME.apply(state, Sell(GOLD, 4))
    assert after.goods_won[0][GOLD.index] == (5,)
    assert after.bonus_won[0] == ((), (4,), ())
    assert after.hands[0] == goods() and after.discard == goods(gold=4)


def test_a_single_precious_card_cannot_be_sold_even_into_an_empty_pile():
    piles = list(C.GOODS_TOKENS)
    piles[DIAMONDS.index] = ()
    state = table_21(hands=hands(goods(diamonds=1, cloth=1)), goods_piles=tuple(piles))
    assert "2 or more" in refuse(state, Sell(DIAMONDS, 1))


def test_the_third_empty_pile_ends_the_round_at_once_with_the_sale_counted():
    """The seller's tokens and bonus from the ending sale count in the round's scores."""
    piles = list(C.GOODS_TOKENS)
    piles[DIAMONDS.index] = piles[GOLD.index] = ()
    piles[SPICE.index] = (2, 1, 1)
    state = table_21(
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


# -- no passing ----------------------------------------------------------------------------


def test_a_player_always_has_a_move_and_there_is_no_pass():
    rng = random.Random(4)
    for seed in range(6):
        state = GAME.new_game(["Ann", "Bob"], seed)
        while not state.over:
            legal = GAME.legal_actions(state)
            assert legal
            assert all(isinstance(a, TakeGood | TakeCamels | Exchange | Sell) for a in legal)
            state = GAME.apply(state, legal[rng.randrange(len(legal))])


# -- hidden information --------------------------------------------------------------------


def test_bonus_values_are_revealed_once_the_round_ends():
    state = table_21(
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


def test_one_card_is_named_in_the_singular_and_several_in_the_plural():
    """ "1 diamond", and a deck listed card by card says "diamond" for each diamond."""
    state = table(deck=(DIAMONDS, DIAMONDS, Card.CAMEL, GOLD))
    rows = dict(GAME.disclose(state))
    assert rows["Deck, top first"] == "diamond, diamond, camel, gold"
    piles = list(C.GOODS_TOKENS)
    piles[DIAMONDS.index] = ()
    state = table(hands=hands(goods(diamonds=2)), goods_piles=tuple(piles))
    assert "the diamond tokens have run out" in log_line(GAME, state, Sell(DIAMONDS, 2))
    assert "2 diamonds" in log_line(GAME, state, Sell(DIAMONDS, 2))
