"""At 200x50 a table fills the terminal: no zone keeps more than a few blank rows, and the
hand's cards are drawn large (issue 30); at 80x24 the same zones cut nothing."""

from __future__ import annotations

import pytest

from karavan_tui.widgets.cards import CardRow

from .helpers import game_screen, running, visible_characters
from .test_jaipur_table import mid_game as jaipur_mid_game

FEW = 3  # blank rows a zone may keep (a large card's face centred in its rows has some too)


def blank_rows(app, zone) -> int:
    """How many rows inside ``zone`` (within its border) show nothing at all."""
    lines = visible_characters(app).split("\n")
    region = zone.content_region
    rows = [lines[y][region.x : region.right] for y in range(region.y, region.bottom)]
    return sum(1 for row in rows if not row.strip())


@pytest.mark.parametrize("size", [(200, 50), (120, 40)], ids=["200x50", "120x40"])
async def test_every_jaipur_zone_uses_its_rows(tmp_path, size):
    async with running(tmp_path, jaipur_mid_game(), size=size) as (app, _pilot):
        zones = list(game_screen(app).table.query(".zone"))
        assert len(zones) == 4
        blanks = {zone.id: blank_rows(app, zone) for zone in zones}
        assert all(blank <= FEW for blank in blanks.values()), blanks


async def test_the_jaipur_hand_is_drawn_large_at_200x50_and_compact_at_80x24(tmp_path):
    async with running(tmp_path, jaipur_mid_game(), size=(200, 50)) as (app, pilot):
        table = game_screen(app).table
        for row in table.query(CardRow):
            for card in row.cards:
                face = card.face
                if card.display and face is not None and face.large is not None:
                    assert str(card.render()) == str(face.large)
        hand = table.query_one("#hand-row", CardRow).cards
        assert "tokens left" in str(hand[0].render())  # a good's token values on its card
        assert "largest herd" in str(hand[-1].render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert str(hand[0].render()) == str(hand[0].face.text)
        for zone in table.query(".zone"):  # every line drawn fits its zone: nothing cut
            lines = str(zone.render()).splitlines() if zone.id == "players" else []
            assert len(lines) <= zone.content_region.height
