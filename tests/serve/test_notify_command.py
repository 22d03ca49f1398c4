"""`karavan account notify URL` gives a `karavan serve` server on loopback the player's web hook,
which the server then calls (a real HTTP receiver) when a turn-based table waits for them;
`notify` shows it literally, `notify off` takes it away, and a refused address is said."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from karavan_net.accounts import Account, accounts_file, keep
from karavan_net.lobby import CreateTable, SeatAsk

from .test_play_online import SECRET, account, serving
from .test_table_chat import until
from .test_turn_calls import Receiver

KARAVAN = str(Path(sys.executable).with_name("karavan"))


async def karavan(settings: Path, *args: str) -> tuple[int, str, str]:
    """``karavan account ARGS`` run as the player would, the server answering meanwhile."""
    env = {**os.environ, "KARAVAN_SETTINGS": str(settings)}
    process = await asyncio.create_subprocess_exec(
        KARAVAN, "account", *args, env=env, stdout=-1, stderr=-1
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


@pytest.mark.slow  # five runs of the command
async def test_the_web_hook_given_on_the_command_line_is_called(database, tmp_path):
    receiver = Receiver()
    async with receiver.running(), serving(database, notify_private=True) as server:
        where = f"127.0.0.1:{server.port}"
        ann, bob = await account(server.port, "Ann"), await account(server.port, "Bob")
        settings = {name: tmp_path / name / "settings.json" for name in ("ann", "bob")}
        for name, path in settings.items():
            keep(
                accounts_file(path),
                Account(where, name.capitalize(), f"{name.capitalize()}-{SECRET}"),
            )
            code, out, err = await karavan(path, "notify", receiver.url(name), "--server", where)
            assert code == 0, err
            assert out.strip() == (
                f"{where} calls you at {receiver.url(name)} when a turn-based table waits for you."
            )
        made = await ann.create(
            CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")], "turn", 86400)
        )
        await bob.take(made.table)
        first = ("ann", "bob")[server.store.tables.get(made.table).to_move]
        waited = f"Your turn at table {made.table} (Jaipur) — 23 h left"
        await until(lambda: receiver.texts(first) == [waited], f"{receiver.calls}")
        # Shown as it is kept; taken away; a refused address said in one line.
        code, out, _ = await karavan(settings["ann"], "notify", "--server", where)
        assert code == 0 and receiver.url("ann") in out
        code, out, _ = await karavan(settings["ann"], "notify", "off", "--server", where)
        assert code == 0 and "calls you nowhere" in out
        code, _, err = await karavan(
            settings["ann"], "notify", "file:///etc/passwd", "--server", where
        )
        assert code == 2 and err.count("\n") == 1 and "http" in err
        await ann.close()
        await bob.close()
