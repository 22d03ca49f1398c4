"""Jaipur's gestures without an app: real deals from the engine, each gesture and its refusals."""

from __future__ import annotations

from attrs import evolve

from karavan_core.games.jaipur.components import GOODS, MARKET_SIZE, Card
from karavan_core.games.jaipur.rules import cards_of
from karavan_core.games.jaipur.state import Exchange, Sell, TakeCamels, TakeGood
from karavan_core.registry import get_game
from karavan_tui.tables.jaipur import gestures
from karavan_tui.tables.jaipur.gestures import EXCHANGE, HAND_ROW, HERD, MARKET_ROW, ExchangeMarks
from karavan_tui.tables.marking import Marks
from karavan_tui.tables.outcome import Ask, Confirm, Pick, Play, Refuse, Say

GAME = get_game("jaipur")


def deal(seed: int = 7):
    """A fresh deal at Ann's turn: the engine's state, Ann's view, her decisions, the market."""
    state = GAME.new_game(["Ann", "Bob"], seed, {"first_player": 0})
    obs = GAME.observe(state, 0)
    return state, obs, GAME.legal_actions(state), cards_of(obs.market)[:MARKET_SIZE]


def find(test, seeds=range(1, 300)):
    """The first deal for which ``test(obs, legal, places)`` holds."""
    for seed in seeds:
        state, obs, legal, places = deal(seed)
        if test(obs, legal, places):
            return state, obs, legal, places
    raise AssertionError("no such deal")


def a_good(places):
    """The first market place holding a good (not a camel)."""
    return next(i for i, card in enumerate(places) if card is not Card.CAMEL)


def test_marking_market_goods_makes_an_exchange_and_says_what_it_takes():
    state, obs, legal, places = find(lambda o, moves, p: sum(c is not Card.CAMEL for c in p) >= 2)
    first, second = [i for i, card in enumerate(places) if card is not Card.CAMEL][:2]
    marks = gestures.mark(ExchangeMarks(), MARKET_ROW, first, obs, legal, places)
    marks = gestures.mark(marks, MARKET_ROW, second, obs, legal, places)
    assert isinstance(marks, ExchangeMarks) and list(marks.taking) == [first, second]
    made = gestures.marked(marks, places)
    assert made is not None and made.words == "Exchange: take 2, give 0"
    take = [0] * len(GOODS)
    for place in (first, second):
        take[places[place].index] += 1
    assert made.actions == (Exchange(tuple(take), (0,) * len(GOODS), 0),)
    assert made.keys == "Enter exchanges, Esc clears"
    # The engine refuses it as it stands: nothing is given back yet.
    assert "gives back exactly" in GAME.refusal(state, made.actions[0])
    again = gestures.mark(marks, MARKET_ROW, first, obs, legal, places)  # unmarked again
    assert isinstance(again, ExchangeMarks) and list(again.taking) == [second]


def test_giving_cards_cycles_through_what_is_held_and_the_engine_accepts_the_whole_exchange():
    def fits(obs, legal, places):
        return any(isinstance(a, Exchange) and not a.camels and sum(a.take) == 2 for a in legal)

    state, obs, legal, places = find(fits)
    wanted = next(a for a in legal if isinstance(a, Exchange) and not a.camels and sum(a.take) == 2)
    marks = ExchangeMarks()
    used: set[int] = set()
    for good in GOODS:
        for _ in range(wanted.take[good.index]):
            place = next(i for i, c in enumerate(places) if c is good and i not in used)
            used.add(place)
            marks = gestures.mark(marks, MARKET_ROW, place, obs, legal, places)
    for good in GOODS:
        for _ in range(wanted.give[good.index]):
            marks = gestures.mark(marks, HAND_ROW, good.index, obs, legal, places)
    assert isinstance(marks, ExchangeMarks)
    made = gestures.marked(marks, places)
    assert made is not None and made.actions == (wanted,)
    assert GAME.why_illegal(state, wanted) is None
    # One more than held goes back to none.
    good = next(g for g in GOODS if obs.hand[g.index])
    cycled = ExchangeMarks()
    for _ in range(obs.hand[good.index] + 1):
        cycled = gestures.mark(cycled, HAND_ROW, good.index, obs, legal, places)
    assert isinstance(cycled, ExchangeMarks) and not cycled


def test_a_good_not_held_or_an_empty_herd_cannot_be_marked_and_nothing_changes():
    _, obs, legal, places = find(lambda o, moves, p: 0 in o.hand and o.herds[0] == 0)
    missing = next(g for g in GOODS if not obs.hand[g.index])
    marks = ExchangeMarks()
    said = gestures.mark(marks, HAND_ROW, missing.index, obs, legal, places)
    assert said == Say(f"You hold no {gestures.noun(missing)}.", warning=True)
    herd = gestures.mark(marks, HAND_ROW, HERD, obs, legal, places)
    assert herd == Say("Your herd has no camel to give.", warning=True)


def test_a_camel_marked_in_the_market_is_refused_by_the_rule_of_the_exchange():
    # Taking one camel alone is another rule (the engine's), which Enter on a camel never meets.
    _, obs, legal, places = find(lambda o, moves, p: Card.CAMEL in p)
    camel = places.index(Card.CAMEL)
    refused = gestures.mark(ExchangeMarks(), MARKET_ROW, camel, obs, legal, places)
    assert isinstance(refused, Say) and refused.warning
    assert refused.text.startswith("Camels cannot be taken in an exchange")


def test_out_of_turn_nothing_is_marked_and_the_screen_says_whose_turn():
    _, obs, _, places = deal()
    assert gestures.mark(ExchangeMarks(), MARKET_ROW, 0, obs, (), places) == Play(())
    assert gestures.exchange_picker(()) == Play(())


def test_the_exchange_card_confirms_the_marks_or_lets_the_engine_refuse_an_empty_exchange():
    _, obs, legal, places = deal()
    empty = gestures.mark(ExchangeMarks(), MARKET_ROW, EXCHANGE, obs, legal, places)
    assert empty == Play((Exchange((0,) * len(GOODS), (0,) * len(GOODS), 0),))
    marks = ExchangeMarks(Marks[int]().toggled(a_good(places)))
    assert gestures.mark(marks, MARKET_ROW, EXCHANGE, obs, legal, places) == Confirm()
    assert gestures.choose(HAND_ROW, 0, True, obs, legal, places) == Confirm()  # Enter anywhere


def test_choosing_takes_a_good_or_every_camel_and_sells_from_the_hand():
    _, obs, legal, places = find(lambda o, moves, p: Card.CAMEL in p)
    good = a_good(places)
    assert gestures.choose(MARKET_ROW, good, False, obs, legal, places) == Play(
        (TakeGood(places[good]),)
    )
    camel = places.index(Card.CAMEL)
    assert gestures.choose(MARKET_ROW, camel, False, obs, legal, places) == Play((TakeCamels(),))
    herd = gestures.choose(HAND_ROW, HERD, False, obs, legal, places)
    assert herd == Refuse((Sell(Card.CAMEL, 1),), "Space marks them to give in an exchange.")


def counts(legal, good):
    """How many cards of ``good`` the sales among ``legal`` may sell."""
    return [a.count for a in legal if isinstance(a, Sell) and a.good is good]


def test_selling_asks_how_many_among_the_sales_offered_or_lets_the_engine_refuse():
    def several(o, moves, p):
        return 0 in o.hand and any(len(counts(moves, good)) > 1 for good in GOODS)

    _, obs, legal, places = find(several)
    good = next(good for good in GOODS if len(counts(legal, good)) > 1)
    asked = gestures.choose(HAND_ROW, good.index, False, obs, legal, places)
    assert isinstance(asked, Ask) and asked.title.startswith("Sell")
    assert set(asked.options) == {Sell(good, n) for n in counts(legal, good)}
    missing = next(g for g in GOODS if not obs.hand[g.index])
    refused = gestures.choose(HAND_ROW, missing.index, False, obs, legal, places)
    assert refused == Play((Sell(missing, 1),))  # the engine says none is held


def test_the_exchange_picker_lists_the_takes_then_the_ways_to_give_camels_first():
    _, _, legal, _ = find(
        lambda o, moves, p: any(isinstance(a, Exchange) and a.camels for a in moves)
    )
    picker = gestures.exchange_picker(legal)
    assert isinstance(picker, Pick) and picker.title.startswith("Exchange")
    offers = [a for a in legal if isinstance(a, Exchange)]
    assert len(picker.labels) == len({a.take for a in offers})
    for index in range(len(picker.labels)):
        step = picker.then(index)
        assert isinstance(step, Ask) and step.options
        assert all(option in offers for option in step.options)
        camels = [option.camels for option in step.options]
        assert camels == sorted(camels, reverse=True)
    assert gestures.exchange_picker([TakeCamels()]) == Say(
        "You have no exchange to make now.", warning=True, title="Not allowed"
    )


def test_hint_spots_name_the_cards_a_decision_takes_or_gives():
    places = [Card.GOLD, Card.CAMEL, Card.GOLD, Card.SPICE, Card.CAMEL]
    assert gestures.hint_spots(TakeGood(Card.SPICE), places) == [(MARKET_ROW, 3)]
    assert gestures.hint_spots(TakeCamels(), places) == [(MARKET_ROW, 1), (MARKET_ROW, 4)]
    assert gestures.hint_spots(Sell(Card.CLOTH, 2), places) == [(HAND_ROW, Card.CLOTH.index)]
    take = [0] * len(GOODS)
    take[Card.GOLD.index] = 2
    give = [0] * len(GOODS)
    give[Card.LEATHER.index] = 1
    spots = gestures.hint_spots(Exchange(tuple(take), tuple(give), 1), places)
    assert spots == [
        (MARKET_ROW, 0),
        (MARKET_ROW, 2),
        (HAND_ROW, Card.LEATHER.index),
        (HAND_ROW, HERD),
    ]


def test_a_hinted_exchange_is_marked_as_the_player_would_mark_it():
    places = [Card.GOLD, Card.CAMEL, Card.GOLD, Card.SPICE, Card.CAMEL]
    take = [0] * len(GOODS)
    take[Card.GOLD.index] = 2
    give = [0] * len(GOODS)
    give[Card.LEATHER.index] = 1
    exchange = Exchange(tuple(take), tuple(give), 1)
    marks = gestures.hinted_exchange(exchange, places)
    assert marks is not None and marks.exchange(places) == exchange
    assert list(marks.taking) == [0, 2]
    assert list(marks.giving) == [Card.LEATHER, Card.CAMEL]
    assert gestures.hinted_exchange(TakeGood(Card.SPICE), places) is None


def test_one_count_offered_still_asks_so_that_a_stray_enter_sells_nothing():
    def single(o, moves, p):
        return any(len(counts(moves, good)) == 1 for good in GOODS)

    _, obs, legal, places = find(single)
    good = next(good for good in GOODS if len(counts(legal, good)) == 1)
    (count,) = counts(legal, good)
    asked = gestures.choose(HAND_ROW, good.index, False, obs, legal, places)
    assert asked == Ask(f"Sell {gestures.noun(good)}?", (Sell(good, count),))
    # Two other goods out of tokens, this one's last tokens taken by the sale: the round
    # would end, and the picker's words say so.
    others = [other for other in GOODS if other is not good][:2]
    piles = tuple(
        () if other in others else pile[:count] if other is good else pile
        for other, pile in zip(GOODS, obs.goods_piles, strict=True)
    )
    ending = evolve(obs, goods_piles=piles)
    asked = gestures.choose(HAND_ROW, good.index, False, ending, legal, places)
    assert isinstance(asked, Ask) and asked.options == (Sell(good, count),)
    assert "so the round ends" in GAME.preview(ending, Sell(good, count))
