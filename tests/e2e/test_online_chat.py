"""The installed command, as two players at a `karavan serve` table on loopback use its chat:
lines both ways (one with markup, shown as typed), a quick phrase, and a mute that hides the
other's lines until it is lifted."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from karavan_net.accounts import Account, accounts_file, keep
from tests.net.helpers import free_port
from tests.serve.test_serve_command import SECRET, Process, table_of_two

from .karavan import Karavan
from .terminal import Terminal

MARKUP = "Hello [b]Bob[/b]"


def at_the_table(tmp_path: Path, port: int, name: str) -> tuple[Karavan, Terminal]:
    """``karavan online`` for ``name`` (an account kept here), at their table."""
    home = tmp_path / name
    home.mkdir()
    settings = home / "settings.json"
    settings.write_text(json.dumps({"bot_delay": 0}), encoding="utf-8")
    keep(accounts_file(settings), Account(f"127.0.0.1:{port}", name, f"{name}-{SECRET}"))
    karavan = Karavan(home, settings, home / "saves", home)
    terminal = karavan.start("online", f"127.0.0.1:{port}", size=(100, 30))
    terminal.wait_for("Showing every game")
    terminal.wait_for("Jaipur")  # the table, in the lobby's list
    open_my_table(terminal)
    terminal.wait_for("c Chat")
    return karavan, terminal


def open_my_table(terminal: Terminal) -> None:
    """From the lobby, to the list, and Enter: my table opens."""
    terminal.press("tab")
    terminal.read_for(0.5)
    terminal.press("enter")


@contextlib.asynccontextmanager
async def two_at_a_table(tmp_path: Path, **settings: Any) -> AsyncIterator[list[Terminal]]:
    """Ann's and Bob's screens at a Jaipur table of a fresh `karavan serve` on loopback
    (``settings`` as CreateTable's)."""
    port = free_port()
    server = Process(str(tmp_path / "server.db"), port)
    started: list[Karavan] = []
    try:
        await server.wait_for("Karavan server at")
        await table_of_two(port, "jaipur", "Ann", "Bob", **settings)
        for name in ("Ann", "Bob"):
            started.append(at_the_table(tmp_path, port, name)[0])
        yield [karavan.started[0] for karavan in started]
    finally:
        for karavan in started:
            karavan.kill_all()
        server.stop()


@pytest.mark.slow
async def test_two_players_chat_both_ways_and_one_mutes_the_other(tmp_path):
    async with two_at_a_table(tmp_path) as (ann, bob):
        ann.press("c")
        ann.type(MARKUP)
        ann.press("enter")
        bob.wait_for(f"Ann: {MARKUP}")
        bob.press("c", "tab")  # the quick phrases: the first is Good game
        bob.wait_for("Say, or mute a player")
        bob.press("enter")
        ann.wait_for("Bob: Good game")
        # Ann mutes Bob (the last of the phrases), and no longer sees what he says.
        ann.press("tab")
        ann.wait_for("Mute Bob")
        ann.press("end", "enter")
        ann.wait_for("lines are hidden")
        bob.type("Are you there?")
        bob.press("enter")
        bob.wait_for("Bob: Are you there?")
        ann.type("ping")
        ann.press("enter")
        ann.wait_for("Ann: ping")  # after Bob's line, on the same connection
        assert "Are you there?" not in ann.text()
        ann.type("/unmute Bob")
        ann.press("enter")
        ann.wait_for("Bob: Are you there?")
        assert "\x1b" not in ann.text()
