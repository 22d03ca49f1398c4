"""A hosted table's save: there before the first decision, and holding every decision the
players were shown, whenever the host is killed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from karavan_core.saves import load_match
from karavan_net.bot_client import BotPlayer
from karavan_net.client import TableClient
from karavan_net.host import host_for
from karavan_net.protocol import Update
from karavan_net.storage import TableFile, check_code
from karavan_tui import cli
from karavan_tui.cli import host as host_command

from .helpers import CODE, bot, free_port, hosting, new_match


def saved_revision(path: Path) -> int:
    """The table revision the save on disk holds."""
    revision: int = json.loads(path.read_text())["revision"]
    return revision


def test_the_save_a_host_names_is_on_disk_before_the_first_decision(tmp_path):
    save = tmp_path / "karakum.json"
    table = host_for(new_match("karakum", "Ann,Bob"), CODE, save_path=save)
    assert save.exists() and saved_revision(save) == table.number == 0
    assert load_match(save).history == []


def test_a_table_file_of_an_earlier_karavan_keeps_its_short_code(tmp_path):
    save = tmp_path / "jaipur.json"
    TableFile(TableFile.path_for(save), "abcd", {0: "0" * 64}).write()
    kept = TableFile.read(save)
    assert kept is not None and kept.code == "abcd" and kept.claimed(0)
    with pytest.raises(ValueError, match="10 to 64"):
        check_code("abcd")
    assert check_code(" ten-chars0 ") == "ten-chars0"


def test_karavan_host_clears_abandoned_temp_files_and_saves_once_it_listens(tmp_path, monkeypatch):
    monkeypatch.setenv("KARAVAN_SETTINGS", str(tmp_path / "settings.json"))
    saves = tmp_path / "saves"
    saves.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a Karavan that died while writing left this behind
    abandoned = saves / f".jaipur.json.{dead.pid}.0badc0de.tmp"
    abandoned.write_text("{")
    served: dict[str, object] = {}

    async def serve(make_host, bind, port, path, fail, out, **_):
        assert not path.exists()  # nothing is written before the host listens
        make_host(port)
        served["path"] = path
        served["on disk"] = path.exists() and load_match(path).history == []
        served["temp left"] = abandoned.exists()
        return 0

    monkeypatch.setattr(host_command, "serve_headless", serve)
    status = cli.main(
        ["host", "jaipur", "--players", "Ann,Bob", "--headless", "--saves", str(saves)]
    )
    assert status == 0
    assert served["on disk"] is True and served["temp left"] is False
    assert Path(str(served["path"])).parent == saves


async def test_every_update_a_player_sees_is_already_in_the_save(tmp_path):
    save = tmp_path / "jaipur.json"
    match = new_match("jaipur", "Ann,Bob")
    behind: list[tuple[int, int]] = []
    seen = []
    enough = asyncio.Event()

    def check(update: Update) -> None:
        seen.append(update.number)
        kept = saved_revision(save)
        if kept < update.number:
            behind.append((update.number, kept))
        if len(seen) >= 120:
            enough.set()

    async with hosting(match, save_path=save) as (_table, server):
        players = [
            await bot(server.port, name, seed=i, on_update=check)
            for i, name in enumerate(("Ann", "Bob"))
        ]
        games = [asyncio.get_running_loop().create_task(p.play()) for p in players]
        await asyncio.wait_for(enough.wait(), 60)
        for game in games:
            game.cancel()
        await asyncio.gather(*games, return_exceptions=True)
    assert len(match.history) >= 40
    assert behind == [], f"{len(behind)} updates were shown before their save, e.g. {behind[:3]}"


@pytest.mark.slow
def test_a_host_killed_at_once_keeps_every_decision_its_players_saw(tmp_path):
    port = free_port()
    folder = tmp_path / "saves"
    host = subprocess.Popen(
        [sys.executable, "-m", "karavan_tui", "host", "jaipur", "--players", "Ann,Bob",
         "--headless", "--port", str(port), "--code", "kill-nine-test", "--saves", str(folder),
         "--bot-delay", "0", "--seed", "9"],
        stdout=subprocess.PIPE, text=True,
        env=dict(os.environ, KARAVAN_SETTINGS=str(tmp_path / "settings.json")),
    )  # fmt: skip
    try:
        assert host.stdout is not None
        lines = [host.stdout.readline() for _ in range(5)]
        save = Path(lines[-1].split("Saving to ", 1)[1].split(" (", 1)[0])
        assert save.exists()  # before anyone joined
        shown = {"most": -1}

        def watch(update: Update) -> None:
            shown["most"] = max(shown["most"], update.number)
            if update.number >= 40 and host.poll() is None:
                os.kill(host.pid, signal.SIGKILL)  # no goodbye, no last flush

        async def play() -> None:
            players = []
            for index, name in enumerate(("Ann", "Bob")):
                client = TableClient("127.0.0.1", port, "kill-nine-test", name, retry_for=0.5)
                await client.join()
                players.append(
                    BotPlayer(client, "random", seed=index, out=lambda line: None, on_update=watch)
                )
            await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 60)

        asyncio.run(play())
        host.wait(10)
        assert host.returncode == -signal.SIGKILL
    finally:
        host.kill()
        host.wait()
    kept = load_match(save)
    assert shown["most"] >= 40
    assert kept.revision >= shown["most"], (kept.revision, shown["most"])
