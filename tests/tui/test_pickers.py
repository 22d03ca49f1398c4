"""Pickers open beside what they are about on a tall screen, and keep their place at 80x24."""

from __future__ import annotations

import re

import pytest
from textual.containers import Vertical
from textual.geometry import Offset, Region, Size

from karavan_core.games.karakum.state import Buy
from karavan_tui.modals.choice import ChoiceScreen, beside_offset

from .helpers import running, seeded_match, start_with, visible_characters
from .test_snapshots import affordable_match, steady


def test_a_dialog_goes_over_the_side_panel_in_line_with_its_part_as_far_as_it_fits():
    room, side = Size(200, 50), Region(124, 1, 76, 47)
    assert beside_offset(Region(10, 5, 60, 4), Size(76, 10), side, room) == Offset(124, 5)
    assert beside_offset(Region(10, 40, 60, 4), Size(76, 10), side, room) == Offset(124, 39)
    assert beside_offset(Region(10, 0, 60, 4), Size(76, 10), side, room) == Offset(124, 1)


def payment_app(tmp_path):
    """Ann to move in a Karakum game where she can buy a camel, and the slot she can buy."""
    match = affordable_match()
    slot = next(a.slot for a in match.legal_actions() if isinstance(a, Buy))
    return start_with(tmp_path, match), slot


async def open_payment_picker(pilot, slot: int):
    """The camel at ``slot`` chosen in the market, then its payments listed (p); the part
    of the table that had the focus."""
    await steady(pilot)
    await pilot.press("up", "home", *["right"] * slot, "enter")
    await steady(pilot)
    part = pilot.app.screen.focused
    await pilot.press("p")
    await steady(pilot)
    return part


@pytest.mark.slow
async def test_at_200x50_the_payment_picker_opens_beside_the_row_it_is_about(tmp_path):
    """In line with the market row, over the side panel: no card of the table is hidden."""
    app, slot = payment_app(tmp_path)
    async with app.run_test(size=(200, 50)) as pilot:
        table = app.screen.query_one("#table").region
        part = await open_payment_picker(pilot, slot)
        picker = app.screen
        assert isinstance(picker, ChoiceScreen) and part is not None
        dialog, row = picker.query_one(Vertical).region, part.region
        assert dialog.y == row.y and dialog.x >= table.right, (dialog, row, table)


@pytest.mark.slow  # by default the 80x24 payment picker's snapshot shows its place
async def test_at_80x24_the_payment_picker_keeps_its_place(tmp_path):
    app, slot = payment_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_payment_picker(pilot, slot)
        assert isinstance(app.screen, ChoiceScreen) and app.screen.beside is None


def longest_move_list(name: str):
    """Of the first 60 positions of a seeded game, one where Ann has the most moves to list."""
    best = None
    for moves in range(60):
        match = seeded_match(name, "Ann,bot:random", seed=4, first=0, moves=moves)
        if match.is_over() or match.to_move != 0:
            continue
        if best is None or len(match.legal_actions()) > len(best.legal_actions()):
            best = match
    assert best is not None
    return best


@pytest.mark.parametrize(  # one game by default, every game with the slow checks
    "name",
    [
        pytest.param(g, marks=() if g == "karakum" else pytest.mark.slow)
        for g in ("karakum", "karawane", "karakorum", "jaipur")
    ],
)
async def test_at_80x24_the_move_list_keeps_its_hint_line_in_sight(tmp_path, name):
    """Title, search line, entries and the line that says how to choose: none is cut off."""
    match = longest_move_list(name)
    async with running(tmp_path, match) as (app, pilot):
        await pilot.press("a")
        await pilot.pause()
        listing = app.screen
        assert isinstance(listing, ChoiceScreen) and listing.searchable
        dialog = listing.query_one(Vertical).content_region
        for part in ("#choice-title", "#choice-search", "#choices", "#choice-hint"):
            region = listing.query_one(part).region
            assert region.height and dialog.contains_region(region), (part, region, dialog)


# Karakorum offers five decisions at the most (four expeditions and a new one, say).
@pytest.mark.slow
@pytest.mark.parametrize(  # one game by default, every game with the slow checks
    "name",
    [
        pytest.param(g, marks=() if g == "karakum" else pytest.mark.slow)
        for g in ("karakum", "karawane", "jaipur")
    ],
)
async def test_at_80x24_a_picker_shows_six_entries_from_the_first(tmp_path, name):
    # Karawane's list too, at the bottom to keep the track in sight.
    match = next(
        m
        for moves in range(300)
        if (m := seeded_match(name, "Ann,bot:random", seed=4, first=0, moves=moves)).to_move == 0
        and len(m.legal_actions()) >= 8
    )
    async with running(tmp_path, match) as (app, pilot):
        await pilot.press("a")
        await pilot.pause()
        text = visible_characters(app)
        # The entries inside the dialog (its border, then the list's own where it had one).
        numbers = [int(n) for n in re.findall(r"█ ▊?(\d+)\. \w", text)]
        assert numbers[:6] == [1, 2, 3, 4, 5, 6], text
