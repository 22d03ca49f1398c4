"""What a Karawane gesture means: a card chosen from the hand, or a camel clicked on the track.

Pure functions of the observation and the legal decisions (no widget here): each
comes to decisions to play, or to a picker of some, with its words.  An illegal
choice is played as it is, so that the engine refuses it in its own words.
"""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.engine import Action
from karavan_core.games.karawane.components import CITY, Card, Kind
from karavan_core.games.karawane.rules import first_in_city
from karavan_core.games.karawane.state import (
    KarawaneObservation,
    Play,
    PlaySandstorm,
    PlayWithoutEffect,
)
from karavan_tui.tables.outcome import Ask, Outcome, play
from karavan_tui.tables.spots import Spot, spot_of

# Each seat is a letter: the letter alone tells the camels apart (the zones add a colour).
SEAT_LETTERS = "ABCD"


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


def choose_card(obs: KarawaneObservation, legal: Sequence[Action], slot: int) -> Outcome | None:
    """Card ``slot`` of the hand was chosen: play it, or ask on which of several camels.

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
        return play(PlayWithoutEffect(card))
    if len(plays) == 1:  # one camel it can move (or no camel to choose): no question to ask
        return play(plays[0])
    return Ask(f"{card.label}: on which camel?", plays)


def choose_camel(
    obs: KarawaneObservation, legal: Sequence[Action], seat: int, camel: int
) -> Outcome:
    """Camel ``camel`` of ``seat`` was clicked on the track: ask which card to play on it.

    A player's camels in the city are alike (the engine moves the first of them), so a
    click on any of them offers the cards for the group.
    """
    if not legal:
        return play()  # not this player's turn: the host says whose it is
    square = obs.camels[seat][camel]

    def targets(action: Action) -> bool:
        if not isinstance(action, Play) or action.owner != seat:
            return False
        return action.camel == camel or square == CITY == obs.camels[seat][action.camel]

    plays = tuple(action for action in legal if targets(action))
    if not plays:
        return play(meant_on(obs, seat, camel))
    where = (
        f"a camel of {SEAT_LETTERS[seat]} out of the city"
        if square == CITY
        else camel_name(seat, camel)
    )
    return Ask(f"Which card, to move {where}?", plays)


def meant_on(obs: KarawaneObservation, seat: int, camel: int) -> Play:
    """The play a player most likely meant on a camel no card of theirs can move.

    It is played anyway, for the engine to say why not: a card of the kind that moves such
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


def hint_places(obs: KarawaneObservation, action: Action) -> list[Spot]:
    """The hand card a decision plays (the cursor goes there: Enter plays it)."""
    return spot_of("hand-row", obs.hand or (), card_of(action))
