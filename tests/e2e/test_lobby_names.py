"""The lobby read off the installed `karavan online` against a real `karavan serve`: at
80x24 and at 40x30 (a phone held upright), every seat's full name shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from karavan_net.accounts import Account, accounts_file, keep
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from tests.net.helpers import free_port
from tests.serve.test_serve_command import Process

from .karavan import Karavan

NAMES = ("Bartholomew-Montgomery-X", "Dorothea Wilhelmina Zed", "Annabelle-Marguerite Fox")


async def account(port: int, name: str, secret: str) -> LobbyClient:
    """A new account on the server, logged in."""
    client = LobbyClient("127.0.0.1", port, name, secret)
    await client.connect(create=True)
    return client


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (40, 30)], ids=["80x24", "40x30"])
async def test_the_lobby_shows_every_seats_full_name(karavan: Karavan, tmp_path, size):
    server = Process(str(tmp_path / "server.db"), free_port())
    try:
        await server.wait_for("Karavan server at")
        # Three players with long names sit at a Karawane table of four; one seat is free.
        players = [
            await account(server.port, name, f"{n}-" + "s" * 41) for n, name in enumerate(NAMES)
        ]
        made = await players[0].create(CreateTable("karawane", [SeatAsk("open")] * 4))
        for player in players[1:]:
            await player.take(made.table)
        address = f"127.0.0.1:{server.port}"
        ann = Account(address, "Ann", "Ann-" + "s" * 40)
        await (await account(server.port, ann.name, ann.secret)).close()
        for player in players:
            await player.close()
        keep(accounts_file(Path(karavan.env["KARAVAN_SETTINGS"])), ann)
        # Ann has an account there: `karavan online` takes her straight to the lobby.
        terminal = karavan.start("online", address, size=size)
        terminal.wait_for(f"Ann on {address}")
        terminal.wait_for(NAMES[-1])
        terminal.settle()
        text = terminal.text()
        for name in NAMES:
            assert name in text, text
        assert "open seat" in text and "Karawane" in text, text
    finally:
        server.stop()
