"""The lobby tells on the desktop that a game of mine has started (Pilot, at a `karavan serve`
server on loopback): the table created in the app, its other seat taken by another player."""

from __future__ import annotations

import pytest

from karavan_core.registry import get_game
from karavan_net.lobby_client import LobbyClient
from karavan_tui.net.create_table import CreateTableScreen

from ..tui.helpers import make_app, settle, waiting
from .test_online_app import online, serving


@pytest.mark.slow  # by default the table's own desktop note is checked (tests/net)
async def test_the_lobby_tells_the_desktop_when_a_game_of_mine_starts(tmp_path, monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("VTE_VERSION", raising=False)
    async with serving(tmp_path) as server:
        app = make_app(tmp_path)
        app.test_port = server.port
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            lobby = await online(pilot, app, server.port, "Ann")
            written: list[str] = []
            app.write_escape = written.append
            await pilot.press("c")
            await waiting(pilot, lambda: isinstance(app.screen, CreateTableScreen))
            await pilot.press("ctrl+s")  # the first game, the other seat open to anyone
            await waiting(pilot, lambda: app.screen is lobby and lobby.lines["mine"] != [])
            (table,) = lobby.lines["mine"]
            assert not written
            bob = LobbyClient("127.0.0.1", server.port, "Bob", "Bob-" + "b" * 40)
            await bob.connect(create=True)
            await bob.take(table.id)
            await bob.close()
            await pilot.press("r")
            title = get_game(table.game).title
            told = f"\x1b]9;Karavan: Your game of {title} at table {table.id} has started\x07"
            await waiting(pilot, lambda: told in written)
