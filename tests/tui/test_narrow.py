"""The narrow layouts, from 40 columns and 30 rows (a phone held upright): every table's zones
stacked, rows of cards going on over more rows, the side panel a key or a tap away; played
by clicks, as a finger would."""

from __future__ import annotations

import pytest

from karavan_core.games.jaipur.components import Card as Good
from karavan_core.games.jaipur.state import TakeCamels, TakeGood
from karavan_core.games.karakum.state import DrawCard, TakeCard
from karavan_core.games.karawane.state import Play
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen
from karavan_tui.screens.too_small import TooSmallScreen
from karavan_tui.tables.jaipur.zones import MarketZone
from karavan_tui.tables.karawane.zones import TrackZone
from karavan_tui.widgets.cards import Card, CardRow
from karavan_tui.widgets.side import GameLog

from .helpers import (
    game_screen,
    karakum_match,
    local_play,
    make_app,
    running,
    seeded_match,
    settle,
    start_with,
)
from .test_jaipur_table import jaipur_match, mid_game, open_exchange_picker
from .test_snapshots import snap_table, steady

NARROW = (40, 30)


def karawane_match():
    return seeded_match("karawane", "Ann,bot:random,bot:random", moves=30)


def karakorum_match():
    return seeded_match("karakorum", "Ann,bot:random,bot:random", moves=30)


# -- snapshots at 40x30 --------------------------------------------------------------------


def test_title_narrow(snap_compare, tmp_path):
    assert snap_compare(make_app(tmp_path), terminal_size=NARROW, run_before=steady)


@pytest.mark.slow
def test_new_game_dialog_narrow(snap_compare, tmp_path):
    async def open_dialog(pilot):
        await pilot.press("n")
        await steady(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=NARROW, run_before=open_dialog)


def test_karakum_table_narrow(snap_compare, tmp_path):
    match = karakum_match("Ann,bot:random,bot:random", moves=60)
    assert snap_table(snap_compare, tmp_path, match, NARROW)


@pytest.mark.slow
def test_karawane_table_narrow(snap_compare, tmp_path):
    assert snap_table(snap_compare, tmp_path, karawane_match(), NARROW)


@pytest.mark.slow
def test_karawane_hidden_hand_narrow(snap_compare, tmp_path):
    """Hot-seat, a bot moving: the hand's place says the cards are hidden, its words a
    column in from the border as every zone's are."""
    app = start_with(tmp_path, seeded_match("karawane", "Ann,bot:random,Bob"))
    app.config.bot_delay = 30.0  # the bot holds its pause: the table stays public

    async def ann_plays(pilot) -> None:
        await steady(pilot)
        await pilot.press("enter")  # Ann lifts the curtain
        await pilot.pause()
        await pilot.press("a", "enter")  # and plays her first listed card
        await pilot.pause()
        while not isinstance(pilot.app.screen, TableScreen):
            await pilot.press("enter")  # what her turn showed her alone, read
            await pilot.pause()
        assert local_play(pilot.app).viewer is None

    assert snap_compare(app, terminal_size=NARROW, run_before=ann_plays)


@pytest.mark.slow
def test_karakorum_table_narrow(snap_compare, tmp_path):
    assert snap_table(snap_compare, tmp_path, karakorum_match(), NARROW)


@pytest.mark.slow
def test_jaipur_table_narrow(snap_compare, tmp_path):
    assert snap_table(snap_compare, tmp_path, mid_game(), NARROW)


@pytest.mark.slow
def test_jaipur_exchange_picker_narrow(snap_compare, tmp_path):
    app = start_with(tmp_path, mid_game())
    assert snap_compare(app, terminal_size=NARROW, run_before=open_exchange_picker)


def after_key(key: str):
    """A ``run_before`` for a snapshot: bots done, then ``key`` pressed."""

    async def press(pilot) -> None:
        await steady(pilot)
        await pilot.press(key)
        await steady(pilot)

    return press


@pytest.mark.slow
def test_key_list_narrow(snap_compare, tmp_path):
    app = start_with(tmp_path, mid_game())
    assert snap_compare(app, terminal_size=NARROW, run_before=after_key("full_stop"))


@pytest.mark.slow
def test_side_panel_narrow(snap_compare, tmp_path):
    app = start_with(tmp_path, mid_game())
    assert snap_compare(app, terminal_size=NARROW, run_before=after_key("i"))


# -- the size the app needs ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "small"),
    [((40, 30), False), ((39, 30), True), ((40, 29), True), ((79, 29), True), ((80, 24), False)],
)
async def test_too_small_only_below_80x24_and_40x30(tmp_path, size, small):
    app = make_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) is small
        assert isinstance(app.screen, TitleScreen) is not small


# -- the side panel, a key or a tap away ----------------------------------------------------


def side_keys(screen: TableScreen) -> list[str]:
    """The keys the Footer shows for the side panel."""
    return [
        key
        for key, active in screen.active_bindings.items()
        if active.binding.action == "toggle_side" and active.enabled
    ]


@pytest.mark.slow
async def test_the_side_panel_takes_the_tables_place_by_key_and_by_tap(tmp_path):
    async with running(tmp_path, mid_game(), size=NARROW) as (app, pilot):
        screen = game_screen(app)
        table, side = screen.query_one("#table"), screen.query_one("#side")
        assert table.display and not side.display  # the table, the panel behind its tab
        assert side_keys(screen) == ["i"]
        hand = screen.focused
        assert isinstance(hand, CardRow)
        await pilot.press("i")
        await pilot.pause()
        assert side.display and not table.display
        assert isinstance(screen.focused, GameLog)  # the arrows scroll the log
        await pilot.press("i")
        await pilot.pause()
        assert table.display and not side.display
        assert screen.focused is hand  # the keys back where they were
        await pilot.click("#tab-side")
        await pilot.pause()
        assert side.display and not table.display
        await pilot.click("#tab-table")
        await pilot.pause()
        assert table.display and screen.focused is hand
        # Widened past 80 columns, the panel is beside the table again and its key is gone.
        await pilot.press("i")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert table.display and side.display
        assert side_keys(screen) == []


@pytest.mark.slow
async def test_at_80x24_no_tab_and_no_side_key(tmp_path):
    async with running(tmp_path, mid_game()) as (app, _pilot):
        screen = game_screen(app)
        assert not screen.query_one("#panel-tabs").display
        assert side_keys(screen) == []


# -- each game played by clicks at 40x30 ----------------------------------------------------


@pytest.mark.slow
async def test_jaipur_by_clicks_on_cards_of_both_rows_of_the_market(tmp_path):
    match = jaipur_match()
    async with running(tmp_path, match, size=NARROW) as (app, pilot):
        market = game_screen(app).table.query_one(MarketZone)
        # The market's five cards and its exchange card go on over two rows.
        rows = {card.region.y for card in market.cards if card.display}
        assert len(rows) == 2
        last = max(i for i, card in enumerate(market.cards[:5]) if card.display)
        assert market.cards[last].region.y > market.cards[0].region.y
        for index in (last, 0):  # a card on the second row, then one on the first
            while match.to_move != 0:
                await settle(pilot, app)
            good = market.shown[index]
            before = len(match.history)
            await pilot.click(market.cards[index])
            await settle(pilot, app)
            if isinstance(app.screen, ChoiceScreen):  # over the hand's limit: say which
                await pilot.press("escape")
                continue
            expected = TakeCamels() if good is Good.CAMEL else TakeGood(good)
            assert match.history[before] == expected


async def test_karakum_by_clicks_take_and_draw(tmp_path):
    match = karakum_match(seed=11)
    async with running(tmp_path, match, size=NARROW) as (app, pilot):
        screen = game_screen(app)
        cards = screen.query_one("#resources").query(Card)
        # The deck and five face-up cards: the last ones on a second row.
        assert cards[-1].region.y > cards[0].region.y
        slot = max(i for i, res in enumerate(match.state.row) if res.value != "gold")
        await pilot.click(cards[slot + 1])
        await settle(pilot, app)
        assert match.history == [TakeCard(slot)]
        await pilot.click(cards[0])
        await settle(pilot, app)
        assert match.history[:2] == [TakeCard(slot), DrawCard()]


@pytest.mark.slow
async def test_karawane_by_clicks_on_a_camel_and_a_card(tmp_path):
    match = seeded_match("karawane", "Ann,bot:random")
    async with running(tmp_path, match, size=NARROW) as (app, pilot):
        track = game_screen(app).table.query_one(TrackZone)
        line, column = next(spot for spot, who in track.spots.items() if who == (0, 0))
        await pilot.click(TrackZone, offset=(column + 2, line + 1))
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.click("#choices", offset=(2, 1))
        await settle(pilot, app)
        first = match.history[0]
        assert isinstance(first, Play) and (first.owner, first.camel) == (0, 0)


@pytest.mark.slow
async def test_karakorum_by_a_click_on_the_deck(tmp_path):
    match = seeded_match("karakorum", "Ann,bot:random")
    async with running(tmp_path, match, size=NARROW) as (app, pilot):
        before = len(match.history)
        await pilot.click("#table-row Card")
        await settle(pilot, app)
        assert len(match.history) > before


# -- your turn, told at a table of bots played here too ---------------------------------------


@pytest.mark.slow
async def test_a_local_table_rings_and_titles_your_turn_once_the_bots_have_moved(tmp_path):
    match = seeded_match("jaipur", "Ann,bot:random", first=1)  # the bot begins
    app = start_with(tmp_path, match)
    rung: list[bool] = []
    app.bell = lambda: rung.append(True)  # counted
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot, app)
        assert match.to_move == 0 and app.turn_told and rung == [True]
        market = game_screen(app).table.query_one(MarketZone)
        await pilot.click(market.cards[0])  # a tap: Ann decides, the bot answers
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter")
            await settle(pilot, app)
        assert len(match.history) >= 3 and match.to_move == 0
        assert app.turn_told and rung == [True, True]
        app.settings.bell = False  # the setting turns the bell off; the title still says it
        await pilot.click(market.cards[0])
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter")
            await settle(pilot, app)
        assert app.turn_told and rung == [True, True]
        await pilot.press("q")
        await settle(pilot, app)
        assert not app.turn_told  # the table left: the title is Karavan's again
