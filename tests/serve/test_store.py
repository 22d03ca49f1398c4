"""The server's store on a real SQLite file: migrations, accounts, tables, clocks, ratings."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command

from karavan_net.clocks import Clock
from karavan_net.serve.ratings import Skill, ranks, rated
from karavan_net.serve.store import (
    Decision,
    KeyKind,
    RatedGame,
    SeatClock,
    SeatSpec,
    Status,
    Store,
    StoreError,
    TableSpec,
    key_digest,
)

from .stored import account, started_table, starting

GOLDEN = Path(__file__).with_name("golden")


@pytest.fixture
def store(database):
    opened = Store.open(database)
    yield opened
    opened.close()


def test_an_empty_database_is_brought_to_the_newest_schema(database):
    store = Store(database)
    assert store.schema_revision() is None
    store.migrate()
    assert store.schema_revision() == store.newest_revision() is not None


def models_match_migrations(store: Store) -> None:
    """Alembic's check: the schema the migrations made is the one the models describe
    (raises, naming each difference, if not)."""
    config = store.alembic()
    with store.engine.connect() as connection:
        config.attributes["connection"] = connection
        command.check(config)


def test_the_migrations_make_the_schema_the_models_describe(database):
    store = Store.open(database)
    try:
        models_match_migrations(store)
    finally:
        store.close()


def test_a_database_of_the_first_schema_is_migrated_and_keeps_its_rows(tmp_path):
    """The golden file was written by the first schema: its accounts and tables survive."""
    path = tmp_path / "old.db"
    shutil.copy(GOLDEN / "schema-0001.sqlite", path)
    store = Store(str(path))
    assert store.schema_revision() == "0001"
    store.migrate()
    assert store.schema_revision() == store.newest_revision()
    models_match_migrations(store)
    ann = store.accounts.by_key(KeyKind.SECRET, key_digest("secret of Ann"))
    assert ann is not None and ann.name == "Ann"
    [table] = store.tables.of_account(ann.id)
    assert table.game == "jaipur" and table.status is Status.OPEN and table.wanted == 1


def test_names_are_unique_whatever_their_case_and_checked_at_the_door(store):
    account(store, "Ann")
    with pytest.raises(StoreError, match="taken"):
        store.accounts.create("ANN", KeyKind.SECRET, key_digest("another"))
    with pytest.raises(StoreError, match="control"):
        store.accounts.create("A\x1bnn", KeyKind.SECRET, key_digest("a third"))
    with pytest.raises(StoreError, match="already belongs"):
        store.accounts.create("Zed", KeyKind.SECRET, key_digest("secret of Ann"))


def test_only_the_secret_proves_an_account(store):
    ann = account(store, "Ann")
    assert store.accounts.by_key(KeyKind.SECRET, key_digest("secret of Ann")) == ann
    assert store.accounts.by_key(KeyKind.SECRET, key_digest("secret of Bob")) is None
    assert store.accounts.by_key(KeyKind.SSH, key_digest("secret of Ann")) is None


def test_a_seat_kept_for_a_player_is_theirs_alone(store):
    ann, bob, cid = account(store, "Ann"), account(store, "Bob"), account(store, "Cid")
    spec = TableSpec(game="karakum", seats=(SeatSpec(), SeatSpec(reserved_for="bob"), SeatSpec()))
    table = store.tables.create(spec, ann, 5, start=starting())
    assert table.seat_of(ann.id) == 0 and table.wanted == 2
    with pytest.raises(StoreError, match="not free"):
        store.tables.take_seat(table.id, 1, cid, start=starting())
    table = store.tables.take_seat(table.id, None, cid, start=starting())
    assert table.seat_of(cid.id) == 2 and table.status is Status.OPEN
    table = store.tables.take_seat(table.id, None, bob, start=starting())
    assert table.seat_of(bob.id) == 1 and table.wanted == 0
    assert table.status is Status.PLAYING and table.save == {"revision": 0}
    with pytest.raises(StoreError, match="already"):
        store.tables.take_seat(table.id, None, bob, start=starting())


def test_a_change_is_kept_only_over_the_revision_it_follows(store):
    table_id = started_table(store, account(store, "Ann"))
    clocks = {0: SeatClock(bank_left=0.0, deadline=None, stood_in=False)}
    change = Decision(table_id=table_id, after=0, save={"revision": 1}, to_move=1, clocks=clocks)
    assert store.tables.record_all([change]) == [True]
    assert store.tables.record_all([change]) == [False]
    kept = store.tables.get(table_id)
    assert kept is not None and kept.revision == 1 and kept.save == {"revision": 1}


def deadline_of(store: Store, table_id: int) -> datetime | None:
    record = store.tables.get(table_id, with_save=False)
    assert record is not None
    return record.seats[0].deadline


def test_deadlines_move_on_by_the_time_the_server_was_down(store):
    now = store.now()
    late = now - timedelta(seconds=1)
    table_id = started_table(store, account(store, "Ann"), Clock.checked("turn", 3600, 0), late)
    assert store.tables.due() == [table_id]
    moved, gap = store.tables.shift_deadlines(now - timedelta(minutes=10))
    assert moved == 1 and 600 <= gap < 660
    assert store.tables.due() == []
    assert deadline_of(store, table_id) == late + timedelta(seconds=gap)
    # Nothing is given back for a time that has not passed yet.
    assert store.tables.shift_deadlines(store.now() + timedelta(minutes=1)) == (0, 0.0)


def test_ratings_are_kept_with_the_result_that_made_them_and_ranked(store):
    ann, bob = account(store, "Ann"), account(store, "Bob")
    spec = TableSpec(game="jaipur", seats=(SeatSpec(), SeatSpec()), rated=True)
    table = store.tables.create(spec, ann, 5, start=starting())
    table = store.tables.take_seat(table.id, None, bob, start=starting())
    before = store.ratings.skills("jaipur", [ann.id, bob.id])
    assert before == [Skill(), Skill()]
    over = Decision(
        table_id=table.id,
        after=0,
        save={"revision": 1},
        to_move=None,
        clocks={},
        result={"scores": [2, 0], "winners": [0], "sentence": "Ann wins."},
        rated=RatedGame(game="jaipur", accounts=(ann.id, bob.id)),
    )
    assert store.tables.record_all([over]) == [True]
    after = rated(before, ranks([2, 0], [0]))
    assert store.ratings.skills("jaipur", [ann.id, bob.id]) == after
    board = store.ratings.leaderboard("jaipur")
    assert [name for name, _ in board] == ["Ann", "Bob"]
    assert [name for name, _ in store.ratings.leaderboard("jaipur", limit=1)] == ["Ann"]
    changes = store.ratings.changes([table.id])
    ann_change, bob_change = changes[(table.id, ann.id)], changes[(table.id, bob.id)]
    assert ann_change[1] > ann_change[0] and bob_change[1] < bob_change[0]
    # A result that is not kept (its game moved on) rates nobody.
    assert store.tables.record_all([over]) == [False]
    assert store.ratings.skills("jaipur", [ann.id, bob.id]) == after


def test_places_go_to_the_winners_first_then_by_score():
    assert ranks([10, 12, 12, 3], [0]) == [1, 2, 2, 3]
    assert ranks([5, 5], [0, 1]) == [1, 1]


A, B, C = "a" * 16, "b" * 16, "c" * 16


def test_one_process_at_a_time_holds_a_table_and_another_takes_it_once_the_lease_lapses(store):
    table = started_table(store, account(store, "Ann"))
    first = store.leases.take(table, A, "10.0.0.1:7700", 60)
    assert first.held and first.lapsed is None
    # Another process is sent to the one that holds it...
    refused = store.leases.take(table, B, "10.0.0.2:7700", 60)
    assert not refused.held and refused.address == "10.0.0.1:7700"
    # ... which renews its lease while it runs the table...
    assert store.leases.renew(A, [table], 60) == {table}
    assert store.leases.renew(B, [table], 60) == set()
    # ... until it is lost: once the lease lapses, the other takes over, told since when.
    assert store.leases.renew(A, [table], -1) == {table}
    taken = store.leases.take(table, B, "10.0.0.2:7700", 60)
    assert taken.held and taken.lapsed is not None and taken.lapsed < store.now()
    assert store.leases.renew(A, [table], 60) == set()  # the lost one learns it
    # A process let go of its table: nobody holds it.
    store.leases.release(B, table)
    again = store.leases.take(table, A, "10.0.0.1:7700", 60)
    assert again.held and again.lapsed is None


def test_a_process_started_again_at_its_address_takes_its_tables_back_at_once(store):
    table = started_table(store, account(store, "Ann"))
    assert store.leases.take(table, A, "10.0.0.1:7700", 60).held
    assert store.leases.take(table, C, "10.0.0.1:7700", 60).held


def wait_until(check, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "it never came"
        time.sleep(0.05)


def test_live_tables_that_no_process_runs_are_orphans_once_their_lease_runs_out(store):
    """A lease's end is kept and compared by the database's clock (on SQLite the times are
    text: they are written and compared alike, to the sub-second)."""
    ann = account(store, "Ann")
    live = started_table(store, ann, Clock.checked("live", 60, 300))
    untimed = started_table(store, ann, seed=1)
    assert store.leases.orphans() == [live]  # a table without a clock waits for its players
    began = time.monotonic()
    store.leases.take(live, A, "10.0.0.1:7700", 2)
    running = store.leases.orphans()
    refused = store.leases.take(live, B, "10.0.0.2:7700", 60)
    if time.monotonic() - began < 2:  # (a machine this slow would show nothing here)
        assert running == [] and not refused.held
    wait_until(lambda: store.leases.orphans() == [live])
    assert time.monotonic() - began > 1.9
    assert store.leases.take(live, B, "10.0.0.2:7700", 60).held
    assert untimed not in store.leases.orphans()


def test_a_lost_process_s_table_alone_has_its_deadlines_moved_on(store):
    due = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
    ids = []
    for name in ("Ann", "Bob"):
        table_id = started_table(store, account(store, name), Clock.checked("live", 60, 300), due)
        store.leases.take(table_id, A, "10.0.0.1:7700", 60)
        ids.append(table_id)
    moved, gap = store.tables.shift_deadlines(store.now() - timedelta(seconds=9), ids[0])
    assert moved == 1 and 9 <= gap < 20
    assert deadline_of(store, ids[0]) == due + timedelta(seconds=gap)
    lapsed = store.now() - timedelta(seconds=9)
    assert store.tables.shift_deadlines(lapsed)[0] == 0  # both are held by a process
    assert deadline_of(store, ids[1]) == due


def test_each_process_learns_where_the_others_run(store):
    assert store.leases.announce(A, "10.0.0.1:7700", 6) == []
    assert store.leases.announce(B, "10.0.0.2:7700", 6) == ["10.0.0.1:7700"]
    assert store.leases.announce(A, "10.0.0.1:7700", 6) == ["10.0.0.2:7700"]
    store.leases.withdraw(B)
    assert store.leases.announce(A, "10.0.0.1:7700", 6) == []
    store.leases.announce(C, "10.0.0.3:7700", -1)  # lapsed: it is gone
    assert store.leases.announce(A, "10.0.0.1:7700", 6) == []


def modes(folder: Path) -> dict[str, str]:
    return {path.name: oct(path.stat().st_mode & 0o777) for path in sorted(folder.iterdir())}


def test_the_database_file_its_wal_and_shared_memory_are_its_owner_s_alone(tmp_path):
    made = tmp_path / "new"
    made.mkdir()
    store = Store.open(str(made / "server.db"))
    account(store, "Ann")  # a write: the WAL and the shared memory are there
    assert modes(made) == dict.fromkeys(["server.db", "server.db-shm", "server.db-wal"], "0o600")
    store.close()
    # A database made before, readable by everyone, is made its owner's alone.
    before = tmp_path / "before"
    before.mkdir()
    old = sqlite3.connect(before / "server.db")  # made under the test's umask
    old.execute("PRAGMA journal_mode=WAL")
    old.execute("CREATE TABLE t (x)")
    os.chmod(before / "server.db", 0o644)
    for name in ("server.db-wal", "server.db-shm"):
        os.chmod(before / name, 0o644)
    store = Store.open(str(before / "server.db"))
    account(store, "Bob")
    assert modes(before) == dict.fromkeys(["server.db", "server.db-shm", "server.db-wal"], "0o600")
    store.close()
    old.close()
