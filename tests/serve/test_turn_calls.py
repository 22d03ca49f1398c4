"""Players of turn-based tables called on their web hooks: a real HTTP receiver on loopback
(which the server calls only when its operator allows private addresses), the words, the
reminder once less than a tenth of the time is left, and the addresses never called."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from aiohttp import web
from sqlalchemy import update

from karavan_net.lobby import CreateTable, NotifyAddress, NotifyingAt, SeatAsk
from karavan_net.lobby_client import LobbyDeclinedError
from karavan_net.serve.metrics import ServerMetrics
from karavan_net.serve.notifier import checked_url, is_public, payload
from karavan_net.serve.schema import TableSeat

from .test_play_online import account, seat_client, serving
from .test_table_chat import until


class Receiver:
    """An HTTP server on loopback that keeps every POST it is sent: its path, type and body."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, str]] = []
        self.port = 0

    async def _take(self, request: web.Request) -> web.Response:
        self.calls.append((request.path, request.content_type, await request.text()))
        return web.Response(text="ok")

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Receiver]:
        app = web.Application()
        app.router.add_post("/{hook}", self._take)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.port = runner.addresses[0][1]
        try:
            yield self
        finally:
            await runner.cleanup()

    def url(self, hook: str) -> str:
        return f"http://127.0.0.1:{self.port}/{hook}"

    def texts(self, hook: str) -> list[str]:
        return [text for path, _, text in self.calls if path == f"/{hook}"]


def counted(metrics: ServerMetrics, outcome: str) -> float:
    value = metrics.registry.get_sample_value("karavan_notifications_total", {"outcome": outcome})
    return value or 0.0


async def test_a_turn_based_table_calls_the_player_it_waits_for_on_their_web_hook(database):
    metrics = ServerMetrics()
    receiver = Receiver()
    async with (
        receiver.running(),
        serving(database, notify_private=True, metrics=metrics) as server,
    ):
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        for client, hook in ((ann, "ann"), (bob, "bob")):
            told = await client.ask(NotifyAddress(receiver.url(hook)))
            assert told == NotifyingAt(receiver.url(hook))
        assert await ann.ask(NotifyAddress()) == NotifyingAt(receiver.url("ann"))
        ask = CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")], "turn", 86400)
        made = await ann.create(ask)
        await bob.take(made.table)
        first = server.store.tables.get(made.table).to_move
        names = ("ann", "bob")
        waited = f"Your turn at table {made.table} (Jaipur) — 23 h left"
        await until(lambda: receiver.texts(names[first]) == [waited], f"{receiver.calls}")
        # The player decides (at the table, so not called meanwhile): the other one is called.
        client = seat_client(port, made.table, names[first].capitalize())
        await client.join()
        update_now = client.update
        assert update_now is not None
        await client.decide(client.action(update_now.legal[0].action))
        other = names[1 - first]
        await until(lambda: receiver.texts(other) == [waited], f"{receiver.calls}")
        await client.close()
        # Less than a tenth of the day left (as if 21 h had gone by since the call): called
        # once more, and only once.
        soon = server.clock.now() + timedelta(hours=2, minutes=15)
        with server.store.sessions.begin() as session:
            session.execute(
                update(TableSeat)
                .where(TableSeat.table_id == made.table, TableSeat.seat == 1 - first)
                .values(deadline=soon, turn_told=soon)
            )
        reminded = waited.replace("23 h left", "2 h left: less than a tenth of your time.")
        await until(lambda: len(receiver.texts(other)) == 2, f"{receiver.calls}")
        assert receiver.texts(other)[1] == reminded
        assert await server.db(server.store.calls.due) == []  # nothing more is owed
        assert len(receiver.calls) == 3
        assert {kind for _, kind, _ in receiver.calls} == {"text/plain"}
        assert counted(metrics, "sent") == 3
        await ann.close()
        await bob.close()


async def test_no_private_address_is_called_unless_the_operator_allows_it(database):
    metrics = ServerMetrics()
    receiver = Receiver()
    async with receiver.running(), serving(database, metrics=metrics) as server:
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        for written in (receiver.url("ann"), "http://[::1]:80/x", "http://localhost:1/x"):
            with pytest.raises(LobbyDeclinedError, match="no private or local address"):
                await ann.ask(NotifyAddress(written))
        with pytest.raises(LobbyDeclinedError, match="http:// or https://"):
            await ann.ask(NotifyAddress("file:///etc/passwd"))
        assert await ann.ask(NotifyAddress()) == NotifyingAt("")
        # A name that leads to this machine, kept all the same (as if it had changed since):
        # the call finds no public address for it and is never made.
        for name in ("Ann", "Bob"):
            found = server.store.accounts.named(name)
            assert found is not None
            hook = f"http://localhost:{receiver.port}/{name.lower()}"
            server.store.accounts.set_notify_url(found.id, hook)
        ask = CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")], "turn", 86400)
        made = await ann.create(ask)
        await bob.take(made.table)
        deadline = time.monotonic() + 30
        while counted(metrics, "refused") < 1:
            assert time.monotonic() < deadline, "the call was not refused"
            await asyncio.sleep(0.05)
        assert receiver.calls == []
        assert counted(metrics, "sent") == 0
        await ann.close()
        await bob.close()


def test_a_web_hook_is_an_http_address_of_the_public_internet():
    assert checked_url(" https://ntfy.sh/karavan-ann ") == "https://ntfy.sh/karavan-ann"
    for private in ("10.0.0.1", "192.168.1.2", "169.254.169.254", "100.64.0.1", "::1"):
        assert not is_public(private)
    assert not is_public("::ffff:127.0.0.1") and is_public("93.184.216.34")
    bad = ("ftp://x.org/", "https://", "https://a b.org/", "https://x.org/\x1b", "h" * 600)
    for text in bad:
        with pytest.raises(ValueError):
            checked_url(text)
    with pytest.raises(ValueError, match="private"):
        checked_url("http://192.168.1.10:8080/hook")
    assert checked_url("http://192.168.1.10/hook", allow_private=True)


def test_each_kind_of_hook_gets_the_body_it_reads():
    words = "Your turn at table 12 (Karakum) — 23 h left"
    assert payload("https://ntfy.sh/topic", words) == (
        words.encode(),
        {"Content-Type": "text/plain; charset=utf-8", "Title": "Karavan"},
    )
    body, headers = payload("https://gotify.example/message?token=x", words)
    assert headers["Content-Type"] == "application/json" and b'"message"' in body
    body, _ = payload("https://hooks.slack.com/services/T/B/X", words)
    assert body == '{"text":"Your turn at table 12 (Karakum) — 23 h left"}'.encode()
    body, _ = payload("https://matrix.example/webhook/abc", words)
    assert body.startswith(b'{"text":')
    body, _ = payload("https://discord.com/api/webhooks/1/x", words)
    assert body.startswith(b'{"content":')
