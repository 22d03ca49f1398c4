"""Karakorum: rulebook cases that tests/core/test_karakorum.py leaves uncovered.

Written in a review of the rules against the rulebook and RULINGS.md.  Scenario
states are built from a real deal with only the relevant fields changed.
"""

from __future__ import annotations

from attrs import evolve

from karavan_core.games.karakorum.components import GoalKind
from karavan_core.games.karakorum.rules import ALL_GOALS
from karavan_core.games.karakorum.state import (
    Done,
    Goal,
    Pass,
    Place,
    Remove,
    Reveal,
    Score,
    Step,
    StopRevealing,
    StopTaking,
    Take,
)
from tests.core.test_karakorum import GAME, G, R, Y, card, ex, play, refuse, table
from tests.core.test_karakorum import placing as placing_as_active


def placing(seat: int, held, exps, players: int = 2, **changes):
    """``seat`` is about to place ``held`` on ``exps``; Adam (seat 0) is active."""
    return placing_as_active(seat, held, exps, players, **{"active": 0, **changes})


# -- taking --------------------------------------------------------------------------


def test_the_active_player_may_take_any_number_of_one_colour():
    """'They can take more, as long as they are of the same peak': here all three reds."""
    reds = (card(R, 2), card(R, 5), card(R, 7))
    state = table(3, step=Step.TAKE, table=(*reds, card(G, 3)))
    state = play(state, Take(reds[1]), Take(reds[0]))
    assert state.step is Step.TAKE_MORE
    assert set(GAME.legal_actions(state)) == {Take(reds[2]), StopTaking()}
    state = GAME.apply(state, Take(reds[2]))
    # Only the green 3 is left: the others are offered it, clockwise from Adam's left.
    assert state.held[0] == (reds[1], reds[0], reds[2])
    assert state.step is Step.OTHERS and state.current == 1


def test_each_other_player_takes_one_card_at_most_then_leftovers_are_discarded():
    g4, g5, y1 = card(G, 4), card(G, 5), card(Y, 1)
    state = table(3, step=Step.OTHERS, current=1, table=(g4, g5, y1))
    state = GAME.apply(state, Take(g4))
    assert state.step is Step.OTHERS and state.current == 2  # Paulina's one card is taken
    state = GAME.apply(state, Pass())  # Tomek declines
    assert state.table == () and state.discard[-2:] == (g5, y1)
    assert state.step is Step.PLACE and state.current == 1 and state.held[1] == (g4,)


# -- placing --------------------------------------------------------------------------


def test_a_card_equal_to_the_top_card_may_be_added():
    """Rule B: values 'equal to or higher' than the top card."""
    state = placing(0, (card(R, 5, 0),), (ex(R, 3, 5),))
    assert Place(card(R, 5, 0), 0) in GAME.legal_actions(state)
    state = GAME.apply(state, Place(card(R, 5, 0), 0))
    assert [c.value for c in state.expeditions[0][0].cards] == [3, 5, 5]


def test_a_third_expedition_of_one_colour_is_refused_even_with_room():
    state = placing(0, (card(R, 1),), (ex(R, 5, 6, 7), ex(R, 4, 5, 6)))
    assert "at most one per peak plus one extra" in refuse(state, Place(card(R, 1), None))


def test_another_taker_places_and_scores_after_the_active_player():
    """Steps 2 and 3 go round in player order; a non-active taker may claim a goal too."""
    r8, g4 = card(R, 8), card(G, 4)
    state = table(
        2,
        step=Step.PLACE,
        active=0,
        current=0,
        table=(),
        held=((r8,), (g4,)),
        expeditions=((ex(R, 1),), (ex(G, 1, 2, 3, axes=0),)),
        deck=(card(Y, 1), card(Y, 2)),
    )
    state = GAME.apply(state, Place(r8, 0))  # Adam's turn ends by itself
    assert state.step is Step.PLACE and state.current == 1
    assert set(GAME.legal_actions(state)) == {Place(g4, 0), Place(g4, None)}
    state = GAME.apply(state, Place(g4, 0))
    assert set(GAME.legal_actions(state)) == {Score(0, None), Score(0, GoalKind.FOUR), Done()}
    state = GAME.apply(state, Score(0, GoalKind.FOUR))
    assert state.tracks[1] == (0, 5, 0) and state.claimed[1] == (Goal(G, GoalKind.FOUR),)
    assert state.round == 1 and state.active == 1  # everyone done: the marker passes


def test_scoring_is_optional_and_the_chance_passes_with_the_turn():
    state = placing(0, (card(R, 4),), (ex(R, 1, 2, 3),), deck=(card(Y, 1), card(Y, 2)))
    state = play(state, Place(card(R, 4), 0), Done())
    assert state.expeditions[0] == (ex(R, 1, 2, 3, 4),)  # kept, no longer fresh
    assert state.tracks[0] == (0, 0, 0)
    later = placing(0, (card(G, 1),), state.expeditions[0])
    assert "received a card" in refuse(later, Score(0, None))


# -- goal cards ------------------------------------------------------------------------


def test_goal_thresholds_are_exact():
    # Three cards meet no card-count goal; five cards meet the 4-card goal but not the 6-card.
    state = placing(0, (card(R, 3, 3),), (ex(R, 1, 2, axes=3),))
    state = GAME.apply(state, Place(card(R, 3, 3), 0))
    assert set(GAME.legal_actions(state)) == {Score(0, None), Done()}  # 9 axes: no 10-axe goal
    assert "does not meet" in refuse(state, Score(0, GoalKind.AXES))
    assert "does not meet" in refuse(state, Score(0, GoalKind.FOUR))
    state = placing(0, (card(G, 5, 0),), (ex(G, 1, 2, 3, 4, axes=0),))
    state = GAME.apply(state, Place(card(G, 5, 0), 0))
    assert Score(0, GoalKind.FOUR) in GAME.legal_actions(state)
    assert "does not meet" in refuse(state, Score(0, GoalKind.SIX))


def test_ten_axes_exactly_meet_the_axe_goal():
    state = placing(0, (card(Y, 4, 1),), (ex(Y, 1, 2, 3, axes=3),))
    state = GAME.apply(state, Place(card(Y, 4, 1), 0))
    assert Score(0, GoalKind.AXES) in GAME.legal_actions(state)


def test_only_goal_cards_of_the_expeditions_own_peak_count():
    """The red 4-card goal is gone; the green one does not help a red expedition."""
    goals = tuple(g for g in ALL_GOALS if g != Goal(R, GoalKind.FOUR))
    state = placing(0, (card(R, 4),), (ex(R, 1, 2, 3, axes=0),), goals=goals)
    state = GAME.apply(state, Place(card(R, 4), 0))
    assert Goal(G, GoalKind.FOUR) in state.goals
    assert set(GAME.legal_actions(state)) == {Score(0, None), Done()}


def test_double_goal_needs_a_second_expedition_of_three_in_the_same_peak():
    # The other red expedition has only two cards.
    state = placing(0, (card(R, 3),), (ex(R, 1, 2), ex(R, 5, 6)))
    state = GAME.apply(state, Place(card(R, 3), 0))
    assert "does not meet" in refuse(state, Score(0, GoalKind.DOUBLE))
    # Two expeditions of three, but of different peaks.
    state = placing(0, (card(R, 3),), (ex(R, 1, 2), ex(G, 5, 6, 7)))
    state = GAME.apply(state, Place(card(R, 3), 0))
    assert "does not meet" in refuse(state, Score(0, GoalKind.DOUBLE))


def test_double_goal_after_adding_to_both_discards_both_and_uses_the_card_once():
    r3, r8 = card(R, 3), card(R, 8)
    state = placing(0, (r3, r8), (ex(R, 1, 2), ex(R, 5, 6)), players=3)
    state = play(state, Place(r3, 0), Place(r8, 1))
    assert {Score(0, GoalKind.DOUBLE), Score(1, GoalKind.DOUBLE)} <= set(GAME.legal_actions(state))
    discard = len(state.discard)
    state = GAME.apply(state, Score(1, GoalKind.DOUBLE))
    assert state.tracks[0] == (10, 0, 0) and state.expeditions[0] == ()
    assert len(state.discard) == discard + 6
    assert Goal(R, GoalKind.DOUBLE) not in state.goals


# -- the top of the track -----------------------------------------------------------------


def test_at_thirty_a_second_expedition_scores_without_moving_or_is_removed():
    """Special rule 2: the marker stays on 30; removing still costs 3."""
    exps = (ex(R, 1, 2), ex(R, 5), ex(G, 1))
    state = placing(0, (card(R, 3),), exps, tracks=((30, 4, 0), (0, 0, 0)))
    state = GAME.apply(state, Place(card(R, 3), 0))
    state = GAME.apply(state, Score(0, None))
    assert state.tracks[0] == (30, 4, 0)
    assert [e.color for e in state.expeditions[0]] == [R, G]  # the cards went to the discard
    state = GAME.apply(state, Remove(0))
    assert state.tracks[0] == (27, 4, 0)


# -- the end ---------------------------------------------------------------------------------


def test_the_round_revealing_the_last_card_is_played_out_before_the_end():
    r5, g5 = card(R, 5), card(G, 5)
    state = table(2, table=(r5,), deck=(g5,))
    state = GAME.apply(state, Reveal())  # the last card: this round is the last
    assert state.deck == () and state.step is Step.TAKE
    state = play(state, Take(r5))
    assert state.step is Step.OTHERS and state.current == 1  # the round goes on as usual
    state = GAME.apply(state, Take(g5))
    state = play(state, Place(r5, None))
    assert state.step is Step.PLACE and state.current == 1
    state = GAME.apply(state, Place(g5, None))
    # Both 1-card expeditions are removed in the final cancelling, at 0 already.
    assert state.step is Step.OVER and state.expeditions == ((), ())
    assert state.tracks == ((0, 0, 0), (0, 0, 0))


def test_a_round_that_leaves_cards_in_the_deck_is_not_the_last():
    state = table(2, table=(card(R, 5),), deck=(card(G, 5), card(G, 6)))
    state = play(state, StopRevealing(), Take(card(R, 5)), Place(card(R, 5), None))
    assert state.step is Step.REVEAL and state.active == 1 and state.round == 1


def test_final_cancelling_loses_moves_past_thirty_and_uses_no_goal_cards():
    adam = (ex(R, 1, 2, 3, 4, 5, 6, axes=3), ex(G, 4, 5, 6, axes=2))
    state = placing(0, (), adam, deck=(), expeditions=(adam, ()), tracks=((25, 0, 0), (0, 0, 0)))
    state = evolve(state, expeditions=((adam[0], evolve(adam[1], fresh=True)), ()))
    state = GAME.apply(state, Done())
    assert state.step is Step.OVER
    assert state.tracks[0] == (30, 6, 0)  # 25 + 18 capped; green by its 6 axes, not a goal
    assert state.goals == ALL_GOALS and state.claimed == ((), ())


def test_champion_of_all_three_peaks_drops_the_least_advanced():
    state = table(2, step=Step.OVER, tracks=((20, 18, 25), (10, 12, 14)))
    result = GAME.result(state)
    assert result.scores == (45, 0) and result.winners == (0,)
    assert dict(result.breakdown[0])["Marker dropped"] == "green (18)"
