"""Karakorum's rules, one test per rule: the rulebook, its example round and docs/rulings.md.

Scenario states are built from a real deal with only the relevant fields changed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from karavan_core import Match, Seat, get_game
from karavan_core.games.karakorum import state as S  # its decisions: S.Take, S.Place, ...
from karavan_core.games.karakorum.components import GoalKind, Peak
from karavan_core.games.karakorum.expeditions import can_place_all, has_room
from karavan_core.games.karakorum.rules import ALL_CARDS, ALL_GOALS
from karavan_core.games.karakorum.state import Card, Expedition, Goal, KarakorumObservation, Step
from karavan_core.referee import Referee
from tests.core.rules_helpers import log_line, preview, prompt
from tests.core.rules_helpers import refuse as refuse_in

GAME = get_game("karakorum")
R, G, Y = Peak.RED, Peak.GREEN, Peak.YELLOW
NAMES = ("Adam", "Paulina", "Tomek", "Tatiana")


def card(color: Peak, value: int, axes: int = 1) -> Card:
    return Card(color, value, axes)


def ex(color: Peak, *values: int, axes: int = 1, fresh: bool = False) -> Expedition:
    """An expedition of ``color`` with these values, every card showing ``axes`` axes."""
    return Expedition(tuple(card(color, v, axes) for v in values), fresh)


def table(players: int = 2, **changes):
    """A fresh deal with Adam (seat 0) holding the marker, then ``changes`` applied."""
    state = GAME.new_game(NAMES[:players], seed=3, options={"first_player": 0})
    return evolve(state, **changes)


def placing(seat: int, held, exps, players: int = 2, **changes):
    """``seat`` is the active player, about to place ``held`` on expeditions ``exps``."""
    expeditions = [()] * players
    expeditions[seat] = tuple(exps)
    held_all = [()] * players
    held_all[seat] = tuple(held)
    base = dict(
        step=Step.PLACE,
        active=seat,
        current=seat,
        table=(),
        held=tuple(held_all),
        expeditions=tuple(expeditions),
    )
    base.update(changes)
    return table(players, **base)


def refuse(state, action) -> str:
    return refuse_in(GAME, state, action)


def play(state, *actions):
    for action in actions:
        state = GAME.apply(state, action)
    return state


# -- components and setup ------------------------------------------------------------------


def test_components_match_the_rulebook():
    """120 summit cards: 3 peaks x values 1-8 x five copies with 0, 1, 1, 2, 3 axes; 12 goals."""
    assert len(ALL_CARDS) == 120
    copies = Counter((c.color, c.value) for c in ALL_CARDS)
    assert set(copies.values()) == {5} and len(copies) == 24
    assert sorted(c.axes for c in ALL_CARDS if (c.color, c.value) == (G, 6)) == [0, 1, 1, 2, 3]
    assert len(ALL_GOALS) == 12
    points = {goal.kind: goal.kind.points for goal in ALL_GOALS}
    assert points == {GoalKind.FOUR: 5, GoalKind.SIX: 12, GoalKind.DOUBLE: 10, GoalKind.AXES: 15}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_reveals_the_first_card_for_the_active_player(players):
    state = GAME.new_game(NAMES[:players], seed=11, options={"first_player": 1})
    assert state.active == state.current == 1 and state.step is Step.REVEAL
    assert len(state.table) == 1 and len(state.deck) == 119
    assert state.tracks == ((0, 0, 0),) * players
    assert state.goals == ALL_GOALS
    assert GAME.legal_actions(state) == [S.Reveal(), S.StopRevealing()]


def test_first_player_is_drawn_from_the_seed_when_not_given():
    seats = {GAME.new_game(NAMES, seed=s).active for s in range(30)}
    assert seats == {0, 1, 2, 3}
    with pytest.raises(ValueError):
        GAME.new_game(NAMES, seed=1, options={"first_player": 4})


# -- revealing -----------------------------------------------------------------------------


def test_the_active_player_reveals_at_most_players_plus_one():
    deck = (card(R, 1), card(R, 2), card(R, 3), card(G, 4))
    state = table(3, table=(card(Y, 1),), deck=deck)
    for revealed in (2, 3):
        state = GAME.apply(state, S.Reveal())
        assert len(state.table) == revealed and state.step is Step.REVEAL
    state = GAME.apply(state, S.Reveal())  # the fourth card is the limit for three players
    assert len(state.table) == 4 and state.step is Step.TAKE
    assert "reveal" in refuse(state, S.Reveal())
    assert log_line(GAME, table(3, table=(card(Y, 1),), deck=deck), S.Reveal()).endswith(
        "Adam reveals the red 1 (1 axe)."
    )


def test_revealing_the_last_card_makes_the_last_round():
    state = table(2, table=(card(Y, 1),), deck=(card(R, 2),))
    text = log_line(GAME, state, S.Reveal())
    state = GAME.apply(state, S.Reveal())
    assert state.deck == () and state.step is Step.TAKE  # nothing left to reveal
    assert "last round" in text


# -- the rulebook's example round ----------------------------------------------------------


def test_rulebook_example_round():
    """Adam reveals five; takes red 5 and 7; Paulina a green 4; Tomek a red 4; Tatiana passes."""
    r5, r7, g4, r4, g5 = card(R, 5), card(R, 7, 2), card(G, 4), card(R, 4), card(G, 5)
    rest = (card(Y, 2), card(Y, 3))
    # Tatiana's four expeditions are all too big to remove and none can take a green 5.
    tatiana = (ex(G, 6, 7, 8), ex(R, 1, 2, 3), ex(R, 2, 3, 4), ex(Y, 1, 2, 3))
    state = table(
        4,
        table=(r5,),
        deck=(r7, g4, r4, g5, *rest),
        expeditions=((), (), (), tatiana),
    )
    state = play(state, S.Reveal(), S.Reveal(), S.Reveal(), S.Reveal())
    assert state.table == (r5, r7, g4, r4, g5) and state.step is Step.TAKE

    state = GAME.apply(state, S.Take(r5))
    assert state.step is Step.TAKE_MORE
    assert set(GAME.legal_actions(state)) == {S.Take(r7), S.Take(r4), S.StopTaking()}
    assert "red" in refuse(state, S.Take(g4))
    text = log_line(GAME, state, S.Take(r7))
    assert text == "Adam also takes the red 7 (2 axes)."
    state = play(state, S.Take(r7), S.StopTaking())

    assert state.step is Step.OTHERS and state.current == 1
    assert set(GAME.legal_actions(state)) == {S.Take(g4), S.Take(r4), S.Take(g5), S.Pass()}
    state = play(state, S.Take(g4))
    assert state.current == 2
    state = GAME.apply(state, S.Take(r4))
    # Tatiana could place the green 5 nowhere: she passes without being asked.
    assert g5 in state.discard and state.table == ()
    assert state.held == ((r5, r7), (g4,), (r4,), ())

    # Placing goes in player order from Adam.
    assert state.step is Step.PLACE and state.current == 0
    assert S.Place(r7, None) in GAME.legal_actions(state)
    state = play(state, S.Place(r5, None), S.Place(r7, 0))
    assert state.expeditions[0] == (Expedition((r5, r7)),)  # turn over: no longer fresh
    assert state.current == 1
    state = GAME.apply(state, S.Place(g4, None))
    assert state.current == 2
    text = log_line(GAME, state, S.Place(r4, None))
    state = GAME.apply(state, S.Place(r4, None))
    assert state.round == 1 and state.active == 1 and state.step is Step.REVEAL
    assert state.table == rest[:1]
    assert "Paulina holds the first-player marker and reveals the yellow 2" in text


# -- taking only what can be placed --------------------------------------------------------


def test_a_card_may_be_taken_only_if_it_can_be_placed_counting_removals():
    """A green 2 fits once the 1-card green expedition is removed; a yellow 2 never fits."""
    g2, y2 = card(G, 2), card(Y, 2)
    exps = (ex(R, 3, 4, 5), ex(R, 4, 5, 6), ex(G, 7), ex(Y, 6, 7, 8))
    state = table(
        2,
        step=Step.OTHERS,
        current=1,
        table=(g2, y2),
        expeditions=((), exps),
        tracks=((0, 0, 0), (0, 2, 0)),
    )
    assert GAME.legal_actions(state) == [S.Take(g2), S.Pass()]
    assert "even after removing" in refuse(state, S.Take(y2))
    state = GAME.apply(state, S.Take(g2))  # Adam has nothing to place; Paulina places
    assert state.step is Step.PLACE and state.current == 1
    assert GAME.legal_actions(state) == [S.Remove(2)]
    assert "start another expedition" in refuse(state, S.Place(g2, None))
    state = GAME.apply(state, S.Remove(2))
    assert state.tracks[1] == (0, 0, 0)  # 2 - 3, but never below the base camp
    assert GAME.legal_actions(state) == [S.Place(g2, None)]


def test_active_player_who_can_place_nothing_reveals_to_the_limit_and_takes_nothing():
    """The rulebook's exception: four blocked expeditions, nothing removable."""
    blocked = (ex(R, 3, 4, 5), ex(R, 4, 5, 6), ex(G, 3, 4, 5), ex(Y, 3, 4, 5))
    low = (card(R, 2), card(G, 2), card(Y, 2))
    state = placing(
        1, (card(Y, 3),), (), expeditions=(blocked, ()), deck=(*low, card(R, 8), card(G, 8))
    )
    # Paulina places her card; the next round is Adam's, who cannot stop revealing.
    state = GAME.apply(state, S.Place(card(Y, 3), None))
    assert state.active == 0 and state.held[0] == ()
    assert state.table == low  # revealed up to the limit of three
    assert state.step is Step.OTHERS and state.current == 1


def test_the_active_player_cannot_stop_revealing_while_nothing_can_be_taken():
    blocked = (ex(R, 3, 4, 5), ex(R, 4, 5, 6), ex(G, 3, 4, 5), ex(Y, 3, 4, 5))
    state = table(3, table=(card(R, 1),), deck=(card(G, 1), card(Y, 7), card(R, 2)))
    state = evolve(state, expeditions=(blocked, (), ()))
    state = GAME.apply(state, S.Reveal())  # the green 1 fits nowhere either: one more follows
    assert state.table == (card(R, 1), card(G, 1), card(Y, 7))
    assert state.step is Step.REVEAL  # the yellow 7 fits on the yellow expedition


def test_the_active_player_must_take_and_cannot_pass():
    state = table(2, step=Step.TAKE, table=(card(R, 1),))
    assert GAME.legal_actions(state) == [S.Take(card(R, 1))]
    assert "cannot pass" in refuse(state, S.Pass())
    assert refuse(state, S.StopTaking())


def test_more_cards_only_of_the_same_peak():
    """The red 3 needs the last free place; the red 2 can share that new expedition."""
    exps = (ex(R, 5, 6, 7), ex(G, 3, 4, 5), ex(Y, 3, 4, 5))
    state = table(
        2,
        step=Step.TAKE,
        table=(card(R, 3), card(R, 2), card(R, 8), card(G, 8)),
        expeditions=(exps, ()),
    )
    state = GAME.apply(state, S.Take(card(R, 3)))
    assert set(GAME.legal_actions(state)) == {
        S.Take(card(R, 2)),
        S.Take(card(R, 8)),
        S.StopTaking(),
    }
    assert "Further cards must be red" in refuse(state, S.Take(card(G, 8)))


# -- the active player's special cases -----------------------------------------------------


def test_split_between_two_expeditions_and_score_both():
    r4, r8 = card(R, 4), card(R, 8)
    state = placing(0, (r4, r8), (ex(R, 2, 3), ex(R, 5, 6, 7)))
    state = play(state, S.Place(r4, 0), S.Place(r8, 1))
    legal = GAME.legal_actions(state)
    assert {S.Score(0, None), S.Score(1, None), S.Score(1, GoalKind.FOUR), S.Done()} <= set(legal)
    assert S.Score(1, GoalKind.DOUBLE) in legal  # two red expeditions of three or more
    state = play(state, S.Score(0, None))  # 3 axes
    assert state.tracks[0] == (3, 0, 0)
    assert GAME.legal_actions(state)[0] == S.Score(0, None)  # the 4-card one moved down
    state = GAME.apply(state, S.Score(0, GoalKind.FOUR))
    assert state.tracks[0] == (8, 0, 0) and state.expeditions[0] == ()
    assert state.claimed[0] == (Goal(R, GoalKind.FOUR),)


def test_start_a_second_expedition_of_the_same_colour():
    r2, r8 = card(R, 2), card(R, 8)
    state = placing(0, (r2, r8), (ex(R, 5, 6, 7),))
    assert S.Place(r2, None) in GAME.legal_actions(state)
    # The 8 must not go on a new expedition: the 2 would then fit nowhere.
    legal = GAME.legal_actions(state)
    assert S.Place(r8, 0) in legal and S.Place(r8, None) not in legal
    assert "nowhere to go" in refuse(state, S.Place(r8, None))
    state = play(state, S.Place(r8, 0), S.Place(r2, None))
    assert [len(e.cards) for e in state.expeditions[0]] == [4, 1]


def test_add_score_then_restart_a_new_expedition():
    """Four expeditions: the red 5 completes one, scoring it frees room for the red 1."""
    r5, r1 = card(R, 5), card(R, 1)
    exps = (ex(R, 2, 3, 4), ex(G, 1, 2, 3), ex(Y, 1, 2, 3), ex(R, 6, 7, 8))
    state = table(2, step=Step.TAKE, table=(r5, r1, card(G, 8)), expeditions=(exps, ()))
    assert GAME.legal_actions(state) == [S.Take(r5), S.Take(card(G, 8))]  # the 1 fits nowhere
    state = GAME.apply(state, S.Take(r5))
    assert S.Take(r1) in GAME.legal_actions(state)  # fine once an expedition is scored
    state = play(state, S.Take(r1), S.Pass())  # no red left: Paulina leaves the green 8
    assert state.step is Step.PLACE and state.current == 0
    assert GAME.legal_actions(state) == [S.Place(r5, 0)]
    state = GAME.apply(state, S.Place(r5, 0))
    assert "Place every card you took first" in refuse(state, S.Done())
    assert set(GAME.legal_actions(state)) == {
        S.Score(0, None),
        S.Score(0, GoalKind.FOUR),
        S.Score(0, GoalKind.DOUBLE),  # the 6-7-8 is a second red expedition of three
    }
    state = GAME.apply(state, S.Score(0, GoalKind.FOUR))
    assert GAME.legal_actions(state) == [S.Place(r1, None)]
    state = GAME.apply(state, S.Place(r1, None))
    assert state.expeditions[0][-1] == Expedition((r1,))
    assert state.round == 1 and state.active == 1  # Adam's turn, and the round, are over


def test_the_placing_search_counts_scoring():
    """Full table: a red 1 alone fits nowhere, but after a red 5 completes an expedition it does."""
    exps = (ex(R, 2, 3, 4), ex(G, 1, 2, 3), ex(Y, 1, 2, 3), ex(R, 6, 7, 8))
    assert not can_place_all(exps, [card(R, 1)])
    assert can_place_all(exps, [card(R, 5), card(R, 1)])
    assert can_place_all(exps, [card(R, 1), card(R, 5), card(R, 1), card(R, 3)])
    # A 1-card expedition is counted as removable only while untouched.
    assert can_place_all((*exps[:3], ex(R, 8)), [card(R, 1)])
    assert not can_place_all((*exps[:3], ex(R, 8, fresh=True)), [card(R, 1)])


def test_placing_a_card_that_would_strand_another_is_refused():
    """The 6 on the red 3 would leave the 4 nowhere to go; the 4 first keeps both possible."""
    r4, r6 = card(R, 4), card(R, 6)
    exps = (ex(R, 3), ex(G, 1, 2, 3), ex(Y, 1, 2, 3), ex(R, 7, 8, 8))
    state = placing(0, (r4, r6), exps)
    assert set(GAME.legal_actions(state)) == {S.Place(r4, 0), S.Remove(0)}
    assert "nowhere to go" in refuse(state, S.Place(r6, 0))
    state = play(state, S.Place(r4, 0), S.Place(r6, 0))
    assert state.expeditions[0][0] == Expedition((card(R, 3), r4, r6), fresh=True)


# -- placing -------------------------------------------------------------------------------


def test_cards_go_on_an_expedition_of_their_colour_never_lower():
    state = placing(0, (card(R, 4),), (ex(R, 5), ex(G, 1)))
    assert "at least as high" in refuse(state, S.Place(card(R, 4), 0))
    assert "green" in refuse(state, S.Place(card(R, 4), 1))
    assert "not taken" in refuse(state, S.Place(card(R, 6), None))
    assert "no such expedition" in refuse(state, S.Place(card(R, 4), 3))


def test_expedition_limits():
    """At most one per peak plus one extra of any peak: four in all."""
    assert has_room([R, G], R)
    assert has_room([R, R, G], Y)
    assert not has_room([R, R, G], G)
    assert not has_room([R, R], R)
    assert has_room([R, G, Y], G)
    assert not has_room([R, G, Y, Y], R)
    state = placing(0, (card(G, 1),), (ex(R, 1, 2, 3), ex(R, 4, 5, 6), ex(G, 5, 6, 7)))
    assert "at most one per peak plus one extra" in refuse(state, S.Place(card(G, 1), None))


# -- removal -------------------------------------------------------------------------------


def test_removal_costs_three_and_stops_at_zero():
    state = placing(
        0, (card(Y, 1),), (ex(R, 1, 2), ex(G, 4), ex(G, 1, 2, 3)), tracks=((7, 1, 0), (0, 0, 0))
    )
    legal = GAME.legal_actions(state)
    assert S.Remove(0) in legal and S.Remove(1) in legal and S.Remove(2) not in legal
    assert "three or more" in refuse(state, S.Remove(2))
    text = log_line(GAME, state, S.Remove(0))
    state = play(state, S.Remove(0))
    assert state.tracks[0] == (4, 1, 0)
    assert "goes back from 7 to 4" in text
    state = play(state, S.Remove(0))
    assert state.tracks[0] == (4, 0, 0)  # 1 - 3 stops at the base camp
    assert len(state.discard) >= 3


def test_an_expedition_just_added_to_cannot_be_removed():
    state = placing(0, (card(R, 3),), (ex(R, 1),))
    state = GAME.apply(state, S.Place(card(R, 3), 0))
    # Nothing to decide any more: the turn ended by itself, the expedition kept.
    assert state.expeditions[0] == (Expedition((card(R, 1), card(R, 3))),)
    state = placing(0, (card(R, 3), card(R, 4)), (ex(R, 1),))
    state = GAME.apply(state, S.Place(card(R, 3), 0))
    assert "just added" in refuse(state, S.Remove(0))


# -- scoring and goals ---------------------------------------------------------------------


def test_scoring_needs_three_cards_and_a_card_added_this_turn():
    state = placing(0, (card(R, 3), card(R, 4)), (ex(R, 1), ex(G, 1, 2, 3)))
    assert "received a card" in refuse(state, S.Score(1, None))
    state = GAME.apply(state, S.Place(card(R, 3), 0))
    assert "at least 3 cards" in refuse(state, S.Score(0, None))


def test_score_by_axes():
    state = placing(0, (card(Y, 8, 3),), (ex(Y, 1, 2, axes=2),), tracks=((0, 0, 4), (0, 0, 0)))
    state = GAME.apply(state, S.Place(card(Y, 8, 3), 0))
    assert GAME.legal_actions(state) == [S.Score(0, None), S.Done()]  # no goal is met
    text = log_line(GAME, state, S.Score(0, None))
    state = GAME.apply(state, S.Score(0, None))
    assert state.tracks[0] == (0, 0, 11) and state.expeditions[0] == ()
    assert "by its 7 axes" in text and "from 4 to 11" in text


def test_four_card_goal():
    state = placing(0, (card(G, 4),), (ex(G, 1, 2, 3, axes=0),))
    state = GAME.apply(state, S.Place(card(G, 4), 0))
    assert set(GAME.legal_actions(state)) == {S.Score(0, None), S.Score(0, GoalKind.FOUR), S.Done()}
    state = GAME.apply(state, S.Score(0, GoalKind.FOUR))
    assert state.tracks[0] == (0, 5, 0)
    assert Goal(G, GoalKind.FOUR) not in state.goals
    assert state.claimed[0] == (Goal(G, GoalKind.FOUR),)


def test_six_card_goal():
    state = placing(0, (card(R, 8),), (ex(R, 1, 2, 3, 4, 5, axes=0),))
    state = GAME.apply(state, S.Place(card(R, 8), 0))
    assert {S.Score(0, GoalKind.SIX), S.Score(0, GoalKind.FOUR)} <= set(GAME.legal_actions(state))
    state = GAME.apply(state, S.Score(0, GoalKind.SIX))
    assert state.tracks[0] == (12, 0, 0)
    assert Goal(R, GoalKind.FOUR) in state.goals  # only one goal per scoring


def test_double_three_card_goal_discards_both_expeditions():
    exps = (ex(Y, 1, 2), ex(G, 4), ex(Y, 5, 6, 7, axes=0))
    state = placing(0, (card(Y, 3),), exps)
    state = GAME.apply(state, S.Place(card(Y, 3), 0))
    assert S.Score(0, GoalKind.DOUBLE) in GAME.legal_actions(state)
    text = log_line(GAME, state, S.Score(0, GoalKind.DOUBLE))
    state = GAME.apply(state, S.Score(0, GoalKind.DOUBLE))
    assert state.tracks[0] == (0, 0, 10)
    assert state.expeditions[0] == (ex(G, 4),)
    assert "Both yellow expeditions are discarded" in text


def test_ten_axe_goal():
    state = placing(0, (card(R, 8, 1),), (ex(R, 1, 2, 3, axes=3),))
    state = GAME.apply(state, S.Place(card(R, 8, 1), 0))
    legal = GAME.legal_actions(state)
    assert S.Score(0, GoalKind.AXES) in legal and S.Score(0, GoalKind.FOUR) in legal
    state = GAME.apply(state, S.Score(0, GoalKind.AXES))
    assert state.tracks[0] == (15, 0, 0)


def test_a_goal_card_is_used_once_by_anyone():
    goals = tuple(g for g in ALL_GOALS if g != Goal(G, GoalKind.FOUR))
    state = placing(0, (card(G, 4),), (ex(G, 1, 2, 3, axes=0),), goals=goals)
    state = GAME.apply(state, S.Place(card(G, 4), 0))
    assert S.Score(0, GoalKind.FOUR) not in GAME.legal_actions(state)
    assert "no longer available" in refuse(state, S.Score(0, GoalKind.FOUR))
    assert "does not meet" in refuse(state, S.Score(0, GoalKind.SIX))


def test_track_overflow_past_thirty_is_lost():
    state = placing(0, (card(R, 8, 3),), (ex(R, 1, 2, axes=3),), tracks=((28, 0, 0), (0, 0, 0)))
    state = GAME.apply(state, S.Place(card(R, 8, 3), 0))
    text = log_line(GAME, state, S.Score(0, None))
    state = GAME.apply(state, S.Score(0, None))
    assert state.tracks[0] == (30, 0, 0)
    assert "7 beyond 30 are lost" in text


def test_all_three_markers_on_thirty_win_at_once():
    state = placing(
        1, (card(Y, 8, 3),), (ex(Y, 1, 2, axes=3),), tracks=((29, 29, 29), (30, 30, 25))
    )
    state = GAME.apply(state, S.Place(card(Y, 8, 3), 0))
    text = log_line(GAME, state, S.Score(0, None))
    state = GAME.apply(state, S.Score(0, None))
    assert state.step is Step.OVER and state.to_move is None
    assert state.instant_winner == 1 and GAME.legal_actions(state) == []
    result = GAME.result(state)
    assert result.winners == (1,)
    assert "Paulina has all three markers on 30 and wins at once." in result.notes
    assert "wins at once!" in text
    assert "The game is over." in refuse(state, S.Done())


# -- the end of the game -------------------------------------------------------------------


def test_final_cancelling_scores_axes_and_removes_small_expeditions():
    """After the last round the marker passes on; goal cards cannot be used any more."""
    adam = (ex(G, 1, 2, 3, 4, axes=2), ex(R, 6, 7, fresh=True))
    paulina = (ex(Y, 1, 2, 3), ex(R, 5))
    state = placing(
        0,
        (),
        adam,
        deck=(),
        expeditions=(adam, paulina),
        tracks=((0, 4, 0), (2, 0, 29)),
    )
    assert GAME.legal_actions(state) == [S.Done()]
    text = log_line(GAME, state, S.Done())
    state = GAME.apply(state, S.Done())
    assert state.step is Step.OVER and state.active == 1
    assert state.tracks == ((0, 12, 0), (0, 0, 30))  # red 0 - 3 stays at 0
    assert state.expeditions == ((), ())
    assert state.before_final == ((0, 4, 0), (2, 0, 29))
    assert "every expedition is cancelled" in text
    breakdown = dict(GAME.result(state).breakdown[1])
    # Each expedition is said with how far its marker really moved (red stops at 0).
    assert breakdown["Closed at the end"] == "yellow +1 (scored), red -2 (removed)"


def test_the_breakdown_names_a_scoring_and_a_removal_that_cancel_out():
    """Closing a three-axe red expedition (+3) and a lone red card (-3) leaves red where it
    was: the game-over breakdown says both rather than "no change"."""
    adam = (ex(R, 1, 2, 3), ex(R, 9))
    state = placing(0, (), adam, deck=(), tracks=((10, 4, 0), (2, 0, 20)))
    state = GAME.apply(state, S.Done())
    assert state.step is Step.OVER and state.tracks[0] == (10, 4, 0)
    breakdown = dict(GAME.result(state).breakdown[0])
    assert breakdown["Closed at the end"] == "red +3 (scored), red -3 (removed)"
    assert dict(GAME.result(state).breakdown[1])["Closed at the end"] == "no expedition to close"


def test_the_breakdown_says_a_removal_at_the_base_camp_leaves_the_marker_at_0():
    """A lone card removed with its marker at 0 costs nothing: said so, not as "+0"."""
    state = placing(0, (), (ex(G, 2, 3, 4), ex(R, 9)), deck=(), tracks=((0, 4, 0), (2, 0, 20)))
    state = GAME.apply(state, S.Done())
    breakdown = dict(GAME.result(state).breakdown[0])
    assert (
        breakdown["Closed at the end"]
        == f"green +{ex(G, 2, 3, 4).axes} (scored), red stays at 0 (removed)"
    )


def test_final_cancelling_starts_with_the_new_active_player():
    """Both would reach 30/30/30; Paulina cancels first and wins at once."""
    adam = (ex(R, 1, 2, 3),)
    paulina = (ex(Y, 1, 2, 3),)
    state = placing(
        0, (), adam, deck=(), expeditions=(adam, paulina), tracks=((29, 30, 30), (30, 30, 29))
    )
    state = evolve(state, expeditions=((ex(R, 1, 2, 3, fresh=True),), paulina))
    state = GAME.apply(state, S.Done())
    assert state.instant_winner == 1
    assert GAME.result(state).winners == (1,)


def finished(*tracks):
    return table(len(tracks), step=Step.OVER, tracks=tuple(tracks))


def test_champions_drop_the_marker_of_their_peak_and_sum_the_others():
    state = finished((20, 10, 15), (12, 14, 5), (19, 13, 14))
    result = GAME.result(state)
    # Adam leads red and yellow: drops the less advanced yellow, 20 + 10 = 30.
    # Paulina leads green: drops it, 12 + 5 = 17.  Tomek leads nothing and is out.
    assert result.scores == (30, 17, 0)
    assert result.winners == (0,)
    assert "Tomek leads no peak and is out of the fight for victory." in result.notes
    assert "Adam wins with 30." in result.notes
    adam = dict(result.breakdown[0])
    assert adam["Champion of"] == "red and yellow"
    assert adam["Marker dropped"] == "yellow (15)"
    assert adam["Score"] == "red 20 + green 10 = 30"


def test_tied_leaders_are_all_champions():
    state = finished((20, 10, 15), (20, 14, 5))
    result = GAME.result(state)
    # Both lead red; Paulina also leads green and drops it (14 < 20): 20 + 5 = 25.
    assert result.scores == (30, 25)
    assert "Red peak: Adam and Paulina tie at 20 and are both champions." in result.notes


def test_equal_champion_sums_share_the_victory():
    """Paulina leads green and yellow equally: dropping either leaves 12, like Adam."""
    state = finished((20, 8, 4), (2, 10, 10))
    result = GAME.result(state)
    assert result.scores == (12, 12) and result.winners == (0, 1)
    assert "Adam and Paulina share the victory with 12." in result.notes


def test_everyone_at_base_camp_shares_the_victory():
    result = GAME.result(finished((0, 0, 0), (0, 0, 0), (0, 0, 0)))
    assert result.winners == (0, 1, 2)


def test_result_mid_game_gives_the_standings_so_far():
    state = table(3, tracks=((5, 0, 0), (0, 6, 0), (0, 0, 0)))
    result = GAME.result(state)
    assert result.notes[0].startswith("The game is not over")
    # All three tie on yellow at 0, so each drops yellow: 5, 6 and 0.
    assert result.scores == (5, 6, 0) and result.winners == (1,)


def test_points_mid_game_close_every_expedition_as_the_end_would():
    """The deck spent and Adam's two expeditions of three open: counted as they stand, Adam
    leads no peak (0 to Paulina's 33), yet the end closes them and Adam wins 15 to 2."""
    reds = (card(R, 5, 1), card(R, 6, 2), card(R, 8, 3))
    greens = (card(G, 3, 2), card(G, 5, 1), card(G, 6, 1))
    adam = (Expedition(reds), Expedition(greens))
    paulina = (ex(G, 2),)  # a lone card: removed at the end, green 3 back to 0
    state = placing(
        0, (), adam, deck=(), expeditions=(adam, paulina), tracks=((0, 0, 9), (2, 3, 30))
    )
    assert GAME.legal_actions(state) == [S.Done()]
    result = GAME.result(state)
    assert result.notes[0].startswith("The game is not over")
    # Adam: red 0 + 6 axes, green 0 + 4, yellow 9; leads red and green, drops green: 6 + 9.
    # Paulina: red 2, green 0, yellow 30; leads yellow and drops it: 2 + 0.
    assert result.scores == (15, 2) and result.winners == (0,)
    assert dict(result.breakdown[0])["Closed at the end"] == "red +6 (scored), green +4 (scored)"
    assert state.tracks == ((0, 0, 9), (2, 3, 30))  # scoring it changed nothing
    final = GAME.apply(state, S.Done())
    assert final.step is Step.OVER
    assert GAME.result(final).scores == result.scores
    assert GAME.result(final).winners == result.winners


def test_points_mid_game_pass_the_marker_on_before_closing():
    """As at the end, the next player closes first: Paulina reaches 30/30/30 and wins at
    once, though Adam, who holds the marker, would too."""
    adam = (ex(R, 1, 2, 3),)
    paulina = (ex(Y, 1, 2, 3),)
    state = placing(
        0, (), adam, deck=(), expeditions=(adam, paulina), tracks=((27, 30, 30), (30, 30, 27))
    )
    result = GAME.result(state)
    assert result.winners == (1,)
    assert "Paulina has all three markers on 30 and wins at once." in result.notes


def test_points_mid_game_leave_out_cards_taken_and_not_yet_placed():
    """A card in hand is on no expedition yet: the end would not count it."""
    state = placing(0, (card(R, 8, 3),), (ex(R, 1, 2, 3, axes=2),), tracks=((0, 0, 0),) * 2)
    assert GAME.result(state).scores == (6, 0)  # red 6 from the open expedition only


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_the_points_shown_before_the_end_are_the_result(seed, players):
    """Random games played through the referee: wherever the table stands as it did when the
    last round ended (the same markers, expeditions and first player), the points the panel
    shows are those of the finished game; at the end, they are its result."""
    rng = random.Random(seed)
    match = Match(GAME, [Seat(name) for name in NAMES[:players]], seed)
    referee = Referee(match)
    shown = [referee.scores()]
    while not referee.is_over():
        legal = referee.legal()
        referee.play(referee.to_move, [legal[rng.randrange(len(legal))]])
        shown.append(referee.scores())
    final = match.state
    result = GAME.result(final)
    assert shown[-1] == result.scores
    if final.instant_winner is not None and not final.before_final:
        return  # won during play: the game never reached its closing
    last_active = (final.active - 1) % players

    def cards(expeditions):
        return [[exp.cards for exp in mine] for mine in expeditions]

    ended = cards(final.final_expeditions)
    for state, scores in zip(match.states, shown, strict=True):
        if (
            state.tracks == final.before_final
            and state.active == last_active
            and cards(state.expeditions) == ended
        ):
            assert scores == result.scores, state


# -- information ---------------------------------------------------------------------------


def test_observation_hides_the_deck_order_only():
    state = GAME.new_game(NAMES, seed=5)
    obs = GAME.observe(state, 2)
    assert isinstance(obs, KarakorumObservation)
    assert not hasattr(obs, "deck") and not hasattr(obs, "rng")
    assert obs.deck_size == len(state.deck) and obs.table == state.table
    shuffled = evolve(state, deck=tuple(reversed(state.deck)), rng=evolve(state.rng, seed=9))
    assert GAME.observe(shuffled, 2) == obs
    sampled = GAME.sample_state(obs, random.Random(1))
    assert GAME.observe(sampled, 2) == obs
    assert GAME.inventory(sampled) == GAME.inventory(state)
    assert GAME.inventory(state)["goal red double"] == 1
    assert sum(n for key, n in GAME.inventory(state).items() if key.startswith("summit")) == 120


def test_describe_and_prompt_read_naturally():
    state = table(2, table=(card(R, 5),), deck=(card(G, 2), card(G, 3)))
    assert prompt(GAME, state) == "Adam: reveal another card or stop (1 of at most 3 revealed)"
    assert log_line(GAME, state, S.StopRevealing()) == (
        "Adam stops revealing with 1 card on the table."
    )
    state = GAME.apply(state, S.StopRevealing())
    assert log_line(GAME, state, S.Take(card(R, 5))).startswith("Adam takes the red 5 (1 axe).")
    state = placing(0, (card(R, 5),), ())
    assert prompt(GAME, state) == "Adam: place the red 5 (1 axe)"
    assert log_line(GAME, state, S.Place(card(R, 5), None)).startswith(
        "Adam starts a new red expedition with the red 5 (1 axe)."
    )


def test_quick_checks_agree_with_the_legal_list():
    """why_illegal's quick checks accept exactly the legal decisions, at every step."""
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_game(NAMES[: 2 + seed % 3], seed)
        while not GAME.is_over(state):
            legal = GAME.legal_actions(state)
            candidates = {S.Reveal(), S.StopRevealing(), S.StopTaking(), S.Pass(), S.Done()}
            candidates |= {S.Take(c) for c in state.table}
            for c in state.held[state.current]:
                candidates |= {S.Place(c, i) for i in (None, 0, 1, 2, 3)}
            candidates |= {S.Remove(i) for i in range(4)}
            candidates |= {S.Score(i, k) for i in range(4) for k in (None, *GoalKind)}
            for action in candidates:
                assert (GAME.why_illegal(state, action) is None) == (action in legal), action
            state = GAME.apply(state, legal[rng.randrange(len(legal))])


def test_the_words_before_a_reveal_never_name_the_face_down_card():
    state = table(2, table=(card(Y, 1),), deck=(card(R, 6, 3), card(G, 2)))
    assert preview(GAME, state, S.Reveal()) == "Adam reveals the next card of the deck."
    assert log_line(GAME, state, S.Reveal()).startswith("Adam reveals the red 6 (3 axes).")
    last = table(2, table=(card(Y, 1),), deck=(card(R, 6, 3),))
    assert preview(GAME, last, S.Reveal()) == (
        "Adam reveals the next card of the deck (the last card of the deck)."
    )


def test_the_log_opens_with_the_first_automatic_reveal():
    state = GAME.new_game(NAMES[:2], seed=1, options={"first_player": 0})
    line = GAME.describe_start(GAME.observe(state, None))
    assert line.startswith(
        "A new game of Karakorum: Adam holds the first-player marker and reveals"
    )
    assert state.table and all(str(c) in line for c in state.table)


# == A review of the rules against the rulebook and docs/rulings.md ========================


def placing_while_adam_leads(seat: int, held, exps, players: int = 2, **changes):
    """``seat`` is about to place ``held`` on ``exps``; Adam (seat 0) is active."""
    return placing(seat, held, exps, players, **{"active": 0, **changes})


# -- taking --------------------------------------------------------------------------------


def test_the_active_player_may_take_any_number_of_one_colour():
    """'They can take more, as long as they are of the same peak': here all three reds."""
    reds = (card(R, 2), card(R, 5), card(R, 7))
    state = table(3, step=Step.TAKE, table=(*reds, card(G, 3)))
    state = play(state, S.Take(reds[1]), S.Take(reds[0]))
    assert state.step is Step.TAKE_MORE
    assert set(GAME.legal_actions(state)) == {S.Take(reds[2]), S.StopTaking()}
    state = GAME.apply(state, S.Take(reds[2]))
    # Only the green 3 is left: the others are offered it, clockwise from Adam's left.
    assert state.held[0] == (reds[1], reds[0], reds[2])
    assert state.step is Step.OTHERS and state.current == 1


def test_each_other_player_takes_one_card_at_most_then_leftovers_are_discarded():
    g4, g5, y1 = card(G, 4), card(G, 5), card(Y, 1)
    state = table(3, step=Step.OTHERS, current=1, table=(g4, g5, y1))
    state = GAME.apply(state, S.Take(g4))
    assert state.step is Step.OTHERS and state.current == 2  # Paulina's one card is taken
    state = GAME.apply(state, S.Pass())  # Tomek declines
    assert state.table == () and state.discard[-2:] == (g5, y1)
    assert state.step is Step.PLACE and state.current == 1 and state.held[1] == (g4,)


# -- placing -------------------------------------------------------------------------------


def test_a_card_equal_to_the_top_card_may_be_added():
    """Rule B: values 'equal to or higher' than the top card."""
    state = placing_while_adam_leads(0, (card(R, 5, 0),), (ex(R, 3, 5),))
    assert S.Place(card(R, 5, 0), 0) in GAME.legal_actions(state)
    state = GAME.apply(state, S.Place(card(R, 5, 0), 0))
    assert [c.value for c in state.expeditions[0][0].cards] == [3, 5, 5]


def test_a_third_expedition_of_one_colour_is_refused_even_with_room():
    state = placing_while_adam_leads(0, (card(R, 1),), (ex(R, 5, 6, 7), ex(R, 4, 5, 6)))
    assert "at most one per peak plus one extra" in refuse(state, S.Place(card(R, 1), None))


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
    state = GAME.apply(state, S.Place(r8, 0))  # Adam's turn ends by itself
    assert state.step is Step.PLACE and state.current == 1
    assert set(GAME.legal_actions(state)) == {S.Place(g4, 0), S.Place(g4, None)}
    state = GAME.apply(state, S.Place(g4, 0))
    assert set(GAME.legal_actions(state)) == {S.Score(0, None), S.Score(0, GoalKind.FOUR), S.Done()}
    state = GAME.apply(state, S.Score(0, GoalKind.FOUR))
    assert state.tracks[1] == (0, 5, 0) and state.claimed[1] == (Goal(G, GoalKind.FOUR),)
    assert state.round == 1 and state.active == 1  # everyone done: the marker passes


def test_scoring_is_optional_and_the_chance_passes_with_the_turn():
    state = placing_while_adam_leads(
        0, (card(R, 4),), (ex(R, 1, 2, 3),), deck=(card(Y, 1), card(Y, 2))
    )
    state = play(state, S.Place(card(R, 4), 0), S.Done())
    assert state.expeditions[0] == (ex(R, 1, 2, 3, 4),)  # kept, no longer fresh
    assert state.tracks[0] == (0, 0, 0)
    later = placing_while_adam_leads(0, (card(G, 1),), state.expeditions[0])
    assert "received a card" in refuse(later, S.Score(0, None))


# -- goal cards ----------------------------------------------------------------------------


def test_goal_thresholds_are_exact():
    # Three cards meet no card-count goal; five cards meet the 4-card goal but not the 6-card.
    state = placing_while_adam_leads(0, (card(R, 3, 3),), (ex(R, 1, 2, axes=3),))
    state = GAME.apply(state, S.Place(card(R, 3, 3), 0))
    assert set(GAME.legal_actions(state)) == {S.Score(0, None), S.Done()}  # 9 axes: no 10-axe goal
    assert "does not meet" in refuse(state, S.Score(0, GoalKind.AXES))
    assert "does not meet" in refuse(state, S.Score(0, GoalKind.FOUR))
    state = placing_while_adam_leads(0, (card(G, 5, 0),), (ex(G, 1, 2, 3, 4, axes=0),))
    state = GAME.apply(state, S.Place(card(G, 5, 0), 0))
    assert S.Score(0, GoalKind.FOUR) in GAME.legal_actions(state)
    assert "does not meet" in refuse(state, S.Score(0, GoalKind.SIX))


def test_ten_axes_exactly_meet_the_axe_goal():
    state = placing_while_adam_leads(0, (card(Y, 4, 1),), (ex(Y, 1, 2, 3, axes=3),))
    state = GAME.apply(state, S.Place(card(Y, 4, 1), 0))
    assert S.Score(0, GoalKind.AXES) in GAME.legal_actions(state)


def test_only_goal_cards_of_the_expeditions_own_peak_count():
    """The red 4-card goal is gone; the green one does not help a red expedition."""
    goals = tuple(g for g in ALL_GOALS if g != Goal(R, GoalKind.FOUR))
    state = placing_while_adam_leads(0, (card(R, 4),), (ex(R, 1, 2, 3, axes=0),), goals=goals)
    state = GAME.apply(state, S.Place(card(R, 4), 0))
    assert Goal(G, GoalKind.FOUR) in state.goals
    assert set(GAME.legal_actions(state)) == {S.Score(0, None), S.Done()}


def test_double_goal_needs_a_second_expedition_of_three_in_the_same_peak():
    # The other red expedition has only two cards.
    state = placing_while_adam_leads(0, (card(R, 3),), (ex(R, 1, 2), ex(R, 5, 6)))
    state = GAME.apply(state, S.Place(card(R, 3), 0))
    assert "does not meet" in refuse(state, S.Score(0, GoalKind.DOUBLE))
    # Two expeditions of three, but of different peaks.
    state = placing_while_adam_leads(0, (card(R, 3),), (ex(R, 1, 2), ex(G, 5, 6, 7)))
    state = GAME.apply(state, S.Place(card(R, 3), 0))
    assert "does not meet" in refuse(state, S.Score(0, GoalKind.DOUBLE))


def test_double_goal_after_adding_to_both_discards_both_and_uses_the_card_once():
    r3, r8 = card(R, 3), card(R, 8)
    state = placing_while_adam_leads(0, (r3, r8), (ex(R, 1, 2), ex(R, 5, 6)), players=3)
    state = play(state, S.Place(r3, 0), S.Place(r8, 1))
    assert {S.Score(0, GoalKind.DOUBLE), S.Score(1, GoalKind.DOUBLE)} <= set(
        GAME.legal_actions(state)
    )
    discard = len(state.discard)
    state = GAME.apply(state, S.Score(1, GoalKind.DOUBLE))
    assert state.tracks[0] == (10, 0, 0) and state.expeditions[0] == ()
    assert len(state.discard) == discard + 6
    assert Goal(R, GoalKind.DOUBLE) not in state.goals


# -- the top of the track ------------------------------------------------------------------


def test_at_thirty_a_second_expedition_scores_without_moving_or_is_removed():
    """Special rule 2: the marker stays on 30; removing still costs 3."""
    exps = (ex(R, 1, 2), ex(R, 5), ex(G, 1))
    state = placing_while_adam_leads(0, (card(R, 3),), exps, tracks=((30, 4, 0), (0, 0, 0)))
    state = GAME.apply(state, S.Place(card(R, 3), 0))
    state = GAME.apply(state, S.Score(0, None))
    assert state.tracks[0] == (30, 4, 0)
    assert [e.color for e in state.expeditions[0]] == [R, G]  # the cards went to the discard
    state = GAME.apply(state, S.Remove(0))
    assert state.tracks[0] == (27, 4, 0)


# -- the end -------------------------------------------------------------------------------


def test_the_round_revealing_the_last_card_is_played_out_before_the_end():
    r5, g5 = card(R, 5), card(G, 5)
    state = table(2, table=(r5,), deck=(g5,))
    state = GAME.apply(state, S.Reveal())  # the last card: this round is the last
    assert state.deck == () and state.step is Step.TAKE
    state = play(state, S.Take(r5))
    assert state.step is Step.OTHERS and state.current == 1  # the round goes on as usual
    state = GAME.apply(state, S.Take(g5))
    state = play(state, S.Place(r5, None))
    assert state.step is Step.PLACE and state.current == 1
    state = GAME.apply(state, S.Place(g5, None))
    # Both 1-card expeditions are removed in the final cancelling, at 0 already.
    assert state.step is Step.OVER and state.expeditions == ((), ())
    assert state.tracks == ((0, 0, 0), (0, 0, 0))


def test_a_round_that_leaves_cards_in_the_deck_is_not_the_last():
    state = table(2, table=(card(R, 5),), deck=(card(G, 5), card(G, 6)))
    state = play(state, S.StopRevealing(), S.Take(card(R, 5)), S.Place(card(R, 5), None))
    assert state.step is Step.REVEAL and state.active == 1 and state.round == 1


def test_final_cancelling_loses_moves_past_thirty_and_uses_no_goal_cards():
    adam = (ex(R, 1, 2, 3, 4, 5, 6, axes=3), ex(G, 4, 5, 6, axes=2))
    state = placing_while_adam_leads(
        0, (), adam, deck=(), expeditions=(adam, ()), tracks=((25, 0, 0), (0, 0, 0))
    )
    state = evolve(state, expeditions=((adam[0], evolve(adam[1], fresh=True)), ()))
    state = GAME.apply(state, S.Done())
    assert state.step is Step.OVER
    assert state.tracks[0] == (30, 6, 0)  # 25 + 18 capped; green by its 6 axes, not a goal
    assert state.goals == ALL_GOALS and state.claimed == ((), ())


def test_champion_of_all_three_peaks_drops_the_least_advanced():
    state = table(2, step=Step.OVER, tracks=((20, 18, 25), (10, 12, 14)))
    result = GAME.result(state)
    assert result.scores == (45, 0) and result.winners == (0,)
    assert dict(result.breakdown[0])["Marker dropped"] == "green (18)"
