"""Karakum's rules, one test per rule: the rulebook, its examples, the FAQ and docs/rulings.md.

Scenario states are built from a real deal with only the relevant fields changed.
FAQ answers are cited as "FAQ:" in the docstrings.
"""

from __future__ import annotations

import random
from itertools import product

import pytest
from attrs import evolve

from karavan_core import get_game
from karavan_core.games.karakum.components import RESOURCE_COUNTS, Res
from karavan_core.games.karakum.rules import ALL_CAMELS, cards_of, fits, hand_from, payments, price
from karavan_core.games.karakum.state import (
    Buy,
    Camel,
    DrawCard,
    Join,
    Pass,
    Pay,
    Step,
    TakeCard,
)
from tests.core.rules_helpers import log_line, preview, prompt
from tests.core.rules_helpers import refuse as refuse_in

GAME = get_game("karakum")
B, P, R, OR, G, GOLD = Res.BLUE, Res.PURPLE, Res.RED, Res.ORANGE, Res.GREEN, Res.GOLD


def hand(*cards: Res):
    return hand_from(cards)


def camel(color: Res, value: int) -> Camel:
    return Camel(color, value)


def table(players: int = 2, **changes):
    """A fresh two-player deal with Ann (seat 0) to move, then ``changes`` applied."""
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    state = GAME.new_game(names, seed=7, options={"first_player": 0})
    return evolve(state, **changes)


def refuse(state, action) -> str:
    return refuse_in(GAME, state, action)


# -- setup ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "removed"), [(2, 12), (3, 8), (4, 0)])
def test_setup_removes_camels_by_player_count(players, removed):
    """2 players: 12 camels removed; 3 players: 8; 4: none (FAQ: the only difference)."""
    state = GAME.new_game(["A", "B", "C", "D"][:players], seed=1)
    assert len(state.removed) == removed
    assert len(state.market) == 5 and all(state.market)
    assert len(state.camel_deck) == 35 - removed - 5
    assert sorted(state.removed + state.market + state.camel_deck) == sorted(ALL_CAMELS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_five_cards_and_a_row_of_five(players):
    state = GAME.new_game(["A", "B", "C", "D"][:players], seed=3)
    assert [sum(h) for h in state.hands] == [5] * players
    assert len(state.row) == 5 and all(state.row)
    assert len(state.resource_deck) == 71 - 5 * players - 5
    assert state.caravans == ((),) * players and state.lefts == ((),) * players


def test_components_match_the_rulebook():
    """71 resources (13 of each good, 6 gold); 35 camels, 5 colours x values 1..7 (assumed)."""
    assert sum(RESOURCE_COUNTS) == 71 and RESOURCE_COUNTS == (13, 13, 13, 13, 13, 6)
    assert len(ALL_CAMELS) == 35 and len(set(ALL_CAMELS)) == 35


def test_first_player_is_chosen_or_drawn_from_the_seed():
    assert GAME.new_game(["A", "B", "C"], 5, {"first_player": 2}).current == 2
    drawn = {GAME.new_game(["A", "B", "C"], seed, None).current for seed in range(30)}
    assert drawn == {0, 1, 2}
    assert GAME.new_game(["A", "B"], 11).current == GAME.new_game(["A", "B"], 11).current


# -- gathering -----------------------------------------------------------------------------


def test_one_action_per_turn_gather_or_buy():
    """FAQ: each turn a player either gathers resources or buys one camel."""
    state = table(row=(B, P, R, OR, G), hands=(hand(B, B, B), hand()))
    kinds = {type(a) for a in GAME.legal_actions(state)}
    assert kinds <= {TakeCard, DrawCard, Buy}
    assert TakeCard in kinds and DrawCard in kinds


def test_gather_two_cards_in_any_mix_of_row_and_deck():
    """FAQ: two cards, each from the face-up row or the deck top, in any mix."""
    state = table(row=(B, P, R, OR, G), resource_deck=(R, OR, G, B), hands=(hand(), hand()))
    state = GAME.apply(state, TakeCard(1))
    assert state.step is Step.SECOND_CARD and state.current == 0
    state = GAME.apply(state, DrawCard())
    assert state.hands[0] == hand(P, OR)  # the silk, then the deck top after the replacement
    assert state.current == 1 and state.step is Step.CHOOSE


def test_face_up_gold_is_a_whole_gathering():
    """FAQ: a single face-up gold may be taken as the whole action."""
    state = table(row=(GOLD, P, R, OR, G), resource_deck=(B, B), hands=(hand(), hand()))
    state = GAME.apply(state, TakeCard(0))
    assert state.hands[0] == hand(GOLD)
    assert state.current == 1 and state.step is Step.CHOOSE


def test_face_up_gold_may_not_be_the_second_card():
    """FAQ: a face-up gold may never be taken as the second card."""
    state = table(row=(B, GOLD, R, OR, G), resource_deck=(B, B), hands=(hand(), hand()))
    state = GAME.apply(state, TakeCard(0))
    assert TakeCard(1) not in GAME.legal_actions(state)
    assert "second card" in refuse(state, TakeCard(1))


def test_blind_gold_as_first_card_still_allows_a_second():
    """FAQ: a gold drawn from the deck as the first card still allows a second card."""
    state = table(row=(B, P, R, OR, G), resource_deck=(GOLD, B, B), hands=(hand(), hand()))
    state = GAME.apply(state, DrawCard())
    assert state.step is Step.SECOND_CARD and state.hands[0] == hand(GOLD)
    state = GAME.apply(state, TakeCard(4))
    assert state.hands[0] == hand(GOLD, G) and state.current == 1


def test_taken_face_up_card_is_replaced_at_once_and_can_be_the_second_pick():
    """FAQ: a face-up card taken is replaced immediately; the second pick sees the new card."""
    state = table(row=(B, P, R, OR, G), resource_deck=(OR, B), hands=(hand(), hand()))
    state = GAME.apply(state, TakeCard(2))
    assert state.row == (B, P, OR, OR, G)
    state = GAME.apply(state, TakeCard(2))
    assert state.hands[0] == hand(R, OR) and state.row == (B, P, B, OR, G)


def test_empty_deck_is_rebuilt_from_the_shuffled_discards():
    """FAQ: when the deck runs out, the discard pile is shuffled into a new deck."""
    state = table(
        row=(B, P, R, OR, G), resource_deck=(), discard=hand(GOLD, GOLD, R), hands=(hand(), hand())
    )
    state = GAME.apply(state, DrawCard())
    assert sum(state.hands[0]) == 1
    assert state.discard == hand() and len(state.resource_deck) == 2
    assert sorted(state.resource_deck + tuple(cards_of(state.hands[0]))) == sorted((GOLD, GOLD, R))


def test_the_log_says_when_the_discards_become_the_new_deck():
    """The FAQ's reshuffle is told in the log (it was silent): by a draw, or by a face-up place
    filled from an empty deck."""
    state = table(
        row=(B, P, R, OR, G), resource_deck=(), discard=hand(GOLD, GOLD, R), hands=(hand(), hand())
    )
    assert log_line(GAME, state, DrawCard()) == (
        "Ann draws a card from the deck."
        " The deck ran out: the 3 discarded cards are shuffled into a new deck."
    )
    assert log_line(GAME, state, TakeCard(2)) == (
        "Ann takes the face-up spices."
        " The deck ran out: the 3 discarded cards are shuffled into a new deck."
    )
    one = evolve(state, discard=hand(GOLD))
    assert log_line(GAME, one, DrawCard()).endswith(
        " the 1 discarded card is shuffled into a new deck."
    )
    full = evolve(state, resource_deck=(B, B))
    assert log_line(GAME, full, DrawCard()) == "Ann draws a card from the deck."


def test_no_draw_when_deck_and_discards_are_both_empty():
    """FAQ: with both piles empty no card can be drawn; a taken face-up card is not replaced."""
    state = table(
        row=(B, P, None, None, None), resource_deck=(), discard=hand(), hands=(hand(), hand())
    )
    assert DrawCard() not in GAME.legal_actions(state)
    assert "both empty" in refuse(state, DrawCard())
    state = GAME.apply(state, TakeCard(0))
    assert state.row == (None, P, None, None, None)
    state = GAME.apply(state, TakeCard(1))
    assert state.hands[0] == hand(B, P) and state.current == 1


def _paying_into_an_empty_row(**changes):
    """Ann buys the green 2 with two paper while deck and discards are empty and three
    face-up places stand empty (RULINGS.md: the row is refilled from the payment)."""
    scene = {
        "row": (None, P, None, R, None),
        "resource_deck": (),
        "discard": hand(),
        "market": (camel(B, 5), camel(G, 2), camel(B, 3), camel(R, 4), camel(P, 6)),
        "hands": (hand(G, G, OR), hand()),
    }
    return GAME.apply(table(**(scene | changes)), Buy(1))


def test_a_payment_refills_the_empty_face_up_places():
    """RULINGS: a payment that brings cards back while places stand empty and the deck is
    empty shuffles the discards into a new deck at once and fills the places left to right."""
    state = GAME.apply(_paying_into_an_empty_row(), Pay(hand(G, G)))
    assert state.row[1] == P and state.row[3] == R
    assert state.row[0] == G and state.row[2] == G and state.row[4] is None
    assert state.resource_deck == () and state.discard == hand()
    assert GAME.unfilled(state) is None


def test_a_refill_takes_what_it_needs_and_leaves_the_rest_as_the_deck():
    """Three cards paid into two empty places: the third is the new deck, and can be drawn."""
    state = _paying_into_an_empty_row(
        row=(None, P, R, OR, None),
        market=(camel(B, 5), camel(G, 3), camel(B, 3), camel(R, 4), camel(P, 6)),
        hands=(hand(G, G, G, OR), hand()),
    )
    state = GAME.apply(state, Pay(hand(G, G, G)))
    assert state.row == (G, P, R, OR, G)
    assert state.resource_deck == (G,) and state.discard == hand()
    state = GAME.apply(state, DrawCard())  # Bob's turn
    assert state.hands[1] == hand(G) and state.resource_deck == ()


def test_the_refill_is_told_in_the_preview_and_the_log():
    state = _paying_into_an_empty_row()
    words = preview(GAME, state, Pay(hand(G, G)))
    assert "shuffled into a new deck to fill the empty face-up places" in words
    line = log_line(GAME, state, Pay(hand(G, G)))
    assert "fill the empty face-up places: paper, paper." in line


def test_the_row_keeps_its_cards_through_a_payment_with_no_empty_place():
    state = _paying_into_an_empty_row(row=(B, P, R, OR, G))
    after = GAME.apply(state, Pay(hand(G, G)))
    assert after.row == (B, P, R, OR, G) and after.discard == hand(G, G)
    assert "face-up" not in log_line(GAME, state, Pay(hand(G, G)))


def test_a_game_saved_under_the_old_rule_keeps_its_empty_places():
    """A game played before the ruling replays as it was played (see karavan_core.saves)."""
    state = _paying_into_an_empty_row(payment_refills_row=False)
    assert "stay empty" in preview(GAME, state, Pay(hand(G, G)))
    state = GAME.apply(state, Pay(hand(G, G)))
    assert state.row == (None, P, None, R, None) and state.discard == hand(G, G)
    assert GAME.unfilled(state) is not None


def test_turn_ends_when_no_second_card_can_be_taken():
    state = table(
        row=(B, GOLD, None, None, None), resource_deck=(), discard=hand(), hands=(hand(), hand())
    )
    state = GAME.apply(state, TakeCard(0))
    assert state.current == 1 and state.step is Step.CHOOSE and state.hands[0] == hand(B)


def test_no_hand_limit():
    """FAQ: there is no limit to the number of cards in hand."""
    big = (20, 20, 20, 10, 10, 5)
    state = table(hands=(big, hand()), row=(B, P, R, OR, G))
    state = GAME.apply(GAME.apply(state, TakeCard(0)), TakeCard(0))
    assert sum(state.hands[0]) == sum(big) + 2


# -- buying --------------------------------------------------------------------------------


def test_rulebook_example_taxed_blue_three_paid_with_gold():
    """Oliver's blue 3 costs 4 while blue lies next to the deck; gold stands in for jewelry."""
    market = (camel(B, 5), camel(G, 2), camel(B, 3), camel(R, 4), camel(P, 6))
    state = table(market=market, hands=(hand(B, B, B, GOLD), hand()))
    assert price(market, 2) == 4
    state = GAME.apply(state, Buy(2))
    assert state.step is Step.PAY
    assert GAME.legal_actions(state) == [Pay(hand(B, B, B, GOLD))]
    state = GAME.apply(state, Pay(hand(B, B, B, GOLD)))
    assert state.caravans[0] == (camel(B, 3),)
    assert state.hands[0] == hand() and state.discard == hand(B, B, B, GOLD)


def test_tax_applies_to_the_camel_next_to_the_deck_itself():
    """FAQ: the camel next to the deck sets the tax and pays it too."""
    market = (camel(G, 2), camel(B, 3), camel(G, 5), camel(R, 4), camel(P, 6))
    assert price(market, 0) == 3 and price(market, 2) == 6 and price(market, 1) == 3


def test_untaxed_camel_costs_its_number():
    """FAQ: the number on the camel is how many goods it costs."""
    market = (camel(G, 2), camel(B, 3), camel(G, 5), camel(R, 4), camel(P, 6))
    state = table(market=market, hands=(hand(R, R, R), hand()))
    assert Buy(3) not in GAME.legal_actions(state)
    state = evolve(state, hands=(hand(R, R, R, R), hand()))
    assert Buy(3) in GAME.legal_actions(state)


def test_two_identical_goods_pay_for_one():
    """Rulebook and FAQ: two jewelry cards may stand in for one silk card."""
    market = (camel(G, 2), camel(P, 1), camel(G, 5), camel(R, 4), camel(OR, 6))
    state = GAME.apply(table(market=market, hands=(hand(B, B), hand())), Buy(1))
    assert GAME.legal_actions(state) == [Pay(hand(B, B))]
    state = GAME.apply(table(market=market, hands=(hand(B, P), hand())), Buy(1))
    assert GAME.legal_actions(state) == [Pay(hand(P))]
    mixed = table(market=market, hands=(hand(B, R), hand()))
    assert Buy(1) not in GAME.legal_actions(mixed)  # two different goods do not make a unit


def test_every_distinct_payment_is_offered_cheapest_first():
    market = (camel(G, 2), camel(P, 2), camel(G, 5), camel(R, 4), camel(OR, 6))
    state = GAME.apply(table(market=market, hands=(hand(P, GOLD, B, B, R, R), hand())), Buy(1))
    offered = [a.cards for a in GAME.legal_actions(state)]
    assert offered == payments(hand(P, GOLD, B, B, R, R), P, 2)
    assert offered[0] == hand(P, GOLD)
    assert set(offered) == {
        hand(P, GOLD),
        hand(P, B, B),
        hand(P, R, R),
        hand(GOLD, B, B),
        hand(GOLD, R, R),
        hand(B, B, R, R),
    }
    assert [sum(c) for c in offered] == sorted(sum(c) for c in offered)


def _every_payment(counts, color, cost):
    """Brute force: every way to pick cards from ``counts`` worth exactly ``cost`` units."""
    own = color.index
    found = set()
    for picked in product(*(range(n + 1) for n in counts)):
        pairs = [picked[i] for i in range(5) if i != own]
        if any(n % 2 for n in pairs):
            continue
        if picked[own] + picked[5] + sum(n // 2 for n in pairs) == cost:
            found.add(picked)
    return found


def test_payments_are_exactly_the_brute_force_ones():
    rng = random.Random(4)
    for _ in range(200):
        counts = tuple(rng.randrange(0, 5) for _ in range(6))
        color, cost = rng.choice(list(Res)[:5]), rng.randrange(1, 9)
        offered = payments(counts, color, cost)
        assert len(offered) == len(set(offered))
        assert set(offered) == _every_payment(counts, color, cost)


def test_a_huge_hand_lists_its_payments():
    """Fifty cards: only the exact sums are walked (trying every count took seconds)."""
    offered = payments((10, 10, 10, 10, 6, 6), Res.RED, 8)
    assert offered[0] == (0, 0, 8, 0, 0, 0)
    assert len(offered) == len(set(offered)) > 100
    assert all(sum(spend) >= 8 for spend in offered)


def test_a_wrong_payment_is_refused():
    market = (camel(G, 2), camel(P, 2), camel(G, 5), camel(R, 4), camel(OR, 6))
    state = GAME.apply(table(market=market, hands=(hand(P, P, B, GOLD), hand())), Buy(1))
    # Each refusal says what is wrong with it, in numbers.
    assert refuse(state, Pay(hand(P))) == (
        "That payment makes 1 unit, not the 2 the purple 2 costs: a unit is one silk, one "
        "gold, or two alike of another good."
    )
    assert refuse(state, Pay(hand(P, P, GOLD))).startswith(
        "That payment makes 3 units, not the 2 the purple 2 costs:"
    )
    assert refuse(state, Pay(hand(P, B))) == (  # a single jewelry is no unit
        "Jewelry can pay for the purple 2 only in pairs; this payment holds 1 jewelry."
    )
    assert refuse(state, Pay(hand(P, P, P))) == "You do not hold those cards."
    assert "pay" in refuse(state, TakeCard(0))  # first the payment
    # The tax is part of the price, and is said to be.
    taxed = (camel(P, 3), camel(P, 2), camel(G, 5), camel(R, 4), camel(OR, 6))
    state = GAME.apply(table(market=taxed, hands=(hand(P, P, P, GOLD), hand())), Buy(1))
    assert "makes 1 unit, not the 3 the purple 2 costs (1 of them tax):" in refuse(
        state, Pay(hand(P))
    )


def test_unaffordable_camel_is_refused_with_its_price():
    market = (camel(G, 2), camel(P, 2), camel(G, 5), camel(R, 4), camel(OR, 6))
    state = table(market=market, hands=(hand(G), hand()))
    assert "afford" in refuse(state, Buy(2))
    assert "no camel" in refuse(state, Buy(7))


def test_one_camel_per_turn_then_the_turn_passes():
    """FAQ: only one face-up market camel can be bought a turn."""
    market = (camel(G, 2), camel(P, 2), camel(G, 5), camel(R, 4), camel(OR, 6))
    state = table(market=market, hands=(hand(P, P, G, G, G), hand()))
    state = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(P, P)))
    assert state.current == 1 and state.step is Step.CHOOSE


def test_market_slides_toward_the_deck_and_the_tax_colour_changes():
    """Rulebook example: after the blue 3 is bought the camels slide; the new first sets the tax."""
    market = (camel(B, 5), camel(G, 2), camel(B, 3), camel(R, 4), camel(P, 6))
    deck = (camel(G, 7), camel(OR, 1))
    state = table(market=market, camel_deck=deck, hands=(hand(B, B, B, B), hand()))
    state = GAME.apply(GAME.apply(state, Buy(2)), Pay(hand(B, B, B, B)))
    assert state.market == (camel(G, 7), camel(B, 5), camel(G, 2), camel(R, 4), camel(P, 6))
    assert state.camel_deck == (camel(OR, 1),)
    assert price(state.market, 2) == 3  # green is taxed now
    assert price(state.market, 1) == 5  # blue no longer is


def test_tax_gives_no_extra_points():
    """FAQ: a taxed camel scores only its number."""
    market = (camel(B, 5), camel(G, 2), camel(B, 3), camel(R, 4), camel(P, 6))
    state = table(market=market, hands=(hand(B, B, B, B), hand()))
    state = GAME.apply(GAME.apply(state, Buy(2)), Pay(hand(B, B, B, B)))
    assert GAME.result(state).scores[0] == 3


# -- the caravan ---------------------------------------------------------------------------


def test_caravan_matches_by_colour_or_number():
    """FAQ: any camel may follow the master; each next one shares colour or number with the last."""
    assert fits((), camel(R, 7))
    assert fits((camel(R, 3),), camel(R, 6))
    assert fits((camel(R, 3),), camel(P, 3))
    assert not fits((camel(R, 3),), camel(P, 1))


def test_rulebook_example_purple_one_goes_left_and_earns_a_bonus_card():
    """Emma's caravan ends in a red 3; her purple 1 goes left and grants a resource."""
    market = (camel(G, 4), camel(P, 1), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(
        market=market,
        caravans=((camel(R, 3),), ()),
        hands=(hand(P), hand()),
        row=(GOLD, B, R, OR, G),
        resource_deck=(B, B, B),
    )
    state = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(P)))
    assert state.lefts[0] == (camel(P, 1),) and state.caravans[0] == (camel(R, 3),)
    assert state.step is Step.BONUS and state.current == 0
    bonus = GAME.legal_actions(state)
    assert TakeCard(0) in bonus and DrawCard() in bonus  # a face-up gold is allowed
    state = GAME.apply(state, TakeCard(0))
    assert state.hands[0] == hand(GOLD) and state.row[0] == B  # replaced at once
    assert state.current == 1


def test_bonus_also_for_a_value_one_camel_that_joins_the_caravan():
    market = (camel(G, 4), camel(P, 1), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(market=market, hands=(hand(P), hand()), resource_deck=(OR, B))
    state = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(P)))
    assert state.caravans[0] == (camel(P, 1),) and state.step is Step.BONUS
    state = GAME.apply(state, DrawCard())
    assert state.hands[0] == hand(OR) and state.current == 1


def test_camel_goes_left_only_when_it_cannot_join():
    """FAQ: the left side may be used only if the camel cannot join the caravan."""
    market = (camel(G, 4), camel(R, 5), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(market=market, caravans=((camel(R, 3),), ()), hands=((0, 0, 5, 0, 0, 0), hand()))
    state = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(R, R, R, R, R)))
    assert state.caravans[0] == (camel(R, 3), camel(R, 5)) and state.lefts[0] == ()


def test_left_camel_joins_at_once_when_it_can():
    """FAQ: as soon as a camel left of the master can join the caravan, it does."""
    market = (camel(G, 4), camel(OR, 2), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(
        market=market,
        caravans=((camel(R, 3),), ()),
        lefts=((camel(OR, 5), camel(B, 7)), ()),
        hands=(hand(OR, OR, OR, OR), hand()),
    )
    # The orange 2 cannot follow the red 3: it goes left; nothing joins.
    after = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(OR, OR)))
    assert after.lefts[0] == (camel(OR, 5), camel(B, 7), camel(OR, 2))
    # A red 5 joins, then the orange 5 can follow it and joins at once.
    state = evolve(
        state,
        market=(camel(G, 4), camel(R, 5), *state.market[2:]),
        hands=((0, 0, 5, 0, 0, 0), hand()),
    )
    paying = GAME.apply(state, Buy(1))
    assert "From the left side, the orange 5 joins the caravan." in log_line(
        GAME, paying, Pay(hand(R, R, R, R, R))
    )
    state = GAME.apply(paying, Pay(hand(R, R, R, R, R)))
    assert state.caravans[0] == (camel(R, 3), camel(R, 5), camel(OR, 5))
    assert state.lefts[0] == (camel(B, 7),)
    assert state.current == 1


def test_owner_chooses_which_left_camel_joins_when_several_can():
    market = (camel(G, 4), camel(R, 5), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(
        market=market,
        caravans=((camel(R, 3),), ()),
        lefts=((camel(OR, 5), camel(B, 5), camel(B, 2)), ()),
        hands=((0, 0, 5, 0, 0, 0), hand()),
    )
    state = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(R, R, R, R, R)))
    assert state.step is Step.JOIN and state.current == 0
    assert GAME.legal_actions(state) == [Join(0), Join(1)]
    assert "cannot join" in refuse(state, Join(2))
    assert log_line(GAME, state, Join(1)) == (
        "Ann moves the blue 5 from the left side into the caravan."
    )
    state = GAME.apply(state, Join(1))  # the blue 5: now the orange 5 and the blue 2 both fit
    assert state.caravans[0] == (camel(R, 3), camel(R, 5), camel(B, 5))
    assert state.step is Step.JOIN and GAME.legal_actions(state) == [Join(0), Join(1)]
    state = GAME.apply(state, Join(1))  # the blue 2; the orange 5 no longer fits
    assert state.caravans[0] == (camel(R, 3), camel(R, 5), camel(B, 5), camel(B, 2))
    assert state.lefts[0] == (camel(OR, 5),)
    assert state.current == 1


# -- the end and scoring -------------------------------------------------------------------


def test_game_ends_at_the_end_of_the_turn_the_market_cannot_be_refilled():
    """FAQ: when no camel can refill the market the game ends, after that turn (bonus included)."""
    market = (camel(G, 4), camel(P, 1), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(market=market, camel_deck=(), hands=(hand(P), hand()), resource_deck=(B,))
    state = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(P)))
    assert state.market[0] is None and state.step is Step.BONUS and not GAME.is_over(state)
    state = GAME.apply(state, DrawCard())
    assert GAME.is_over(state) and state.to_move is None
    assert GAME.legal_actions(state) == []
    assert refuse(state, DrawCard()) == "The game is over."


def test_players_may_end_with_different_numbers_of_turns():
    """FAQ: the game can end before every player has had as many turns."""
    market = (camel(G, 4), camel(P, 2), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(players=3, market=market, camel_deck=(), hands=(hand(P, P), hand(), hand()))
    state = GAME.apply(GAME.apply(state, Buy(1)), Pay(hand(P, P)))
    assert GAME.is_over(state) and state.turn == 1


def test_score_is_caravan_plus_half_the_left_side_rounded_down():
    """FAQ: camels left of the master score half their points, rounded down."""
    state = table(
        caravans=((camel(R, 3), camel(R, 5), camel(OR, 5)), (camel(B, 7),)),
        lefts=((camel(B, 7), camel(G, 2)), (camel(P, 3),)),
    )
    result = GAME.result(state)
    assert result.scores == (13 + 4, 7 + 1)
    assert ("Left of the master", "9 points, half is 4") in result.breakdown[0]


def test_tie_goes_to_the_longest_caravan():
    state = table(
        caravans=((camel(R, 3), camel(R, 4)), (camel(B, 7),)),
        lefts=((), (camel(P, 1),)),
    )
    result = GAME.result(state)
    assert result.scores == (7, 7) and result.winners == (0,)
    assert any("longest caravan" in note for note in result.notes)


def test_still_tied_players_share_the_victory():
    state = table(caravans=((camel(R, 3), camel(R, 4)), (camel(B, 3), camel(B, 4))))
    result = GAME.result(state)
    assert result.winners == (0, 1)
    assert any("share" in note for note in result.notes)


def test_caravan_master_has_no_effect():
    """FAQ: the master only separates the caravan from the half-score camels."""
    state = table()
    assert GAME.result(state).scores == (0, 0)


# -- a stalemate (the rules are silent; the app's ruling, see docs/rulings.md) -------------


def test_pass_only_when_nothing_else_is_possible_and_a_full_round_of_passes_ends_the_game():
    market = (camel(G, 4), camel(P, 2), camel(G, 3), camel(P, 3), camel(B, 6))
    state = table(
        market=market, row=(None,) * 5, resource_deck=(), discard=hand(), hands=(hand(), hand())
    )
    assert GAME.legal_actions(state) == [Pass()]
    state = GAME.apply(state, Pass())
    assert state.current == 1 and not GAME.is_over(state)
    state = GAME.apply(state, Pass())
    assert GAME.is_over(state)
    assert "only pass" in refuse(table(), Pass())


# -- words ---------------------------------------------------------------------------------


def test_describe_reads_naturally_and_hides_blind_draws():
    market = (camel(B, 5), camel(G, 2), camel(B, 3), camel(R, 4), camel(P, 6))
    state = table(market=market, hands=(hand(B, B, B, GOLD), hand()), row=(GOLD, B, R, OR, G))
    assert log_line(GAME, state, Buy(2)) == "Ann buys the blue 3 for 4 units (taxed)."
    paying = GAME.apply(state, Buy(2))
    assert log_line(GAME, paying, Pay(hand(B, B, B, GOLD))) == (
        "Ann pays 3 jewelry + 1 gold; the blue 3 joins the caravan."
        " The orange 4 is revealed in the market."
    )
    assert (
        log_line(GAME, state, TakeCard(0)) == "Ann takes the face-up gold as the whole gathering."
    )
    assert log_line(GAME, state, DrawCard()) == "Ann draws a card from the deck."
    assert prompt(GAME, paying) == "Ann: choose how to pay 4 units for the blue 3"


def test_observation_hides_other_hands_and_deck_order():
    state = table()
    seen = GAME.observe(state, 0)
    assert seen.hand == state.hands[0] and seen.hand_sizes == (5, 5)
    other = evolve(
        state,
        hands=(state.hands[0], hand(GOLD, GOLD, GOLD, GOLD, GOLD)),
        resource_deck=tuple(reversed(state.resource_deck)),
    )
    assert GAME.observe(other, 0) == seen
    assert GAME.observe(other, 1) != GAME.observe(state, 1)


def test_card_counts_read_as_words():
    from karavan_core.games.karakum.words import describe_cards

    assert describe_cards(hand(R, B, B, GOLD)) == "2 jewelry + 1 spice + 1 gold"
    assert describe_cards(hand(R, R)) == "2 spices"


def test_the_words_before_a_payment_never_name_the_camel_it_reveals():
    market = (camel(B, 5), camel(G, 2), camel(B, 3), camel(R, 4), camel(P, 6))
    state = table(market=market, hands=(hand(B, B, B, GOLD), hand()), row=(GOLD, B, R, OR, G))
    paying = GAME.apply(state, Buy(2))
    hidden = paying.camel_deck[0]
    words = preview(GAME, paying, Pay(hand(B, B, B, GOLD)))
    assert words == (
        "Ann pays 3 jewelry + 1 gold; the blue 3 joins the caravan."
        " A new camel is revealed in the market."
    )
    assert str(hidden) not in words
    assert f"The {hidden} is revealed" in log_line(GAME, paying, Pay(hand(B, B, B, GOLD)))


def test_the_public_view_holds_no_hand():
    state = table(hands=(hand(B, B), hand(GOLD)))
    public = GAME.observe(state, None)
    assert public.player is None and public.hand is None and public.hand_sizes == (2, 1)
