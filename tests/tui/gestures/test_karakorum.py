"""Karakorum's gestures without the app: real deals from the engine, stepped to a position."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from karavan_core.engine import Action
from karavan_core.games.karakorum import GAME
from karavan_core.games.karakorum import state as S  # its decisions: S.Take, S.Place, ...
from karavan_core.games.karakorum.components import Peak
from karavan_core.games.karakorum.state import Card, KarakorumState, Step
from karavan_tui.tables.karakorum.gestures import (
    EXP_ROW,
    MARK_HELP,
    NEW_SLOT,
    STOP_SLOT,
    TABLE_ROW,
    choose_expedition,
    choose_on_table,
    hint_places,
    hinted_place,
    mark,
    marked_gesture,
    marks_fit,
    news_weight,
    row_cards,
    stop_action,
    turn_places,
)
from karavan_tui.tables.marking import Marks
from karavan_tui.tables.outcome import Ask, Say, play

from .deals import first_position

NONE: Marks[Card] = Marks()


def reveal_a_few(state: KarakorumState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Random play, but the active player reveals up to three cards each round."""
    return S.Reveal() if S.Reveal() in legal and len(state.table) < 3 else rng.choice(legal)


def position(wanted: Callable[[KarakorumState], bool]) -> KarakorumState:
    """The first state of seeded play where Ann is to move and ``wanted`` holds."""
    state: KarakorumState = first_position(GAME, wanted, policy=reveal_a_few)
    return state


def ann(state: KarakorumState):
    """Ann's observation and her legal decisions."""
    return GAME.observe(state, 0), tuple(GAME.legal_actions(state))


def at(step: Step) -> Callable[[KarakorumState], bool]:
    """The state is at ``step``."""
    return lambda state: state.step is step


def two_of_a_peak(state: KarakorumState) -> bool:
    """Ann may take two cards of one peak, and there is a card of another peak too."""
    takes = [a.card for a in GAME.legal_actions(state) if isinstance(a, S.Take)]
    return state.step is Step.TAKE and any(
        sum(c.color is card.color for c in takes) >= 2
        and any(c.color is not card.color for c in state.table)
        for card in takes
    )


def placing_with_choice(state: KarakorumState) -> bool:
    """Ann places a taken card that could go to two places, and holds another."""
    places = [a for a in GAME.legal_actions(state) if isinstance(a, S.Place)]
    return (
        state.step is Step.PLACE
        and len(state.held[0]) >= 2
        and any(sum(a.card == b.card for b in places) >= 2 for a in places)
    )


def test_the_deck_reveals_and_the_last_slot_does_what_the_step_needs():
    state = position(at(Step.REVEAL))
    obs, legal = ann(state)
    assert choose_on_table(obs, legal, NONE, 0) == play(S.Reveal())
    assert choose_on_table(obs, legal, NONE, STOP_SLOT) == play(S.StopRevealing())
    assert [stop_action(step) for step in (Step.REVEAL, Step.OTHERS, Step.TAKE_MORE)] == [
        S.StopRevealing(),
        S.Pass(),
        S.StopTaking(),
    ]
    assert stop_action(Step.PLACE) == S.Done()


def test_a_card_on_the_table_is_taken_and_an_empty_place_does_nothing():
    state = position(at(Step.TAKE))
    obs, legal = ann(state)
    card = obs.table[0]
    assert choose_on_table(obs, legal, NONE, 1) == play(S.Take(card))
    assert choose_on_table(obs, legal, NONE, 1 + len(obs.table)) is None


def test_marked_cards_are_taken_together_whichever_slot_is_chosen():
    state = position(two_of_a_peak)
    obs, legal = ann(state)
    takes = [a.card for a in legal if isinstance(a, S.Take)]
    first = next(c for c in takes if sum(o.color is c.color for o in takes) >= 2)
    second = next(c for c in takes if c.color is first.color and c != first)
    marks = mark(obs, NONE, TABLE_ROW, 1 + obs.table.index(first))
    marks = mark(obs, marks, TABLE_ROW, 1 + obs.table.index(second))
    assert isinstance(marks, Marks) and list(marks) == [first, second]
    gesture = choose_on_table(obs, legal, marks, STOP_SLOT)
    assert gesture == play(S.Take(first), S.Take(second))
    state_after = state
    for action in gesture.actions:  # the engine takes both, one after the other
        state_after = GAME.apply(state_after, action)
    assert state_after.held[0] == (first, second)


def test_what_the_marks_make_and_the_engines_words_for_a_mix_of_peaks():
    state = position(two_of_a_peak)
    obs, legal = ann(state)
    takes = [a.card for a in legal if isinstance(a, S.Take)]
    first = next(c for c in takes if sum(o.color is c.color for o in takes) >= 2)
    other = next(c for c in obs.table if c.color is not first.color)
    marks = NONE.toggled(first)
    marked = marked_gesture(obs, marks)
    assert marked is not None and marked.actions == (S.Take(first),)
    assert marked.status(None, "|") == f"Take the {first} | Enter takes, Esc clears"
    mixed = marked_gesture(obs, marks.toggled(other))
    assert mixed is not None and mixed.actions == (S.Take(first), S.Take(other))
    # The status line quotes the engine: the second card is refused after the first.
    after = GAME.apply(state, S.Take(first))
    refusal = GAME.refusal(after, S.Take(other))
    assert mixed.status(refusal, "|") == f"Take the {first} and the {other}? {refusal}"
    assert marked_gesture(obs, NONE) is None


def test_marking_again_unmarks_and_marking_off_the_table_says_how_marking_works():
    state = position(at(Step.TAKE))
    obs, _ = ann(state)
    once = mark(obs, NONE, TABLE_ROW, 1)
    assert isinstance(once, Marks) and list(once) == [obs.table[0]]
    assert mark(obs, once, TABLE_ROW, 1) == NONE
    assert mark(obs, NONE, EXP_ROW, 0) == Say(MARK_HELP)
    assert mark(obs, NONE, TABLE_ROW, 0) == Say(MARK_HELP)  # the deck is no card to mark
    assert mark(obs, NONE, TABLE_ROW, 1 + len(obs.table)) == Say(MARK_HELP)


def test_a_taken_card_is_marked_alone_then_placed_on_the_expedition_chosen():
    state = position(placing_with_choice)
    obs, legal = ann(state)
    places = [a for a in legal if isinstance(a, S.Place)]
    target = places[-1]
    held = row_cards(obs)
    assert held == obs.held[0]
    marks = mark(obs, NONE, TABLE_ROW, 1 + held.index(target.card))
    assert isinstance(marks, Marks) and list(marks) == [target.card]
    other = next(card for card in held if card != target.card)  # marked instead
    swapped = mark(obs, marks, TABLE_ROW, 1 + held.index(other))
    assert isinstance(swapped, Marks) and list(swapped) == [other]
    marked = marked_gesture(obs, marks)
    assert marked is not None and marked.actions == ()
    assert marked.status(None, "|") == (
        f"Place the {target.card}: choose its expedition, or + new exped. | Esc clears"
    )
    slot = NEW_SLOT if target.expedition is None else target.expedition
    assert choose_expedition(obs, legal, marks, slot) == play(target)


def test_a_taken_card_with_several_places_asks_where_it_goes():
    state = position(placing_with_choice)
    obs, legal = ann(state)
    places = [a for a in legal if isinstance(a, S.Place)]
    card = next(a.card for a in places if sum(a.card == b.card for b in places) >= 2)
    options = tuple(a for a in places if a.card == card)
    gesture = choose_on_table(obs, legal, NONE, 1 + obs.held[0].index(card))
    assert gesture == Ask(f"Where does the {card} go?", options)


def test_an_expedition_offers_its_own_decisions_and_refuses_in_the_engines_words():
    def can_score(state: KarakorumState) -> bool:
        return any(isinstance(a, S.Score) for a in GAME.legal_actions(state))

    state = position(can_score)
    obs, legal = ann(state)
    index = next(a.expedition for a in legal if isinstance(a, S.Score))
    gesture = choose_expedition(obs, legal, NONE, index)
    options = tuple(a for a in legal if getattr(a, "expedition", None) == index)
    assert isinstance(gesture, Ask) and gesture.options == options
    assert gesture.title == f"Your {obs.expeditions[0][index]}: what now?"
    # While revealing, an expedition allows nothing: Ann likely means to score or remove
    # it, and the engine says why not.
    later = position(lambda s: s.step is Step.REVEAL and bool(s.expeditions[0]))
    obs, legal = ann(later)
    refused = choose_expedition(obs, legal, NONE, 0)
    assert not isinstance(refused, Ask | Say) and len(refused.actions) == 1
    (meant,) = refused.actions
    assert isinstance(meant, S.Score | S.Remove) and meant.expedition == 0
    assert meant not in legal and GAME.why_illegal(later, meant)


def test_the_new_expedition_slot_refuses_through_the_engine_before_any_card_is_taken():
    state = position(at(Step.TAKE))
    obs, legal = ann(state)
    gesture = choose_expedition(obs, legal, NONE, NEW_SLOT)
    assert gesture == play(S.Place(obs.table[0], None))
    assert GAME.why_illegal(state, gesture.actions[0])


def test_out_of_turn_the_new_expedition_slot_sends_nothing_for_the_host_to_say_whose():
    # Ann has placed all she took and the table is empty: no card to name at all.
    state = position(lambda s: s.step is Step.PLACE and not s.table and not s.held[0])
    bob = GAME.observe(state, 1)
    assert choose_expedition(bob, (), NONE, NEW_SLOT) == play()


def test_marks_last_while_their_cards_are_in_the_row_and_their_player_is_to_move():
    state = position(at(Step.TAKE))
    obs, legal = ann(state)
    marks = NONE.toggled(obs.table[0])
    assert marks_fit(obs, legal, marks)
    assert not marks_fit(obs, (), marks)  # the turn moved on
    after = GAME.apply(state, S.Take(obs.table[0]))
    assert not marks_fit(GAME.observe(after, 0), GAME.legal_actions(after), marks)


def test_a_hint_marks_the_slots_its_decision_acts_on():
    state = position(placing_with_choice)
    obs, legal = ann(state)
    place = next(a for a in legal if isinstance(a, S.Place))
    slot = NEW_SLOT if place.expedition is None else place.expedition
    assert hint_places(obs, place) == [
        (TABLE_ROW, 1 + obs.held[0].index(place.card)),
        (EXP_ROW, slot),
    ]
    assert hint_places(obs, S.Done()) == [(TABLE_ROW, STOP_SLOT)]
    assert hint_places(obs, S.Remove(1)) == [(EXP_ROW, 1)]
    assert hint_places(obs, S.Reveal()) == [(TABLE_ROW, 0)]
    taking = position(at(Step.TAKE))
    obs, _ = ann(taking)
    assert hint_places(obs, S.Take(obs.table[-1])) == [(TABLE_ROW, len(obs.table))]
    assert hint_places(obs, S.Take(Card(Peak.RED, 99, 0))) == []  # no such card on the table


def test_a_hinted_card_to_place_is_marked_and_enter_goes_to_its_expedition():
    state = position(placing_with_choice)
    obs, legal = ann(state)
    place = next(a for a in legal if isinstance(a, S.Place))
    slot = NEW_SLOT if place.expedition is None else place.expedition
    laid = hinted_place(obs, place)
    assert laid == (NONE.alone(place.card), (EXP_ROW, slot))
    assert choose_expedition(obs, legal, laid[0], slot) == play(place)
    assert hinted_place(obs, S.Done()) is None
    taking = position(at(Step.TAKE))
    obs, legal = ann(taking)
    assert hinted_place(obs, S.Place(obs.table[0], None)) is None  # not while taking


def test_a_turn_starts_on_the_likeliest_decision_of_its_step():
    revealing = position(at(Step.REVEAL))
    assert turn_places(*ann(revealing)) == [(TABLE_ROW, 0)]
    taking = position(at(Step.TAKE))
    obs, legal = ann(taking)
    first = next(a.card for a in legal if isinstance(a, S.Take))
    assert turn_places(obs, legal) == [(TABLE_ROW, 1 + obs.table.index(first))]
    placing = position(placing_with_choice)
    obs, legal = ann(placing)
    place = next(a for a in legal if isinstance(a, S.Place))
    spots = turn_places(obs, legal)
    assert spots[0] == (TABLE_ROW, 1 + obs.held[0].index(place.card))
    assert spots[1][0] == EXP_ROW  # Down then Enter puts it on its first place


def test_scoring_tells_more_news_than_taking_and_ending_a_turn_the_least():
    weights = [news_weight(a) for a in (S.Score(0, None), S.Take(Card(Peak.RED, 5, 1)), S.Reveal())]
    assert weights == [3, 2, 1] and news_weight(S.Done()) == 0
