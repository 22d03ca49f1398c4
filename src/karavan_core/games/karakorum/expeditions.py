"""Karakorum's expeditions: how many a player may hold, whether cards can still be placed,
which goals an expedition meets, and how closing one moves the markers.

The rules (:mod:`.rules`) and the words (:mod:`.words`) read these; they are
about a player's expeditions and tracks alone, not about whose turn it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAK_INDEX, GoalKind, Peak
from karavan_core.games.karakorum.state import (
    Card,
    Expedition,
    KarakorumObservation,
    KarakorumState,
    Tracks,
)
from karavan_core.values import KeptByIdentity, replace_at

T = TypeVar("T")


def has_room(colors: Sequence[Peak], color: Peak) -> bool:
    """Whether a player whose expeditions have these peaks may start one more of ``color``.

    One main expedition per peak, plus ``EXTRA_EXPEDITIONS`` more of any peak.
    """
    if len(colors) >= C.MAX_EXPEDITIONS:
        return False
    if color not in colors:
        return True
    return len(colors) - len(set(colors)) < C.EXTRA_EXPEDITIONS


# An expedition reduced to what matters for placing: (peak, top value, size, fresh).
Shape = tuple[Peak, int, int, bool]


def _tidied(shapes: tuple[Shape, ...]) -> tuple[Shape, ...]:
    """The expeditions left once every removal and every scoring that frees room is done.

    Removing or scoring an expedition never hurts placing: any card meant for it
    can start a new expedition in the freed place instead.  So the search may
    assume all of them: only untouched 3+ expeditions and fresh 1-2 card ones stay.
    (The double goal, which frees a second place, is never needed: the cards
    taken in a round are all of one peak, and one new expedition holds them all.)
    """
    return tuple(s for s in shapes if s[3] == (s[2] < C.MIN_SCORING_CARDS))


@lru_cache(maxsize=1 << 16)
def can_place(shapes: tuple[Shape, ...], held: tuple[tuple[Peak, int], ...]) -> bool:
    """Whether every card in ``held`` (peak, value) can be placed, in some order.

    Arguments are sorted so that equal situations share one cache entry.
    """
    if not held:
        return True
    shapes = _tidied(shapes)
    colors = [s[0] for s in shapes]
    tried = set()
    for i, card in enumerate(held):
        if card in tried:
            continue
        tried.add(card)
        color, value = card
        rest = held[:i] + held[i + 1 :]
        for j, (c, top, size, _fresh) in enumerate(shapes):
            if c is color and top <= value:
                grown = shapes[:j] + ((c, value, size + 1, True),) + shapes[j + 1 :]
                if can_place(tuple(sorted(grown)), rest):
                    return True
        if has_room(colors, color):
            grown = (*shapes, (color, value, 1, True))
            if can_place(tuple(sorted(grown)), rest):
                return True
    return False


def shape_of(exp: Expedition) -> Shape:
    return (exp.color, exp.top, len(exp.cards), exp.fresh)


def _list_shapes(expeditions: Sequence[Expedition]) -> tuple[Shape, ...]:
    return tuple(sorted(map(shape_of, expeditions)))


# A seat's expeditions stay the same tuple from state to state until that seat places
# (kept by identity: tuples only, which cannot change).
expedition_shapes: KeptByIdentity[tuple[Expedition, ...], tuple[Shape, ...]] = KeptByIdentity(
    _list_shapes, 4096
)


def can_place_all(expeditions: Sequence[Expedition], cards: Sequence[Card]) -> bool:
    """Whether ``cards`` (all of one peak) can all be placed, removing and scoring as needed."""
    held = tuple(sorted((card.color, card.value) for card in cards))
    return can_place(_list_shapes(expeditions), held)  # any sequence: not kept


def meets(kind: GoalKind, expeditions: Sequence[Expedition], index: int) -> bool:
    """Whether expedition ``index`` meets a goal card of ``kind`` of its own peak."""
    exp = expeditions[index]
    if kind is GoalKind.DOUBLE:
        return len(exp.cards) >= C.DOUBLE_MIN_CARDS and any(
            j != index and other.color is exp.color and len(other.cards) >= C.DOUBLE_MIN_CARDS
            for j, other in enumerate(expeditions)
        )
    if kind is GoalKind.AXES:
        return exp.axes >= C.GOAL_MIN_AXES
    return len(exp.cards) >= C.GOAL_MIN_CARDS[kind]


def without(items: tuple[T, ...], index: int) -> tuple[T, ...]:
    return items[:index] + items[index + 1 :]


def moved(tracks: Tracks, peak: Peak, by: int) -> Tracks:
    """The tracks with ``peak``'s marker moved by ``by``, kept within 0..TRACK_TOP."""
    i = PEAK_INDEX[peak]
    return replace_at(tracks, i, max(0, min(C.TRACK_TOP, tracks[i] + by)))


def on_top(tracks: Tracks) -> bool:
    """Whether every marker stands on the top of its track (an instant win)."""
    return all(t == C.TRACK_TOP for t in tracks)


def closing(
    tracks: Tracks, expeditions: Sequence[Expedition]
) -> tuple[Tracks, list[tuple[Expedition, int]], bool]:
    """One player's expeditions closed at the end of the game.

    Those of 3+ cards score their axes first, then the smaller ones are removed at
    the usual cost, unless the scoring put every marker on the top (an instant
    win: nothing is removed).  Returns the tracks after, each expedition closed
    with how far its marker actually moved (a marker stays within the track), and
    whether the player reached the top of all three tracks.
    """
    moves: list[tuple[Expedition, int]] = []

    def close(exp: Expedition, by: int) -> None:
        nonlocal tracks
        i = PEAK_INDEX[exp.color]
        before = tracks[i]
        tracks = moved(tracks, exp.color, by)
        moves.append((exp, tracks[i] - before))

    for exp in expeditions:
        if len(exp.cards) >= C.MIN_SCORING_CARDS:
            close(exp, exp.axes)
    if on_top(tracks):
        return tracks, moves, True
    for exp in expeditions:
        if len(exp.cards) < C.MIN_SCORING_CARDS:
            close(exp, -C.REMOVAL_PENALTY)
    return tracks, moves, False


def reveal_limit(view: KarakorumState | KarakorumObservation) -> int:
    """The most cards the active player may have revealed on the table."""
    return len(view.players) + C.REVEAL_BEYOND_PLAYERS
