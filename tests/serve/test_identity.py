"""A server's identity on loopback: made once for all its processes, proven before any
secret goes, and pinned by its players' clients; a program listening where a process of
the server was never receives a player's secret, whatever it answers."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import WSMsgType, web

from karavan_net.client import HostUnreachable, JoinRefused
from karavan_net.identity import ServerIdentity
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient, LobbyRefusedError
from karavan_net.protocol import Challenge, Refused, decode_host, encode
from karavan_net.serve import server as serve_module
from karavan_net.serve.server import KaravanServer
from karavan_net.serve.store import Store
from tests.net.helpers import free_port, until

from .test_play_online import SECRET, _Collect, account, serving


class Impostor:
    """A program listening on loopback, as one might where a process of a server was.

    It notes every request and message it is sent (``heard``), and answers a challenge as
    ``answer`` says: ``"close"`` (no proof), ``"own"`` (a proof with a key of its own),
    ``"relay"`` (the proof of the real process at ``real``, passed on) or ``"older"``
    (refused as a server of an older Karavan would).
    """

    def __init__(self, answer: str, real: int = 0, port: int = 0) -> None:
        self.answer, self.real, self.port = answer, real, port
        self.heard: list[str] = []
        self.identity = ServerIdentity.new()
        self._runner: web.AppRunner | None = None

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/{path}", self.handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def got(self, secret: str) -> bool:
        return any(secret in text for text in self.heard)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.heard.append(f"{request.method} {request.path_qs} {dict(request.headers)}")
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        async for message in ws:
            self.heard.append(str(message.data))
            if message.type == WSMsgType.TEXT and '"Challenge"' in message.data:
                if not await self._answer(ws, request.path, message.data):
                    break
            else:  # what comes after a challenge is the secret: noted, and no more
                await ws.close()
        return ws

    async def _answer(self, ws: web.WebSocketResponse, path: str, challenge: str) -> bool:
        if self.answer == "own":
            nonce = json.loads(challenge)["nonce"]
            proof = self.identity.prove(Challenge(nonce), self.address, [self.address])
            await ws.send_str(encode(proof))
        elif self.answer == "relay":
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(f"ws://127.0.0.1:{self.real}{path}") as real,
            ):
                await real.send_str(challenge)
                await ws.send_str((await real.receive()).data)
        elif self.answer == "older":
            words = "That message is not one of the lobby protocol's. The first message is a Login."
            await ws.send_str(json.dumps({"type": "LobbyRefused", "reason": words}))
            await ws.close()
            return False
        else:
            await ws.send_str(encode(Refused("No.")))
            await ws.close()
            return False
        return True


@contextlib.asynccontextmanager
async def impostor(answer: str, real: int = 0, port: int = 0) -> AsyncIterator[Impostor]:
    program = Impostor(answer, real, port)
    await program.start()
    try:
        yield program
    finally:
        await program.stop()


async def table_of(port: int) -> tuple[LobbyClient, LobbyClient, int]:
    """Ann and Bob, logged in at ``port``, seated at a new table of two."""
    ann, bob = await account(port, "Ann"), await account(port, "Bob")
    made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
    await bob.take(made.table)
    return ann, bob, made.table


async def test_every_process_of_one_database_has_one_identity_made_once(database):
    stores = [Store.open(database) for _ in range(2)]
    servers = [KaravanServer(store) for store in stores]
    try:
        for server in servers:
            await server.start("127.0.0.1", 0)
        [one, other] = [server.identity for server in servers]
        assert one is not None and other is not None
        assert one.fingerprint == other.fingerprint
        ann = await account(servers[1].port, "Ann")
        assert ann.identity == one.fingerprint  # proven at login
        assert servers[1].address in ann.processes
        await servers[1].stop()
        again = KaravanServer(stores[1])  # a restart keeps it
        await again.start("127.0.0.1", 0)
        assert again.identity is not None and again.identity.fingerprint == one.fingerprint
        servers[1] = again
        await ann.close()
    finally:
        for server in servers:
            await server.stop()
        for store in stores:
            store.close()


@pytest.mark.parametrize("answer", ["close", "own", "relay"])
async def test_a_moved_to_an_announced_address_that_cannot_prove_gets_no_secret(tmp_path, answer):
    async with serving(tmp_path / "server.db") as server:
        ann, bob, table = await table_of(server.port)
        async with impostor(answer, real=server.port) as fake:
            # The program's address is announced as a process of the server, and runs the
            # table (as a dead process's old port would be, with a lease still running).
            server.store.leases.announce("ghost", fake.address, 600)
            server.store.leases.take(table, "ghost", fake.address, 600)
            await until(lambda: fake.address in server.processes(), 30)
            client = ann.table(table)
            with pytest.raises(HostUnreachable, match="no secret"):
                await client.join()
            assert any('"Challenge"' in text for text in fake.heard)  # it was asked...
            assert not fake.got(f"Ann-{SECRET}")  # ... and never told the key
        await ann.close()
        await bob.close()


async def test_a_moved_to_an_address_never_announced_is_not_followed(tmp_path):
    async with serving(tmp_path / "server.db") as server:
        ann, bob, table = await table_of(server.port)
        async with impostor("own") as fake:
            server.store.leases.take(table, "ghost", fake.address, 600)
            client = ann.table(table)
            with pytest.raises(JoinRefused, match="never announced: not followed"):
                await client.join()
            assert fake.heard == []  # not even a connection
        await ann.close()
        await bob.close()


async def test_going_round_the_processes_after_a_drop_sends_no_secret_to_an_impostor(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(serve_module, "RENEW_SECONDS", 0.2)
    async with serving(tmp_path / "server.db") as server, impostor("relay") as fake:
        ann, bob, table = await table_of(server.port)
        fake.real = server.port
        server.store.leases.announce("ghost", fake.address, 600)
        await until(lambda: fake.address in server.processes(), 30)
        client = ann.table(table)
        await client.join()
        assert (fake.address.split(":")[0], fake.port) in client.peers
        playing = asyncio.get_running_loop().create_task(client.run(_Collect([])))
        await ann.close()
        await bob.close()
        await server.stop()  # the process is gone: the client goes round the others
        await until(lambda: sum('"Challenge"' in text for text in fake.heard) >= 2, 30)
        assert not fake.got(f"Ann-{SECRET}")
        await client.close()
        playing.cancel()


async def test_a_server_whose_identity_changed_is_refused_and_told_no_secret(tmp_path):
    port = free_port()
    async with serving(tmp_path / "one.db", port) as server:
        ann = await account(port, "Ann")
        pinned = ann.identity
        assert pinned == server.identity.fingerprint
        await ann.close()
    again = LobbyClient("127.0.0.1", port, "Ann", f"Ann-{SECRET}", identity=pinned)
    async with serving(tmp_path / "other.db", port):  # another server at the same address
        with pytest.raises(LobbyRefusedError, match="another identity than the server you know"):
            await again.connect()
    async with impostor("own", port=port) as fake:
        with pytest.raises(LobbyRefusedError, match="another identity"):
            await again.connect()
        assert not fake.got(f"Ann-{SECRET}")


async def test_a_server_older_than_the_proof_is_met_as_before_unless_its_identity_is_pinned():
    async with impostor("older") as fake:
        pinned = LobbyClient("127.0.0.1", fake.port, "Ann", "a" * 43, identity="SHA256:" + "x" * 43)
        with pytest.raises(LobbyRefusedError, match="did not prove"):
            await pinned.connect()
        assert not fake.got("a" * 43)
        fresh = LobbyClient("127.0.0.1", fake.port, "Ann", "a" * 43)
        with pytest.raises(HostUnreachable):  # this program goes no further than a refusal
            await fresh.connect()
        assert fake.got("a" * 43)  # the login went, as it went to older servers before


async def test_older_clients_are_answered_in_the_shapes_they_know(tmp_path):
    async with serving(tmp_path / "server.db") as server:
        ann, bob, table = await table_of(server.port)
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"ws://127.0.0.1:{server.port}/lobby") as ws:
                login = {"type": "Login", "protocol": 3, "name": "Ann", "secret": f"Ann-{SECRET}"}
                await ws.send_str(json.dumps(login))
                logged_in = json.loads((await ws.receive()).data)
                assert logged_in["type"] == "LoggedIn" and "identity" not in logged_in
            async with session.ws_connect(f"ws://127.0.0.1:{server.port}/table") as ws:
                hello = {"type": "Hello", "protocol": 3, "code": str(table), "name": "Ann"}
                hello |= {"secret": f"Ann-{SECRET}", "minor": 3}
                await ws.send_str(json.dumps(hello))
                welcome = json.loads((await ws.receive()).data)
                assert welcome["type"] == "Welcome" and "identity" not in welcome
            async with session.ws_connect(f"ws://127.0.0.1:{server.port}/table") as ws:
                hello["minor"] = 4
                await ws.send_str(json.dumps(hello))
                welcome = decode_host((await ws.receive()).data)
                assert welcome.identity == server.identity.fingerprint
        await ann.close()
        await bob.close()
