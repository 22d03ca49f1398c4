"""Snapshots of a hosted table with its chat open at 80x24 and 40x30, lines said before the
player came (a hostile one among them, written out) and a line being written (review the SVGs
when they change)."""

from __future__ import annotations

import random

import pytest

from karavan_net.protocol import ChatLine
from tests.tui.helpers import make_app
from tests.tui.test_snapshots import steady

from .helpers import hosting_in_thread, new_match
from .test_remote_snapshots import SNAPSHOT_PORT, join_by_keys

SAID = [
    ChatLine(0, "Robot", "Hello", None),
    ChatLine(1, "Ann", "Good luck", 0),
    ChatLine(2, "Mallory", "\x1b[31mred\x07 \u202eright-to-left", None),
]


@pytest.mark.parametrize(
    ("size", "port"),
    [
        ((80, 24), SNAPSHOT_PORT + 1),
        pytest.param((40, 30), SNAPSHOT_PORT + 2, marks=pytest.mark.slow),  # 80x24 by default
    ],
)
def test_a_hosted_table_with_its_chat_open(snap_compare, tmp_path, size, port):
    match = new_match("karakum", "Ann,bot:random:Robot", first=0)
    rng = random.Random(3)
    for _ in range(6):
        match.play(rng.choice(match.legal_actions()))
    with hosting_in_thread(match, port=port) as (table, port):
        table.chat.resume(
            ChatLine(line.number, line.name, line.text.encode("unicode_escape").decode(), line.seat)
            if line.name == "Mallory"
            else line
            for line in SAID
        )
        joining = join_by_keys(port, "Ann")

        async def run_before(pilot) -> None:
            await joining(pilot)
            await pilot.press("c", *"Well played")
            await steady(pilot)

        app = make_app(tmp_path)
        assert snap_compare(app, terminal_size=size, run_before=run_before)
