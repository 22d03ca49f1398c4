"""A finished game as one player saw it (what a hosted table sends each player at its end):
its states dealt from that player's observations agree with everything the player saw."""

from __future__ import annotations

import random

import pytest

from karavan_core import Match, Seat, get_game
from karavan_core.seen import seen_match


def finished(game: str, seats: int, seed: int) -> Match:
    names = [Seat(name) for name in ("Ann", "Bob", "Cid", "Dee")[:seats]]
    match = Match(get_game(game), names, seed, {"first_player": 0})
    rng = random.Random(seed)
    while not match.is_over():
        match.play(rng.choice(match.legal_actions()))
    return match


@pytest.mark.parametrize(
    ("game", "seats"), [("karakum", 3), ("karawane", 4), ("karakorum", 2), ("jaipur", 2)]
)
def test_a_game_seen_by_one_player_agrees_with_all_that_player_saw(game, seats):
    match = finished(game, seats, seed=3)
    seat = 1
    seen_by = [match.view(seat, i) for i in range(len(match.states))]
    seen = seen_match(
        match.game,
        match.seats,
        seat,
        seen_by,
        match.history,
        99,
        hints=2,
        series=match.score_series(),
    )
    assert seen.seen_by == seat and match.seen_by is None
    assert [seen.view(seat, i) for i in range(len(seen.states))] == seen_by
    assert seen.public_views() == match.public_views() and seen.log() == match.log()
    assert seen.score_series() == match.score_series() and seen.is_over()
    assert seen.game.result(seen.state).winners == match.game.result(match.state).winners
    assert seen.hints == [0, 2, 0, 0][:seats] and seen.seed == 99
    for index in range(len(match.history)):  # the player's own choices, as they had them
        if match.actor(index) == seat:
            legal = match.game.legal_actions(match.states[index])
            assert seen.game.legal_actions(seen.states[index]) == legal


def test_observations_that_do_not_fit_together_are_refused():
    match = finished("jaipur", 2, seed=4)
    seen_by = [match.view(1, i) for i in range(len(match.states))]
    with pytest.raises(ValueError, match="not a whole game"):
        seen_match(match.game, match.seats, 1, seen_by[:-1], match.history, 5)
    others = [match.view(0, i) for i in range(len(match.states))]
    with pytest.raises(ValueError, match="does not fit what the player saw"):
        seen_match(match.game, match.seats, 1, others, match.history, 5)
