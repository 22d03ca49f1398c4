"""Ratings and seats that hold together: a rated game's result and its ratings are kept in one
transaction, and so are the seat that fills a table and its start, on both databases."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import pytest

from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.serve import lobby_service, ratings
from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.seat_clocks import SeatClocks
from karavan_net.serve.store import Status, Store
from karavan_net.serve.store_keeper import Position, StoreKeeper

SECRET = "r" * 43


@pytest.fixture
def stores(database):
    """Two stores on one database, as two server processes would have."""
    opened = [Store.open(database) for _ in range(2)]
    yield opened
    for store in opened:
        store.close()


def rated_table(lobby: LobbyService, owner: Any, other: Any) -> Any:
    made = lobby.create(
        owner, CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")], rated=True)
    )
    return lobby.take(other, made.id, None)


class Together:
    """openskill's model, each rating waiting (a while) for another to be computed beside it:
    two games rated from what they read before either wrote would lose one of them."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.gate = threading.Barrier(2)

    def create_rating(self, *args: Any, **kwargs: Any) -> Any:
        return self.model.create_rating(*args, **kwargs)

    def rate(self, *args: Any, **kwargs: Any) -> Any:
        with contextlib.suppress(threading.BrokenBarrierError):
            self.gate.wait(timeout=3)
        return self.model.rate(*args, **kwargs)


def end(store: Store, table: Any, winner: int) -> None:
    """Keep ``table``'s last change: ``winner`` has won."""
    queue = CommitQueue(store)
    StoreKeeper(queue, table, SeatClocks(table), lambda: False).write(over(winner))
    queue.close()


def over(winner: int) -> Position:
    """A game's last change, as a table's save writer hands it over."""
    scores = [1, 1]
    scores[winner] = 3
    result = {"scores": scores, "winners": [winner], "sentence": "Someone wins."}
    return Position(save={"revision": 1}, to_move=None, clocks={}, result=result)


@pytest.mark.parametrize("rated_before", [False, True], ids=["newcomer", "rated before"])
def test_two_rated_games_of_one_player_that_end_at_once_both_count(
    stores, monkeypatch, rated_before
):
    """Ann plays Bob at one table and Cid at another, each run by its own process; both games
    end at the same moment.  Ann's rating has both in it, and each table its changes."""
    lobby = LobbyService(stores[0])
    ann, bob, cid, dan = (
        lobby.login(n, f"{n}-{SECRET}", create=True) for n in ("Ann", "Bob", "Cid", "Dan")
    )
    if rated_before:  # Ann has a rating already: both games change the same row
        end(stores[0], rated_table(lobby, dan, ann), 0)
    tables = [rated_table(lobby, ann, bob), rated_table(lobby, ann, cid)]
    monkeypatch.setattr(ratings, "MODEL", Together(ratings.MODEL))
    queues = [CommitQueue(store) for store in stores]
    keepers = [
        StoreKeeper(queue, table, SeatClocks(table), lambda: False)
        for queue, table in zip(queues, tables, strict=True)
    ]
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def finish(keeper: StoreKeeper) -> None:
        start.wait()
        try:
            keeper.write(over(0))
        except BaseException as error:
            failures.append(error)

    enders = [threading.Thread(target=finish, args=(keeper,)) for keeper in keepers]
    for ender in enders:
        ender.start()
    for ender in enders:
        ender.join()
    for queue in queues:
        queue.close()
    assert failures == []
    board = {line.name: line for line in lobby.board("jaipur").lines}
    assert board["Ann"].games == 2 + rated_before
    assert board["Bob"].games == board["Cid"].games == 1
    ids = {table.id for table in tables}
    finished = [line for line in lobby.mine(ann, over=True).tables if line.id in ids]
    assert len(finished) == 2 and all(len(line.rating_change) == 2 for line in finished)
    first, second = sorted(tuple(line.rating_change) for line in finished)
    assert second[0] == first[1]  # the second was rated from what the first left


def test_the_seat_that_fills_a_table_is_taken_only_with_the_start(stores, monkeypatch):
    """A start that fails leaves the seat free: no table is ever full and not started."""
    lobby = LobbyService(stores[0])
    ann, bob = (lobby.login(n, f"{n}-{SECRET}", create=True) for n in ("Ann", "Bob"))
    made = lobby.create(ann, CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))

    def failing(table: Any) -> Any:
        raise RuntimeError("the deal failed")

    monkeypatch.setattr(lobby_service, "new_match", failing)
    with pytest.raises(RuntimeError):
        lobby.take(bob, made.id, None)
    [line] = lobby.lobby(ann, None).tables
    assert line.status == Status.OPEN.value and [seat.name for seat in line.seats] == ["Ann", None]
    monkeypatch.undo()
    started = lobby.take(bob, made.id, None)
    assert started.status is Status.PLAYING and started.save is not None
