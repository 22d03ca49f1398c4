"""A served table's own rules beside the game's: resigning, aborting, rematches, in words.

A player may resign at any time: at a table of two the game ends there and the other wins;
with more, a bot of the table's stand-in level plays the seat to the end, and the player is
ranked last when the game is rated.  Before every person at the table has made a first
decision the game may be aborted: it ends with no result and is not rated.  Once the game is
over any player may ask for a rematch, the same seats and settings at a new table, which
starts once every person there agrees.  The table (:class:`~karavan_net.serve.tables.ServedTable`)
does each; what it says, and the result it keeps, are made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from karavan_core.engine import Result
from karavan_core.match import Match, Outcome
from karavan_core.text import listed

RATED_LAST = "and is ranked last"


def wins(names: Sequence[str], winners: Sequence[int]) -> str:
    """ "Bob wins", "Bob and Cid win"."""
    verb = "wins" if len(winners) == 1 else "win"
    return f"{listed([names[seat] for seat in winners])} {verb}"


def resigned_words(names: Sequence[str], seat: int, winners: Sequence[int]) -> str:
    """The end of a game ``seat``'s player gave up, the others' ``winners`` left in it."""
    return f"{names[seat]} resigns: {wins(names, winners)}."


def handed_over_words(names: Sequence[str], seat: int, level: str, rated: bool) -> str:
    """What the table is told when ``seat``'s player resigns a game that goes on."""
    name = names[seat]
    ranked = f", {RATED_LAST}" if rated else ""
    return f"{name} resigns: a {level} bot plays {name}'s seat to the end{ranked}."


def aborted_words(name: str, rated: bool) -> str:
    """The end of a game ``name`` aborted."""
    rating = ", and is not rated" if rated else ""
    return f"{name} aborted the game: it ends with no result{rating}."


def rematch_words(names: Sequence[str], asking: Sequence[int], waiting: Sequence[int]) -> str:
    """Who asks for a rematch, and whose agreement it waits for."""
    verb = "asks" if len(asking) == 1 else "ask"
    who = listed([names[seat] for seat in asking])
    return f"{who} {verb} for a rematch: it waits for {listed([names[s] for s in waiting])}."


def result_of(
    scores: Sequence[int],
    winners: Sequence[int],
    sentence: str,
    resigned: Sequence[int] = (),
    **marks: Any,
) -> dict[str, Any]:
    """A game's result as the store keeps it (and rates it): the scores, the winners, the
    sentence, the seats whose players resigned (in the order they did) and ``marks`` of how
    it ended (``abandoned``, ``aborted``)."""
    result: dict[str, Any] = {"scores": list(scores), "winners": list(winners)}
    result["sentence"] = sentence
    if resigned:
        result["resigned"] = list(resigned)
    return result | marks


def ended_outcome(match: Match, result: dict[str, Any]) -> Outcome | None:
    """The outcome every seat is shown of a game the table ended before its rules did (a
    player resigned or abandoned it), from its kept ``result``; ``None`` for one that ended
    with no result (aborted)."""
    if "aborted" in result or "winners" not in result:
        return None
    scores = tuple(int(score) for score in result.get("scores", ()))
    if len(scores) != len(match.seats):
        return None
    winners = tuple(int(seat) for seat in result["winners"])
    breakdown = tuple((("Score when it ended", str(score)),) for score in scores)
    notes = (str(result.get("sentence") or ""),)
    played = Result(scores, winners, breakdown, notes)
    return Outcome(played, match.score_series(), match.round_ends())


def first_decisions(match: Match) -> set[int]:
    """The seats that have made a decision in ``match`` (the stand-ins' count as theirs)."""
    return {match.actor(index) for index in range(len(match.plies))}
