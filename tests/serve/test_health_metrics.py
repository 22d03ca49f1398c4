"""A server says how it is: ``/health`` (200 when well, 503 when its database is gone) and
``/metrics`` in Prometheus's text format, counting what its tables do."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, event

from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.serve import server as serve_module
from karavan_net.serve.health import DatabaseCheck
from karavan_net.serve.metrics import ServerMetrics

from .faults import faulty_server, until
from .test_play_online import account, greedy, seat_client


async def fetch(port: int, path: str) -> tuple[int, str]:
    """The status and text of ``GET path`` on the server at ``port``."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


def measures(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a ``/metrics`` page by name and labels, read by Prometheus's parser."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def metrics_of(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    status, text = await fetch(port, "/metrics")
    assert status == 200
    return measures(text)


async def test_health_says_the_server_is_well_and_not_while_its_database_is_gone(database):
    async with faulty_server(database) as (server, faults, _):
        status, text = await fetch(server.port, "/health")
        well = json.loads(text)
        assert status == 200 and well["healthy"] and well["database"]["reachable"]
        assert set(well["loops"]) == {"heartbeat", "leases", "calls"}
        assert all(loop["alive"] and loop["healthy"] for loop in well["loops"].values())
        assert well["leases"]["renewal_age"] < serve_module.LEASE_SECONDS
        assert (well["tables"], well["lobby_connections"], well["table_connections"]) == (0, 0, 0)
        faults.down = True
        status, text = await fetch(server.port, "/health")
        gone = json.loads(text)
        assert status == 503 and not gone["healthy"] and not gone["database"]["reachable"]
        faults.down = False
        status, _ = await fetch(server.port, "/health")
        assert status == 200


async def test_metrics_count_the_decisions_played_in_prometheus_s_text_format(
    database, monkeypatch
):
    monkeypatch.setattr(serve_module, "RENEW_SECONDS", 0.2)
    async with faulty_server(database) as (server, _, _):
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        clients = [seat_client(port, made.table, name) for name in ("Ann", "Bob")]
        for client in clients:
            await client.join()
        before = await metrics_of(port)
        assert before[("karavan_tables_loaded", ())] == 1
        assert before[("karavan_connections", (("kind", "lobby"),))] == 2
        assert before[("karavan_connections", (("kind", "table"),))] == 2
        players = [greedy(client, seed) for seed, client in enumerate(clients)]
        assert await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120) == [0, 0]
        after = await metrics_of(port)
        began = time.monotonic()
        played = after[("karavan_decisions_total", ())] - before[("karavan_decisions_total", ())]
        assert played >= 10
        answers = after[("karavan_update_latency_seconds_count", ())]
        assert answers >= played / 2  # each player's decisions, each answered by an update
        assert after[("karavan_commit_batch_size_count", ())] >= 1
        assert after[("karavan_commit_seconds_count", ())] >= 1
        renewals = after[("karavan_lease_renewals_total", ())]
        await until(lambda: server.upkeep.renewed > began, what="a renewal")
        renewed = await metrics_of(port)
        assert renewed[("karavan_lease_renewals_total", ())] > renewals
        assert renewed[("karavan_lease_renewal_failures_total", ())] == 0
        await ann.close()
        await bob.close()


def test_each_server_s_measures_are_its_own():
    first, second = ServerMetrics(), ServerMetrics()  # one registry each: no clash
    first.committed(3, 3, 0.01)
    assert measures(first.text().decode())[("karavan_decisions_total", ())] == 3
    assert measures(second.text().decode())[("karavan_decisions_total", ())] == 0


async def test_a_database_that_does_not_answer_in_time_is_unreachable(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'slow.db'}")
    slow = threading.Event()

    def hang(*_: object) -> None:
        if slow.is_set():
            time.sleep(1.0)

    event.listen(engine, "before_cursor_execute", hang)

    check = DatabaseCheck(engine, timeout=0.2)
    assert await check.seconds() is not None
    slow.set()
    began = time.monotonic()
    assert await check.seconds() is None  # no answer within the time limit
    assert await check.seconds() is None  # nor asked again while the question hangs
    assert time.monotonic() - began < 0.9
    check.close()
    engine.dispose()
