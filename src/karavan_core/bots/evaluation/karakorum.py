"""Karakorum evaluation: track progress plus what the open expeditions may still score."""

from __future__ import annotations

from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAK_INDEX, GoalKind
from karavan_core.games.karakorum.state import KarakorumState

SCALE = 8.0
# Playouts of 30 decisions cost two thirds of a search; 10 keep Hard within its time.
ROLLOUT_DEPTH = 10


def potential_tracks(state: KarakorumState, player: int) -> list[float]:
    """``player``'s markers plus the expected gain of each open expedition, per peak."""
    tracks = [float(t) for t in state.tracks[player]]
    open_goals = {(g.color, g.kind) for g in state.goals}
    for exp in state.expeditions[player]:
        i = PEAK_INDEX[exp.color]
        size = len(exp.cards)
        if size >= C.MIN_SCORING_CARDS:
            gain = float(exp.axes)
            # A goal card within reach is worth a fraction of its points.
            for kind, need in ((GoalKind.FOUR, 4), (GoalKind.SIX, 6)):
                if (exp.color, kind) in open_goals:
                    reach = 1.0 if size >= need else 0.5 ** (need - size)
                    gain = max(gain, 0.7 * reach * kind.points)
            if (exp.color, GoalKind.AXES) in open_goals:
                reach = min(1.0, exp.axes / C.GOAL_MIN_AXES)
                gain = max(gain, 0.7 * reach * reach * GoalKind.AXES.points)
        else:
            # Too small to score yet: it may grow, or cost the removal penalty.
            gain = 0.5 * exp.axes + 0.5 * size - 0.5 * C.REMOVAL_PENALTY
        tracks[i] += gain
    return [min(t, float(C.TRACK_TOP)) for t in tracks]


def evaluate(state: KarakorumState, player: int) -> float:
    """Sum of the two best potential markers, with a bonus per peak ``player`` leads.

    The rules make a player who leads no peak lose whatever their markers, and
    drop the least advanced peak of a champion; this is a smooth version of that.
    """
    if state.is_over:
        if state.instant_winner is not None:
            return 100.0 if state.instant_winner == player else float(sum(state.tracks[player]))
        mine = [float(t) for t in state.tracks[player]]
        others = [[float(t) for t in state.tracks[s]] for s in range(len(state.players))]
    else:
        others = [potential_tracks(state, s) for s in range(len(state.players))]
        mine = others[player]
    led = 0
    for i in range(len(mine)):
        if all(mine[i] >= others[s][i] for s in range(len(others)) if s != player):
            led += 1
    best_two = sum(mine) - min(mine)
    return best_two + (5.0 + led if led else -6.0)
