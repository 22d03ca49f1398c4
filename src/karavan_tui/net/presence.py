"""Who is at a hosted table, in words: the notes when a player comes or goes, and the
status line's word on who is missing."""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.match import Seat
from karavan_core.text import clean_name
from karavan_net.protocol import Update

Presence = tuple[str, str | None]  # a seat's status and the level of the bot standing in


def presence_change(
    name: str, was: tuple[str, str | None], now: tuple[str, str | None]
) -> str | None:
    """What the table is told when seat ``name``'s (status, stand-in) changes from ``was``."""
    (before, standing), (status, stand_in) = was, now
    if status == "here":
        if standing is not None:
            return f"{name} is back: the bot gives the seat back."
        return f"{name} is {'back' if before == 'away' else 'here'}."
    if stand_in is not None and stand_in != standing:
        return f"A {clean_name(stand_in)} bot plays {name}'s seat until {name} is back."
    if standing is not None and stand_in is None:
        return f"The bot leaves {name}'s seat: it waits for {name}."
    if status == "away" and before == "here":
        return f"{name} is away."
    if status == "empty" and before == "away":
        return f"{name}'s seat is free: whoever joins as {name} with the code takes it."
    return None


def presence_news(
    before: Sequence[Presence] | None, update: Update, seats: Sequence[Seat], viewer: int | None
) -> list[tuple[str, bool]]:
    """What the table is told of the seats' changes from ``before`` to ``update`` (each with
    whether the player is here now); nothing once the game is over, when the players go."""
    statuses = [(seat.status, seat.stand_in) for seat in update.seats]
    if before is None or len(before) != len(statuses) or update.outcome is not None:
        return []
    told = []
    for index, (was, now) in enumerate(zip(before, statuses, strict=True)):
        if index != viewer and was != now:
            said = presence_change(seats[index].name, was, now)
            if said is not None:
                told.append((said, now[0] == "here"))
    return told


def missing_words(update: Update, seats: Sequence[Seat]) -> str:
    """Who is missing, in words ("" when everybody is here)."""
    empty = [seats[i].name for i, s in enumerate(update.seats) if s.status == "empty"]
    away = [
        seats[i].name + (f" (a {clean_name(s.stand_in)} bot plays)" if s.stand_in else "")
        for i, s in enumerate(update.seats)
        if s.status == "away"
    ]
    if update.outcome is not None:  # leaving a finished game is not being away
        away = []
    parts = []
    if empty:
        parts.append(f"Waiting for {' and '.join(empty)} to take the seat")
    if away:  # a name first, kept as its player wrote it ("cid is away")
        parts.append(f"{' and '.join(away)} {'is' if len(away) == 1 else 'are'} away")
    return "; ".join(parts)
