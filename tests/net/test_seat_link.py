"""A hosted table's seat link: each update made into the view the host's referee gave the seat."""

from __future__ import annotations

import json
import random

import pytest
from attrs import evolve

from karavan_net.client import TableClient
from karavan_net.host import host_for
from karavan_net.protocol import MINOR, PROTOCOL, WATCHING, Update, Welcome, decode_host, encode
from karavan_tui.net.remote_link import RemoteLink

from .helpers import CODE, new_match


def link_for(table, seat: int | None) -> RemoteLink:
    """A link of ``seat`` (``None``: a watcher) at ``table``, fed by hand, connected to nothing."""
    client = TableClient("127.0.0.1", 1, CODE, "x" if seat is None else f"seat{seat}")
    client.welcome = Welcome(PROTOCOL, table.game.name, WATCHING if seat is None else seat, "s")
    return RemoteLink(client, lambda: None)


def fed(link: RemoteLink, update: Update) -> None:
    """Give ``link`` the update as a client would: its log lines kept, then the update read."""
    link.client.log = [*link.client.log[: update.log_start], *update.log]
    link.take(update)


@pytest.mark.parametrize("game", ["karakum", "jaipur", "karawane", "karakorum"])
@pytest.mark.parametrize("older_host", [False, True])
async def test_each_update_is_the_view_the_referee_gave_the_seat(game, older_host):
    """Whatever the game and the seat, the view rebuilt from an update is the referee's own
    for that seat, the news since its last decision included; from a host of revision 2,
    which does not say ``since``, the same number is worked out."""
    seats = "Ann,Bob,Cid" if game != "jaipur" else "Ann,Bob"
    match = new_match(game, seats)
    table = host_for(match, CODE, bot_delay=0.0)
    referee = table.referee
    referee.hold(None)  # as if everyone had joined
    viewers = [None, *range(len(match.seats))]
    links = {seat: link_for(table, seat) for seat in viewers}
    rng = random.Random(3)
    for _ in range(25):
        if match.is_over():
            break
        for seat in viewers:
            sent = table.update_for(seat, None if seat is not None else -1)
            # As the wire carries it, to a client of this revision or (from an older host) 2.
            update = decode_host(encode(sent, 2 if older_host else MINOR))
            assert isinstance(update, Update) and (update.since is None) == older_host
            fed(links[seat], update)
            mine, theirs = links[seat].view(seat), referee.view(seat)
            assert mine is not None
            assert (mine.since, mine.news, mine.log) == (theirs.since, theirs.news, theirs.log)
            assert (mine.observation, mine.before) == (theirs.observation, theirs.before)
            assert (mine.legal, mine.can_undo, mine.can_redo) == (
                theirs.legal,
                theirs.can_undo,
                theirs.can_redo,
            )
            assert mine.choices() == theirs.choices()
        seat = match.to_move
        assert seat is not None
        referee.play(seat, (rng.choice(referee.legal()),))


async def test_since_is_sent_from_revision_3_on():
    """``since`` goes to a client of revision 3 and is left out for an older one."""
    match = new_match("jaipur", "Ann,Bob")
    table = host_for(match, CODE, bot_delay=0.0)
    table.referee.hold(None)  # as if everyone had joined
    table.referee.play(0, (table.referee.legal()[0],))
    update = table.update_for(1)
    assert update.since == 0
    assert json.loads(encode(update, 3))["since"] == 0
    assert "since" not in json.loads(encode(update, 2))
    assert evolve(update, since=None) == decode_host(encode(update, 2))
