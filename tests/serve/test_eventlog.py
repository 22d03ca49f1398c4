"""The server's log: each event a plain sentence, or one JSON object with its kind and fields."""

from __future__ import annotations

import io
import json

from karavan_net.serve.eventlog import EventLog, LineWriter


def test_a_plain_log_says_the_sentence_and_a_json_log_the_event_with_its_fields():
    plain: list[str] = []
    structured: list[str] = []
    for lines, as_json in ((plain, False), (structured, True)):
        log = EventLog(lines.append, json=as_json)
        log.event("table_opened", "Ann opened table 3 (jaipur).", table=3, account="Ann")
        log.about_table(3)("Bob\x1b[2J joined.")
    assert plain == ["Ann opened table 3 (jaipur).", "Table 3: Bob\\x1b[2J joined."]
    opened, joined = (json.loads(line) for line in structured)
    assert opened["event"] == "table_opened" and opened["level"] == "info"
    assert (opened["table"], opened["account"]) == (3, "Ann")
    assert opened["message"] == "Ann opened table 3 (jaipur)." and "time" in opened
    assert (joined["event"], joined["table"]) == ("table", 3)
    assert joined["message"] == plain[1]  # what comes from outside is shown escaped


def test_the_line_writer_writes_every_line_in_order_on_its_own_thread():
    out = io.StringIO()
    writer = LineWriter(out)
    for number in range(100):
        writer(f"line {number}")
    writer.close()
    assert out.getvalue().splitlines() == [f"line {number}" for number in range(100)]


async def test_the_server_says_once_who_takes_a_seat_and_when_a_game_starts(tmp_path):
    from karavan_net.lobby import CreateTable, SeatAsk
    from karavan_net.serve.server import KaravanServer
    from karavan_net.serve.store import Store

    from .test_play_online import account, seat_client

    lines: list[str] = []
    store = Store.open(str(tmp_path / "server.db"))
    server = KaravanServer(store, bot_delay=0.0, log=EventLog(lines.append))
    port = await server.start("127.0.0.1", 0)
    try:
        ann, bob = await account(port, "Ann"), await account(port, "bob")
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        against = [SeatAsk("open"), SeatAsk("bot", level="greedy")]
        await ann.create(CreateTable("karawane", against))
        for name in ("Ann", "bob"):  # at the table: no second word of its start
            client = seat_client(port, made.table, name)
            await client.join()
            await client.close()
        await ann.close()
        await bob.close()
    finally:
        await server.stop()
        store.close()
    said = [line for line in lines if "seat" in line or "starts" in line]
    assert said == [
        "bob took seat 2 at table 1 (Jaipur).",
        "Table 1 (Jaipur) starts: Ann and bob play.",
        "Table 2 (Karawane) starts: Ann and a greedy bot play.",
    ], lines
