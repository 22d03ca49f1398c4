"""A timed table of a server on loopback tells every seat and watcher the clocks: the deadline
of the seat to move (as the server keeps it) and each person's bank; a stand-in's decision
for a player whose time ran out is said in everyone's log."""

from __future__ import annotations

import asyncio
from datetime import datetime
from functools import partial

from karavan_net.clocks import Clock, ClockKind
from karavan_net.protocol import NOTICE_TIME, Update, decode_host, encode
from tests.net.helpers import until

from .at_table import Heard, at_table, decide_once, heard_by_all, quick_table
from .test_play_online import account, seat_client, serving

BANK = 300


def times(update: Update) -> dict[int, tuple[float, str | None]]:
    assert update.clock is not None
    return {t.seat: (t.bank, t.deadline) for t in update.clock.seats}


async def test_each_update_carries_the_deadline_of_the_seat_to_move_and_every_bank(database):
    async with (
        serving(database) as server,
        at_table(
            server, "jaipur", ["Ann", "Bob"], clock="live", move_seconds=60, bank_seconds=BANK
        ) as seated,
    ):
        table = server.served[seated.table]
        cid = await account(server.port, "Cid")
        watcher = seat_client(server.port, seated.table, "Cid", watch=True)
        watching = Heard()
        await watcher.join()
        reading = asyncio.get_running_loop().create_task(watcher.run(watching))
        try:
            await heard_by_all(seated, lambda u: u.clock is not None)
            await until(lambda: bool(watching.updates))
            first = table.match.to_move
            assert first is not None
            # The welcome told the server's time: our clock and the database's agree here.
            for client in [p.client for p in seated.players] + [watcher]:
                assert client.welcome is not None and client.welcome.now
                assert abs(client.skew) < 5
            kept = table.clocks.seats[first].deadline
            assert kept is not None
            for update in [p.heard.last for p in seated.players] + [watching.last]:
                assert update.clock is not None
                assert (update.clock.kind, update.clock.move_seconds) == ("live", 60)
                told = times(update)
                assert told[first] == (BANK, kept.isoformat())  # the stored deadline itself
                assert told[1 - first] == (BANK, None)  # the other: its bank alone
                assert datetime.fromisoformat(told[first][1] or "").utcoffset() is not None
            # The turn passes: the next seat has a deadline, the first one none.
            await decide_once(server, seated)
            await heard_by_all(seated, lambda u: times(u)[1 - first][1] is not None)
            told = times(seated.players[0].heard.last)
            assert told[first][1] is None and 0 <= told[first][0] <= BANK
            # The watcher is sent the same clocks.
            await until(lambda: any(u.clock and times(u) == told for u in watching.updates))
        finally:
            reading.cancel()
            await watcher.close()
            await cid.close()


def in_log(heard: Heard, words: str) -> bool:
    return any(words in line for update in heard.updates for line in update.log)


async def test_an_older_client_is_sent_no_clock():
    from karavan_net.protocol import SeatTime, TableClock

    clock = TableClock("live", 30, 300, (SeatTime(0, 300.0, "2026-01-01T00:00:00+00:00"),))
    update = Update(
        number=1,
        to_move=0,
        observation={},
        legal=[],
        scores=[0, 0],
        seats=[],
        log_start=0,
        log=[],
        clock=clock,
        notice="Ann's time ran out.",
        notice_about=NOTICE_TIME,
    )
    assert "clock" not in encode(update, 5) and "notice_about" not in encode(update, 5)
    again = decode_host(encode(update))
    assert isinstance(again, Update) and again.clock == clock
    assert again.notice_about == NOTICE_TIME


async def test_a_time_out_is_said_in_everyones_log_and_its_notice_is_about_time(database):
    async with serving(database) as server:
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        # A clock far quicker than the lobby offers.
        table = quick_table(server, Clock(kind=ClockKind.LIVE, move_seconds=2, bank_seconds=0))
        heard = {name: Heard() for name in ("Ann", "Bob")}
        clients = {name: seat_client(port, table, name) for name in heard}
        readers = []
        for name, client in clients.items():
            await client.join()
            readers.append(asyncio.get_running_loop().create_task(client.run(heard[name])))
        try:
            served = server.served[table]
            late = ("Ann", "Bob")[served.match.to_move or 0]
            said = f"(A bot decided for {late}: their time ran out.)"
            for name in heard:
                await until(partial(in_log, heard[name], said), 30)
                timed_out = [u for u in heard[name].updates if u.notice_about == NOTICE_TIME]
                assert timed_out and "time ran out" in (timed_out[0].notice or "")
        finally:
            for reader in readers:
                reader.cancel()
            for client in clients.values():
                await client.close()
            await ann.close()
            await bob.close()


async def test_a_stand_ins_words_in_the_log_outlast_the_process_that_made_them(database):
    """The words were kept in the process's memory alone: a restart, or another process
    taking the table over, showed the log without them.  They are kept with the game."""
    async with serving(database) as server:
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        table = quick_table(server, Clock(kind=ClockKind.LIVE, move_seconds=2, bank_seconds=0))
        clients = [seat_client(port, table, name) for name in ("Ann", "Bob")]
        for client in clients:
            await client.join()
        await until(lambda: server.store.tables.get(table).log_marks != (), 30)
        kept = server.store.tables.get(table).log_marks
        for client in clients:
            await client.close()
        await ann.close()
        await bob.close()
    _, words = kept[0]
    assert words.startswith("(A bot decided for ") and words.endswith(": their time ran out.)")
    async with serving(database) as again:
        client = seat_client(again.port, table, "Ann")
        await client.join()
        heard = Heard()
        reading = asyncio.get_running_loop().create_task(client.run(heard))
        try:
            await until(lambda: in_log(heard, words), 30)
        finally:
            reading.cancel()
            await client.close()
