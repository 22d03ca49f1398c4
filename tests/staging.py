"""Staging a table for a test: putting a chosen state in a match's history."""

from __future__ import annotations

from attrs import evolve

from karavan_core import Match, State


def set_state(match: Match, index: int, state: State) -> None:
    """Put ``state`` in place of the state after decision ``index`` (-1: the latest).

    The deal itself is staged by building the match with ``Match(..., initial=state)``.
    """
    if index < 0:
        index += len(match.plies) + 1
    assert index > 0, "stage the deal with Match(..., initial=state)"
    ply = match.plies[index - 1]
    match.plies[index - 1] = evolve(ply, after=state, public=None, line=None, scores=None)
