"""Karakorum evaluation: track progress plus what the open expeditions may still score."""

from __future__ import annotations

from operator import eq

from karavan_core.bots.evaluation import GameEvaluation, SearchSettings
from karavan_core.engine import Action
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAK_INDEX, GoalKind
from karavan_core.games.karakorum.rules import DONE
from karavan_core.games.karakorum.state import (
    Card,
    Goal,
    KarakorumState,
    Place,
    Remove,
    Score,
    Step,
)
from karavan_core.values import KeptByIdentity, replace

# The search levels value new expeditions by their room to grow
# (model_evaluate), score a position once the turn under way is finished
# with the best next decision rather than after ten random ones, place by a
# policy below the root, and pool their deals.  At Hard-v1's budget cut to
# 100 iterations each, that beat it 71.7% (51.3–85.9) over 23 seat-swapped
# games (seed 104); it is 1.6 times as fast at 400 iterations.
HARD = SearchSettings()
EXPERT = replace(HARD, iterations=1600)

SCALE = 8.0
# Playouts of 30 decisions cost two thirds of a search; 10 keep Hard within its time.
ROLLOUT_DEPTH = 10


def potential_tracks(state: KarakorumState, player: int, room: Room | None = None) -> list[float]:
    """``player``'s markers plus the expected gain of each open expedition, per peak.

    With ``room`` (see :func:`_count_room`) a 1-2 card expedition is valued as the
    search levels do (see :func:`small_gain`), else as a search by playouts alone does.
    """
    markers = state.tracks[player]
    tracks = [float(t) for t in markers]
    expeditions = state.expeditions[player]
    if expeditions:
        open_goals = _open_goals(state.goals)
        deck = len(state.deck)
        for exp in expeditions:
            # The expedition's properties, read once: this runs at every leaf of a search.
            cards = exp.cards
            i = PEAK_INDEX[cards[0].color]
            size = len(cards)
            axes = sum([card.axes for card in cards])
            if size >= C.MIN_SCORING_CARDS:
                gain = float(axes)
                # A goal card within reach is worth a fraction of its points.
                for kind, need in ((GoalKind.FOUR, 4), (GoalKind.SIX, 6)):
                    if (i, kind) in open_goals:
                        reach = 1.0 if size >= need else 0.5 ** (need - size)
                        gain = max(gain, 0.7 * reach * kind.points)
                if (i, GoalKind.AXES) in open_goals:
                    reach = min(1.0, axes / C.GOAL_MIN_AXES)
                    gain = max(gain, 0.7 * reach * reach * GoalKind.AXES.points)
            elif room is not None:
                gain = small_gain(i, size, axes, cards[-1].value, markers[i], room, deck)
            else:
                # Too small to score yet: it may grow, or cost the removal penalty.
                gain = 0.5 * axes + 0.5 * size - 0.5 * C.REMOVAL_PENALTY
            tracks[i] += gain
    return [t if t < _TOP else _TOP for t in tracks]


_TOP = float(C.TRACK_TOP)


def _list_open_goals(goals: tuple[Goal, ...]) -> frozenset[tuple[int, GoalKind]]:
    """The goal cards still open, as (peak index, kind)."""
    return frozenset((PEAK_INDEX[goal.color], goal.kind) for goal in goals)


# A search's states share their goals until one is claimed.
_open_goals = KeptByIdentity(_list_open_goals, 16)


# A new expedition's room to grow: this many marker points for an expedition
# that every card still to come of its peak could extend, with the whole deck
# to come (the least-squares fit of bench/fit.py put it at 3.0).
GROWTH = 3.0
Room = list[list[int]]


def small_gain(
    peak: int, size: int, axes: int, top: int, marker: int, room: Room, deck: int
) -> float:
    """What a 1-2 card expedition may still bring its marker, as the search levels see it.

    The expedition is ``size`` cards of peak number ``peak`` with ``axes`` ice
    axes and ``top`` its top value; ``marker`` is where its peak's marker
    stands, ``deck`` the cards left to reveal.  The penalty counts only as far
    as the marker can go back (at 0 a removal costs nothing: counted whole, a
    new expedition looks worse than none and the search removes it), and the
    expedition is worth what the cards still to come could add to it (the
    share of its peak's cards at or above its top, and how much of the deck
    is left).
    """
    grows = room[peak][top] / CARDS_PER_PEAK * deck / ALL_CARDS
    penalty = min(C.REMOVAL_PENALTY, marker)
    return 0.5 * axes + 0.5 * size - 0.5 * penalty + GROWTH * grows


def evaluate(state: KarakorumState, player: int) -> float:
    """Sum of the two best potential markers, with a bonus per peak ``player`` leads.

    The rules make a player who leads no peak lose whatever their markers, and
    drop the least advanced peak of a champion; this is a smooth version of that.
    """
    return _evaluate(state, player, None)


def model_evaluate(state: KarakorumState, player: int) -> float:
    """:func:`evaluate` with new expeditions valued by their room to grow (:func:`small_gain`)."""
    return _evaluate(state, player, _room(state.deck))


def model_values(state: KarakorumState) -> list[float]:
    """:func:`model_evaluate` of every player: each needs everyone's tracks, counted once here."""
    room = _room(state.deck)
    if state.is_over and state.instant_winner is not None:
        return [_evaluate(state, seat, room) for seat in range(len(state.players))]
    tracks = _all_tracks(state, room)
    tops = _tops(tracks)
    return [_judged(mine, tops) for mine in tracks]


def _evaluate(state: KarakorumState, player: int, room: Room | None) -> float:
    if state.is_over and state.instant_winner is not None:
        return 100.0 if state.instant_winner == player else float(sum(state.tracks[player]))
    tracks = _all_tracks(state, room)
    return _judged(tracks[player], _tops(tracks))


def _all_tracks(state: KarakorumState, room: Room | None) -> list[list[float]]:
    """Every player's markers: at the end as they stand, before it with what may come."""
    seats = range(len(state.players))
    if state.is_over:
        return [[float(t) for t in state.tracks[seat]] for seat in seats]
    return [potential_tracks(state, seat, room) for seat in seats]


def _tops(tracks: list[list[float]]) -> list[float]:
    """The highest (potential) marker on each peak."""
    return [max(column) for column in zip(*tracks, strict=True)]


def _judged(mine: list[float], tops: list[float]) -> float:
    # A player leads a peak where no one is higher: where their marker is the top one.
    led = sum(map(eq, mine, tops))
    best_two = sum(mine) - min(mine)
    return best_two + (5.0 + led if led else -6.0)


ALL_CARDS = len(C.CARD_VALUES) * len(C.AXES_PER_COPY) * len(PEAK_INDEX)
CARDS_PER_PEAK = ALL_CARDS // len(PEAK_INDEX)


def _count_room(deck: tuple[Card, ...]) -> Room:
    """Per peak and value: the cards still in the deck of that value or higher."""
    room = [[0] * (len(C.CARD_VALUES) + 2) for _ in PEAK_INDEX]
    for card in deck:
        room[PEAK_INDEX[card.color]][card.value] += 1
    for counts in room:
        for v in range(len(counts) - 2, 0, -1):
            counts[v] += counts[v + 1]
    return room


# A search's states share their deck until a card is revealed, and a pool of deals has a
# few dozen decks: the rooms of the latest are kept.
_room = KeptByIdentity(_count_room, 256)


# -- placing inside the search ---------------------------------------------------------------

# A placing turn is several decisions (each card, each scoring, the removals, done)
# with few real choices among them.  Below the root the search places by this
# policy instead of branching on every step, so its iterations go to the
# decisions that shape the game (how far to reveal, what to take) and look
# further ahead; at the root, where the bot itself places, every decision is weighed.
AXES_WORTH_SCORING = 5  # an expedition with this many axes is scored rather than grown
TOP_WORTH_SCORING = 7  # one whose top card is this high can hardly grow: score it


def placing_action(state: KarakorumState, legal: list[Action]) -> Action | None:
    """A plausible decision of a placing turn (``None`` outside one).

    Each card goes where it wastes least (on the highest top it may follow,
    else a new expedition); then a goal card is claimed where one is met, an
    expedition worth its axes is scored, and the turn ends.  An expedition is
    removed only where no card can be placed otherwise (the one that can
    least grow); the other removals are left to the player deciding at the root.
    """
    if state.step is not Step.PLACE:
        return None
    exps = state.expeditions[state.current]
    if state.held[state.current]:
        best: Action | None = None
        best_top = -1
        for action in legal:
            if type(action) is Place:
                top = 0 if action.expedition is None else exps[action.expedition].top
                if top > best_top:
                    best, best_top = action, top
        if best is not None:
            return best
        # Every card must be placed: make room where the least is lost.
        removals = [a for a in legal if type(a) is Remove]
        if removals:
            return max(
                removals, key=lambda a: (exps[a.expedition].top, -len(exps[a.expedition].cards))
            )
        return legal[0]
    goal: Action | None = None
    goal_points = 0
    axes: Action | None = None
    for action in legal:
        if type(action) is Score:
            if action.goal is not None:
                if action.goal.points > goal_points:
                    goal, goal_points = action, action.goal.points
            else:
                exp = exps[action.expedition]
                if exp.axes >= AXES_WORTH_SCORING or exp.top >= TOP_WORTH_SCORING:
                    axes = action
    if goal is not None:
        return goal
    if axes is not None:
        return axes
    return DONE if DONE in legal else legal[0]


model_policy = placing_action  # how the search levels place below the root


EVALUATION = GameEvaluation(
    evaluate=evaluate,
    scale=SCALE,
    rollout_depth=ROLLOUT_DEPTH,
    hard=HARD,
    expert=EXPERT,
    model_evaluate=model_evaluate,
    model_values=model_values,
    model_policy=model_policy,
)
"""What Karakorum's bots read of a position (see GameEvaluation)."""
