"""At a server's table, each player and each watcher is sent exactly their own view of the
game as the database keeps it: every update is checked, as it is sent, against the match
rebuilt from the stored decisions (replayed and verified, as a save is)."""

from __future__ import annotations

import asyncio

import pytest

from karavan_core.registry import get_game
from karavan_core.saves import checked_envelope, match_from_envelope
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.protocol import Update, decode_host, observation_data
from karavan_net.serve.server import KaravanServer

from .test_play_online import _Collect, account, greedy, seat_client, serving


def check_against_store(
    server: KaravanServer, table_id: int, seat: int | None, text: str, seen: dict[str, int]
) -> None:
    """``text``, just sent to ``seat`` (``None``: a watcher), is that seat's view of the
    match the store holds now."""
    message = decode_host(text)
    if not isinstance(message, Update):
        return
    record = server.store.tables.get(table_id)
    assert record is not None and record.save is not None
    # A decision is committed before anyone is shown it: the store is never behind a frame.
    assert record.revision >= message.number
    if record.revision != message.number:  # a later decision is kept already
        seen["later"] += 1
        return
    stored = match_from_envelope(checked_envelope(record.save, "the store"), "the store")
    game = get_game(record.game)
    assert message.observation == observation_data(game, stored.view(seat))
    if seat is None:  # the public view, and what changed since the watcher last saw it
        assert message.legal == []
        public = [observation_data(game, view) for view in stored.public_views()]
        assert message.before is None or message.before in public
    else:
        legal = stored.legal_actions() if stored.to_move == seat else []
        assert len(message.legal) == len(legal)
    seen["watcher" if seat is None else "player"] += 1


@pytest.mark.parametrize("game", ["jaipur", pytest.param("karawane", marks=pytest.mark.slow)])
async def test_players_and_watchers_are_sent_exactly_their_view_of_the_stored_game(database, game):
    async with serving(database) as server:
        port = server.port
        ann, bob, cid = [await account(port, name) for name in ("Ann", "Bob", "Cid")]
        made = await ann.create(CreateTable(game, [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        watcher = seat_client(port, made.table, "Cid", watch=True)
        await watcher.join()
        seen = {"player": 0, "watcher": 0, "later": 0}
        table = server.served[made.table]
        failures: list[str] = []

        def observe(seat, text):
            try:
                check_against_store(server, made.table, seat, text, seen)
            except AssertionError as error:  # raised here, it would only stop the frames
                failures.append(f"to seat {seat}: {error}")

        table.observer = observe
        watching = asyncio.get_running_loop().create_task(watcher.run(_Collect([])))
        players = []
        for seed, name in enumerate(("Ann", "Bob")):
            client = seat_client(port, made.table, name)
            await client.join()
            players.append(greedy(client, seed))
        assert await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120) == [0, 0]
        watching.cancel()
        await watcher.close()
        decisions = len(table.match.history)
        assert not failures, failures[:3]
        assert seen["player"] >= decisions and seen["watcher"] >= decisions // 2
        for client in (ann, bob, cid):
            await client.close()
