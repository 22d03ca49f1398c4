"""Karakum's gestures without an app: real deals from the engine, each gesture and its refusals."""

from __future__ import annotations

import random

from karavan_core.games.karakum.components import RESOURCES, Res
from karavan_core.games.karakum.rules import payments, price
from karavan_core.games.karakum.state import Buy, DrawCard, Pass, Pay, Step, TakeCard
from karavan_core.registry import get_game
from karavan_tui.tables.karakum import gestures
from karavan_tui.tables.karakum.gestures import HAND_ROW, MARKET_ROW, RESOURCES_ROW, Payment
from karavan_tui.tables.marking import Marks
from karavan_tui.tables.outcome import Ask, Confirm, Play, Say

GAME = get_game("karakum")


def positions(seeds=range(1, 40), moves=120):
    """Ann's positions of random games: (state, her view, her decisions), one after another."""
    for seed in seeds:
        state = GAME.new_game(["Ann", "Bob"], seed, {"first_player": 0})
        rng = random.Random(seed)
        for _ in range(moves):
            if GAME.is_over(state):
                break
            legal = GAME.legal_actions(state)
            if state.to_move == 0:
                yield state, GAME.observe(state, 0), legal
            state = GAME.apply(state, rng.choice(legal))


def find(test):
    """The first of Ann's positions for which ``test(obs, legal)`` holds."""
    for state, obs, legal in positions():
        if test(obs, legal):
            return state, obs, legal
    raise AssertionError("no such position")


def many_ways(obs, legal):
    """A camel Ann can buy in two or more ways, or ``None``."""
    for action in legal:
        if isinstance(action, Buy):
            camel = obs.market[action.slot]
            if len(payments(obs.hand, camel.color, price(obs.market, action.slot))) >= 2:
                return action.slot
    return None


def test_choosing_a_camel_starts_its_payment_with_the_cheapest_way_marked():
    state, obs, legal = find(lambda o, moves: many_ways(o, moves) is not None)
    slot = many_ways(obs, legal)
    payment = gestures.choose(None, MARKET_ROW, slot, obs, legal)
    ways = gestures.ways_to_pay(obs, slot)
    assert payment == Payment(slot, True, gestures.paid_with(ways[0]))
    assert payment.gesture() == (Buy(slot), Pay(ways[0]))
    made = gestures.marked(payment, obs)
    camel = obs.market[slot]
    assert made is not None and made.words.startswith(f"Buy the {camel} for ")
    assert made.keys == "Enter buys, Esc cancels, p lists every way" and made.kept is None
    # The engine takes the whole gesture: buy, then pay.
    assert GAME.why_illegal(GAME.apply(state, Buy(slot)), Pay(ways[0])) is None


def test_marking_cycles_a_good_and_a_payment_that_does_not_pay_is_the_engines_to_refuse():
    state, obs, legal = find(lambda o, moves: many_ways(o, moves) is not None)
    slot = many_ways(obs, legal)
    payment = gestures.new_payment(obs, slot, buying=True)
    good = next(i for i, n in enumerate(obs.hand) if n)
    marked = payment
    for _ in range(obs.hand[good] + 1):  # one more each time, back to none after all held
        marked = gestures.mark(marked, HAND_ROW, good, obs)
    assert isinstance(marked, Payment) and marked.counts == payment.counts
    nothing = Payment(slot, True)
    assert gestures.marked(nothing, obs).actions == (Buy(slot), Pay((0,) * len(RESOURCES)))
    paying = GAME.apply(state, Buy(slot))
    assert "That payment makes 0 units" in GAME.refusal(paying, Pay((0,) * len(RESOURCES)))


def test_marks_are_refused_outside_a_payment_and_for_a_good_not_held():
    _, obs, legal = find(lambda o, moves: 0 in o.hand and many_ways(o, moves) is not None)
    assert gestures.mark(None, HAND_ROW, 0, obs) == Say(
        "Choose a camel in the market first: then mark the cards to pay with."
    )
    assert gestures.mark(None, MARKET_ROW, 0, obs) == Say(
        "Space marks cards of your hand to pay for a camel chosen in the market."
    )
    payment = gestures.new_payment(obs, many_ways(obs, legal), buying=True)
    missing = obs.hand.index(0)
    said = gestures.mark(payment, HAND_ROW, missing, obs)
    assert said == Say(f"You hold no {RESOURCES[missing].good}.", warning=True)


def test_enter_while_paying_confirms_from_any_row_but_another_camel_is_bought_instead():
    _, obs, legal = find(lambda o, moves: sum(isinstance(a, Buy) for a in moves) >= 2)
    first, second = [a.slot for a in legal if isinstance(a, Buy)][:2]
    payment = gestures.new_payment(obs, first, buying=True)
    assert gestures.choose(payment, HAND_ROW, 0, obs, legal) == Confirm()
    assert gestures.choose(payment, RESOURCES_ROW, 0, obs, legal) == Confirm()
    assert gestures.choose(payment, MARKET_ROW, first, obs, legal) == Confirm()
    other = gestures.choose(payment, MARKET_ROW, second, obs, legal)
    assert isinstance(other, Payment) and other.slot == second


def test_choosing_draws_takes_a_face_up_card_or_lets_the_engine_refuse_a_camel():
    _, obs, legal = find(lambda o, moves: o.step is Step.CHOOSE)
    assert gestures.choose(None, RESOURCES_ROW, 0, obs, legal) == Play((DrawCard(),))
    assert gestures.choose(None, RESOURCES_ROW, 3, obs, legal) == Play((TakeCard(2),))
    hand = gestures.choose(None, HAND_ROW, 0, obs, legal)
    assert hand == Say("Space marks a card to pay with, once you have chosen a camel.")
    _, obs, legal = find(lambda o, moves: o.step is Step.SECOND_CARD)
    refused = gestures.choose(None, MARKET_ROW, 0, obs, legal)  # no buying after a first card
    assert refused == Play((Buy(0),))


def test_a_camel_bought_already_keeps_its_payment_and_says_how_to_take_it_back():
    state, obs, legal = find(lambda o, moves: many_ways(o, moves) is not None)
    slot = many_ways(obs, legal)
    after = GAME.apply(state, Buy(slot))
    seen, open_ = GAME.observe(after, 0), GAME.legal_actions(after)
    owed = gestures.owed(seen, open_)
    assert owed is not None and owed.slot == slot and not owed.buying
    assert gestures.payment_fits(owed, seen, open_) and not gestures.payment_fits(owed, seen, ())
    made = gestures.marked(owed, seen)
    assert made is not None and made.actions == (Pay(owed.counts),)
    assert made.kept is not None and "press u" in made.kept
    assert gestures.buy(slot, seen, open_) == owed  # choosing it again: pay, not buy


def test_the_payment_list_offers_every_way_and_buys_first_when_not_yet_bought():
    _, obs, legal = find(lambda o, moves: many_ways(o, moves) is not None)
    slot = many_ways(obs, legal)
    picker = gestures.payment_picker(Payment(slot, True), obs)
    assert isinstance(picker, Ask) and picker.before == (Buy(slot),)
    assert [option.cards for option in picker.options] == gestures.ways_to_pay(obs, slot)
    cost = price(obs.market, slot)
    assert picker.title.startswith(f"Pay {cost} unit{'s' if cost > 1 else ''} for the ")
    assert gestures.payment_picker(Payment(slot, False), obs).before == ()


def test_steps_that_open_a_picker_by_themselves():
    _, obs, legal = find(lambda o, moves: o.step is Step.CHOOSE)
    assert gestures.turn_picker(obs, legal) is None
    forced = gestures.turn_picker(obs, [Pass()])
    assert forced == Ask("No move is possible", (Pass(),))


def test_a_hinted_payment_is_marked_and_hint_spots_name_the_cards():
    cards = (1, 0, 2, 0, 0, 0)
    payment = gestures.hinted(Payment(2, True, Marks[Res]()), Pay(cards))
    assert payment is not None and payment.counts == cards
    assert gestures.hinted(None, Pay(cards)) is None
    assert gestures.hint_spots(Pay(cards)) == [(HAND_ROW, 0), (HAND_ROW, 2)]
    assert gestures.hint_spots(DrawCard()) == [(RESOURCES_ROW, 0)]
    assert gestures.hint_spots(TakeCard(1)) == [(RESOURCES_ROW, 2)]
    assert gestures.hint_spots(Buy(4)) == [(MARKET_ROW, 4)]


def test_a_hinted_purchase_is_marked_with_its_payment_and_said_as_paying_says_it():
    state, obs, legal = find(lambda o, moves: any(isinstance(a, Buy) for a in moves))
    buy = next(a for a in legal if isinstance(a, Buy))
    ways = gestures.ways_to_pay(obs, buy.slot)
    paid = Pay(ways[-1])
    assert gestures.hint_follows(buy) and not gestures.hint_follows(paid)
    payment = gestures.hinted_payment((buy, paid), obs)
    assert payment == Payment(buy.slot, True, gestures.paid_with(paid.cards))
    said = gestures.marked(payment, obs)
    assert said is not None and gestures.purchase_words((buy, paid), obs) == f"{said.words}."
    assert gestures.hinted_payment((buy,), obs) is None  # a purchase comes with its payment
    assert gestures.hinted_payment((paid,), obs) is None  # a payment alone, while buying
    assert gestures.purchase_words((DrawCard(),), obs) is None
    bought = GAME.apply(state, buy)
    seen = GAME.observe(bought, 0)
    assert gestures.hinted_payment((paid,), seen) == Payment(buy.slot, False, payment.cards)


def test_a_card_drawn_blind_is_named_to_its_drawer_only():
    """The log says 'draws a card'; the drawer's own two views tell which, nobody else's."""
    state, before, legal = find(lambda obs, legal: DrawCard() in legal and obs.resource_deck_size)
    after_state = GAME.apply(state, DrawCard())
    after = GAME.observe(after_state, 0)
    gained = next(r for r in RESOURCES if after.hand[r.index] == before.hand[r.index] + 1)
    assert gestures.drawn_blind(before, after) == gained.index
    assert gestures.drawn_words([gained.index]) == f"You drew {gained.counted(1)} from the deck."
    assert (
        gestures.drawn_words([gained.index] * 2) == f"You drew {gained.counted(2)} from the deck."
    )
    other = next(r for r in RESOURCES if r is not gained)
    both = f"You drew {gained.counted(1)} and {other.counted(1)} from the deck."
    assert gestures.drawn_words([gained.index, other.index]) == both
    # Bob, and the public view, learn nothing; nor does a face-up take say anything.
    assert gestures.drawn_blind(GAME.observe(state, 1), GAME.observe(after_state, 1)) is None
    assert gestures.drawn_blind(GAME.observe(state, None), GAME.observe(after_state, None)) is None
    take = next(a for a in legal if isinstance(a, TakeCard) and before.row[a.slot] != Res.GOLD)
    taken = GAME.observe(GAME.apply(state, take), 0)
    if taken.row != before.row:  # a refill of the same good would read as a draw
        assert gestures.drawn_blind(before, taken) is None
