"""The installed command, as two players use it against a real `karavan serve` on loopback:
a challenge from the command line taken up, the game resigned and rated; then a challenge
declined in the lobby, its challenger told."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path

import pytest

from karavan_net.accounts import Account, accounts_file, keep
from karavan_net.lobby_client import LobbyClient
from karavan_net.serve.store import Store
from karavan_tui.net.challenge import challenge_request
from tests.net.helpers import free_port
from tests.serve.test_serve_command import Process

from .karavan import Karavan

TOLD = re.compile(r"Ann resigns: Bob wins\.")


async def player(tmp_path: Path, name: str, port: int) -> Karavan:
    """``name``'s Karavan (a home of its own), its account on the server made and kept."""
    home = tmp_path / name
    home.mkdir()
    (home / "home").mkdir()
    settings = home / "settings.json"
    settings.write_text(json.dumps({"bot_delay": 0}), encoding="utf-8")
    account = Account(f"127.0.0.1:{port}", name, f"{name}-{secrets.token_hex(20)}")
    client = LobbyClient("127.0.0.1", port, name, account.secret)
    await client.connect(create=True)
    await client.close()
    keep(accounts_file(settings), account)
    return Karavan(home / "home", settings, home / "saves", tmp_path)


@pytest.mark.slow
async def test_a_challenge_taken_up_resigned_and_rated_then_one_declined(tmp_path):
    database = tmp_path / "server.db"
    server = Process(str(database), free_port())
    players: list[Karavan] = []
    try:
        await server.wait_for("Karavan server at")
        address = f"127.0.0.1:{server.port}"
        ann_app, bob_app = [await player(tmp_path, name, server.port) for name in ("Ann", "Bob")]
        players += [ann_app, bob_app]
        challenge = ["--challenge", "Bob", "--game", "jaipur", "--clock", "30s+5m", "--rated"]
        ann = ann_app.start("online", address, *challenge, size=(100, 30))
        ann.wait_for("Your challenge is at table")
        bob = bob_app.start("online", address, size=(100, 30))
        bob.wait_for("1 challenge for you")
        bob.press("enter")  # the rows have the keys, the challenge first: asked first
        bob.wait_for("Sit at table")
        bob.press("y")  # taken up: the game starts, the table opens for both
        for terminal in (ann, bob):
            terminal.wait_until(lambda text: "Market" in text, "the Jaipur table", timeout=60)
        ann.press("g")
        ann.wait_for("Resign the game? Bob wins it")
        ann.press("y")
        bob.wait_for(TOLD, timeout=60)
        await server.wait_for("resigns")
        store = Store.open(str(database))
        try:  # rated: Bob's win above Ann's loss
            assert [name for name, _ in store.ratings.leaderboard("jaipur")] == ["Bob", "Ann"]
        finally:
            store.close()
        # A second challenge, from a player with no app: Bob declines it in his lobby.
        cid = LobbyClient("127.0.0.1", server.port, "Cid", f"Cid-{secrets.token_hex(20)}")
        await cid.connect(create=True)
        told: list[str] = []
        cid.told = told.append
        made = await cid.create(challenge_request("karawane", ["Bob"], "1d"))
        bob.press("t")  # from the game-over screen back to the lobby
        bob.wait_for("Karawane")  # the lists as they are now: Cid's challenge, first
        bob.press("d")
        bob.wait_for("Decline the challenge of Cid")
        bob.press("y")
        await server.wait_for("Bob declined the challenge")
        for _ in range(200):
            if told:
                break
            await cid.tables()
        assert told == [
            f"Bob declined the challenge at table {made.table} (Karawane): it is closed."
        ]
        await cid.close()
    finally:
        for app in players:
            app.kill_all()
        server.stop()
