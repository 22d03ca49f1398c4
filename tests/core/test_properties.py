"""Properties of every game over random legal play, found by hypothesis."""

from __future__ import annotations

import enum
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karavan_core import IllegalAction, all_games
from tests.core.rules_helpers import log_line, preview

GAMES = all_games()


@st.composite
def plays(draw):
    """A game, a player count, a seed and a sequence of choices among the legal decisions."""
    game = draw(st.sampled_from(GAMES))
    players = draw(st.integers(game.min_players, game.max_players))
    seed = draw(st.integers(0, 2**32))
    choices = draw(st.lists(st.integers(0, 10_000), min_size=1, max_size=120))
    return game, players, seed, choices


def walk(game, players, seed, choices):
    """Yield each state reached by following ``choices`` from a seeded deal."""
    state = game.new_game([f"P{i}" for i in range(players)], seed)
    yield state
    for choice in choices:
        legal = game.legal_actions(state)
        if not legal:
            return
        state = game.apply(state, legal[choice % len(legal)])
        yield state


@settings(max_examples=80, deadline=None)
@given(plays())
def test_why_illegal_agrees_with_legal_actions(play):
    """Any decision seen during the game is accepted exactly when it is listed as legal."""
    game = play[0]
    seen: list = []
    for state in walk(*play):
        legal = game.legal_actions(state)
        for action in legal:
            assert game.why_illegal(state, action) is None
        for action in seen[-30:]:
            reason = game.why_illegal(state, action)
            assert (reason is None) == (action in legal), (action, reason)
        seen.extend(legal[:5])


@settings(max_examples=80, deadline=None)
@given(plays())
def test_components_scores_and_words_hold_at_every_step(play):
    game, players = play[0], play[1]
    first = None
    for state in walk(*play):
        inventory = game.inventory(state)
        first = first or inventory
        assert inventory == first
        result = game.result(state)
        assert len(result.scores) == players and len(result.breakdown) == players
        assert game.prompt(game.observe(state, None))
        if game.is_over(state):
            assert state.to_move is None and game.legal_actions(state) == []
        else:
            assert 0 <= state.to_move < players
            assert game.prompt(game.observe(state, state.to_move))
            action = game.legal_actions(state)[0]
            assert preview(game, state, action).strip()
            assert log_line(game, state, action).strip()


@settings(max_examples=60, deadline=None)
@given(plays(), st.integers(0, 2**32))
def test_hidden_information_never_changes_an_observation(play, sample_seed):
    """Every player sees the same thing in the true state and in one sampled from their view."""
    game = play[0]
    states = list(walk(*play))
    state = states[-1]
    for player in range(len(state.players)):
        seen = game.observe(state, player)
        sampled = game.sample_state(seen, random.Random(sample_seed))
        assert game.observe(sampled, player) == seen
        assert game.legal_actions(sampled) == game.legal_actions(state) or (state.to_move != player)


def _built_from_plain_values(game, action):
    """``action`` rebuilt from the plain values of its fields (enums as their values)."""
    values = [
        field.value if isinstance(field, enum.Enum) else field
        for field in attrs.astuple(action, recurse=False)
    ]
    return type(action)(*values)


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(-3, 9), max_size=8),
    st.tuples(st.integers(-3, 9), st.integers(-3, 9)),
)


@settings(max_examples=150, deadline=None)
@given(plays(), st.data())
def test_apply_takes_any_action_equal_to_a_legal_one_and_refuses_anything_else(play, data):
    """The engine's door: whatever an action is built from, apply plays it or refuses it."""
    game = play[0]
    state = list(walk(*play))[-1]
    if game.is_over(state):
        return
    legal = game.legal_actions(state)
    for action in legal[:5]:
        plain = _built_from_plain_values(game, action)
        assert plain == action
        assert game.apply(state, plain) == game.apply(state, action)
    kind = data.draw(st.sampled_from(game.action_types))
    fields = attrs.fields(kind)
    junk = kind(*(data.draw(JUNK) for _ in fields))
    try:
        after = game.apply(state, junk)
    except IllegalAction as refused:
        assert str(refused).strip()
    else:
        assert junk in legal and after == game.apply(state, legal[legal.index(junk)])
    for garbage in (None, "Sell", 3, object()):
        with pytest.raises(IllegalAction):
            game.apply(state, garbage)
