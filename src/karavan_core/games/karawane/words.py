"""Karawane in words: prompts, previews, the log's lines, the refusals and the results.

Every sentence is built from what its reader may see (the board and the played
piles are public; a hand is its owner's).  The rules decide (:mod:`.rules`);
this module only says.
"""

from __future__ import annotations

from karavan_core.engine import Action, Result
from karavan_core.games.karawane import components as C
from karavan_core.games.karawane.components import CITY, FIRST_OASIS, Card
from karavan_core.games.karawane.rules import (
    OASIS_SQUARES,
    Why,
    destination,
    effects,
    first_in_city,
    oasis_full,
    oasis_points,
)
from karavan_core.games.karawane.state import (
    KarawaneObservation,
    KarawaneState,
    Play,
    PlaySandstorm,
    PlayWithoutEffect,
)
from karavan_core.text import plural


def square_name(square: int) -> str:
    """``0`` as "the city", ``9`` as "square 9", ``23`` as "oasis square 3 (3 points)"."""
    if square == CITY:
        return "the city"
    if square < FIRST_OASIS:
        return f"square {square}"
    points = oasis_points(square)
    return f"oasis square {square - FIRST_OASIS + 1} ({plural(points, 'point')})"


def _move_words(start: int, end: int) -> str:
    if CITY < start < FIRST_OASIS and CITY < end < FIRST_OASIS:
        return f"square {start} → {end}"
    return f"{square_name(start)} → {square_name(end)}"


def _label(card: Card) -> str:
    # A malformed action may carry anything as its card: the label falls back on its str.
    return C.CARD_LABELS.get(card, str(card))


def prompt(observation: KarawaneObservation) -> str:
    """What the player to move must decide now."""
    obs = observation
    if obs.over:
        return "The game is over."
    name = obs.players[obs.current]
    mine = obs.hand is not None and obs.player == obs.current
    if mine and not effects(obs.hand or (), obs.current, obs.camels, obs.deeper_in_oasis):
        return f"{name}: no card can be used, so play one without effect"
    return f"{name}: play a card and choose its camel"


def disclose(state: KarawaneState) -> tuple[tuple[str, str], ...]:
    """Every hand and every deck in order, in words."""
    rows = []
    for name, hand, deck in zip(state.players, state.hands, state.decks, strict=True):
        rows.append((f"{name}'s hand", ", ".join(map(_label, hand)) or "empty"))
        rows.append((f"{name}'s deck, top first", ", ".join(map(_label, deck)) or "empty"))
    return tuple(rows)


# -- refusals ---------------------------------------------------------------------------------

_REFUSALS = {
    Why.SANDSTORM_ALONE: "The Sandstorm moves no camel: play it on its own.",
    Why.NO_SUCH_CAMEL: "There is no such camel.",
    Why.MIRAGE_OWN: "A Mirage moves an opponent's camel back, never your own.",
    Why.IN_CITY: "That camel is in the city: a Mirage only moves a camel on a desert square.",
    Why.DRIVER_OASIS: (
        "The square ahead of the leading camel is in the oasis, "
        "and the camel driver may never move a camel into the oasis."
    ),
    Why.HAS_EFFECT: (
        "A card may be played without effect only when no card in your hand "
        "can be used; play one for its effect."
    ),
    Why.UNKNOWN: "That is not a Karawane move.",
}


def refusal(state: KarawaneState, action: object, why: Why) -> str:
    """Why ``action`` is refused, as :func:`.rules.refusal` found (``why``), in a sentence."""
    if why in _REFUSALS:
        return _REFUSALS[why]
    if why is Why.NOT_HELD:
        card = getattr(action, "card", Card.SANDSTORM)
        return f"You have no {_label(card)} in your hand."
    assert isinstance(action, Play)
    label = action.card.label
    if why is Why.IN_OASIS:
        return _in_oasis(state, action)
    if why is Why.NOT_YOURS:
        return f"The {label} card moves only your own camels."
    if why is Why.CITY_NOT_FIRST:
        city = first_in_city(state.camels[state.current])
        assert city is not None  # this camel is in the city, so the first one there is known
        return f"Your camels in the city are alike: move camel {city + 1}, the first of them."
    return (
        f"{label} would carry that camel past the last oasis square: "
        "the oasis must be reached by an exact count of free squares."
    )


def _in_oasis(state: KarawaneState, action: Play) -> str:
    """Why a camel in the oasis may not take ``action``: it never goes back (and, by the
    older rule a saved game may keep, never moves at all)."""
    if C.CARD_KIND[action.card] is C.Kind.OASIS:  # refused only under the older rule
        return (
            "That camel is in the oasis, and in this game (saved under the older rule) "
            "a camel in the oasis never moves again."
        )
    return "That camel is in the oasis, and no card moves a camel back out of it."


# -- decisions in words -----------------------------------------------------------------------


def preview(observation: KarawaneObservation, action: Action) -> str:
    """``action`` before it is played: where its camel goes (the board is public)."""
    obs = observation
    if isinstance(action, Play):
        start = obs.camels[action.owner][action.camel]
        return _play_words(obs, action, start, destination(obs, action))
    return _sentence(obs, action)


def describe(before: KarawaneObservation, action: Action, after: KarawaneObservation) -> str:
    """``action`` as the log tells it, with the end of the game or the seats skipped."""
    if isinstance(action, Play):
        start = before.camels[action.owner][action.camel]
        end = after.camels[action.owner][action.camel]
        text = _play_words(before, action, start, end)
    else:
        text = _sentence(before, action)
    if after.over:
        if oasis_full(after.camels):
            return f"{text} All {OASIS_SQUARES} oasis squares are taken: the game is over."
        return f"{text} Nobody holds a card any more: the game is over."
    n = len(before.players)
    gap = (after.current - before.current) % n or n  # n: everyone else was skipped
    skipped = [before.players[(before.current + step) % n] for step in range(1, gap)]
    for other in skipped:
        text += f" {other} has no cards left and is skipped."
    return text


def _play_words(obs: KarawaneObservation, action: Play, start: int, end: int) -> str:
    name = obs.players[obs.current]
    whose = "their" if action.owner == obs.current else f"{obs.players[action.owner]}'s"
    return (
        f"{name} plays {action.card.label} on {whose} camel {action.camel + 1}: "
        f"{_move_words(start, end)}."
    )


def _sentence(obs: KarawaneObservation, action: Action) -> str:
    name = obs.players[obs.current]
    if isinstance(action, PlaySandstorm):
        return (
            f"{name} plays the Sandstorm: everyone gathers all {len(C.DECK)} of their cards, "
            f"shuffles them and draws {C.HAND_SIZE}."
        )
    if isinstance(action, PlayWithoutEffect):
        return f"{name} plays {action.card.label} without effect, as no card could be used."
    return f"{name} plays {action!r}."


def outcome(state: KarawaneState, scores: tuple[int, ...], winners: tuple[int, ...]) -> Result:
    """The result in words: each camel's square, and who wins or leads."""
    best = scores[winners[0]]
    breakdown = tuple(
        tuple((f"Camel {i + 1}", square_name(square)) for i, square in enumerate(line))
        + (("Total", plural(scores[seat], "point")),)
        for seat, line in enumerate(state.camels)
    )
    names = " and ".join(state.players[seat] for seat in winners)
    if not state.over:
        if len(winners) > 1:
            note = f"{names} share the lead with {plural(best, 'point')} so far."
        else:
            note = f"{names} leads with {plural(best, 'point')} so far."
    elif len(winners) > 1:
        note = f"{names} tie on {plural(best, 'point')} and share the victory."
    else:
        note = f"{names} wins with {plural(best, 'point')}."
    return Result(scores, winners, breakdown, (note,))
