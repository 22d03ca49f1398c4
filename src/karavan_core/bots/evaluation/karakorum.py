"""Karakorum evaluation: track progress plus what the open expeditions may still score."""

from __future__ import annotations

import operator

from karavan_core.engine import Action
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAK_INDEX, GoalKind
from karavan_core.games.karakorum.rules import DONE
from karavan_core.games.karakorum.state import Card, KarakorumState, Place, Remove, Score, Step

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


# -- the value model of the search levels (Hard and Expert) ---------------------------------

# Each marker's final place is predicted from what lies before it (its
# expeditions, the cards still to come, the goals still open); the champion
# rule applied to those predicted markers then says who is likely to win.
# The weights of both steps are fitted to self-play (bench/fit.py): first the
# markers' gains by least squares, then how surely the predicted score wins.
TRACK_FEATURES = (
    "deck left",
    "deck left squared",
    "cash in its scorable expeditions",
    "axes in its small expeditions",
    "scorable expeditions",
    "small expeditions",
    "room to grow x deck left",
    "its goals still open x deck left",
    "its cards held",
    "room below the top x deck left",
)
TRACK_WEIGHTS = (
    -15.9796,  # deck left
    -0.1259,  # deck left squared
    0.9579,  # cash in its scorable expeditions
    0.2694,  # axes in its small expeditions
    -0.0048,  # scorable expeditions
    -0.8579,  # small expeditions
    2.9654,  # room to grow x deck left
    -0.0744,  # its goals still open x deck left
    0.7373,  # its cards held
    0.7697,  # room below the top x deck left
)
FEATURES = (
    "champion score on the predicted markers",
    "out of the fight on the predicted markers",
    "sum of the predicted markers",
)
WEIGHTS = (0.1, 0.0, 0.02)
ALL_CARDS = len(C.CARD_VALUES) * len(C.AXES_PER_COPY) * len(PEAK_INDEX)
CARDS_PER_PEAK = ALL_CARDS // len(PEAK_INDEX)
PEAK_RANGE = range(len(PEAK_INDEX))


def track_features(
    state: KarakorumState, player: int, room: list[list[int]] | None = None
) -> list[list[float]]:
    """Per peak, what predicts ``player``'s final marker there (see :data:`TRACK_FEATURES`).

    ``room`` is :func:`_room` of the state's deck, if the caller has it already.
    """
    goals = {(g.color, g.kind) for g in state.goals}
    open_goals = [0] * len(PEAK_INDEX)
    for color, _kind in goals:
        open_goals[PEAK_INDEX[color]] += 1
    if room is None:
        room = _room(state.deck)
    left = len(state.deck) / ALL_CARDS
    markers = state.tracks[player]
    cash = [0.0] * len(PEAK_INDEX)
    small_axes = [0.0] * len(PEAK_INDEX)
    big = [0] * len(PEAK_INDEX)
    small = [0] * len(PEAK_INDEX)
    growth = [0.0] * len(PEAK_INDEX)
    for exp in state.expeditions[player]:
        i = PEAK_INDEX[exp.color]
        size = len(exp.cards)
        axes = exp.axes
        if size >= C.MIN_SCORING_CARDS:
            big[i] += 1
            value = float(axes)
            for kind, need in ((GoalKind.FOUR, 4), (GoalKind.SIX, 6)):
                if size >= need and (exp.color, kind) in goals:
                    value = max(value, float(kind.points))
            if axes >= C.GOAL_MIN_AXES and (exp.color, GoalKind.AXES) in goals:
                value = max(value, float(GoalKind.AXES.points))
            cash[i] += value
        else:
            small[i] += 1
            small_axes[i] += axes
        growth[i] += room[i][exp.top] / CARDS_PER_PEAK
    held = [0] * len(PEAK_INDEX)
    for card in state.held[player]:
        held[PEAK_INDEX[card.color]] += 1
    return [
        [
            left,
            left * left,
            cash[i],
            small_axes[i],
            float(big[i]),
            float(small[i]),
            growth[i] * left,
            open_goals[i] * left,
            float(held[i]),
            (C.TRACK_TOP - markers[i]) * left,
        ]
        for i in PEAK_RANGE
    ]


def _room(deck: tuple[Card, ...]) -> list[list[int]]:
    """Per peak and value: the cards still in the deck of that value or higher.

    A search's states share their deck until a card is revealed, so the last
    deck counted is remembered (read once: another thread may replace it).
    """
    memo = _room_memo
    if memo[0] is deck:
        return memo[1]
    room = [[0] * (len(C.CARD_VALUES) + 2) for _ in PEAK_INDEX]
    for card in deck:
        room[PEAK_INDEX[card.color]][card.value] += 1
    for counts in room:
        for v in range(len(counts) - 2, 0, -1):
            counts[v] += counts[v + 1]
    _remember_room(deck, room)
    return room


_room_memo: tuple[object, list[list[int]]] = (None, [])


def _remember_room(deck: tuple[Card, ...], room: list[list[int]]) -> None:
    global _room_memo
    _room_memo = (deck, room)


def predicted_markers(
    state: KarakorumState, player: int, room: list[list[int]] | None = None
) -> list[float]:
    """Where ``player``'s three markers are likely to end, by the fitted prediction."""
    markers = state.tracks[player]
    out = []
    for i, row in enumerate(track_features(state, player, room)):
        gain = sum(map(operator.mul, TRACK_WEIGHTS, row))
        out.append(max(0.0, min(float(C.TRACK_TOP), markers[i] + gain)))
    return out


def features(state: KarakorumState, player: int) -> list[float]:
    """What the value model weighs for ``player`` (see :data:`FEATURES`)."""
    memo = _memo  # one read: another thread may replace it meanwhile
    table = memo[1] if memo[0] is state else _remember(state)
    return table[player]


_memo: tuple[object, list[list[float]]] = (None, [])


def _remember(state: KarakorumState) -> list[list[float]]:
    global _memo
    if state.step is Step.OVER:
        markers = [[float(t) for t in tracks] for tracks in state.tracks]
    else:
        room = _room(state.deck)
        markers = [predicted_markers(state, seat, room) for seat in range(len(state.players))]
    scores = _champion_scores(markers)
    table = [
        [score or 0.0, 1.0 if score is None else 0.0, sum(mine)]
        for score, mine in zip(scores, markers, strict=True)
    ]
    _memo = (state, table)
    return table


def _champion_scores(tracks: list[list[float]]) -> list[float | None]:
    """Each player's final score by the champion rule (``None``: leads no peak)."""
    best = [max(t[i] for t in tracks) for i in PEAK_RANGE]
    scores: list[float | None] = []
    for mine in tracks:
        led = [i for i in PEAK_RANGE if mine[i] >= best[i]]
        if not led:
            scores.append(None)
            continue
        dropped = min(led, key=lambda i: mine[i])
        scores.append(float(sum(mine[i] for i in PEAK_RANGE if i != dropped)))
    return scores


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


model_policy = placing_action  # the value model search places by it below the root


def final_markers(state: KarakorumState) -> list[list[float]]:
    """Every player's markers once the game ends after ``state`` at once (the final cancelling).

    What the fit of the markers' prediction aims at, read from a game's last positions.
    """
    out = []
    for seat, markers in enumerate(state.tracks):
        end = [float(t) for t in markers]
        for exp in state.expeditions[seat]:
            i = PEAK_INDEX[exp.color]
            if len(exp.cards) >= C.MIN_SCORING_CARDS:
                end[i] += exp.axes
            else:
                end[i] -= C.REMOVAL_PENALTY
        out.append([max(0.0, min(float(C.TRACK_TOP), t)) for t in end])
    return out
