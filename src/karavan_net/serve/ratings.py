"""Ratings per game, with openskill's Plackett-Luce model (it rates 2 to 4 players at once).

A rating is kept as openskill's ``mu`` and ``sigma``; players see one number, the
conservative ordinal (``mu - 3 sigma``) scaled so that a newcomer stands at 1000.
Only people are rated: a table with a bot seat is never rated.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen
from openskill.models import PlackettLuce

MODEL = PlackettLuce()
SCALE = 40.0  # rating points per unit of openskill's ordinal
START = 1000.0  # what a newcomer's ordinal (mu - 3 sigma = 0) is shown as


@frozen
class Skill:
    """One player's rating in one game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def shown(self) -> int:
        """The rating players see."""
        return round(START + SCALE * (self.mu - 3 * self.sigma))


def ranks(scores: Sequence[int], winners: Sequence[int], resigned: Sequence[int] = ()) -> list[int]:
    """Each seat's place, 1 for the winners; the others by score, equal scores sharing a
    place; the players who ``resigned`` (in the order they did) last of all, the first of
    them the very last, whatever the bot that played on for them scored."""
    playing = [seat for seat in range(len(scores)) if seat not in resigned]
    others = sorted({scores[s] for s in playing if s not in winners}, reverse=True)
    places = [0] * len(scores)
    for seat in playing:
        places[seat] = 1 if seat in winners else 2 + others.index(scores[seat])
    last = max((places[seat] for seat in playing), default=0)
    for behind, seat in enumerate(reversed(resigned), start=1):
        places[seat] = last + behind
    return places


def rated(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The players' new skills after a game in which they finished at ``places``."""
    teams = [[MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    new = MODEL.rate(teams, ranks=list(places))
    return [
        Skill(team[0].mu, team[0].sigma, skill.games + 1)
        for team, skill in zip(new, skills, strict=True)
    ]
