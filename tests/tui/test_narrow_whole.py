"""At 40x30 every table says its words whole: cards, names, the status line and every key
(issue 69: cards broken inside a word, names cut with room to spare, keys out of reach)."""

from __future__ import annotations

import pytest
from attrs import evolve
from textual.widget import Widget
from textual.widgets import OptionList

from karavan_core.games.karawane.state import KarawaneState
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.title import TitleScreen
from karavan_tui.tables.karawane.faces import card_effect
from karavan_tui.tables.marking import Marks
from karavan_tui.widgets.cards import CardRow

from .helpers import (
    game_screen,
    running,
    seeded_match,
    settle,
    state_of,
    visible_characters,
    waiting,
)
from .test_jaipur_table import mid_game
from .test_marking import karakum_buying_position
from .test_narrow import NARROW, karakorum_match, karawane_match


def read(app, widget: Widget) -> list[str]:
    """The lines of the screen inside ``widget``'s region, as they are shown."""
    lines = visible_characters(app).splitlines()
    region = widget.region
    return [line[region.x : region.right] for line in lines[region.y : region.bottom]]


def words(app, widget: Widget) -> str:
    """What ``widget`` shows, its lines joined by spaces (a word broken over two lines is not
    found whole in it)."""
    return " ".join(" ".join(read(app, widget)).split())


# A Mirage and a Camel driver; a Sandstorm. With the slow checks: at 40x30 by default, the
# Karakum table's snapshot and the list of keys (below) guard the narrow layout.
@pytest.mark.slow
@pytest.mark.parametrize("moves", [9, 36])
async def test_karawane_hand_shows_each_card_name_and_effect_whole(tmp_path, moves):
    match = seeded_match("karawane", "Ann,bot:random,bot:random", moves=moves)
    hand = state_of(match, KarawaneState).hands[0]
    async with running(tmp_path, match, size=NARROW) as (app, _pilot):
        row = game_screen(app).table.query_one("#hand-row", CardRow)
        glyphs = game_screen(app).glyphs
        for card, shown in zip(hand, row.cards, strict=True):
            assert words(app, shown) == f"{card.label} {card_effect(card, glyphs)}"


@pytest.mark.slow
async def test_karawane_table_shows_four_players_without_scrolling(tmp_path):
    match = seeded_match("karawane", "Ann,bot:random,bot:random,bot:random", moves=36)
    async with running(tmp_path, match, size=NARROW) as (app, _pilot):
        table = game_screen(app).table
        assert table.max_scroll_y == 0  # the track, the hand and the players, all in sight
        lines = read(app, table.query_one("#players"))
        assert [line[5] for line in lines[2:-1]] == ["A", "B", "C", "D"]  # each seat's letter


async def test_every_key_a_tap_away_in_the_list_of_keys(tmp_path):
    async with running(tmp_path, mid_game(), size=NARROW) as (app, pilot):
        # In sight, where four keys fit (once the Footer is drawn: on a busy machine it may
        # come after the table has settled).
        await waiting(pilot, lambda: ". Keys" in visible_characters(app).splitlines()[-1])
        keys = [
            key for key in app.screen.query("FooterKey") if getattr(key, "action", "") == "keys"
        ]
        await pilot.click(keys[0])
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        listed = [str(option.prompt) for option in app.screen.query_one(OptionList).options]
        words = [line.split()[-1] for line in listed]  # "1. ⏎  Choose": what the key does
        # Every key the Footer has at 80 columns, and the palette it has no room for.
        for word in ("Choose", "Undo", "Moves", "Hint", "Save", "Rules", "Title", "Palette"):
            assert word in words
        for _ in range(words.index("Title")):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, TitleScreen)  # "q", as if pressed


async def test_no_list_of_keys_at_80x24(tmp_path):
    async with running(tmp_path, mid_game()) as (app, pilot):
        assert ". Keys" not in visible_characters(app)
        await pilot.press("full_stop")
        await pilot.pause()
        assert not isinstance(app.screen, ChoiceScreen)


@pytest.mark.slow
async def test_jaipur_round_panel_names_a_bot_by_what_tells_it_apart(tmp_path):
    async with running(tmp_path, mid_game(), size=NARROW) as (app, _pilot):
        shown = words(app, game_screen(app).table.query_one("#players"))
        # The room the line leaves the name, measured (it was cut to "Ran…" by a rough guess).
        assert "▶ Ann 0 seals" in shown and "Random 2 0 seals" in shown


@pytest.mark.slow
async def test_karawane_players_names_as_wide_as_their_column(tmp_path):
    async with running(tmp_path, karawane_match(), size=NARROW) as (app, _pilot):
        lines = read(app, game_screen(app).table.query_one("#players"))
        # The column is as wide as its heading: "Ann" whole, each bot told apart by its end.
        assert [line[8:14] for line in lines[2:5]] == ["Ann   ", "Ran… 2", "Ran… 3"]


@pytest.mark.slow
async def test_karakum_payment_that_does_not_pay_says_why_on_more_lines(tmp_path):
    match, slot, _ = karakum_buying_position()
    async with running(tmp_path, match, size=NARROW) as (app, pilot):
        table = game_screen(app).table
        table.buy(slot)
        await pilot.pause()
        table.paying = evolve(table.paying, cards=Marks())  # nothing marked: it does not pay
        table.marks_changed()
        await pilot.pause()
        status = game_screen(app).query_one("#status")
        said = words(app, status)
        # Wrapped over the lines it needs, not cut ("That payment makes…").
        assert said.startswith(f"Buy the {match.state.market[slot]}")
        assert "That payment makes 0 units, not the" in said and "costs." in said
        assert "…" not in said and status.region.height == 3


@pytest.mark.slow
async def test_karakorum_goals_wrap_between_peaks_and_keep_their_legend(tmp_path):
    async with running(tmp_path, karakorum_match(), size=NARROW) as (app, _pilot):
        lines = read(app, game_screen(app).table.query_one("#goals"))
        assert "…" not in lines[0] and "10▲:+15" in lines[0]  # the points of every goal
        rows = [line.strip("│ ") for line in lines[1:-1]]
        # A peak's goals stay on its line: each line begins with a peak's letter.
        assert rows == ["R 4 6 2×3 10▲ │ G 4 6 2×3 10▲", "Y 4 6 2×3 10▲"]
