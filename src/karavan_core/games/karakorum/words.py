"""Karakorum in words: prompts, previews, the log's lines, the refusals and the results.

Every card lies face up, so every sentence may name any card on the table;
only the deck's next card stays unnamed until it is revealed.  The rules decide
(:mod:`.rules`); this module only says.
"""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.engine import Action, Result
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAK_INDEX, PEAKS, GoalKind
from karavan_core.games.karakorum.expeditions import closing, reveal_limit
from karavan_core.games.karakorum.rules import Why
from karavan_core.games.karakorum.scoring import champions, dropped_peak, final_scores
from karavan_core.games.karakorum.state import (
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
)
from karavan_core.text import listed, plural, spelled

NOT_OVER = (
    "The game is not over: these are the standings if it ended now, every expedition "
    "closed as at the end."
)


_ALL_ON_TOP = f"all {spelled(len(PEAKS))} markers on {C.TRACK_TOP}"  # the instant win
_SUM = f"Sum of the {spelled(len(PEAKS))} markers"


def cards(taken: Sequence[Card]) -> str:
    """Cards as a list: "the red 4 (1 axe) and the blue 6 (no axes)"."""
    return listed([f"the {card}" for card in taken])


def must(view: KarakorumState | KarakorumObservation) -> str:
    """What the player to move has to do now, as a clause."""
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
            return f"place {cards(held)}"
        return "score or remove expeditions, or end your turn"
    return "the game is over"


def prompt(observation: KarakorumObservation) -> str:
    """What the player to move must decide now."""
    obs = observation
    if obs.step is Step.OVER:
        return "The game is over."
    name = obs.players[obs.current]
    if obs.step is Step.REVEAL:
        return (
            f"{name}: reveal another card or stop "
            f"({len(obs.table)} of at most {reveal_limit(obs)} revealed)"
        )
    return f"{name}: {must(obs)}"


def disclose(state: KarakorumState) -> tuple[tuple[str, str], ...]:
    """The deck in order, in words (everything else lies face up)."""
    deck = ", ".join(f"{card.color.value} {card.value}" for card in state.deck)
    return (("Deck, top first", deck or "empty"),)


# -- refusals ---------------------------------------------------------------------------------

_NOT_NOW = {
    Reveal: "You cannot reveal more cards now",
    StopRevealing: "You cannot stop now",
    StopTaking: "You cannot stop now",
    Pass: "You cannot pass now",
    Take: "You cannot take a card now",
}
_REFUSALS = {
    Why.ACTIVE_TAKES: "The active player cannot pass: take at least one card.",
    Why.ACTIVE_STOPS: "The active player does not pass: stop taking instead.",
    Why.NO_EXPEDITION: "You have no such expedition.",
    Why.NO_ROOM: (
        f"You cannot start another expedition: at most one per peak plus "
        f"{spelled(C.EXTRA_EXPEDITIONS)} extra, {C.MAX_EXPEDITIONS} in all."
    ),
    Why.STRANDS: "Placing it there would leave your other taken cards with nowhere to go.",
    Why.TOO_BIG: (
        f"An expedition of {spelled(C.MIN_SCORING_CARDS)} or more cards cannot be removed."
    ),
    Why.FRESH: "You cannot remove an expedition you have just added a card to.",
    Why.NOT_FRESH: "Only an expedition that received a card this turn can be scored.",
    Why.TOO_SMALL: f"An expedition needs at least {C.MIN_SCORING_CARDS} cards to be scored.",
    Why.UNKNOWN: "That is not a Karakorum move.",
}


def refusal(state: KarakorumState, action: object, why: Why) -> str:
    """Why ``action`` is refused, as :func:`.rules.refusal` found (``why``), in a sentence."""
    if why is Why.NOT_NOW:
        doing = _NOT_NOW.get(type(action), "You cannot do that now")
        return f"{doing}: {must(state)}."
    if why in _REFUSALS:
        return _REFUSALS[why]
    held = state.held[state.current]
    if isinstance(action, Take):
        return _take_refusal(held, action.card, why)
    if isinstance(action, Done):
        return f"Place every card you took first ({cards(held)})."
    if isinstance(action, Place):
        return _place_refusal(state, action, why)
    assert isinstance(action, Score) and action.goal is not None
    exp = state.expeditions[state.current][action.expedition]
    goal = Goal(exp.color, action.goal)
    if why is Why.GOAL_GONE:
        return f"The {goal} is no longer available."
    return f"This expedition does not meet the {goal}."


def _take_refusal(held: tuple[Card, ...], card: Card, why: Why) -> str:
    if why is Why.NOT_ON_TABLE:
        return f"The {card} is not on the table."
    if why is Why.OTHER_PEAK:
        return f"Further cards must be {held[0].color.value}, like the first one you took."
    if held:
        return "You could not place that card, even together with the ones you took."
    return "You could not place that card on your expeditions, even after removing small ones."


def _place_refusal(state: KarakorumState, action: Place, why: Why) -> str:
    card = action.card
    if why is Why.NOT_TAKEN:
        return f"You have not taken the {card}."
    assert action.expedition is not None
    exp = state.expeditions[state.current][action.expedition]
    if why is Why.WRONG_PEAK:
        return f"A {card.color.value} card cannot go on a {exp.color.value} expedition."
    return f"The card must be at least as high as the top card ({exp.top})."


# -- decisions in words -----------------------------------------------------------------------


def preview(observation: KarakorumObservation, action: Action) -> str:
    """``action`` before it is taken: the next card of the deck is never named."""
    obs = observation
    name = obs.players[obs.current]
    if isinstance(action, Reveal):
        last = " (the last card of the deck)" if obs.deck_size == 1 else ""
        return f"{name} reveals the next card of the deck{last}."
    return sentence(obs, action)


def describe(before: KarakorumObservation, action: Action, after: KarakorumObservation) -> str:
    """``action`` in the log's words, with what followed on its own (new reveals included)."""
    if isinstance(action, Reveal):
        name = before.players[before.current]
        new = after.table[len(before.table) :] if after.round == before.round else ()
        text = f"{name} reveals {cards(new) or 'another card'}."
    else:
        text = sentence(before, action)
    return " ".join([text, *_aftermath(before, after)])


def describe_start(observation: KarakorumObservation) -> str:
    """The first round's first player and the card(s) revealed for them at once."""
    obs = observation
    text = f"A new game of Karakorum: {obs.players[obs.active]} holds the first-player marker"
    return text + (f" and reveals {cards(obs.table)}." if obs.table else ".")


def sentence(obs: KarakorumObservation, action: Action) -> str:
    """The words for ``action`` that the table before it settles (all of it public)."""
    name = obs.players[obs.current]
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
        exp = obs.expeditions[obs.current][action.expedition]
        size = len(exp.cards) + 1
        return f"{name} adds the {action.card} to the {exp}, which now has {size} cards."
    if isinstance(action, Remove):
        exp = obs.expeditions[obs.current][action.expedition]
        was = obs.tracks[obs.current][PEAK_INDEX[exp.color]]
        now = max(0, was - C.REMOVAL_PENALTY)
        move = f"goes back from {was} to {now}" if now < was else "stays at the base camp"
        return f"{name} removes the {exp}; the {exp.color.value} marker {move}."
    if isinstance(action, Score):
        return _score_words(obs, action)
    if isinstance(action, Done):
        return f"{name} ends the placing turn."
    return f"{name} plays {action!r}."


def _score_words(obs: KarakorumObservation, action: Score) -> str:
    name, seat = obs.players[obs.current], obs.current
    exp = obs.expeditions[seat][action.expedition]
    if action.goal is None:
        how = f"by its {plural(exp.axes, 'axe')} (+{exp.axes})"
        gain = exp.axes
    else:
        how = f"with the {Goal(exp.color, action.goal)}"
        gain = action.goal.points
    was = obs.tracks[seat][PEAK_INDEX[exp.color]]
    now = min(C.TRACK_TOP, was + gain)
    text = f"{name} scores the {exp} {how}: the {exp.color.value} marker goes from {was} to {now}."
    if was + gain > now:
        text += f" {was + gain - now} beyond {C.TRACK_TOP} are lost."
    if action.goal is GoalKind.DOUBLE:
        text += f" Both {exp.color.value} expeditions are discarded."
    return text


def _aftermath(before: KarakorumObservation, after: KarakorumObservation) -> list[str]:
    """What happened on its own after a decision: reveals, a new round, the end."""
    names = after.players
    out: list[str] = []
    if after.instant_winner is not None:
        w = after.instant_winner
        return [f"{names[w]} has {_ALL_ON_TOP} and wins at once!"]
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
        out[-1] += f" and reveals {cards(after.table)}." if after.table else "."
    if not after.deck_size and before.deck_size:
        out.append("That was the last card of the deck: this is the last round.")
    return out


# -- the result -------------------------------------------------------------------------------


def final_result(state: KarakorumState) -> Result:
    """The result of a finished game: an instant winner's, or the champions'."""
    names, tracks = state.players, state.tracks
    if state.instant_winner is not None:
        w = state.instant_winner
        sums = tuple(sum(t) for t in tracks)
        breakdown = tuple(
            (*_track_lines(state, seat), (_SUM, str(sums[seat]))) for seat in range(len(names))
        )
        note = f"{names[w]} has {_ALL_ON_TOP} and wins at once."
        return Result(sums, (w,), breakdown, (note,))
    scores, winners = final_scores(tracks)
    notes = _peak_notes(state)
    lines = []
    for seat in range(len(names)):
        rows, note = _champion_lines(state, seat, scores[seat])
        lines.append(tuple(rows))
        notes.append(note)
    best = scores[winners[0]]
    if len(winners) > 1:
        notes.append(f"{listed([names[w] for w in winners])} share the victory with {best}.")
    else:
        notes.append(f"{names[winners[0]]} wins with {best}.")
    return Result(scores, winners, tuple(lines), tuple(notes))


OUT = "out"
"""A player's score on the board while they lead no peak: out of the fight for victory."""


def standing_words(state: KarakorumState, scores: Sequence[int]) -> tuple[str, ...]:
    """Each seat's score in ``scores`` as the board says it at the end ``state`` (a finished
    game's): :data:`OUT` for a seat that leads no peak, unless somebody won at once."""
    if state.instant_winner is not None:
        return tuple(str(score) for score in scores)
    champs = champions(state.tracks)
    return tuple(
        str(score) if any(seat in leaders for leaders in champs) else OUT
        for seat, score in enumerate(scores)
    )


def _peak_notes(state: KarakorumState) -> list[str]:
    """Who leads each peak, or who ties for it."""
    names, tracks = state.players, state.tracks
    notes = []
    for i, (peak, champs) in enumerate(zip(PEAKS, champions(tracks), strict=True)):
        best = tracks[champs[0]][i]
        if len(champs) == 1:
            notes.append(f"{peak.value.capitalize()} peak: {names[champs[0]]} leads at {best}.")
        else:
            who = listed([names[s] for s in champs])
            notes.append(
                f"{peak.value.capitalize()} peak: {who} tie at {best} and are "
                f"{'both' if len(champs) == 2 else 'all'} champions."
            )
    return notes


def _champion_lines(
    state: KarakorumState, seat: int, score: int
) -> tuple[list[tuple[str, str]], str]:
    """``seat``'s breakdown rows, and the note on how its score was counted."""
    name, mine = state.players[seat], state.tracks[seat]
    led = [i for i, champs in enumerate(champions(state.tracks)) if seat in champs]
    rows = _track_lines(state, seat)
    if not led:
        rows.append(("Champion of", "no peak: out of the fight for victory"))
        return rows, f"{name} leads no peak and is out of the fight for victory."
    dropped = dropped_peak(mine, led)
    kept = [i for i in range(len(PEAKS)) if i != dropped]
    sum_text = " + ".join(f"{PEAKS[i].value} {mine[i]}" for i in kept)
    led_text = listed([PEAKS[i].value for i in led])
    rows.append(("Champion of", led_text))
    rows.append(("Marker dropped", f"{PEAKS[dropped].value} ({mine[dropped]})"))
    rows.append(("Score", f"{sum_text} = {score}"))
    why = "that marker" if len(led) == 1 else "the least advanced of them"
    note = (
        f"{name} leads {led_text}, drops {why}: {PEAKS[dropped].value} "
        f"({mine[dropped]}); {sum_text} = {score}."
    )
    return rows, note


def _track_lines(state: KarakorumState, seat: int) -> list[tuple[str, str]]:
    rows = [
        (f"{peak.value.capitalize()} marker", str(state.tracks[seat][i]))
        for i, peak in enumerate(PEAKS)
    ]
    if state.claimed[seat]:
        rows.append(("Goals completed", listed([str(g) for g in state.claimed[seat]])))
    if state.before_final:
        rows.append(("Closed at the end", _closing_words(state, seat)))
    return rows


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
    _, closed, _ = closing(state.before_final[seat], state.final_expeditions[seat])
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
