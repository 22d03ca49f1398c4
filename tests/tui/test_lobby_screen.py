"""The lobby read and steered as a list (Pilot, by keys and clicks; snapshots at 80x24 and
40x30), its lists given by a stand-in for the server's lobby client (review the SVGs)."""

from __future__ import annotations

from typing import cast

import pytest
from textual.widgets import DataTable, Static, TabbedContent

from karavan_net.accounts import Account
from karavan_net.lobby import Board, BoardLine, Lists, SeatLine, TableLine, Tables
from karavan_net.lobby_client import LobbyClient
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.lobby_list import LobbyList
from karavan_tui.net.lobby_screen import LobbyScreen

from .helpers import make_app, settle, visible_characters

LONG = ("Bartholomew-Montgomery-X", "Dorothea Wilhelmina Zed", "Annabelle-Marguerite Fox")
ANN = Account("127.0.0.1:7700", "Ann", "a" * 43)


def person(name: str, rating: int | None = 1000, **more) -> SeatLine:
    return SeatLine("human", name=name, rating=rating, **more)


OPEN = SeatLine("human")
BOT = SeatLine("bot", level="hard")
JAIPUR_3 = TableLine(
    3, "jaipur", "open", [person(LONG[2], 1138), OPEN], "30 s a move + 5 min", "consent", True,
    created_by=LONG[2], clock_kind="live",
)  # fmt: skip
KARAWANE_7 = TableLine(
    7, "karawane", "playing",
    [person(LONG[0], 1502), person("Cid"), BOT, person(LONG[1], 1210, stood_in=True)],
    "untimed", "none", False, created_by=LONG[0], to_move=1, clock_kind="none",
)  # fmt: skip
KARAKUM_9 = TableLine(
    9, "karakum", "open", [person("Zoe"), OPEN, SeatLine("human", reserved_for="Maximilian")],
    "1 day a move", "consent", False, created_by="Zoe", clock_kind="turn",
)  # fmt: skip
MINE_5 = TableLine(
    5, "karakorum", "playing", [person("Ann", 1138), person(LONG[0], 1502)], "1 day a move",
    "consent", True, created_by="Ann", to_move=0, my_seat=0, my_turn=True, time_left="23 h",
    clock_kind="turn",
)  # fmt: skip
OVER_2 = TableLine(
    2, "jaipur", "over", [person("Ann", 1138), person(LONG[1], 1190)], "30 s a move + 5 min",
    "consent", True, created_by=LONG[1], my_seat=0, result="Ann wins the game by 2 seals to 1.",
    rating_change=[1120, 1138], clock_kind="live",
)  # fmt: skip
BOARD = Board("jaipur", [BoardLine(LONG[0], 1502, 31), BoardLine("Ann", 1138, 4)])


def full_lists() -> Lists:
    return Lists(
        Tables("lobby", [JAIPUR_3, KARAWANE_7, KARAKUM_9], 1),
        Tables("mine", [MINE_5], 1),
        Tables("over", [OVER_2]),
        BOARD,
    )


EMPTY = Lists(Tables("lobby", []), Tables("mine", []), Tables("over", []), Board("jaipur", []))


class StandIn:
    """The lobby client, as the screen uses it, answering with ``lists``."""

    def __init__(self, lists: Lists) -> None:
        self.lists = lists
        self.listener = None
        self.taken: list[int] = []

    async def follow(self, listener, game=None, board=None) -> Lists:
        self.listener = listener
        return self.lists

    async def take(self, table: int, seat=None):
        from karavan_net.lobby import Seated

        self.taken.append(table)
        return Seated(table, 1, False)

    async def close(self) -> None:
        pass


async def shown(pilot, app, text: str) -> None:
    """Wait until the screen shows ``text``."""
    for _ in range(400):
        if text in visible_characters(app):
            return
        await pilot.pause(0.05)
    raise AssertionError(f"{text!r} never shown")


def lobby_app(tmp_path, lists: Lists):
    app = make_app(tmp_path)
    client = StandIn(lists)

    async def opened(pilot) -> LobbyScreen:
        app.push_screen(LobbyScreen(cast(LobbyClient, client), ANN))
        await settle(pilot, app)
        assert isinstance(app.screen, LobbyScreen)
        await shown(pilot, app, "Leave")  # the Footer, drawn last
        return app.screen

    return app, client, opened


@pytest.mark.slow
async def test_the_rows_have_the_keys_and_number_keys_switch_tabs(tmp_path):
    app, _, opened = lobby_app(tmp_path, full_lists())
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await opened(pilot)
        listing = lobby.query_one("#list-lobby", LobbyList)
        assert app.focused is listing  # not the tab bar
        await pilot.press("down")
        assert lobby.chosen() == KARAWANE_7  # the arrows move the rows
        for key, tab in (("2", "mine"), ("3", "over"), ("4", "board"), ("1", "lobby")):
            await pilot.press(key)
            await settle(pilot, app)
            assert lobby.query_one(TabbedContent).active == f"tab-{tab}"
            assert app.focused is lobby.query_one(f"#list-{tab}", LobbyList)
        footer = visible_characters(app).splitlines()[-1]
        assert "1234 Tabs" in footer and "Open" in footer


@pytest.mark.slow  # by default the lobby is steered by keys at a real server (tests/serve)
async def test_enter_asks_before_taking_a_seat_and_no_takes_none(tmp_path):
    app, client, opened = lobby_app(tmp_path, full_lists())
    async with app.run_test(size=(100, 30)) as pilot:
        await opened(pilot)
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question == (
            f"Sit at table 3, Jaipur, 30 s a move + 5 min, rated, against {LONG[2]} (1138)?"
        )
        await pilot.press("n")
        await settle(pilot, app)
        assert isinstance(app.screen, LobbyScreen) and client.taken == []
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        assert client.taken == [3]


@pytest.mark.slow
async def test_one_click_on_a_row_asks_for_it(tmp_path):
    app, _, opened = lobby_app(tmp_path, full_lists())
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await opened(pilot)
        listing = lobby.query_one("#list-lobby", DataTable)
        # The third table's first line: the header, two rows of two and four lines, then it.
        await pilot.click(listing, offset=(2, 1 + 4 + 4))
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert app.screen.question.startswith("Sit at table 9, Karakum")


@pytest.mark.slow
async def test_watch_is_greyed_out_not_hidden_where_the_row_is_no_game_being_played(tmp_path):
    app, _, opened = lobby_app(tmp_path, full_lists())
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await opened(pilot)
        assert lobby.check_action("watch", ()) is None  # an open table: nothing to watch
        footer = visible_characters(app).splitlines()[-1]
        assert "w Watch" in footer
        await pilot.press("down")
        await settle(pilot, app)
        assert lobby.check_action("watch", ()) is True
        assert visible_characters(app).splitlines()[-1] == footer  # the same keys, in place


@pytest.mark.slow
async def test_an_empty_tab_says_what_to_do(tmp_path):
    app, _, opened = lobby_app(tmp_path, EMPTY)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await opened(pilot)
        assert "No open tables yet: c creates one." in visible_characters(app)
        assert lobby.check_action("open", ()) is None
        await pilot.press("2")
        await settle(pilot, app)
        assert lobby.query_one("#empty-mine", Static).display
        assert "You sit at no table yet" in visible_characters(app)


@pytest.mark.slow
async def test_below_80_columns_each_table_is_a_block_with_every_name_whole(tmp_path):
    app, _, opened = lobby_app(tmp_path, full_lists())
    async with app.run_test(size=(40, 30)) as pilot:
        lobby = await opened(pilot)
        shown = visible_characters(app)
        for name in (*LONG, "Cid", "Zoe", "kept for Maximilian"):
            assert name in shown
        assert "30 s a move + 5 min" in shown
        assert not lobby.query_one("#list-lobby", DataTable).show_header
        await pilot.press("3")
        await settle(pilot, app)
        assert "1120 → 1138 (+18)" in visible_characters(app)


# The 80x24 snapshots by default; 40x30 (and the other tabs) with the slow checks.
SNAP_SIZES = [
    pytest.param((80, 24), id="80x24"),
    pytest.param((40, 30), id="40x30", marks=pytest.mark.slow),
]


@pytest.mark.parametrize("size", SNAP_SIZES)
@pytest.mark.parametrize("tab", ["1", *(pytest.param(t, marks=pytest.mark.slow) for t in "23")])
def test_lobby_snapshot(snap_compare, tmp_path, size, tab):
    """The open tables (long names, four seats, ratings, an out-of-time mark), my tables (the
    mark where it is my turn, the time left) and the finished games (a result and my rating
    change)."""
    app, _, opened = lobby_app(tmp_path, full_lists())

    async def open_lobby(pilot):
        await opened(pilot)
        await pilot.press(tab)
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=open_lobby)


@pytest.mark.slow
@pytest.mark.parametrize("size", SNAP_SIZES)
def test_empty_lobby_snapshot(snap_compare, tmp_path, size):
    """A server with no table yet: the tab says what to do."""
    app, _, opened = lobby_app(tmp_path, EMPTY)
    assert snap_compare(app, terminal_size=size, run_before=opened)
