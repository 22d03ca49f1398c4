"""A game says whether any player sees what the others do not; the hot-seat curtain follows it."""

from __future__ import annotations

import random

import attrs
import pytest

from karavan_core import all_games


def views_along_a_game(game, seed: int):
    """(each player's observation, the public one with that player named) at every decision."""
    state = game.new_game([f"P{i}" for i in range(game.min_players)], seed)
    rng = random.Random(seed)
    while not game.is_over(state):
        for seat in range(len(state.players)):
            public = attrs.evolve(game.observe(state, None), player=seat)
            yield game.observe(state, seat), public
        state = game.apply(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_private_views_says_whether_a_player_ever_sees_more_than_the_public(game):
    differ = any(own != public for seed in (1, 2) for own, public in views_along_a_game(game, seed))
    assert differ is game.private_views
