"""Karakorum's rules: reveal, take, place and score summit cards to climb three peaks.

Plain functions over the state, so that the contract (:mod:`.game`), the words
(:mod:`.words`) and the bots' evaluation read one statement of each rule: one
predicate per kind of decision says whether it is legal and, if not, why
(:class:`Why`); :func:`apply_decision` plays one.
"""

from __future__ import annotations

from enum import Enum, auto
from typing import TypeVar

from karavan_core.engine import Action
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAKS, GoalKind, Peak
from karavan_core.games.karakorum.expeditions import (
    Shape,
    can_place,
    closing,
    expedition_shapes,
    has_room,
    meets,
    moved,
    on_top,
    reveal_limit,
    shape_of,
    without,
)
from karavan_core.games.karakorum.state import (
    Card,
    Done,
    Expedition,
    Goal,
    KarakorumState,
    Pass,
    Place,
    Remove,
    Reveal,
    Score,
    Step,
    StopRevealing,
    StopTaking,
    Take,
)
from karavan_core.values import replace, replace_at

ALL_CARDS: tuple[Card, ...] = tuple(
    Card(peak, value, axes) for peak in PEAKS for value in C.CARD_VALUES for axes in C.AXES_PER_COPY
)
ALL_GOALS: tuple[Goal, ...] = tuple(Goal(peak, kind) for peak in PEAKS for kind in C.GOAL_KINDS)

# Every decision is built once: legal_actions hands out these shared values.
REVEAL = Reveal()
STOP_REVEALING = StopRevealing()
STOP_TAKING = StopTaking()
PASS = Pass()
DONE = Done()
_TAKE: dict[Card, Take] = {card: Take(card) for card in ALL_CARDS}
_SLOTS: tuple[int | None, ...] = (None, *range(C.MAX_EXPEDITIONS))
_PLACE: dict[tuple[Card, int | None], Place] = {
    (card, slot): Place(card, slot) for card in ALL_CARDS for slot in _SLOTS
}
TAKE_STEPS = frozenset({Step.TAKE, Step.TAKE_MORE, Step.OTHERS})
_REMOVE: tuple[Remove, ...] = tuple(Remove(i) for i in range(C.MAX_EXPEDITIONS))
_SCORE: dict[tuple[int, GoalKind | None], Score] = {
    (i, kind): Score(i, kind) for i in range(C.MAX_EXPEDITIONS) for kind in (None, *C.GOAL_KINDS)
}

T = TypeVar("T")

# -- what is legal: one predicate per kind of decision -----------------------------


class Why(Enum):
    """Why a decision may not be taken: the rules' answer (:mod:`.words` says it)."""

    NOT_NOW = auto()  # the step asks for another kind of decision
    ACTIVE_TAKES = auto()  # the active player passing before taking a first card
    ACTIVE_STOPS = auto()  # the active player passing instead of stopping
    NOT_ON_TABLE = auto()  # no such card lies on the table
    OTHER_PEAK = auto()  # a further card taken of another peak than the first
    UNPLACEABLE = auto()  # the cards taken could not all be placed with that one
    NO_EXPEDITION = auto()  # the player has no expedition in that place
    CARDS_LEFT = auto()  # ending the placing turn with taken cards not placed
    NOT_TAKEN = auto()  # placing a card the player has not taken
    NO_ROOM = auto()  # no room for another expedition
    WRONG_PEAK = auto()  # a card on an expedition of another peak
    TOO_LOW = auto()  # a card lower than the expedition's top card
    STRANDS = auto()  # a place that would leave other taken cards nowhere to go
    TOO_BIG = auto()  # removing an expedition big enough to score
    FRESH = auto()  # removing an expedition that has just received a card
    NOT_FRESH = auto()  # scoring an expedition that received no card this turn
    TOO_SMALL = auto()  # scoring an expedition too small to score
    GOAL_GONE = auto()  # a goal card already claimed
    GOAL_UNMET = auto()  # an expedition that does not meet the goal card
    UNKNOWN = auto()  # not a Karakorum decision at all


def revealing(state: KarakorumState) -> Why | None:
    """Why the active player may not reveal another card (or stop revealing) now."""
    return None if state.step is Step.REVEAL else Why.NOT_NOW


def stopping(state: KarakorumState) -> Why | None:
    """Why the active player may not stop taking now."""
    return None if state.step is Step.TAKE_MORE else Why.NOT_NOW


def passing(state: KarakorumState) -> Why | None:
    """Why the player to move may not pass: only another player than the active one does."""
    step = state.step
    if step is Step.OTHERS:
        return None
    return {Step.TAKE: Why.ACTIVE_TAKES, Step.TAKE_MORE: Why.ACTIVE_STOPS}.get(step, Why.NOT_NOW)


Key = tuple[Peak, int]  # a card reduced to what placing it depends on


def _take_fault(
    color: Peak | None, shapes: tuple[Shape, ...], keys: list[Key], card: Card
) -> Why | None:
    """Why a player holding cards of ``color`` (``keys``), whose expeditions have these
    ``shapes``, may not take ``card``: every card taken must be placeable, all of one peak."""
    if color is not None and card.color is not color:
        return Why.OTHER_PEAK
    if can_place(shapes, tuple(sorted((*keys, (card.color, card.value))))):
        return None
    return Why.UNPLACEABLE


def takeable(state: KarakorumState, seat: int, first: bool = False) -> list[Card]:
    """The distinct table cards ``seat`` may take now (:func:`taking`'s answer for each).

    With ``first``, only the first of them: enough to tell whether there is any.
    """
    held = state.held[seat]
    color = held[0].color if held else None
    shapes = expedition_shapes(state.expeditions[seat])
    keys = [(c.color, c.value) for c in held]
    out: list[Card] = []
    for card in state.table:
        if card in out or _take_fault(color, shapes, keys, card) is not None:
            continue
        out.append(card)
        if first:
            break
    return out


def can_take(state: KarakorumState, seat: int) -> bool:
    """Whether ``seat`` could take any table card now and still place everything."""
    return bool(takeable(state, seat, first=True))


def taking(state: KarakorumState, card: Card) -> Why | None:
    """Why the player to move may not take ``card`` from the table now."""
    if state.step not in TAKE_STEPS:
        return Why.NOT_NOW
    if card not in state.table:
        return Why.NOT_ON_TABLE
    held = state.held[state.current]
    color = held[0].color if held else None
    keys = [(c.color, c.value) for c in held]
    return _take_fault(color, expedition_shapes(state.expeditions[state.current]), keys, card)


def placings(state: KarakorumState, card: Card) -> list[Why | None]:
    """For each place of a taken ``card`` (each expedition in order, then a new one last):
    why it may not go there now."""
    seat = state.current
    exps, held = state.expeditions[seat], state.held[seat]
    if state.step is not Step.PLACE:
        return [Why.NOT_NOW] * (len(exps) + 1)
    if card not in held:
        return [Why.NOT_TAKEN] * (len(exps) + 1)
    rest = tuple(sorted((c.color, c.value) for c in without(held, held.index(card))))
    # The shapes in the expeditions' order, for the indices (needed only with cards left).
    shapes = tuple(map(shape_of, exps)) if rest else ()
    answers: list[Why | None] = []
    for j, exp in enumerate(exps):
        if exp.color is not card.color:
            answers.append(Why.WRONG_PEAK)
        elif card.value < exp.top:
            answers.append(Why.TOO_LOW)
        elif rest:
            grown = replace_at(shapes, j, (exp.color, card.value, len(exp.cards) + 1, True))
            answers.append(_strands(grown, rest))
        else:
            answers.append(None)
    if not has_room([e.color for e in exps], card.color):
        answers.append(Why.NO_ROOM)
    else:
        answers.append(_strands((*shapes, (card.color, card.value, 1, True)), rest))
    return answers


def _strands(grown: tuple[Shape, ...], rest: tuple[Key, ...]) -> Why | None:
    """Whether the expeditions ``grown`` by one card leave the ``rest`` of the taken cards
    somewhere to go."""
    if not rest or can_place(tuple(sorted(grown)), rest):
        return None
    return Why.STRANDS


def placing(state: KarakorumState, card: Card, index: int | None) -> Why | None:
    """Why the taken ``card`` may not go on expedition ``index`` (``None``: a new one) now."""
    if state.step is not Step.PLACE:
        return Why.NOT_NOW
    count = len(state.expeditions[state.current])
    if index is not None and not 0 <= index < count:
        return Why.NO_EXPEDITION
    return placings(state, card)[count if index is None else index]


def removings(state: KarakorumState) -> list[Why | None]:
    """For each of the placing player's expeditions: why it may not be removed now."""
    exps = state.expeditions[state.current]
    if state.step is not Step.PLACE:
        return [Why.NOT_NOW] * len(exps)
    return [
        Why.TOO_BIG if len(exp.cards) >= C.MIN_SCORING_CARDS else Why.FRESH if exp.fresh else None
        for exp in exps
    ]


def scoring(state: KarakorumState, index: int, kind: GoalKind | None) -> Why | None:
    """Why expedition ``index`` may not be scored now, by its axes (``kind`` ``None``) or
    with the goal card of ``kind`` of its peak."""
    if state.step is not Step.PLACE:
        return Why.NOT_NOW
    exps = state.expeditions[state.current]
    if not 0 <= index < len(exps):
        return Why.NO_EXPEDITION
    exp = exps[index]
    if not exp.fresh:
        return Why.NOT_FRESH
    if len(exp.cards) < C.MIN_SCORING_CARDS:
        return Why.TOO_SMALL
    if kind is None:
        return None
    if Goal(exp.color, kind) not in state.goals:
        return Why.GOAL_GONE
    return None if meets(kind, exps, index) else Why.GOAL_UNMET


def finishing(state: KarakorumState) -> Why | None:
    """Why the placing player may not end the placing turn now."""
    if state.step is not Step.PLACE:
        return Why.NOT_NOW
    return Why.CARDS_LEFT if state.held[state.current] else None


def refusal(state: KarakorumState, action: object) -> Why | None:
    """Why ``action`` may not be taken in ``state`` (a game not over), or ``None`` if it may:
    the answer of the predicate for its kind."""
    kind = type(action)
    if kind is Reveal or kind is StopRevealing:
        return revealing(state)
    if kind is StopTaking:
        return stopping(state)
    if kind is Pass:
        return passing(state)
    if isinstance(action, Take):
        return taking(state, action.card)
    if isinstance(action, Place):
        return placing(state, action.card, action.expedition)
    if isinstance(action, Remove):
        index = action.expedition
        return _at(removings(state), index) if state.step is Step.PLACE else Why.NOT_NOW
    if isinstance(action, Score):
        return scoring(state, action.expedition, action.goal)
    if isinstance(action, Done):
        return finishing(state)
    return Why.UNKNOWN


def _at(answers: list[Why | None], index: int) -> Why | None:
    """The answer for expedition ``index`` among ``answers``; none there: no such expedition."""
    return answers[index] if 0 <= index < len(answers) else Why.NO_EXPEDITION


def placements(state: KarakorumState) -> list[Action]:
    """Where the placing player may put each taken card (:func:`placings`' answers)."""
    seat = state.current
    count = len(state.expeditions[seat])
    actions: list[Action] = []
    for card in dict.fromkeys(state.held[seat]):
        for place, why in enumerate(placings(state, card)):
            if why is None:
                actions.append(_PLACE[card, None if place == count else place])
    return actions


def tidyings(state: KarakorumState) -> list[Action]:
    """The removals and scorings open to the placing player, expedition by expedition."""
    exps = state.expeditions[state.current]
    actions: list[Action] = []
    for j, why in enumerate(removings(state)):
        if why is None:
            actions.append(_REMOVE[j])
        elif scoring(state, j, None) is None:
            actions.append(_SCORE[j, None])
            actions += [
                _SCORE[j, goal.kind]
                for goal in state.goals
                if goal.color is exps[j].color and scoring(state, j, goal.kind) is None
            ]
    return actions


def legal_decisions(state: KarakorumState) -> list[Action]:
    """Every decision open to the player to move."""
    step = state.step
    if step is Step.REVEAL:
        return [REVEAL, STOP_REVEALING]
    if step in TAKE_STEPS:
        actions: list[Action] = [_TAKE[card] for card in takeable(state, state.current)]
        if stopping(state) is None:
            actions.append(STOP_TAKING)
        if passing(state) is None:
            actions.append(PASS)
        return actions
    if step is Step.PLACE:
        actions = placements(state) + tidyings(state)
        if finishing(state) is None:
            actions.append(DONE)
        return actions
    return []


# -- what a decision does -------------------------------------------------------------


def apply_decision(state: KarakorumState, action: Action) -> KarakorumState:
    """The state after ``action``, a decision already known to be legal."""
    if isinstance(action, Take):
        return _take(state, action.card)
    if isinstance(action, Place):
        return _tidy(_place(state, action.card, action.expedition))
    if isinstance(action, Score):
        return _score(state, action.expedition, action.goal)
    if isinstance(action, Remove):
        return _tidy(_remove(state, action.expedition))
    if isinstance(action, Done):
        return _end_placing(state)
    if isinstance(action, Reveal):
        return _after_reveal(_reveal(state))
    if isinstance(action, StopRevealing):
        return _start_taking(state)
    if isinstance(action, StopTaking | Pass):
        return _offer(state, _offset(state, state.current) + 1)
    raise AssertionError(f"unhandled action {action!r} in step {state.step}")


def _offset(state: KarakorumState, seat: int) -> int:
    """How many seats after the active player ``seat`` sits."""
    return (seat - state.active) % len(state.players)


def start_round(state: KarakorumState) -> KarakorumState:
    """The active player must reveal at least one card."""
    state = replace(state, current=state.active, step=Step.REVEAL)
    return _after_reveal(_reveal(state))


def _reveal(state: KarakorumState) -> KarakorumState:
    return replace(state, deck=state.deck[1:], table=(*state.table, state.deck[0]))


def _after_reveal(state: KarakorumState) -> KarakorumState:
    """Ask whether to reveal more; reveal on while nothing on the table can be taken."""
    limit = reveal_limit(state)
    while len(state.table) < limit and state.deck:
        if can_take(state, state.active):
            return state  # still the revealing step (it is the only one that reveals)
        # Stopping here would oblige the active player to take a card they cannot place.
        state = _reveal(state)
    return _start_taking(state)


def _start_taking(state: KarakorumState) -> KarakorumState:
    if can_take(state, state.active):
        return replace(state, step=Step.TAKE, current=state.active)
    # The rulebook's exception: the active player can place nothing and takes nothing.
    return _offer(state, 1)


def _take(state: KarakorumState, card: Card) -> KarakorumState:
    seat = state.current
    table = without(state.table, state.table.index(card))
    held = replace_at(state.held, seat, (*state.held[seat], card))
    if state.step is Step.OTHERS:
        state = replace(state, table=table, held=held)
        return _offer(state, _offset(state, seat) + 1)
    state = replace(state, table=table, held=held, step=Step.TAKE_MORE)
    if table and can_take(state, seat):
        return state
    return _offer(state, 1)


def _offer(state: KarakorumState, offset: int) -> KarakorumState:
    """Let the other players, from ``offset`` seats after the active one, take or pass."""
    n = len(state.players)
    for k in range(offset, n):
        if not state.table:
            break
        seat = (state.active + k) % n
        if can_take(state, seat):
            return replace(state, step=Step.OTHERS, current=seat)
        # A player who can place none of the cards passes without being asked.
    state = replace(state, table=(), discard=state.discard + state.table)
    return _next_placer(state, 0)


def _next_placer(state: KarakorumState, offset: int) -> KarakorumState:
    """The next taker in player order, from the active player on, places their cards."""
    n = len(state.players)
    for k in range(offset, n):
        seat = (state.active + k) % n
        if state.held[seat]:
            return _tidy(replace(state, step=Step.PLACE, current=seat))
    return end_round(state)


def _tidy(state: KarakorumState) -> KarakorumState:
    """End the placing turn at once when there is nothing left to decide."""
    if state.step is not Step.PLACE or state.held[state.current] or tidyings(state):
        return state
    return _end_placing(state)


def _place(state: KarakorumState, card: Card, index: int | None) -> KarakorumState:
    seat = state.current
    held = state.held[seat]
    exps = state.expeditions[seat]
    if index is None:
        exps = (*exps, Expedition((card,), fresh=True))
    else:
        exps = replace_at(exps, index, Expedition((*exps[index].cards, card), fresh=True))
    return replace(
        state,
        held=replace_at(state.held, seat, without(held, held.index(card))),
        expeditions=replace_at(state.expeditions, seat, exps),
    )


def _remove(state: KarakorumState, index: int) -> KarakorumState:
    seat = state.current
    exp = state.expeditions[seat][index]
    return replace(
        state,
        expeditions=replace_at(state.expeditions, seat, without(state.expeditions[seat], index)),
        tracks=replace_at(
            state.tracks, seat, moved(state.tracks[seat], exp.color, -C.REMOVAL_PENALTY)
        ),
        discard=state.discard + exp.cards,
    )


def _score(state: KarakorumState, index: int, kind: GoalKind | None) -> KarakorumState:
    seat = state.current
    exps = state.expeditions[seat]
    exp = exps[index]
    gone = [index]
    goals, claimed = state.goals, state.claimed
    if kind is None:
        points = exp.axes
    else:
        goal = Goal(exp.color, kind)
        points = kind.points
        goals = without(goals, goals.index(goal))
        claimed = replace_at(claimed, seat, (*claimed[seat], goal))
        if kind is GoalKind.DOUBLE:
            gone += [j for j, other in enumerate(exps) if j != index and other.color is exp.color][
                :1
            ]
    tracks = replace_at(state.tracks, seat, moved(state.tracks[seat], exp.color, points))
    discard = state.discard
    for j in sorted(gone):
        discard += exps[j].cards
    kept = tuple(e for j, e in enumerate(exps) if j not in gone)
    state = replace(
        state,
        expeditions=replace_at(state.expeditions, seat, kept),
        tracks=tracks,
        goals=goals,
        claimed=claimed,
        discard=discard,
    )
    if on_top(tracks[seat]):
        return replace(state, step=Step.OVER, instant_winner=seat)
    return _tidy(state)


def _end_placing(state: KarakorumState) -> KarakorumState:
    seat = state.current
    exps = tuple(Expedition(e.cards) if e.fresh else e for e in state.expeditions[seat])
    state = replace(state, expeditions=replace_at(state.expeditions, seat, exps))
    return _next_placer(state, _offset(state, seat) + 1)


def end_round(state: KarakorumState) -> KarakorumState:
    """The round over: the first-player marker passes on; the next round, or the end."""
    n = len(state.players)
    state = replace(state, round=state.round + 1, active=(state.active + 1) % n)
    if state.deck:
        return start_round(state)
    return _close_all(state)


def _close_all(state: KarakorumState) -> KarakorumState:
    """Every expedition closed at the end, from the new active player on.

    (The rulebook calls it cancelling; the game-over breakdown says "Closed at the end".)

    Expeditions of 3+ cards score their axes (no goal cards), then 1-2 card
    expeditions are removed at the usual cost; reaching the top of all
    three tracks still wins at once.
    """
    n = len(state.players)
    state = replace(
        state,
        before_final=state.tracks,
        final_expeditions=state.expeditions,
        current=state.active,
    )
    tracks, expeditions, discard = state.tracks, state.expeditions, state.discard
    for k in range(n):
        seat = (state.active + k) % n
        mine, closed, top = closing(tracks[seat], expeditions[seat])
        tracks = replace_at(tracks, seat, mine)
        discard += tuple(card for exp, _ in closed for card in exp.cards)
        left = tuple(exp for exp in expeditions[seat] if all(exp is not c for c, _ in closed))
        expeditions = replace_at(expeditions, seat, left)
        if top:
            return replace(
                state,
                tracks=tracks,
                expeditions=expeditions,
                discard=discard,
                step=Step.OVER,
                instant_winner=seat,
            )
    return replace(state, tracks=tracks, expeditions=expeditions, discard=discard, step=Step.OVER)
