"""The engine's door reuses the last listing of legal decisions, and is never fooled by it."""

from __future__ import annotations

import random

import pytest

from karavan_core import IllegalAction, all_games, get_game
from karavan_core.engine import REVEALING_GESTURE, TURN_ENDED
from karavan_core.games.karakorum.state import Step as KarakorumStep
from karavan_core.games.karakorum.state import Take as KarakorumTake


def some_state(game, seed: int = 3, steps: int = 25):
    state = game.new_game([f"P{i}" for i in range(game.min_players)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = game.legal_actions(state)
        state = game.apply_legal(state, legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_changing_the_listed_decisions_does_not_change_what_is_legal(game):
    state = some_state(game)
    legal = game.legal_actions(state)
    first = legal[0]
    stranger = game.legal_actions(some_state(game, seed=4, steps=40))[-1]
    legal.clear()
    legal.append(stranger)
    if stranger not in game.legal_actions(state):
        game.legal_actions(state)  # the door's memo is of this state again
        with pytest.raises(IllegalAction):
            game.apply(state, stranger)
    assert game.apply(state, first) == game.apply_legal(state, first)


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_the_door_lists_afresh_for_a_state_it_did_not_list_last(game):
    state = some_state(game)
    legal = game.legal_actions(state)
    other = some_state(game, seed=5, steps=30)
    game.legal_actions(other)  # the memo now holds another state
    for action in legal:
        assert game.apply(state, action) == game.apply_legal(state, action)
    for action in game.legal_actions(other):
        assert game.apply(other, action) == game.apply_legal(other, action)


def refusal(game, state, seat, actions):
    """The words that refuse the gesture, or ``None`` if it could be played."""
    try:
        game.gesture_states(state, actions, by=seat)
    except IllegalAction as error:
        return str(error)
    return None


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_a_gesture_is_one_seats_legal_decisions_in_a_row(game):
    state = some_state(game)
    seat = state.to_move
    first = game.legal_actions(state)[0]
    after = game.apply(state, first)
    assert refusal(game, state, seat, [first]) is None
    assert game.gesture_states(state, [first], by=seat) == [state, after]
    assert refusal(game, state, seat, []) == "A gesture holds at least one decision."
    # Not this seat's decision to take: refused before anything is tried.
    other = (seat + 1) % len(state.players)
    assert refusal(game, state, other, [first]) == "A gesture holds only your own decisions."
    revealing = game.reveals(game.observe(state, seat), first)
    if after.to_move == seat:  # the same player decides again: a longer gesture
        second = game.legal_actions(after)[0]
        assert refusal(game, state, seat, [first, second]) == (
            REVEALING_GESTURE if revealing else None
        )
    elif after.to_move is not None:  # the turn passed: the next decision is not theirs
        second = game.legal_actions(after)[0]
        ended = f"{game.preview(game.observe(state, seat), first)} {TURN_ENDED}"
        assert refusal(game, state, seat, [first, second]) in (ended, REVEALING_GESTURE)
    # An illegal decision is refused in the engine's words.
    stranger = object()
    assert refusal(game, state, seat, [stranger]) == game.refusal(state, stranger)


def test_a_gesture_past_the_end_of_its_turn_names_the_decision_that_ended_it():
    """Karakorum: two cards of different peaks marked to take together. Taking the first
    ends the turn (no more of its colour can be taken), so the second is refused, and the
    words say which decision ended the turn rather than speaking of gestures."""
    game = get_game("karakorum")
    rng = random.Random(0)
    state = game.new_game(["Ann", "Bob"], 0, {"first_player": 0})
    while True:
        takes = [a for a in game.legal_actions(state) if isinstance(a, KarakorumTake)]
        if state.step is KarakorumStep.TAKE and len({a.card.color for a in takes}) > 1:
            break
        state = game.apply(state, rng.choice(game.legal_actions(state)))
    first = takes[0]
    second = next(a for a in takes if a.card.color is not first.card.color)
    seat = state.to_move
    assert game.apply(state, first).to_move != seat
    words = refusal(game, state, seat, [first, second])
    assert words == f"{game.preview(game.observe(state, seat), first)} {TURN_ENDED}"
    assert f"takes the {first.card}" in words
