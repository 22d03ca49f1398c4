"""Snapshots of a hosted table as a player who joined it sees it, at 80x24: the table in
play and its game-over screen (review the SVGs when they change).

The table is served from a thread on loopback, and the player joins it as a user does:
the title's Join dialog, its three fields, Enter.
"""

from __future__ import annotations

import random

from textual.widgets import Input

from karavan_tui.net.remote_over import RemoteOverScreen
from karavan_tui.screens.table import TableScreen
from tests.tui.helpers import make_app, settle
from tests.tui.test_snapshots import steady

from .helpers import CODE, hosting_in_thread, new_match

# The table's title names its address, so the snapshots take fixed ports: below Linux's
# ephemeral range (32768-60999), where a test's own connections elsewhere never land.
SNAPSHOT_PORT = 29651


def join_by_keys(port: int, name: str):
    """What a snapshot runs first: join the table on ``port`` as ``name`` from the title."""

    async def run(pilot):
        app = pilot.app
        await steady(pilot)
        await pilot.press("j")
        await steady(pilot)
        for field, text in (
            ("#join-address", f"127.0.0.1:{port}"),
            ("#join-code", CODE),
            ("#join-name", name),
        ):
            app.screen.query_one(field, Input).value = text
        await pilot.press("enter")
        for _ in range(100):  # the table comes in over the loopback
            await pilot.pause(0.05)
            if isinstance(app.screen, TableScreen | RemoteOverScreen):
                break
        await settle(pilot, app)
        await pilot.pause(0.3)  # the bot's reply, if it is its turn
        await steady(pilot)

    return run


def test_a_hosted_table_in_play(snap_compare, tmp_path):
    match = new_match("karakum", "Ann,bot:random:Robot", first=0)
    rng = random.Random(3)
    for _ in range(6):
        match.play(rng.choice(match.legal_actions()))
    # A port of its own: the table's title shows it.
    with hosting_in_thread(match, port=SNAPSHOT_PORT) as (_table, port):
        app = make_app(tmp_path)
        assert snap_compare(app, terminal_size=(80, 24), run_before=join_by_keys(port, "Ann"))


def test_a_hosted_game_over(snap_compare, tmp_path):
    match = new_match("jaipur", "Ann,bot:random:Robot", first=0)
    rng = random.Random(5)
    while not match.is_over():
        match.play(rng.choice(match.legal_actions()))
    with hosting_in_thread(match) as (_table, port):
        app = make_app(tmp_path)
        assert snap_compare(app, terminal_size=(80, 24), run_before=join_by_keys(port, "Ann"))
