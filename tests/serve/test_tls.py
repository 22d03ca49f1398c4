"""TLS on loopback with a certificate made in the test: a game played over wss:// with the
certificate checked by the CA given, a client without that CA refused in words before it
sends anything, and a host's table served over TLS too."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

import pytest
import trustme

from karavan_net.accounts import Account
from karavan_net.client import HostUnreachable, TableClient
from karavan_net.host import host_for
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.serve.store import Status
from karavan_net.server import HostServer
from karavan_net.tls import client_context, server_context
from tests.net.helpers import CODE, free_port, new_match

from .test_play_online import SECRET, greedy, serving
from .test_serve_command import KARAVAN


@pytest.fixture
def certificate(tmp_path) -> tuple[Path, Path, Path]:
    """A CA of the test's own and a certificate it signed for 127.0.0.1: the CA's file,
    the certificate's chain and its key."""
    ca = trustme.CA()
    issued = ca.issue_cert("127.0.0.1", "localhost")
    ca_file, chain, key = tmp_path / "ca.pem", tmp_path / "chain.pem", tmp_path / "key.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    for blob in issued.cert_chain_pems:
        blob.write_to_path(str(chain), append=True)
    issued.private_key_pem.write_to_path(str(key))
    return ca_file, chain, key


def serving_tls(path: Path, chain: Path, key: Path):
    return serving(path, tls=server_context(chain, key))


def player(port: int, name: str, ca: Path | None) -> LobbyClient:
    return LobbyClient.for_account(Account(f"wss://127.0.0.1:{port}", name, f"{name}-{SECRET}"), ca)


async def test_a_whole_game_is_played_over_wss_with_the_certificate_checked(tmp_path, certificate):
    ca, chain, key = certificate
    async with serving_tls(tmp_path / "server.db", chain, key) as server:
        ann, bob = player(server.port, "Ann", ca), player(server.port, "Bob", ca)
        await ann.connect(create=True)
        await bob.connect(create=True)
        assert ann.address == f"wss://127.0.0.1:{server.port}" and ann.identity
        made = await ann.create(CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        await bob.take(made.table)
        clients = [ann.table(made.table), bob.table(made.table)]
        for client in clients:
            await client.join()
            assert client.address.startswith("wss://")
        players = [greedy(client, seed) for seed, client in enumerate(clients)]
        assert await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120) == [0, 0]
        [over] = (await ann.mine(over=True)).tables
        assert over.status == Status.OVER.value
        await ann.close()
        await bob.close()


async def test_a_client_that_cannot_check_the_certificate_is_refused_in_words(
    tmp_path, certificate
):
    _ca, chain, key = certificate
    async with serving_tls(tmp_path / "server.db", chain, key) as server:
        stranger = player(server.port, "Ann", None)  # the system's CAs know no such CA
        with pytest.raises(HostUnreachable, match="TLS certificate that does not check"):
            await stranger.connect(create=True)
        table = TableClient("127.0.0.1", server.port, "1", "Ann", tls=client_context())
        with pytest.raises(HostUnreachable, match=r"does not check.*--tls-ca FILE"):
            await table.join()
        plain = LobbyClient("127.0.0.1", server.port, "Ann", f"Ann-{SECRET}")  # ws:// to TLS
        with pytest.raises(HostUnreachable, match="No Karavan server answers"):
            await plain.connect(create=True)
        with pytest.raises(ValueError, match="cannot read the CA file"):
            client_context(tmp_path / "missing.pem")


async def test_a_hosted_table_is_joined_over_wss(certificate):
    ca, chain, key = certificate
    table = host_for(new_match("jaipur", "Ann,Bob", first=0), CODE, bot_delay=0.0)
    server = HostServer([table], tls=server_context(chain, key))
    port = await server.start("127.0.0.1", 0)
    try:
        clients = [
            TableClient("127.0.0.1", port, CODE, name, tls=client_context(ca))
            for name in ("Ann", "Bob")
        ]
        for client in clients:
            await client.join()
        assert table.seat_infos()[1].status == "here"
        for client in clients:
            await client.close()
    finally:
        await server.stop()


def test_the_tls_options_go_together_and_are_checked(tmp_path, certificate, capsys):
    from karavan_tui import cli

    ca, chain, _key = certificate
    database = ["--db", str(tmp_path / "server.db"), "--port", "0"]
    for options, words in (
        (["--tls-cert", str(chain)], "--tls-cert and --tls-key go together"),
        (["--tls-cert", str(chain), "--tls-key", str(ca)], "cannot use the certificate"),
    ):
        with pytest.raises(SystemExit):
            cli.main(["serve", *database, *options])
        assert words in capsys.readouterr().err
    missing = str(tmp_path / "missing.pem")
    with pytest.raises(SystemExit):
        cli.main(["join", "wss://127.0.0.1:1", "CODE", "--name", "Ann", "--tls-ca", missing])
    assert "--tls-ca: cannot read the CA file" in capsys.readouterr().err


@pytest.mark.slow
def test_a_tls_servers_ssh_door_lets_its_players_into_the_lobby(tmp_path, certificate):
    """The door's apps run on the server's machine: they reach a TLS server's lobby on a
    loopback port of its own, without TLS (the certificate names the public name)."""
    from .test_ssh_door import needs_ssh, new_key, ssh_terminal

    ssh, key = needs_ssh(), new_key(tmp_path)
    _, chain, private = certificate
    port, ssh_port = free_port(), free_port()
    server = subprocess.Popen(
        [KARAVAN, "serve", "--port", str(port), "--ssh", str(ssh_port),
         "--tls-cert", str(chain), "--tls-key", str(private),
         "--db", str(tmp_path / "server.db"), "--state", str(tmp_path / "state")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        said = [server.stdout.readline() for _ in range(5)]
        assert any(line.startswith("Players with only ssh") for line in said), said
        assert any(f"wss://127.0.0.1:{port}" in line for line in said), said
        terminal = ssh_terminal(ssh, ssh_port, key, tmp_path)
        terminal.wait_for("ann on 127.0.0.1")  # logged in: the lobby's title
        terminal.wait_for("Tables")
        terminal.kill()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
