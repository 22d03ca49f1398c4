"""Karakorum's rules: reveal, take, place and score summit cards to climb three peaks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from typing import Any, TypeVar

from karavan_core.engine import Action, Game, Result
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAK_INDEX, PEAKS, GoalKind, Peak
from karavan_core.games.karakorum.state import (
    ACTION_TYPES,
    Card,
    Done,
    Expedition,
    Goal,
    KarakorumObservation,
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
    Tracks,
)
from karavan_core.rng import Rng, fresh_rng, shuffle
from karavan_core.text import listed, plural
from karavan_core.values import KeptByIdentity, copied, replace, replace_at

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
_TAKE_STEPS = frozenset({Step.TAKE, Step.TAKE_MORE, Step.OTHERS})
_REMOVE: tuple[Remove, ...] = tuple(Remove(i) for i in range(C.MAX_EXPEDITIONS))
_SCORE: dict[tuple[int, GoalKind | None], Score] = {
    (i, kind): Score(i, kind) for i in range(C.MAX_EXPEDITIONS) for kind in (None, *C.GOAL_KINDS)
}

T = TypeVar("T")

NOT_OVER = (
    "The game is not over: these are the standings if it ended now, every expedition "
    "closed as at the end."
)


# A copy of a state with some fields changed: the rules make several a decision,
# so the name is values.replace itself rather than a function calling it.
evolve = replace


# -- expedition limits and the "can it be placed" search ---------------------------


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


def _settle(shapes: tuple[Shape, ...]) -> tuple[Shape, ...]:
    """The expeditions left once every removal and every scoring that frees room is done.

    Removing or scoring an expedition never hurts placing: any card meant for it
    can start a new expedition in the freed place instead.  So the search may
    assume all of them: only untouched 3+ expeditions and fresh 1-2 card ones stay.
    (The double goal, which frees a second place, is never needed: the cards
    taken in a round are all of one peak, and one new expedition holds them all.)
    """
    return tuple(s for s in shapes if s[3] == (s[2] < C.MIN_SCORING_CARDS))


@lru_cache(maxsize=1 << 16)
def _can_place(shapes: tuple[Shape, ...], held: tuple[tuple[Peak, int], ...]) -> bool:
    """Whether every card in ``held`` (peak, value) can be placed, in some order.

    Arguments are sorted so that equal situations share one cache entry.
    """
    if not held:
        return True
    shapes = _settle(shapes)
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
                if _can_place(tuple(sorted(grown)), rest):
                    return True
        if has_room(colors, color):
            grown = (*shapes, (color, value, 1, True))
            if _can_place(tuple(sorted(grown)), rest):
                return True
    return False


def _shape(exp: Expedition) -> Shape:
    return (exp.color, exp.top, len(exp.cards), exp.fresh)


def _list_shapes(expeditions: Sequence[Expedition]) -> tuple[Shape, ...]:
    return tuple(sorted(map(_shape, expeditions)))


# A seat's expeditions stay the same tuple from state to state until that seat places
# (kept by identity: tuples only, which cannot change).
_shapes: KeptByIdentity[tuple[Expedition, ...], tuple[Shape, ...]] = KeptByIdentity(
    _list_shapes, 4096
)


def can_place_all(expeditions: Sequence[Expedition], cards: Sequence[Card]) -> bool:
    """Whether ``cards`` (all of one peak) can all be placed, removing and scoring as needed."""
    held = tuple(sorted((card.color, card.value) for card in cards))
    return _can_place(_list_shapes(expeditions), held)  # any sequence: not kept


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


def _without(items: tuple[T, ...], index: int) -> tuple[T, ...]:
    return items[:index] + items[index + 1 :]


def _move(tracks: Tracks, peak: Peak, by: int) -> Tracks:
    """The tracks with ``peak``'s marker moved by ``by``, kept within 0..TRACK_TOP."""
    i = PEAK_INDEX[peak]
    return replace_at(tracks, i, max(0, min(C.TRACK_TOP, tracks[i] + by)))


def _on_top(tracks: Tracks) -> bool:
    return all(t == C.TRACK_TOP for t in tracks)


def _closing(
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
        tracks = _move(tracks, exp.color, by)
        moves.append((exp, tracks[i] - before))

    for exp in expeditions:
        if len(exp.cards) >= C.MIN_SCORING_CARDS:
            close(exp, exp.axes)
    if _on_top(tracks):
        return tracks, moves, True
    for exp in expeditions:
        if len(exp.cards) < C.MIN_SCORING_CARDS:
            close(exp, -C.REMOVAL_PENALTY)
    return tracks, moves, False


def _cards(cards: Sequence[Card]) -> str:
    return listed([f"the {card}" for card in cards])


# -- the game ---------------------------------------------------------------------


class Karakorum(Game[KarakorumState, KarakorumObservation, Action]):
    """Karakorum for 2 to 4 players."""

    name = "karakorum"
    title = "Karakorum"
    private_views = False  # every card is face up; only the deck's order is hidden, from all
    min_players = C.MIN_PLAYERS
    max_players = C.MAX_PLAYERS
    action_types = ACTION_TYPES
    score_label = "Points if it ended now"
    score_note = "all expeditions closed"  # as the end closes them: see result
    final_label = "Points"

    # -- setup --------------------------------------------------------------------
    def deal(
        self, players: tuple[str, ...], rng: Rng, options: Mapping[str, Any]
    ) -> KarakorumState:
        """Shuffle the summit cards, lay out the goal cards and start the first round."""
        n = len(players)
        rng, deck = rng.shuffled(ALL_CARDS)
        rng, first = self.first_player(options, n, rng)
        state = KarakorumState(
            players=players,
            rng=rng,
            first_player=first,
            active=first,
            current=first,
            step=Step.REVEAL,
            deck=deck,
            table=(),
            held=((),) * n,
            expeditions=((),) * n,
            tracks=((0,) * len(PEAKS),) * n,
            goals=ALL_GOALS,
            claimed=((),) * n,
            discard=(),
        )
        return self._start_round(state)

    # -- what each seat could do --------------------------------------------------
    def _limit(self, view: KarakorumState | KarakorumObservation) -> int:
        return len(view.players) + C.REVEAL_BEYOND_PLAYERS

    def _takeable(self, state: KarakorumState, seat: int, first: bool = False) -> list[Card]:
        """The distinct table cards ``seat`` could take now and still place everything.

        With ``first``, only the first of them: enough to tell whether there is any.
        """
        held = state.held[seat]
        color = held[0].color if held else None
        shapes = _shapes(state.expeditions[seat])
        keys = [(c.color, c.value) for c in held]
        out: list[Card] = []
        for card in state.table:
            if card in out or (color is not None and card.color is not color):
                continue
            if _can_place(shapes, tuple(sorted((*keys, (card.color, card.value))))):
                out.append(card)
                if first:
                    break
        return out

    def _can_take(self, state: KarakorumState, seat: int) -> bool:
        """Whether ``seat`` could take any table card now and still place everything."""
        return bool(self._takeable(state, seat, first=True))

    def _placements(self, state: KarakorumState) -> list[Action]:
        """Where the placing player may put each taken card, keeping the rest placeable."""
        seat = state.current
        exps, held = state.expeditions[seat], state.held[seat]
        colors = [e.color for e in exps]
        shapes = tuple(map(_shape, exps))  # in the expeditions' order, for the indices
        actions: list[Action] = []
        seen: set[Card] = set()
        for i, card in enumerate(held):
            if card in seen:
                continue
            seen.add(card)
            rest = tuple(sorted((c.color, c.value) for c in _without(held, i)))
            for j, exp in enumerate(exps):
                if exp.color is card.color and exp.top <= card.value:
                    if rest:
                        grown = replace_at(
                            shapes, j, (exp.color, card.value, len(exp.cards) + 1, True)
                        )
                        if not _can_place(tuple(sorted(grown)), rest):
                            continue
                    actions.append(_PLACE[card, j])
            if has_room(colors, card.color):
                if rest:
                    grown = (*shapes, (card.color, card.value, 1, True))
                    if not _can_place(tuple(sorted(grown)), rest):
                        continue
                actions.append(_PLACE[card, None])
        return actions

    def _tidying(self, state: KarakorumState) -> list[Action]:
        """The removals and scorings open to the placing player."""
        seat = state.current
        exps = state.expeditions[seat]
        actions: list[Action] = []
        for j, exp in enumerate(exps):
            size = len(exp.cards)
            if size < C.MIN_SCORING_CARDS:
                if not exp.fresh:
                    actions.append(_REMOVE[j])
            elif exp.fresh:
                actions.append(_SCORE[j, None])
                for goal in state.goals:
                    if goal.color is exp.color and meets(goal.kind, exps, j):
                        actions.append(_SCORE[j, goal.kind])
        return actions

    # -- decisions ------------------------------------------------------------------
    def legal_actions(self, state: KarakorumState) -> list[Action]:
        """Every decision open to the player to move."""
        step = state.step
        if step is Step.REVEAL:
            return [REVEAL, STOP_REVEALING]
        if step is Step.TAKE:
            return [_TAKE[card] for card in self._takeable(state, state.current)]
        if step is Step.TAKE_MORE:
            return [_TAKE[card] for card in self._takeable(state, state.current)] + [STOP_TAKING]
        if step is Step.OTHERS:
            return [_TAKE[card] for card in self._takeable(state, state.current)] + [PASS]
        if step is Step.PLACE:
            actions = self._placements(state) + self._tidying(state)
            if not state.held[state.current]:
                actions.append(DONE)
            return actions
        return []

    def why_illegal(self, state: KarakorumState, action: object) -> str | None:
        """A sentence saying why ``action`` is not allowed now, or ``None``."""
        step = state.step
        if step is Step.OVER:
            return "The game is over."
        if type(action) not in ACTION_TYPES:
            return "That is not a Karakorum move."
        if self._allowed(state, action):
            return None
        must = self._must(state)
        if isinstance(action, Reveal):
            return f"You cannot reveal more cards now: {must}."
        if isinstance(action, StopRevealing | StopTaking):
            return f"You cannot stop now: {must}."
        if isinstance(action, Pass):
            if step is Step.TAKE:
                return "The active player cannot pass: take at least one card."
            if step is Step.TAKE_MORE:
                return "The active player does not pass: stop taking instead."
            return f"You cannot pass now: {must}."
        if isinstance(action, Take):
            return self._why_not_take(state, action.card, must)
        if isinstance(action, Place | Remove | Score | Done):
            if step is not Step.PLACE:
                return f"You cannot do that now: {must}."
            return self._why_not_placing(state, action)
        return f"That is not possible now: {must}."

    def _allowed(self, state: KarakorumState, action: object) -> bool:
        """Whether ``action`` is among the legal actions, checking only its own kind."""
        step, kind = state.step, type(action)
        if step is Step.REVEAL:
            return kind is Reveal or kind is StopRevealing
        if isinstance(action, Take):
            return step in _TAKE_STEPS and action.card in self._takeable(state, state.current)
        if kind is StopTaking:
            return step is Step.TAKE_MORE
        if kind is Pass:
            return step is Step.OTHERS
        if step is not Step.PLACE:
            return False
        if kind is Done:
            return not state.held[state.current]
        if kind is Place:
            return action in self._placements(state)
        return action in self._tidying(state)

    def _why_not_take(self, state: KarakorumState, card: Card, must: str) -> str:
        step = state.step
        if step not in (Step.TAKE, Step.TAKE_MORE, Step.OTHERS):
            return f"You cannot take a card now: {must}."
        if card not in state.table:
            return f"The {card} is not on the table."
        held = state.held[state.current]
        if held and card.color is not held[0].color:
            return f"Further cards must be {held[0].color.value}, like the first one you took."
        if held:
            return "You could not place that card, even together with the ones you took."
        return "You could not place that card on your expeditions, even after removing small ones."

    def _why_not_placing(self, state: KarakorumState, action: Action) -> str:
        seat = state.current
        exps, held = state.expeditions[seat], state.held[seat]
        index = getattr(action, "expedition", None)
        if index is not None and not 0 <= index < len(exps):
            return "You have no such expedition."
        if isinstance(action, Done):
            return f"Place every card you took first ({_cards(held)})."
        if isinstance(action, Place):
            card = action.card
            if card not in held:
                return f"You have not taken the {card}."
            if index is None:
                if not has_room([e.color for e in exps], card.color):
                    return (
                        "You cannot start another expedition: at most one per peak plus one "
                        f"extra, {C.MAX_EXPEDITIONS} in all."
                    )
            else:
                exp = exps[index]
                if exp.color is not card.color:
                    return f"A {card.color.value} card cannot go on a {exp.color.value} expedition."
                if card.value < exp.top:
                    return f"The card must be at least as high as the top card ({exp.top})."
            return "Placing it there would leave your other taken cards with nowhere to go."
        assert index is not None
        exp = exps[index]
        if isinstance(action, Remove):
            if len(exp.cards) >= C.MIN_SCORING_CARDS:
                return "An expedition of three or more cards cannot be removed."
            return "You cannot remove an expedition you have just added a card to."
        assert isinstance(action, Score)
        if not exp.fresh:
            return "Only an expedition that received a card this turn can be scored."
        if len(exp.cards) < C.MIN_SCORING_CARDS:
            return f"An expedition needs at least {C.MIN_SCORING_CARDS} cards to be scored."
        assert action.goal is not None  # scoring by axes is allowed once the checks above pass
        goal = Goal(exp.color, action.goal)
        if goal not in state.goals:
            return f"The {goal} is no longer available."
        return f"This expedition does not meet the {goal}."

    def _must(self, view: KarakorumState | KarakorumObservation) -> str:
        step = view.step
        if step is Step.REVEAL:
            return "reveal another card or stop revealing"
        if step is Step.TAKE:
            return "take a card from the table"
        if step is Step.TAKE_MORE:
            color = view.held[view.current][0].color.value
            return f"take another {color} card or stop taking"
        if step is Step.OTHERS:
            return "take one card from the table or pass"
        if step is Step.PLACE:
            held = view.held[view.current]
            if held:
                return f"place {_cards(held)}"
            return "score or remove expeditions, or end your turn"
        return "the game is over"

    def prompt(self, observation: KarakorumObservation) -> str:
        """What the player to move must decide now."""
        obs = observation
        if obs.step is Step.OVER:
            return "The game is over."
        name = obs.players[obs.current]
        if obs.step is Step.REVEAL:
            return (
                f"{name}: reveal another card or stop "
                f"({len(obs.table)} of at most {self._limit(obs)} revealed)"
            )
        return f"{name}: {self._must(obs)}"

    def disclose(self, state: KarakorumState) -> tuple[tuple[str, str], ...]:
        """The deck in order, in words (everything else lies face up)."""
        deck = ", ".join(f"{card.color.value} {card.value}" for card in state.deck)
        return (("Deck, top first", deck or "empty"),)

    # -- applying ---------------------------------------------------------------------
    def _apply(self, state: KarakorumState, action: Action) -> KarakorumState:
        step = state.step
        if isinstance(action, Take):
            return self._take(state, action.card)
        if isinstance(action, Place):
            return self._tidy(self._place(state, action.card, action.expedition))
        if isinstance(action, Score):
            return self._score(state, action.expedition, action.goal)
        if isinstance(action, Remove):
            return self._tidy(self._remove(state, action.expedition))
        if isinstance(action, Done):
            return self._end_placing(state)
        if isinstance(action, Reveal):
            return self._after_reveal(self._reveal(state))
        if isinstance(action, StopRevealing):
            return self._start_taking(state)
        if isinstance(action, StopTaking | Pass):
            return self._offer(state, self._offset(state, state.current) + 1)
        raise AssertionError(f"unhandled action {action!r} in step {step}")

    def _offset(self, state: KarakorumState, seat: int) -> int:
        """How many seats after the active player ``seat`` sits."""
        return (seat - state.active) % len(state.players)

    def _start_round(self, state: KarakorumState) -> KarakorumState:
        """The active player must reveal at least one card."""
        state = evolve(state, current=state.active, step=Step.REVEAL)
        return self._after_reveal(self._reveal(state))

    def _reveal(self, state: KarakorumState) -> KarakorumState:
        return evolve(state, deck=state.deck[1:], table=(*state.table, state.deck[0]))

    def _after_reveal(self, state: KarakorumState) -> KarakorumState:
        """Ask whether to reveal more; reveal on while nothing on the table can be taken."""
        limit = self._limit(state)
        while len(state.table) < limit and state.deck:
            if self._can_take(state, state.active):
                return state  # still the revealing step (it is the only one that reveals)
            # Stopping here would oblige the active player to take a card they cannot place.
            state = self._reveal(state)
        return self._start_taking(state)

    def _start_taking(self, state: KarakorumState) -> KarakorumState:
        if self._can_take(state, state.active):
            return evolve(state, step=Step.TAKE, current=state.active)
        # The rulebook's exception: the active player can place nothing and takes nothing.
        return self._offer(state, 1)

    def _take(self, state: KarakorumState, card: Card) -> KarakorumState:
        seat = state.current
        table = _without(state.table, state.table.index(card))
        held = replace_at(state.held, seat, (*state.held[seat], card))
        if state.step is Step.OTHERS:
            state = evolve(state, table=table, held=held)
            return self._offer(state, self._offset(state, seat) + 1)
        state = evolve(state, table=table, held=held, step=Step.TAKE_MORE)
        if table and self._can_take(state, seat):
            return state
        return self._offer(state, 1)

    def _offer(self, state: KarakorumState, offset: int) -> KarakorumState:
        """Let the other players, from ``offset`` seats after the active one, take or pass."""
        n = len(state.players)
        for k in range(offset, n):
            if not state.table:
                break
            seat = (state.active + k) % n
            if self._can_take(state, seat):
                return evolve(state, step=Step.OTHERS, current=seat)
            # A player who can place none of the cards passes without being asked.
        state = evolve(state, table=(), discard=state.discard + state.table)
        return self._next_placer(state, 0)

    def _next_placer(self, state: KarakorumState, offset: int) -> KarakorumState:
        """The next taker in player order, from the active player on, places their cards."""
        n = len(state.players)
        for k in range(offset, n):
            seat = (state.active + k) % n
            if state.held[seat]:
                return self._tidy(evolve(state, step=Step.PLACE, current=seat))
        return self._end_round(state)

    def _tidy(self, state: KarakorumState) -> KarakorumState:
        """End the placing turn at once when there is nothing left to decide."""
        if state.step is not Step.PLACE or state.held[state.current] or self._tidying(state):
            return state
        return self._end_placing(state)

    def _place(self, state: KarakorumState, card: Card, index: int | None) -> KarakorumState:
        seat = state.current
        held = state.held[seat]
        exps = state.expeditions[seat]
        if index is None:
            exps = (*exps, Expedition((card,), fresh=True))
        else:
            exps = replace_at(exps, index, Expedition((*exps[index].cards, card), fresh=True))
        return evolve(
            state,
            held=replace_at(state.held, seat, _without(held, held.index(card))),
            expeditions=replace_at(state.expeditions, seat, exps),
        )

    def _remove(self, state: KarakorumState, index: int) -> KarakorumState:
        seat = state.current
        exp = state.expeditions[seat][index]
        return evolve(
            state,
            expeditions=replace_at(
                state.expeditions, seat, _without(state.expeditions[seat], index)
            ),
            tracks=replace_at(
                state.tracks, seat, _move(state.tracks[seat], exp.color, -C.REMOVAL_PENALTY)
            ),
            discard=state.discard + exp.cards,
        )

    def _score(self, state: KarakorumState, index: int, kind: GoalKind | None) -> KarakorumState:
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
            goals = _without(goals, goals.index(goal))
            claimed = replace_at(claimed, seat, (*claimed[seat], goal))
            if kind is GoalKind.DOUBLE:
                gone += [
                    j for j, other in enumerate(exps) if j != index and other.color is exp.color
                ][:1]
        tracks = replace_at(state.tracks, seat, _move(state.tracks[seat], exp.color, points))
        discard = state.discard
        for j in sorted(gone):
            discard += exps[j].cards
        kept = tuple(e for j, e in enumerate(exps) if j not in gone)
        state = evolve(
            state,
            expeditions=replace_at(state.expeditions, seat, kept),
            tracks=tracks,
            goals=goals,
            claimed=claimed,
            discard=discard,
        )
        if _on_top(tracks[seat]):
            return evolve(state, step=Step.OVER, instant_winner=seat)
        return self._tidy(state)

    def _end_placing(self, state: KarakorumState) -> KarakorumState:
        seat = state.current
        exps = tuple(Expedition(e.cards) if e.fresh else e for e in state.expeditions[seat])
        state = evolve(state, expeditions=replace_at(state.expeditions, seat, exps))
        return self._next_placer(state, self._offset(state, seat) + 1)

    def _end_round(self, state: KarakorumState) -> KarakorumState:
        n = len(state.players)
        state = evolve(state, round=state.round + 1, active=(state.active + 1) % n)
        if state.deck:
            return self._start_round(state)
        return self._cancel_all(state)

    def _cancel_all(self, state: KarakorumState) -> KarakorumState:
        """Every expedition closed at the end, from the new active player on.

        (The rulebook calls it cancelling; the game-over breakdown says "Closed at the end".)

        Expeditions of 3+ cards score their axes (no goal cards), then 1-2 card
        expeditions are removed at the usual cost; reaching the top of all
        three tracks still wins at once.
        """
        n = len(state.players)
        state = evolve(
            state,
            before_final=state.tracks,
            final_expeditions=state.expeditions,
            current=state.active,
        )
        tracks, expeditions, discard = state.tracks, state.expeditions, state.discard
        for k in range(n):
            seat = (state.active + k) % n
            mine, closed, on_top = _closing(tracks[seat], expeditions[seat])
            tracks = replace_at(tracks, seat, mine)
            discard += tuple(card for exp, _ in closed for card in exp.cards)
            left = tuple(exp for exp in expeditions[seat] if all(exp is not c for c, _ in closed))
            expeditions = replace_at(expeditions, seat, left)
            if on_top:
                return evolve(
                    state,
                    tracks=tracks,
                    expeditions=expeditions,
                    discard=discard,
                    step=Step.OVER,
                    instant_winner=seat,
                )
        return evolve(
            state, tracks=tracks, expeditions=expeditions, discard=discard, step=Step.OVER
        )

    # -- scoring ------------------------------------------------------------------------
    def champions(self, tracks: Sequence[Tracks]) -> tuple[tuple[int, ...], ...]:
        """Per peak, the seats whose marker is furthest up (all of them on a tie)."""
        out = []
        for i in range(len(PEAKS)):
            best = max(t[i] for t in tracks)
            out.append(tuple(seat for seat, t in enumerate(tracks) if t[i] == best))
        return tuple(out)

    def result(self, state: KarakorumState) -> Result:
        """Winners: an instant 30/30/30 winner, else the best champion (see the notes).

        A game still in play is scored as if it ended now: as if the round under
        way were the last and had just ended, so the first-player marker passes on
        and every expedition is closed (the end's own rules, :meth:`_cancel_all`).
        Cards taken and not yet placed count for nothing.
        """
        if state.step is Step.OVER:
            return self._final_result(state)
        ended = self._final_result(self._end_round(evolve(state, deck=())))
        return evolve(ended, notes=(NOT_OVER, *ended.notes))

    def _final_result(self, state: KarakorumState) -> Result:
        """The result of a finished game."""
        names, tracks = state.players, state.tracks
        n = len(names)
        notes: list[str] = []
        if state.instant_winner is not None:
            w = state.instant_winner
            sums = tuple(sum(t) for t in tracks)
            breakdown = tuple(
                (*self._track_lines(state, seat), ("Sum of the three markers", str(sums[seat])))
                for seat in range(n)
            )
            notes.append(f"{names[w]} has all three markers on {C.TRACK_TOP} and wins at once.")
            return Result(sums, (w,), breakdown, tuple(notes))

        champs = self.champions(tracks)
        for i, peak in enumerate(PEAKS):
            best = tracks[champs[i][0]][i]
            if len(champs[i]) == 1:
                notes.append(
                    f"{peak.value.capitalize()} peak: {names[champs[i][0]]} leads at {best}."
                )
            else:
                who = listed([names[s] for s in champs[i]])
                notes.append(
                    f"{peak.value.capitalize()} peak: {who} tie at {best} and are "
                    f"{'both' if len(champs[i]) == 2 else 'all'} champions."
                )
        scores = [0] * n
        lines: list[list[tuple[str, str]]] = []
        contenders: list[int] = []
        for seat in range(n):
            mine = tracks[seat]
            led = [i for i in range(len(PEAKS)) if seat in champs[i]]
            rows = self._track_lines(state, seat)
            if not led:
                rows.append(("Champion of", "no peak: out of the fight for victory"))
                notes.append(f"{names[seat]} leads no peak and is out of the fight for victory.")
                lines.append(rows)
                continue
            contenders.append(seat)
            # Leading several peaks, the champion drops the least advanced of them.
            dropped = min(led, key=lambda i: (mine[i], i))
            kept = [i for i in range(len(PEAKS)) if i != dropped]
            scores[seat] = sum(mine[i] for i in kept)
            sum_text = " + ".join(f"{PEAKS[i].value} {mine[i]}" for i in kept)
            led_text = listed([PEAKS[i].value for i in led])
            rows.append(("Champion of", led_text))
            rows.append(("Marker dropped", f"{PEAKS[dropped].value} ({mine[dropped]})"))
            rows.append(("Score", f"{sum_text} = {scores[seat]}"))
            why = "that marker" if len(led) == 1 else "the least advanced of them"
            notes.append(
                f"{names[seat]} leads {led_text}, drops {why}: {PEAKS[dropped].value} "
                f"({mine[dropped]}); {sum_text} = {scores[seat]}."
            )
            lines.append(rows)
        best = max(scores[seat] for seat in contenders)
        winners = tuple(seat for seat in contenders if scores[seat] == best)
        if len(winners) > 1:
            notes.append(f"{listed([names[w] for w in winners])} share the victory with {best}.")
        else:
            notes.append(f"{names[winners[0]]} wins with {best}.")
        return Result(tuple(scores), winners, tuple(tuple(r) for r in lines), tuple(notes))

    def _track_lines(self, state: KarakorumState, seat: int) -> list[tuple[str, str]]:
        rows = [
            (f"{peak.value.capitalize()} marker", str(state.tracks[seat][i]))
            for i, peak in enumerate(PEAKS)
        ]
        if state.claimed[seat]:
            rows.append(("Goals completed", listed([str(g) for g in state.claimed[seat]])))
        if state.before_final:
            rows.append(("Closed at the end", _closing_words(state, seat)))
        return rows

    # -- information ----------------------------------------------------------------------
    def observe(self, state: KarakorumState, player: int | None) -> KarakorumObservation:
        """Everything on the table; of the deck only its size (the same for every player)."""
        return copied(KarakorumObservation, state, player=player, deck_size=len(state.deck))

    def reveals(self, observation: KarakorumObservation, action: Action) -> bool:
        """Revealing, and whatever ends the round: the next one opens with cards revealed.

        The deck's order is all that is hidden, and whether a decision ends the
        round does not depend on it, so any deal from the observation tells.
        """
        if isinstance(action, Reveal):
            return True
        dealt = self.sample_state(observation, random.Random(0))
        if action not in self.legal_actions(dealt):
            return False  # refused anyway, for reasons the player can see
        return len(self._apply(dealt, action).deck) < len(dealt.deck)

    def sample_state(self, observation: KarakorumObservation, rng: random.Random) -> KarakorumState:
        """Shuffle the summit cards not in sight into a deck of the observed size."""
        return self._deal(observation, self._unseen(observation), rng)

    def sampler(
        self, observation: KarakorumObservation
    ) -> Callable[[random.Random], KarakorumState]:
        """Deals from one observation: its unseen cards are counted once, not at every deal."""
        return partial(self._deal, observation, self._unseen(observation))

    def _deal(
        self, obs: KarakorumObservation, unseen: tuple[Card, ...], rng: random.Random
    ) -> KarakorumState:
        deck = list(unseen)
        shuffle(rng, deck)
        # The expeditions closed at the end are kept for the result's words only: a game
        # still to be played has none (the observation leaves them out).
        return copied(
            KarakorumState, obs, rng=fresh_rng(rng), deck=tuple(deck), final_expeditions=()
        )

    def _unseen(self, obs: KarakorumObservation) -> tuple[Card, ...]:
        """The summit cards out of ``obs``'s sight, in ``ALL_CARDS`` order."""
        unseen = Counter(ALL_CARDS)
        unseen.subtract(obs.table + obs.discard)
        for cards in obs.held:
            unseen.subtract(cards)
        for exps in obs.expeditions:
            for exp in exps:
                unseen.subtract(exp.cards)
        return tuple(unseen.elements())

    def unfilled(self, state: KarakorumState) -> str | None:
        """A round whose revealing has left the table empty while the deck holds cards."""
        if state.step in (Step.REVEAL, Step.TAKE, Step.TAKE_MORE) and not state.table:
            return "No card lies revealed in a round that has begun."
        if state.step is Step.REVEAL and not state.deck:
            return "The active player is asked to reveal from an empty deck."
        return None

    def inventory(self, state: KarakorumState) -> Counter[str]:
        """Every summit card and goal card in the state."""
        cards = list(state.deck + state.table + state.discard)
        for held in state.held:
            cards += held
        for exps in state.expeditions:
            for exp in exps:
                cards += exp.cards
        counts: Counter[str] = Counter(f"summit {card}" for card in cards)
        goals = list(state.goals)
        for claimed in state.claimed:
            goals += claimed
        counts.update(f"goal {goal.color.value} {goal.kind.value}" for goal in goals)
        return counts

    # -- words ----------------------------------------------------------------------------
    def preview(self, observation: KarakorumObservation, action: Action) -> str:
        """``action`` before it is taken: the next card of the deck is never named."""
        obs = observation
        name = obs.players[obs.current]
        if isinstance(action, Reveal):
            last = " (the last card of the deck)" if obs.deck_size == 1 else ""
            return f"{name} reveals the next card of the deck{last}."
        return self._sentence(obs, action)

    def describe(
        self, before: KarakorumObservation, action: Action, after: KarakorumObservation
    ) -> str:
        """``action`` in the log's words, with what followed on its own (new reveals included)."""
        if isinstance(action, Reveal):
            name = before.players[before.current]
            new = after.table[len(before.table) :] if after.round == before.round else ()
            text = f"{name} reveals {_cards(new) or 'another card'}."
        else:
            text = self._sentence(before, action)
        return " ".join([text, *self._aftermath(before, after)])

    def describe_start(self, observation: KarakorumObservation) -> str:
        """The first round's first player and the card(s) revealed for them at once."""
        obs = observation
        text = f"A new game of Karakorum: {obs.players[obs.active]} holds the first-player marker"
        return text + (f" and reveals {_cards(obs.table)}." if obs.table else ".")

    def _sentence(self, obs: KarakorumObservation, action: Action) -> str:
        """The words for ``action`` that the table before it settles (all of it public)."""
        name = obs.players[obs.current]
        seat = obs.current
        exps = obs.expeditions[seat]
        if isinstance(action, StopRevealing):
            return f"{name} stops revealing with {plural(len(obs.table), 'card')} on the table."
        if isinstance(action, Take):
            if obs.step is Step.TAKE_MORE:
                return f"{name} also takes the {action.card}."
            return f"{name} takes the {action.card}."
        if isinstance(action, StopTaking):
            return f"{name} takes no more cards."
        if isinstance(action, Pass):
            return f"{name} passes."
        if isinstance(action, Place):
            if action.expedition is None:
                color = action.card.color.value
                return f"{name} starts a new {color} expedition with the {action.card}."
            exp = exps[action.expedition]
            size = len(exp.cards) + 1
            return f"{name} adds the {action.card} to the {exp}, which now has {size} cards."
        if isinstance(action, Remove):
            exp = exps[action.expedition]
            was = obs.tracks[seat][PEAK_INDEX[exp.color]]
            now = max(0, was - C.REMOVAL_PENALTY)
            move = f"goes back from {was} to {now}" if now < was else "stays at the base camp"
            return f"{name} removes the {exp}; the {exp.color.value} marker {move}."
        if isinstance(action, Score):
            exp = exps[action.expedition]
            if action.goal is None:
                how = f"by its {plural(exp.axes, 'axe')} (+{exp.axes})"
                gain = exp.axes
            else:
                how = f"with the {Goal(exp.color, action.goal)}"
                gain = action.goal.points
            was = obs.tracks[seat][PEAK_INDEX[exp.color]]
            now = min(C.TRACK_TOP, was + gain)
            text = (
                f"{name} scores the {exp} {how}: "
                f"the {exp.color.value} marker goes from {was} to {now}."
            )
            if was + gain > now:
                text += f" {was + gain - now} beyond {C.TRACK_TOP} are lost."
            if action.goal is GoalKind.DOUBLE:
                text += f" Both {exp.color.value} expeditions are discarded."
            return text
        if isinstance(action, Done):
            return f"{name} ends the placing turn."
        return f"{name} plays {action!r}."

    def _aftermath(self, before: KarakorumObservation, after: KarakorumObservation) -> list[str]:
        """What happened on its own after a decision: reveals, a new round, the end."""
        names = after.players
        out: list[str] = []
        if after.instant_winner is not None:
            w = after.instant_winner
            return [f"{names[w]} has all three markers on {C.TRACK_TOP} and wins at once!"]
        if after.step is Step.OVER:
            out.append(
                f"The deck is spent: the first-player marker passes to {names[after.active]} "
                "and every expedition is cancelled (3+ cards score their axes, smaller ones "
                f"cost {C.REMOVAL_PENALTY})."
            )
            out.append("The game is over.")
            return out
        if after.round != before.round:
            out.append(f"A new round: {names[after.active]} holds the first-player marker")
            # Nobody has taken anything yet in the new round: the table is all revealed.
            out[-1] += f" and reveals {_cards(after.table)}." if after.table else "."
        if not after.deck_size and before.deck_size:
            out.append("That was the last card of the deck: this is the last round.")
        return out


GAME = Karakorum()


def _closing_words(state: KarakorumState, seat: int) -> str:
    """How ``seat``'s expeditions moved its markers as the game ended, one by one.

    Each is said, even where a scoring and a removal on the same track cancel out.
    """
    if not state.final_expeditions:  # a position rebuilt from an observation leaves them out
        changes = [
            f"{peak.value} {after - before:+d}"
            for peak, before, after in zip(
                PEAKS, state.before_final[seat], state.tracks[seat], strict=True
            )
            if after != before
        ]
        return ", ".join(changes) or "no change"
    _, closed, _ = _closing(state.before_final[seat], state.final_expeditions[seat])
    return ", ".join(_closed_words(exp, moved) for exp, moved in closed) or "no expedition to close"


def _closed_words(exp: Expedition, moved: int) -> str:
    """One expedition closed at the end: "green +6 (scored)", "red -3 (removed)".

    A removal costs nothing to a marker at the base camp: "+0" would read as a gain
    beside another player's "-3", so it says where the marker stays.
    """
    peak = exp.color.value
    if len(exp.cards) >= C.MIN_SCORING_CARDS:
        return f"{peak} {moved:+d} (scored)"
    return f"{peak} {moved:+d} (removed)" if moved else f"{peak} stays at 0 (removed)"
