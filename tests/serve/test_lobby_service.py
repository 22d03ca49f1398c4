"""The lobby's answers over a real SQLite store: accounts, new tables, seats, lists, boards."""

from __future__ import annotations

import pytest

from karavan_core.saves import checked_envelope, match_from_envelope
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.store import Status, Store, StoreError

SECRET = "s" * 43


@pytest.fixture
def lobby(database):
    store = Store.open(database)
    yield LobbyService(store)
    store.close()


def player(lobby: LobbyService, name: str):
    return lobby.login(name, f"{name}-{SECRET}", create=True)


def two_seats(game="jaipur", **settings) -> CreateTable:
    return CreateTable(game, [SeatAsk("open"), SeatAsk("open")], **settings)


def test_an_account_is_made_once_and_proven_by_its_secret_alone(lobby):
    ann = player(lobby, "Ann")
    assert lobby.login("whatever", f"Ann-{SECRET}", create=False) == ann
    with pytest.raises(StoreError, match="No account here"):
        lobby.login("Ann", f"Bob-{SECRET}", create=False)
    with pytest.raises(StoreError, match="not one this server gives"):
        lobby.login("Ann", "short", create=True)


@pytest.mark.parametrize(
    ("ask", "problem"),
    [
        (CreateTable("chess", [SeatAsk("open")]), "no game called chess"),
        (CreateTable("jaipur", [SeatAsk("open")] * 3), "exactly 2 players"),
        (CreateTable("jaipur", [SeatAsk("bot", level="hard"), SeatAsk("open")]), "first seat"),
        (CreateTable("jaipur", [SeatAsk("open"), SeatAsk("bot", level="god")]), "a bot is"),
        (CreateTable("jaipur", [SeatAsk("open"), SeatAsk("player", name="")]), "empty"),
        (two_seats(clock="live", move_seconds=2), "from 10 s"),
        (two_seats(clock="turn", move_seconds=60), "from 1 h"),
        (two_seats(takebacks="always"), "consent or none"),
        (
            CreateTable("jaipur", [SeatAsk("open"), SeatAsk("bot", level="hard")], rated=True),
            "bots are not rated",
        ),
    ],
)
def test_a_table_that_cannot_be_is_refused_in_words(lobby, ask, problem):
    with pytest.raises(StoreError, match=problem):
        lobby.create(player(lobby, "Ann"), ask)


def test_a_table_starts_once_every_seat_is_taken_with_its_game_stored(lobby):
    ann, bob = player(lobby, "Ann"), player(lobby, "Bob")
    table = lobby.create(ann, two_seats(clock="turn", move_seconds=86400, rated=True))
    assert table.status is Status.OPEN and table.save is None
    assert [line.id for line in lobby.lobby(bob, None).tables] == [table.id]
    table = lobby.take(bob, table.id, None)
    assert table.status is Status.PLAYING and table.to_move is not None
    match = match_from_envelope(checked_envelope(table.save, "table"), "table")
    assert [seat.name for seat in match.seats] == ["Ann", "Bob"]
    assert match.to_move == table.to_move
    waiting = table.seats[table.to_move]
    assert waiting.deadline is not None and table.seats[1 - table.to_move].deadline is None
    mover = ann if table.to_move == 0 else bob
    mine = lobby.mine(mover, over=False)
    assert mine.my_turns == 1 and mine.tables[0].my_turn and mine.tables[0].time_left


def test_a_seat_kept_for_a_player_and_bots_fill_a_table(lobby):
    ann, bob = player(lobby, "Ann"), player(lobby, "Bob")
    seats = [SeatAsk("open"), SeatAsk("player", name="bob"), SeatAsk("bot", level="hard")]
    table = lobby.create(ann, CreateTable("karakum", seats))
    line = lobby.lobby(ann, "karakum").tables[0]
    assert [s.reserved_for for s in line.seats] == [None, "bob", None]
    assert line.seats[2].kind == "bot" and line.seats[0].rating == 1000
    table = lobby.take(bob, table.id, None)
    assert table.status is Status.PLAYING
    match = match_from_envelope(checked_envelope(table.save, "table"), "table")
    assert [seat.name for seat in match.seats] == ["Ann", "Bob", "Hard bot"]


def test_the_leaderboard_names_unknown_games_and_starts_empty(lobby):
    assert lobby.board("jaipur").lines == []
    with pytest.raises(StoreError, match="no game called"):
        lobby.board("chess")


def test_an_account_has_a_few_tables_waiting_and_a_bounded_number_unfinished(lobby):
    ann, bob = player(lobby, "Ann"), player(lobby, "Bob")
    waiting = [lobby.create(ann, two_seats()) for _ in range(5)]
    with pytest.raises(StoreError, match="5 tables waiting for players already"):
        lobby.create(ann, two_seats())
    lobby.create(bob, two_seats())  # another account is not held back by Ann's tables
    lobby.take(bob, waiting[0].id, None)  # one of Ann's fills and starts: room for another
    lobby.create(ann, two_seats())
    # Tables against bots start at once, and count among those not over (their bots think on
    # the server): past twenty, none more.
    against_bots = CreateTable("jaipur", [SeatAsk("open"), SeatAsk("bot", level="random")])
    for _ in range(20 - 6):
        assert lobby.create(ann, against_bots).status is Status.PLAYING
    with pytest.raises(StoreError, match="20 tables that are not over yet"):
        lobby.create(ann, against_bots)


def test_two_tables_asked_for_at_once_at_the_cap_open_one(database):
    """Counted in the creator's locked row: two lobbies asking at once cannot both slip in."""
    from concurrent.futures import ThreadPoolExecutor

    stores = [Store.open(database) for _ in range(2)]
    try:
        lobbies = [LobbyService(store) for store in stores]
        ann = player(lobbies[0], "Ann")
        for _ in range(4):
            lobbies[0].create(ann, two_seats())
        with ThreadPoolExecutor(2) as pool:
            asked = [pool.submit(lobby.create, ann, two_seats()) for lobby in lobbies]
            outcomes = [future.exception() for future in asked]
        assert sum(outcome is None for outcome in outcomes) == 1
        assert all(o is None or isinstance(o, StoreError) or "lock" in str(o) for o in outcomes)
        assert len([t for t in stores[0].tables.of_account(ann.id) if t.status is Status.OPEN]) == 5
    finally:
        for store in stores:
            store.close()
