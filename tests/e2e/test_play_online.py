"""The installed command, as a player new to a server uses it: from the title to a move at an
online table (a real `karavan serve` on loopback; another player's bot at the table)."""

from __future__ import annotations

import re
import subprocess
import time

import pytest

from tests.net.helpers import free_port
from tests.serve.test_serve_command import Process
from tests.serve.test_ssh_door import start_bob

from .karavan import Karavan


@pytest.mark.slow
async def test_from_the_title_to_a_move_at_an_online_table(karavan: Karavan, tmp_path):
    server = Process(str(tmp_path / "server.db"), free_port())
    bob: subprocess.Popen[bytes] | None = None
    try:
        await server.wait_for("Karavan server at")
        bob = start_bob(server.port)  # Bob opens a Jaipur table with a free seat
        terminal = karavan.start(size=(100, 30))
        terminal.wait_for("Play online")
        terminal.press("o")
        terminal.wait_for("Server")
        # The server is offered (the default one): the name, still to fill, has the keys.
        terminal.type("Ann")
        terminal.press("shift+tab", "end", *["backspace"] * 40)
        terminal.type(f"127.0.0.1:{server.port}")
        terminal.press("enter")
        terminal.wait_for(f"Ann on 127.0.0.1:{server.port}")
        terminal.wait_for("Bob")  # Bob's table, in the lobby's list
        terminal.press("enter")  # the rows have the keys: the free seat, asked first
        terminal.wait_for("Sit at table")
        terminal.press("y")  # taken: the game starts, the table opens
        terminal.wait_until(lambda text: "Market" in text and "Ann" in text, "the Jaipur table")
        played = re.compile(r"\bAnn (takes|sells|exchanges)")
        deadline = time.monotonic() + 60
        while not played.search(terminal.text()) and time.monotonic() < deadline:
            terminal.press("a")  # the list of decisions, the first of them
            terminal.read_for(0.5)
            terminal.press("enter")
            terminal.read_for(1.0)
        assert played.search(terminal.text()), terminal.text()
        assert server.said("Ann is in the lobby.") is not None
    finally:
        if bob is not None:
            bob.terminate()
        server.stop()
