"""At 40x30 every table says its words whole: cards, names, the status line and every key
(issue 69: cards broken inside a word, names cut with room to spare, keys out of reach)."""

from __future__ import annotations

import pytest
from textual.widget import Widget

from karavan_core.games.karawane.state import KarawaneState
from karavan_tui.tables.karawane.faces import card_effect
from karavan_tui.widgets.cards import CardRow

from .helpers import game_screen, running, seeded_match, state_of, visible_characters
from .test_narrow import NARROW


def read(app, widget: Widget) -> list[str]:
    """The lines of the screen inside ``widget``'s region, as they are shown."""
    lines = visible_characters(app).splitlines()
    region = widget.region
    return [line[region.x : region.right] for line in lines[region.y : region.bottom]]


def words(app, widget: Widget) -> str:
    """What ``widget`` shows, its lines joined by spaces (a word broken over two lines is not
    found whole in it)."""
    return " ".join(" ".join(read(app, widget)).split())


@pytest.mark.parametrize("moves", [9, 36])  # a Mirage and a Camel driver; a Sandstorm
async def test_karawane_hand_shows_each_card_name_and_effect_whole(tmp_path, moves):
    match = seeded_match("karawane", "Ann,bot:random,bot:random", moves=moves)
    hand = state_of(match, KarawaneState).hands[0]
    async with running(tmp_path, match, size=NARROW) as (app, _pilot):
        row = game_screen(app).table.query_one("#hand-row", CardRow)
        glyphs = game_screen(app).glyphs
        for card, shown in zip(hand, row.cards, strict=True):
            assert words(app, shown) == f"{card.label} {card_effect(card, glyphs)}"


async def test_karawane_table_shows_four_players_without_scrolling(tmp_path):
    match = seeded_match("karawane", "Ann,bot:random,bot:random,bot:random", moves=36)
    async with running(tmp_path, match, size=NARROW) as (app, _pilot):
        table = game_screen(app).table
        assert table.max_scroll_y == 0  # the track, the hand and the players, all in sight
        lines = read(app, table.query_one("#players"))
        assert [line[5] for line in lines[2:-1]] == ["A", "B", "C", "D"]  # each seat's letter
