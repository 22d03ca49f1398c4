"""The server's store on a real SQLite file: migrations, accounts, tables, clocks, ratings."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from karavan_net.clocks import Clock
from karavan_net.serve.ratings import Skill, ranks, rated
from karavan_net.serve.store import (
    Decision,
    KeyKind,
    SeatClock,
    SeatSpec,
    Status,
    Store,
    StoreError,
    TableSpec,
    key_digest,
)

GOLDEN = Path(__file__).with_name("golden")


@pytest.fixture
def store(database):
    opened = Store.open(database)
    yield opened
    opened.close()


def account(store: Store, name: str):
    return store.create_account(name, KeyKind.SECRET, key_digest(f"secret of {name}"))


def test_an_empty_database_is_brought_to_the_newest_schema(database):
    store = Store(database)
    assert store.schema_revision() is None
    store.migrate()
    assert store.schema_revision() == store.newest_revision() is not None


def test_a_database_of_the_first_schema_is_migrated_and_keeps_its_rows(tmp_path):
    """The golden file was written by the first schema: its accounts and tables survive."""
    path = tmp_path / "old.db"
    shutil.copy(GOLDEN / "schema-0001.sqlite", path)
    store = Store(str(path))
    assert store.schema_revision() == "0001"
    store.migrate()
    assert store.schema_revision() == store.newest_revision()
    ann = store.account_by_key(KeyKind.SECRET, key_digest("secret of Ann"))
    assert ann is not None and ann.name == "Ann"
    [table] = store.tables_of(ann.id)
    assert table.game == "jaipur" and table.status is Status.OPEN and table.wanted == 1


def test_names_are_unique_whatever_their_case_and_checked_at_the_door(store):
    account(store, "Ann")
    with pytest.raises(StoreError, match="taken"):
        store.create_account("ANN", KeyKind.SECRET, key_digest("another"))
    with pytest.raises(StoreError, match="control"):
        store.create_account("A\x1bnn", KeyKind.SECRET, key_digest("a third"))
    with pytest.raises(StoreError, match="already belongs"):
        store.create_account("Zed", KeyKind.SECRET, key_digest("secret of Ann"))


def test_only_the_secret_proves_an_account(store):
    ann = account(store, "Ann")
    assert store.account_by_key(KeyKind.SECRET, key_digest("secret of Ann")) == ann
    assert store.account_by_key(KeyKind.SECRET, key_digest("secret of Bob")) is None
    assert store.account_by_key(KeyKind.SSH, key_digest("secret of Ann")) is None


def test_a_seat_kept_for_a_player_is_theirs_alone(store):
    ann, bob, cid = account(store, "Ann"), account(store, "Bob"), account(store, "Cid")
    spec = TableSpec(game="karakum", seats=(SeatSpec(), SeatSpec(reserved_for="bob"), SeatSpec()))
    table = store.create_table(spec, ann, seed=5)
    assert table.seat_of(ann.id) == 0 and table.wanted == 2
    with pytest.raises(StoreError, match="not free"):
        store.take_seat(table.id, 1, cid)
    table = store.take_seat(table.id, None, cid)
    assert table.seat_of(cid.id) == 2
    table = store.take_seat(table.id, None, bob)
    assert table.seat_of(bob.id) == 1 and table.wanted == 0
    with pytest.raises(StoreError, match="already"):
        store.take_seat(table.id, None, bob)


def test_a_change_is_kept_only_over_the_revision_it_follows(store):
    ann = account(store, "Ann")
    spec = TableSpec(game="jaipur", seats=(SeatSpec(), SeatSpec(kind="bot", level="easy")))
    table = store.create_table(spec, ann, seed=5)
    clocks = {0: SeatClock(bank_left=0.0, deadline=None, stood_in=False)}
    store.start(table.id, {"revision": 0}, 0, clocks)
    change = Decision(table_id=table.id, after=0, save={"revision": 1}, to_move=1, clocks=clocks)
    assert store.record_all([change]) == [True]
    assert store.record_all([change]) == [False]
    kept = store.table(table.id)
    assert kept is not None and kept.revision == 1 and kept.save == {"revision": 1}


def test_deadlines_move_on_by_the_time_the_server_was_down(store):
    ann = account(store, "Ann")
    spec = TableSpec(
        game="jaipur", seats=(SeatSpec(), SeatSpec()), clock=Clock.checked("turn", 3600, 0)
    )
    table = store.create_table(spec, ann, seed=5)
    due = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    store.start(
        table.id, {"revision": 0}, 0, {0: SeatClock(bank_left=0, deadline=due, stood_in=False)}
    )
    assert store.due(due + timedelta(seconds=1)) == [table.id]
    assert store.next_deadline() == due
    assert store.shift_deadlines(timedelta(minutes=10)) == 1
    assert store.due(due + timedelta(seconds=1)) == []
    assert store.next_deadline() == due + timedelta(minutes=10)


def test_ratings_are_kept_with_their_change_and_ranked(store):
    ann, bob = account(store, "Ann"), account(store, "Bob")
    spec = TableSpec(game="jaipur", seats=(SeatSpec(), SeatSpec()), rated=True)
    table = store.create_table(spec, ann, seed=5)
    before = store.skills("jaipur", [ann.id, bob.id])
    assert before == [Skill(), Skill()]
    after = rated(before, ranks([2, 0], [0]))
    store.rate(table.id, "jaipur", {ann.id: (before[0], after[0]), bob.id: (before[1], after[1])})
    assert store.skills("jaipur", [ann.id, bob.id]) == after
    board = store.leaderboard("jaipur")
    assert [name for name, _ in board] == ["Ann", "Bob"]
    changes = store.rating_changes(table.id)
    assert changes[ann.id][1] > changes[ann.id][0] and changes[bob.id][1] < changes[bob.id][0]


def test_places_go_to_the_winners_first_then_by_score():
    assert ranks([10, 12, 12, 3], [0]) == [1, 2, 2, 3]
    assert ranks([5, 5], [0, 1]) == [1, 1]


def started_table(store: Store, clock: Clock | None = None) -> int:
    ann = account(store, "Ann")
    spec = TableSpec(game="jaipur", seats=(SeatSpec(), SeatSpec()), clock=clock or Clock())
    table = store.create_table(spec, ann, seed=5)
    store.start(
        table.id, {"revision": 0}, 0, {0: SeatClock(bank_left=0.0, deadline=None, stood_in=False)}
    )
    return table.id


def test_one_process_at_a_time_holds_a_table_and_another_takes_it_once_the_lease_lapses(store):
    table = started_table(store)
    first = store.take_lease(table, "a" * 16, "10.0.0.1:7700", 60)
    assert first.held and first.lapsed is None
    # Another process is sent to the one that holds it...
    refused = store.take_lease(table, "b" * 16, "10.0.0.2:7700", 60)
    assert not refused.held and refused.address == "10.0.0.1:7700"
    # ... which renews its lease while it runs the table...
    assert store.renew_leases("a" * 16, [table], 60) == {table}
    assert store.renew_leases("b" * 16, [table], 60) == set()
    # ... until it is lost: once the lease lapses, the other takes over, told since when.
    assert store.renew_leases("a" * 16, [table], -1) == {table}
    taken = store.take_lease(table, "b" * 16, "10.0.0.2:7700", 60)
    assert taken.held and taken.lapsed is not None
    assert store.renew_leases("a" * 16, [table], 60) == set()  # the lost one learns it
    # A process let go of its table: nobody holds it.
    store.release("b" * 16, table)
    again = store.take_lease(table, "a" * 16, "10.0.0.1:7700", 60)
    assert again.held and again.lapsed is None


def test_a_process_started_again_at_its_address_takes_its_tables_back_at_once(store):
    table = started_table(store)
    assert store.take_lease(table, "a" * 16, "10.0.0.1:7700", 60).held
    assert store.take_lease(table, "c" * 16, "10.0.0.1:7700", 60).held


def test_live_tables_that_no_process_runs_are_orphans(store):
    live = started_table(store, Clock.checked("live", 60, 300))
    untimed = store.create_table(
        TableSpec(game="jaipur", seats=(SeatSpec(), SeatSpec())), account(store, "Bob"), seed=1
    )
    store.start(
        untimed.id, {"revision": 0}, 0, {0: SeatClock(bank_left=0.0, deadline=None, stood_in=False)}
    )
    now = datetime.now(UTC)
    assert store.orphans(now) == [live]  # a table without a clock waits for its players
    store.take_lease(live, "a" * 16, "10.0.0.1:7700", 60)
    assert store.orphans(now) == []
    assert store.orphans(now + timedelta(seconds=61)) == [live]


def test_a_lost_process_s_table_alone_has_its_deadlines_moved_on(store):
    due = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    ids = []
    for name in ("Ann", "Bob"):
        spec = TableSpec(
            game="jaipur", seats=(SeatSpec(), SeatSpec()), clock=Clock.checked("live", 60, 300)
        )
        table = store.create_table(spec, account(store, name), seed=5)
        store.start(
            table.id,
            {"revision": 0},
            0,
            {0: SeatClock(bank_left=0.0, deadline=due, stood_in=False)},
        )
        store.take_lease(table.id, "a" * 16, "10.0.0.1:7700", 60)
        ids.append(table.id)
    assert store.shift_deadlines(timedelta(seconds=9), ids[0]) == 1
    assert store.shift_deadlines(timedelta(seconds=9)) == 0  # both are held by a process
    assert store.next_deadline() == due


def test_each_process_learns_where_the_others_run(store):
    assert store.announce("a" * 16, "10.0.0.1:7700", 6) == []
    assert store.announce("b" * 16, "10.0.0.2:7700", 6) == ["10.0.0.1:7700"]
    assert store.announce("a" * 16, "10.0.0.1:7700", 6) == ["10.0.0.2:7700"]
    store.withdraw("b" * 16)
    assert store.announce("a" * 16, "10.0.0.1:7700", 6) == []
    store.announce("c" * 16, "10.0.0.3:7700", -1)  # lapsed: it is gone
    assert store.announce("a" * 16, "10.0.0.1:7700", 6) == []
