"""Opening and closing a hosted table (issue 57), with real hosts on loopback: the table file
keeps the address and port and --resume uses them, a table closed mid-game tells every
client in words and ends their reconnecting, a host that cannot listen leaves nothing
behind, and Ctrl+C ends a headless bot with one line."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess

from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.hosting import CLOSED_MIDGAME
from karavan_net.protocol import Refused, Welcome
from karavan_net.storage import TableFile
from karavan_tui import cli

from .helpers import CODE, Raw, hosting, joined, new_match, until
from .test_commands import start


async def test_closing_a_table_mid_game_tells_every_client_and_ends_their_reconnecting():
    match = new_match("karakum", "Ann,Bob,Cid", first=0)
    async with hosting(match) as (_table, server):
        ann = await joined(server.port, "Ann")
        said: list[str] = []
        client = TableClient("127.0.0.1", server.port, CODE, "Bob")
        await client.join()
        bob = BotPlayer(client, "random", seed=1, out=said.append)
        playing = asyncio.ensure_future(bob.play())
        old = await Raw.hello(server.port, "Cid", minor=0)  # an older Karavan
        assert isinstance(await old.next(), Welcome)
        await until(lambda: len(server.connections) == 3)
        await server.stop(CLOSED_MIDGAME, "closed")
        assert await asyncio.wait_for(playing, 10) == 0  # a bot lent from afar ends well...
        assert said == [CLOSED_MIDGAME]  # ... with the host's words
        await until(lambda: ann.heard.closings != [])
        assert ann.heard.closings == [CLOSED_MIDGAME] and ann.heard.connections == []
        assert ann.closed_why == "closed"
        while not isinstance(message := await old.next(), Refused):
            pass
        assert message.reason == CLOSED_MIDGAME  # the older client is refused in words
        await old.close()


def listening_socket() -> tuple[socket.socket, int]:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    return taken, taken.getsockname()[1]


def test_a_host_that_cannot_listen_leaves_nothing_behind(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("KARAVAN_SETTINGS", str(tmp_path / "settings.json"))
    taken, port = listening_socket()
    saves = tmp_path / "saves"
    with taken:
        for mode in (["--headless"], []):
            status = cli.main(["host", "jaipur", "--players", "Ann,Bob", "--port", str(port),
                               "--saves", str(saves), *mode])  # fmt: skip
            assert status == 2
            assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert list(saves.iterdir()) == []


def test_the_table_file_keeps_its_address_and_resume_serves_there_again(tmp_path):
    port = str(listening_socket()[1])  # free again once the socket is gone
    host = start("host", "jaipur", "--players", "Ann,Bob", "--headless", "--port", port,
                 "--away-limit", "60", "--saves", "saves", cwd=tmp_path)  # fmt: skip
    assert host.stdout is not None
    lines = [host.stdout.readline() for _ in range(5)]
    save = lines[-1].split("Saving to ", 1)[1].split(" (", 1)[0]
    assert f"(karavan host --resume {save} reopens the table at 127.0.0.1:{port})." in lines[-1]
    host.send_signal(signal.SIGINT)
    rest = host.communicate(timeout=30)[0]
    assert host.returncode == 0, rest
    assert f"Stopped. karavan host --resume {save} reopens the table at 127.0.0.1:{port}." in rest
    kept = TableFile.read(tmp_path / save)
    assert kept is not None and (kept.settings.bind, kept.settings.port) == ("127.0.0.1", int(port))
    assert kept.settings.away_limit == 60
    data = json.loads(TableFile.path_for(tmp_path / save).read_text())
    assert data["settings"]["port"] == int(port)
    again = start("host", "--resume", save, "--headless", "--saves", "saves", cwd=tmp_path)
    try:
        assert again.stdout is not None
        first = again.stdout.readline()
        assert f"at 127.0.0.1:{port} (table code {kept.code})" in first, first
    finally:
        again.send_signal(signal.SIGINT)
        again.communicate(timeout=30)


def signal_masks(pid: int) -> str:
    """The signals process ``pid`` blocks, ignores and catches (bit 1 is SIGINT), from
    /proc: a bot that does not end on SIGINT is told apart from one that never saw it."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return " ".join(
            line.strip() for line in status if line.startswith(("SigBlk", "SigIgn", "SigCgt"))
        )


def test_ctrl_c_ends_a_headless_bot_with_one_line(tmp_path):
    host = start("host", "jaipur", "--players", "Ann,Bob", "--headless", "--port", "0",
                 "--code", "ctrl-c-test", "--saves", "saves", cwd=tmp_path)  # fmt: skip
    assert host.stdout is not None
    first = host.stdout.readline()
    port = first.split(" at 127.0.0.1:", 1)[1].split(" ", 1)[0]
    bot = start("join", f"127.0.0.1:{port}", "ctrl-c-test", "--name", "Ann", "--bot", "random",
                cwd=tmp_path)  # fmt: skip
    try:
        assert bot.stdout is not None
        assert bot.stdout.readline().startswith("Playing Ann's seat")  # Bob is not there yet
        handled = signal_masks(bot.pid)  # how the bot takes SIGINT, said if it never ends
        bot.send_signal(signal.SIGINT)
        try:
            out = bot.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"the bot did not end on SIGINT; as it was sent: {handled}"
            ) from None
        assert bot.returncode == 130
        assert out == "Stopped: Ann left the table.\n", out
    finally:
        bot.kill()
        host.send_signal(signal.SIGINT)
        host.communicate(timeout=30)
