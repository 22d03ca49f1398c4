"""Jaipur's state, decisions, observations and round summaries (plain frozen values)."""

from __future__ import annotations

from attrs import frozen

from karavan_core.engine import Action, Observation, State, UntilOver
from karavan_core.games.jaipur.components import Card

Counts = tuple[int, ...]  # cards per kind: seven (CARDS order) in the market, six goods elsewhere


@frozen
class RoundScore:
    """One player's takings in a finished round."""

    goods_tokens: tuple[int, ...]  # values of the goods tokens won, good by good
    bonus_tokens: tuple[int, ...]  # values of the bonus tokens won
    herd: int  # camels in the herd when the round ended
    camel_token: int  # the camel token's value if this player took it, else 0

    @property
    def goods_points(self) -> int:
        """Points from goods tokens."""
        return sum(self.goods_tokens)

    @property
    def bonus_points(self) -> int:
        """Points from bonus tokens."""
        return sum(self.bonus_tokens)

    @property
    def total(self) -> int:
        """The round's total: goods, bonus and camel token."""
        return self.goods_points + self.bonus_points + self.camel_token


@frozen(kw_only=True)
class RoundResult:
    """A finished round, kept in the state so the app can show its summary."""

    number: int  # 1 for the first round of the match
    starter: int  # the seat that played first in it
    scores: tuple[RoundScore, ...]
    winner: int | None  # the seat that took the seal; None after a complete tie
    ended_by: str  # why the round ended, as a clause: "the market could not be refilled"
    reason: str  # sentences saying who took the camel token and the seal, and why


@frozen(slots=False, kw_only=True)  # see values.replace
class JaipurState(UntilOver, State):
    """A whole Jaipur match: the round in progress, hidden parts included, and past rounds."""

    seals: tuple[int, ...]
    rounds: tuple[RoundResult, ...]  # the finished rounds, oldest first
    starter: int  # who started the round in progress
    current: int
    over: bool
    deck: tuple[Card, ...]  # top first
    market: Counts  # seven counts: the goods, then camels
    hands: tuple[Counts, ...]  # six goods counts per player (camels are never in a hand)
    herds: tuple[int, ...]
    discard: Counts  # goods sold this round
    goods_piles: tuple[tuple[int, ...], ...]  # per good, top first
    bonus_piles: tuple[tuple[int, ...], ...]  # per sale size (3, 4, 5+), top first
    goods_won: tuple[tuple[tuple[int, ...], ...], ...]  # [seat][good] values taken, in order
    bonus_won: tuple[tuple[tuple[int, ...], ...], ...]  # [seat][pile] values taken
    # [seat]: goods everyone has seen go into that hand this round and not come out
    # (taken from the market); a lower bound on the hand that players may remember.
    known: tuple[Counts, ...]
    turn: int = 0  # turns played in the round in progress

    @property
    def round_number(self) -> int:
        """The round in progress (or, once the match is over, the last one played)."""
        return len(self.rounds) if self.over else len(self.rounds) + 1


@frozen(kw_only=True)
class JaipurObservation(UntilOver, Observation):
    """What one player knows: the public table, their own hand and their own bonus values.

    It includes what a player at the table could remember: the goods each rival
    was seen to take from the market this round and has not given back or sold.
    """

    seals: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    starter: int
    current: int
    over: bool
    deck_size: int
    market: Counts
    hand: Counts | None  # None in the public view
    hand_sizes: tuple[int, ...]
    known: tuple[Counts, ...]  # [seat]: goods seen going into each hand (see JaipurState)
    herds: tuple[int, ...]
    discard: Counts
    goods_piles: tuple[tuple[int, ...], ...]
    bonus_pile_sizes: tuple[int, ...]
    goods_won: tuple[tuple[tuple[int, ...], ...], ...]
    # This player's bonus token values, per pile (None in the public view).
    bonus_won: tuple[tuple[int, ...], ...] | None
    bonus_counts: tuple[Counts, ...]  # [seat][pile]: how many bonus tokens each holds
    turn: int


@frozen
class TakeGood(Action):
    """Take one good from the market into the hand (the market is refilled)."""

    good: Card


@frozen
class TakeCamels(Action):
    """Take every camel in the market into the herd (the market is refilled)."""


# Exchanges are the commonest keys of the search tree's children: hashing two
# count tuples at every lookup showed in the profile, so the hash is kept.
@frozen(cache_hash=True)
class Exchange(Action):
    """Take goods from the market and give back as many cards from hand and herd.

    ``take`` and ``give`` count goods per kind (six each, GOODS order);
    ``camels`` is how many camels from the herd are given.
    """

    take: Counts
    give: Counts
    camels: int


@frozen
class Sell(Action):
    """Sell ``count`` cards of one good from the hand."""

    good: Card
    count: int


ACTION_TYPES: tuple[type[Action], ...] = (TakeGood, TakeCamels, Exchange, Sell)
