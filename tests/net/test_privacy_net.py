"""Nothing a player may not know leaves the host: every frame to a client is checked.

Whole games are played over loopback by headless bots.  Each frame the host
sends is checked, as it is sent, against the true state: it holds nothing but
what that seat's own observation, its own legal decisions, the public log and
the public scores give (field by field, and no field more), and the hidden
parts of the state — the other hands, the decks, the generator, the seed —
appear nowhere in it.
"""

from __future__ import annotations

import asyncio
import json

import attrs
import pytest

from karavan_core.saves import converter_for, unstructure_action, unstructure_actions
from karavan_net.protocol import Update, decode_host

from .helpers import bot, hosting, new_match

SEED = 987_654_321_123  # a number that would stand out in a frame
UPDATE_FIELDS = {field.name for field in attrs.fields(Update)} | {"type"}
# Per game: the state's fields that no seat may see (besides the generator).
HIDDEN = {
    "jaipur": ("deck",),
    "karakum": ("camel_deck", "resource_deck", "removed"),
    "karakorum": ("deck",),
    "karawane": ("decks",),
}
PLAYERS = {
    "jaipur": "Ann,Bob",
    "karakum": "Ann,Bob,Cid",
    "karakorum": "Ann,Bob,Cid",
    "karawane": "Ann,Bob",
}


def check_frame(table, seat: int | None, text: str, checked: dict[str, int]) -> None:
    """``text``, just sent to ``seat``, tells that seat only what it may know."""
    match, game = table.match, table.game
    state = match.state
    conv = converter_for(game.name)
    assert str(SEED) not in text
    rng = json.dumps(conv.unstructure(state.rng))
    assert rng not in text
    for name in HIDDEN[game.name]:
        hidden = getattr(state, name)
        for part in hidden if name == "decks" else (hidden,):
            if len(part) >= 3:  # a few cards could match a market by chance; a whole deck cannot
                assert json.dumps(conv.unstructure(part)) not in text, f"{name} leaked"
    message = decode_host(text)
    if not isinstance(message, Update):
        checked["other"] += 1
        return
    assert seat is not None
    assert set(json.loads(text)) <= UPDATE_FIELDS, "a field no one has audited for privacy"
    observation = game.observe(state, seat)
    assert message.observation == conv.unstructure(observation, game.observation_type)
    hand = getattr(state, "hands", None)
    if hand is not None:  # the hand in the frame is the seat's own, and no other hand is there
        assert isinstance(message.observation, dict)
        assert message.observation["hand"] == conv.unstructure(hand[seat])
    # Nobody decides before every seat is taken.
    legal = game.legal_actions(state) if state.to_move == seat and table.started else []
    assert [(c.action, c.words) for c in message.legal] == [
        (unstructure_action(game, a), game.preview(observation, a)) for a in legal
    ]
    assert message.scores == list(game.result(state).scores)
    log = match.log()
    assert message.log == log[message.log_start :]
    since = match.last_move_of(seat)
    if since < len(match.history):
        assert message.before == conv.unstructure(match.view(seat, since), game.observation_type)
        assert message.news == unstructure_actions(game, match.history[since:])
    else:
        assert message.before is None and message.news == []
    assert [(s.name, s.kind, s.level) for s in message.seats] == [
        (s.name, s.kind, s.level) for s in match.seats
    ]
    assert (message.outcome is not None) == match.is_over()
    checked["updates"] += 1


# Karakorum's game is the longest: with the slow checks (the others show every kind of frame).
@pytest.mark.parametrize(
    "game",
    [
        pytest.param(g, marks=(pytest.mark.slow,) if g == "karakorum" else ())
        for g in sorted(HIDDEN)
    ],
)
async def test_no_frame_tells_a_seat_more_than_its_own_view(game):
    names = PLAYERS[game]
    seats = names.replace("Cid", "bot:random:Cid")  # a host bot at the bigger tables
    match = new_match(game, seats, seed=SEED, first=0)
    checked = {"updates": 0, "other": 0}
    async with hosting(match) as (table, server):
        table.observer = lambda seat, text: check_frame(table, seat, text, checked)
        players = [await bot(server.port, name, seed=i) for i, name in enumerate(("Ann", "Bob"))]
        results = await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)
    assert results == [0, 0]
    assert match.is_over()
    assert checked["updates"] >= 2 * len(match.history)
