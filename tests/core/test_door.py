"""The engine's door reuses the last listing of legal decisions, and is never fooled by it."""

from __future__ import annotations

import random

import pytest

from karavan_core import IllegalAction, all_games
from karavan_core.engine import REVEALING_GESTURE


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
        assert refusal(game, state, seat, [first, second]) in (
            "A gesture holds only your own decisions.",
            REVEALING_GESTURE,
        )
    # An illegal decision is refused in the engine's words.
    stranger = object()
    assert refusal(game, state, seat, [stranger]) == game.refusal(state, stranger)
