"""A game as one player saw it: what a hosted table gives each player once it is over.

The replay and the review read a match's states.  A player at a hosted table
never holds the states, only their own observation of each, so
:func:`seen_match` deals every state afresh from that seat's observation
(:meth:`~karavan_core.engine.Game.sample_state`): it agrees with everything
the seat saw — its cards, the public table, whose turn it was, its own legal
decisions, the scores, the log — and makes up the rest.  Such a match is
marked :attr:`~karavan_core.match.Match.seen_by`: it is shown only as that
seat (or everyone) saw it, never with the made-up cards face up.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from karavan_core.engine import Action, Game, Observation
from karavan_core.match import Match, Ply, Seat
from karavan_core.tournament import derive_seed


def seen_match(
    game: Game[Any, Any, Any],
    seats: Sequence[Seat],
    seat: int,
    observations: Sequence[Observation],
    actions: Sequence[Action],
    seed: int,
    *,
    hints: int = 0,
    takebacks: int = 0,
    series: Sequence[Sequence[int]] | None = None,
) -> Match:
    """The match of ``actions`` as ``seat`` saw it (``observations``: one per position, the
    deal first); ``seed`` deals the unseen parts.  ``series``, every seat's charted score after
    each decision (public once the game is over), stands for the made-up cards' own, which
    may count hidden values (Jaipur's bonus tokens).  ``ValueError`` if they do not fit
    together.
    """
    if not 0 <= seat < len(seats) or len(observations) != len(actions) + 1:
        raise ValueError("That is not a whole game as one player saw it.")
    states = []
    for index, observation in enumerate(observations):
        state = game.sample_state(observation, random.Random(derive_seed(seed, "seen", index)))
        if game.observe(state, seat) != observation:
            raise ValueError(f"Position {index} does not fit what the player saw.")
        states.append(state)
    for index, action in enumerate(actions):
        if action not in game.legal_actions(states[index]) and states[index].to_move == seat:
            raise ValueError(f"Decision {index + 1} was not open to the player then.")
    match = Match(game, seats, seed, initial=states[0])
    match.plies = [
        Ply(action=action, after=after) for action, after in zip(actions, states[1:], strict=True)
    ]
    if series is not None:
        match.keep_scores(series)
    match.hints[seat] = hints
    match.takebacks[seat] = takebacks
    match.seen_by = seat
    return match
