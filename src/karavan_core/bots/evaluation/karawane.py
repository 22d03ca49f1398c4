"""Karawane evaluation: oasis points held, plus the progress of the camels still in the desert."""

from __future__ import annotations

from karavan_core.games.karawane import components as C
from karavan_core.games.karawane.rules import score
from karavan_core.games.karawane.state import KarawaneState

SCALE = 3.0
# Measured: with playouts cut after 8 decisions Hard beat Greedy in 20 of 30
# games, after 40 in 11 of 30 (random Karawane play says little about a race).
ROLLOUT_DEPTH = 8
FIRST_OASIS = C.DESERT_SQUARES + 1
# What a camel that reaches the oasis is worth on average, by the table's points.
MEAN_OASIS = sum(C.OASIS_POINTS) / len(C.OASIS_POINTS)


def evaluate(state: KarawaneState, player: int) -> float:
    """Oasis points, plus each desert camel's share of an average oasis square by its progress."""
    line = state.camels[player]
    points = float(score(line))
    if state.over:
        return points
    for square in line:
        if square < FIRST_OASIS:
            # Progress counts more than linearly: the last squares are the contested ones.
            progress = square / FIRST_OASIS
            points += 0.8 * MEAN_OASIS * progress * progress
    return points
