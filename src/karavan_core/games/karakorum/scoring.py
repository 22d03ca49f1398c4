"""Karakorum's final scoring: who leads each peak, the peak a player drops, the points."""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.games.karakorum.components import PEAKS
from karavan_core.games.karakorum.state import Tracks


def champions(tracks: Sequence[Tracks]) -> tuple[tuple[int, ...], ...]:
    """Per peak, the seats whose marker is furthest up (all of them on a tie)."""
    out = []
    for i in range(len(PEAKS)):
        best = max(t[i] for t in tracks)
        out.append(tuple(seat for seat, t in enumerate(tracks) if t[i] == best))
    return tuple(out)


def dropped_peak(mine: Tracks, led: Sequence[int]) -> int:
    """The peak a champion of the peaks ``led`` drops: the least advanced of them."""
    return min(led, key=lambda i: (mine[i], i))


def final_scores(tracks: Sequence[Tracks]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's score at the end (a champion's markers but the one dropped; 0 for a seat
    that leads no peak) and the winners among the champions."""
    champs = champions(tracks)
    scores = [0] * len(tracks)
    contenders = []
    for seat, mine in enumerate(tracks):
        led = [i for i in range(len(PEAKS)) if seat in champs[i]]
        if led:
            contenders.append(seat)
            dropped = dropped_peak(mine, led)
            scores[seat] = sum(mine[i] for i in range(len(PEAKS)) if i != dropped)
    best = max(scores[seat] for seat in contenders)
    return tuple(scores), tuple(seat for seat in contenders if scores[seat] == best)
