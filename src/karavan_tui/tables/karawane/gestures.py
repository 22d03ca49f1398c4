"""What a Karawane gesture means: a card chosen from the hand, or a camel clicked on the track.

Pure functions of the observation and the legal decisions (no widget here): each
says which decisions to send, or which to offer in a picker and with what words.
An illegal choice is sent as it is, so that the engine refuses it in its own words.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen

from karavan_core.engine import Action
from karavan_core.games.karawane.components import CITY, Card, Kind
from karavan_core.games.karawane.rules import first_in_city
from karavan_core.games.karawane.state import (
    KarawaneObservation,
    Play,
    PlaySandstorm,
    PlayWithoutEffect,
)

# Each seat is a letter: the letter alone tells the camels apart (the zones add a colour).
SEAT_LETTERS = "ABCD"


@frozen
class Gesture:
    """What a gesture comes to: decisions to play now, or a choice among ``options``.

    ``send`` is played as one gesture: the engine refuses it, saying why, if it is not
    legal, and an empty one makes the host say whose turn it is.  With ``options``
    (legal decisions), the player is asked ``title`` and the pick is played.
    """

    send: tuple[Action, ...] = ()
    options: tuple[Action, ...] = ()
    title: str = ""


def card_of(action: Action) -> Card | None:
    """The card an action plays."""
    if isinstance(action, PlaySandstorm):
        return Card.SANDSTORM
    if isinstance(action, Play | PlayWithoutEffect):
        return action.card
    return None


def camel_name(seat: int, camel: int) -> str:
    """A camel as the track draws it: ``B2`` is Bob's (the second seat's) second camel."""
    return f"{SEAT_LETTERS[seat]}{camel + 1}"


def choose_card(obs: KarawaneObservation, legal: Sequence[Action], slot: int) -> Gesture | None:
    """Card ``slot`` of the hand was chosen: play it, or ask on which camel.

    ``None`` when there is no card there (a hand shorter than the row).
    """
    hand = obs.hand
    if hand is None or slot >= len(hand):
        return None
    card = hand[slot]
    plays = tuple(action for action in legal if card_of(action) == card)
    if not plays:
        # Nothing this card does is open: the engine says why it may not be thrown away
        # (other cards have an effect), or whose turn it is.
        return Gesture(send=(PlayWithoutEffect(card),))
    if len(plays) == 1 and not isinstance(plays[0], Play):
        return Gesture(send=plays)
    return Gesture(options=plays, title=f"{card.label}: on which camel?")


def choose_camel(
    obs: KarawaneObservation, legal: Sequence[Action], seat: int, camel: int
) -> Gesture:
    """Camel ``camel`` of ``seat`` was clicked on the track: ask which card to play on it.

    A player's camels in the city are alike (the engine moves the first of them), so a
    click on any of them offers the cards for the group.
    """
    if not legal:
        return Gesture()  # not this player's turn: the host says whose it is
    square = obs.camels[seat][camel]

    def targets(action: Action) -> bool:
        if not isinstance(action, Play) or action.owner != seat:
            return False
        return action.camel == camel or square == CITY == obs.camels[seat][action.camel]

    plays = tuple(action for action in legal if targets(action))
    if not plays:
        return Gesture(send=(meant_on(obs, seat, camel),))
    where = (
        f"a camel of {SEAT_LETTERS[seat]} out of the city"
        if square == CITY
        else camel_name(seat, camel)
    )
    return Gesture(options=plays, title=f"Which card, to move {where}?")


def meant_on(obs: KarawaneObservation, seat: int, camel: int) -> Play:
    """The play a player most likely meant on a camel no card of theirs can move.

    It is sent anyway, for the engine to say why not: a card of the kind that moves such
    a camel (a Mirage for a rival's, an Oasis or the Camel driver for one's own) if the
    hand holds one, else its first card.  Of a player's camels in the city, the engine
    moves only the first, so the play names that one.
    """
    hand = obs.hand or ()
    fits = (Kind.MIRAGE,) if seat != obs.current else (Kind.OASIS, Kind.DRIVER)
    cards = [card for card in hand if card.kind in fits] or list(hand) or [Card.SANDSTORM]
    first = first_in_city(obs.camels[seat])
    if obs.camels[seat][camel] == CITY and first is not None:
        camel = first
    return Play(cards[0], seat, camel)


def hinted_camel(action: Action | None) -> tuple[int, int] | None:
    """The camel (seat, camel) a hinted decision moves, if it moves one."""
    return (action.owner, action.camel) if isinstance(action, Play) else None


def hint_slot(obs: KarawaneObservation, action: Action) -> int | None:
    """The slot of the hand card a decision plays (the cursor goes there: Enter plays it)."""
    hand = obs.hand
    card = card_of(action)
    return hand.index(card) if hand and card in hand else None
