"""Group commit: the tables' changes kept together, each told whether it was kept, on both
databases."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event

from karavan_net.serve.commits import CommitQueue
from karavan_net.serve.store import Decision, SeatClock, Store

from .stored import account, started_table


@pytest.fixture
def store(database):
    opened = Store.open(database)
    yield opened
    opened.close()


def started_tables(store: Store, count: int) -> list[int]:
    """``count`` Jaipur tables at revision 0."""
    ann = account(store, "Ann")
    return [started_table(store, ann, seed=seed) for seed in range(count)]


def change(table_id: int, after: int, **more) -> Decision:
    return Decision(
        table_id=table_id,
        after=after,
        save={"revision": after + 1},
        to_move=1,
        clocks={0: SeatClock(bank_left=20.0 + after, deadline=None, stood_in=True)},
        **more,
    )


def revision(store: Store, table_id: int) -> int:
    """The revision of the game stored for ``table_id``."""
    record = store.tables.get(table_id, with_save=False)
    assert record is not None
    return record.revision


def commits_of(store: Store) -> list[int]:
    """A list that grows by one at each commit on ``store``."""
    seen: list[int] = []
    event.listen(store.engine, "commit", lambda _: seen.append(1))
    return seen


def test_several_tables_are_kept_in_one_commit_each_told_whether_it_was_kept(store):
    first, second, third = started_tables(store, 3)
    seen = commits_of(store)
    # The second is out of date (its game is at revision 0, not 5): it alone is not kept.
    kept = store.tables.record_all([change(first, 0), change(second, 5), change(third, 0)])
    assert kept == [True, False, True] and len(seen) == 1
    for table_id, revision in ((first, 1), (second, 0), (third, 1)):
        record = store.tables.get(table_id)
        assert record is not None and record.revision == revision
    record = store.tables.get(first)
    assert record is not None and record.seats[0].bank_left == 20.0 and record.seats[0].stood_in


def test_a_change_made_without_the_tables_lease_is_not_kept(store):
    [table_id] = started_tables(store, 1)
    store.leases.take(table_id, "this process", "127.0.0.1:7700", 6)
    assert store.tables.record_all([change(table_id, 0, owner="another process")]) == [False]
    assert store.tables.record_all([change(table_id, 0, owner="this process")]) == [True]


def test_the_tables_writing_at_once_share_commits_and_every_change_is_kept(store):
    tables = started_tables(store, 20)
    queue = CommitQueue(store)
    seen = commits_of(store)
    start = threading.Barrier(len(tables))
    results: dict[int, list[bool]] = {}

    def play(table_id: int) -> None:  # a table's save writer: one change after another
        start.wait()
        results[table_id] = [queue.record(change(table_id, n)) for n in range(5)]

    writers = [threading.Thread(target=play, args=(table_id,)) for table_id in tables]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    queue.close()
    assert all(results[table_id] == [True] * 5 for table_id in tables)
    assert all(revision(store, table_id) == 5 for table_id in tables)
    assert len(seen) < len(tables) * 5  # changes that came together were committed together


def test_a_change_the_database_refuses_fails_alone(store):
    good, bad = started_tables(store, 2)
    queue = CommitQueue(store)
    refused = change(bad, 0)
    refused.save["not json"] = object()  # the database cannot keep it
    outcomes: dict[str, object] = {}
    gate = threading.Barrier(2)

    def write(name: str, decision: Decision) -> None:
        gate.wait()
        try:
            outcomes[name] = queue.record(decision)
        except Exception as error:
            outcomes[name] = error

    writers = [
        threading.Thread(target=write, args=("good", change(good, 0))),
        threading.Thread(target=write, args=("bad", refused)),
    ]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    queue.close()
    assert outcomes["good"] is True and isinstance(outcomes["bad"], Exception)
    assert revision(store, good) == 1 and revision(store, bad) == 0


def test_after_closing_a_change_is_written_at_once(store):
    [table_id] = started_tables(store, 1)
    queue = CommitQueue(store)
    queue.close()
    assert queue.record(change(table_id, 0))
    assert revision(store, table_id) == 1


def test_renewing_leases_and_keeping_changes_at_once_never_deadlock(store):
    """Both lock the tables' rows in the order of their ids, so neither waits on the other
    for ever (PostgreSQL would end one of them as a deadlock after a second)."""
    tables = started_tables(store, 12)
    for table_id in tables:
        store.leases.take(table_id, "here", "127.0.0.1:7700", 60)
    errors: list[BaseException] = []

    def renew() -> None:
        try:
            for _ in range(30):
                assert store.leases.renew("here", tables, 60) == set(tables)
        except BaseException as error:
            errors.append(error)

    renewing = threading.Thread(target=renew)
    renewing.start()
    for n in range(30):  # the changes come in the opposite order of the ids
        kept = store.tables.record_all([change(t, n, owner="here") for t in reversed(tables)])
        assert kept == [True] * len(tables)
    renewing.join()
    assert errors == []
