"""Zones drawn from reactive data are laid out again when the terminal changes size."""

from __future__ import annotations

import pytest

from karavan_tui.tables.jaipur.players import PlayersZone
from karavan_tui.tables.jaipur.zones import TokensZone
from karavan_tui.tables.karakum.players import CaravansZone

from .helpers import game_screen, near_the_end, running, settle


def lines(zone) -> list[str]:
    """The zone's text as drawn now, line by line."""
    return zone.render().plain.split("\n")


async def test_a_long_caravan_wraps_in_a_narrow_zone_and_unwraps_when_it_widens(tmp_path):
    match = near_the_end("karakum", "Ann,bot:random", left=4)
    async with running(tmp_path, match, size=(80, 24)) as (app, pilot):
        zone = game_screen(app).table.query_one(CaravansZone)
        narrow = lines(zone)
        assert all(len(line) <= zone.content_size.width for line in narrow)
        # A chain goes on under its first camel (right of the master), not under the left
        # side, where its camels would read as left-side ones.
        wrapped = 0
        for index, line in enumerate(narrow):
            if "♛" in line and index + 1 < len(narrow) and "♛" not in narrow[index + 1]:
                start = line.index("♛") + 2
                follow = narrow[index + 1]
                assert len(follow) - len(follow.lstrip()) == start, (line, follow)
                wrapped += 1
        assert wrapped
        await pilot.resize_terminal(200, 24)
        await settle(pilot, app)
        wide = lines(zone)
        assert len(wide) == len(match.seats) < len(narrow)  # one line per player now
        assert "".join(wide).split() == "".join(narrow).split()  # the same camels
        await pilot.resize_terminal(200, 50)  # tall: each caravan's worth under it
        await settle(pilot, app)
        tall = lines(zone)
        assert [line for line in tall if "♛" in line] == wide
        assert len(wide) < len(tall) <= zone.content_size.height
        assert sum("chain" in line for line in tall) == len(match.seats)


@pytest.mark.slow
async def test_the_players_lines_are_cut_to_the_zone_and_redrawn_for_its_new_width(tmp_path):
    match = near_the_end("jaipur", "Ann,bot:random", left=6)
    async with running(tmp_path, match, size=(200, 24)) as (app, pilot):
        zone = game_screen(app).table.query_one(PlayersZone)
        wide = lines(zone)
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        narrow = lines(zone)
        assert len(narrow) == len(wide)  # the same lines, none wrapped
        assert all(len(line) <= zone.content_size.width for line in narrow)
        assert narrow != wide
        await pilot.resize_terminal(200, 50)  # tall: a line per fact, every line still fits
        await settle(pilot, app)
        roomy = lines(zone)
        assert len(narrow) < len(roomy) <= zone.content_size.height
        assert all(len(line) <= zone.content_size.width for line in roomy)
        assert any("seals" in line for line in roomy)


@pytest.mark.slow
async def test_what_was_sold_is_said_once_whether_the_table_is_short_or_tall(tmp_path):
    """Short: below the goods tokens' frame; tall: in a line of the zone, and not below too."""
    match = near_the_end("jaipur", "Ann,bot:random", left=6)
    async with running(tmp_path, match, size=(120, 24)) as (app, pilot):
        zone = game_screen(app).table.query_one(TokensZone)
        sold = zone.query_one("#sold")
        assert str(zone.border_subtitle).startswith("sold ") and not sold.display
        await pilot.resize_terminal(120, 40)
        await settle(pilot, app)
        assert sold.display and str(sold.render()).startswith("Sold: ")
        assert not zone.border_subtitle
        await pilot.resize_terminal(120, 24)
        await settle(pilot, app)
        assert str(zone.border_subtitle).startswith("sold ") and not sold.display
