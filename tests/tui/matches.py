"""Seeded matches of any game for the table tests, played on by a seeded random policy."""

from __future__ import annotations

import random

from karavan_core.match import Match, Seat
from karavan_core.registry import get_game

from .helpers import SEED


def seeded_match(
    game: str, seats: str, seed: int = SEED, first: int | None = 0, moves: int = 0
) -> Match:
    """A ``game`` match between ``seats`` ("Ann,bot:random") after ``moves`` random decisions."""
    parsed = [Seat.parse(text, i) for i, text in enumerate(seats.split(","))]
    options = {} if first is None else {"first_player": first}
    match = Match(get_game(game), parsed, seed, options)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over():
            break
        match.play(rng.choice(match.legal_actions()))
    return match
