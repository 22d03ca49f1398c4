"""``karavan web`` ends each tab's Karavan, even a frozen one: when its tab closes, and when
the server is told to stop (SIGTERM). Each is a real process: a stand-in for Karavan that
ignores SIGTERM, never reads the quit textual-serve sends, and has a child of its own."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from karavan_tui.cli.web.visitors import Visitors

from .helpers import until
from .test_web import site

# Reports its pid and its child's, then sleeps on, deaf to SIGTERM and to the quit.
FROZEN = r"""
import json, os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
out = sys.stdout.buffer
out.write(b"__GANGLION__\n")
report = json.dumps({"pid": os.getpid(), "child": child.pid}).encode()
out.write(b"D" + len(report).to_bytes(4, "big") + report)
out.flush()
while True:
    time.sleep(1)
"""

# ``karavan web``'s own server, run as ``karavan web`` runs it, serving the frozen stand-in.
SERVE = r"""
import sys
from pathlib import Path
from karavan_tui.cli.web.server import KaravanServer
from karavan_tui.cli.web.visitors import Visitors
state, port, program = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
server = KaravanServer(Visitors(state), host="127.0.0.1", port=port, program=program, max_apps=4)
print("serving", flush=True)
server.serve()
"""


@pytest.fixture
def frozen(tmp_path: Path) -> list[str]:
    script = tmp_path / "frozen.py"
    script.write_text(FROZEN, encoding="utf-8")
    return [sys.executable, str(script)]


def end_all(pids: list[int]) -> None:
    """Whatever a failed test left running, ended."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def first_report(socket: aiohttp.ClientWebSocketResponse) -> dict[str, int]:
    message = await socket.receive(timeout=20)
    assert message.type == aiohttp.WSMsgType.BINARY, message
    return json.loads(message.data)


async def test_closing_the_tab_ends_a_frozen_karavan_and_its_children(tmp_path, frozen):
    async with site(frozen, Visitors(tmp_path / "state")) as web:
        (browser,) = web.browsers
        socket = await browser.ws_connect("/ws?width=80&height=24", headers={"Origin": web.origin})
        report = await first_report(socket)
        pids = [report["pid"], report["child"]]
        try:
            assert all(alive(pid) for pid in pids)
            await socket.close()
            # The grace for a quit it never hears, then its whole process group is ended.
            await until(lambda: not any(alive(pid) for pid in pids), 30)
            await until(lambda: web.server.running == 0)
        finally:
            end_all(pids)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_sigterm_to_the_server_ends_every_karavan_it_runs(tmp_path, frozen):
    port = free_port()
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(tmp_path / "state"), str(port), *frozen],
        stdout=subprocess.PIPE,
        env=environment,
    )
    reports: list[dict[str, int]] = []
    try:
        assert server.stdout is not None
        assert server.stdout.readline() == b"serving\n"
        origin = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as browser:
            for _ in range(40):  # the server may not listen yet
                try:
                    page = await browser.get(origin + "/")
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.25)
            assert page.status == 200
            sockets = []
            for _ in range(2):
                socket = await browser.ws_connect(f"{origin}/ws", headers={"Origin": origin})
                sockets.append(socket)
                reports.append(await first_report(socket))
            started = time.monotonic()
            server.send_signal(signal.SIGTERM)
            ended = await asyncio.to_thread(server.wait, 30)
            took = time.monotonic() - started
        assert ended == 0
        assert took < 15, took
        pids = [pid for report in reports for pid in (report["pid"], report["child"])]
        await until(lambda: not any(alive(pid) for pid in pids), 10)
    finally:
        end_all([pid for report in reports for pid in (report["pid"], report["child"])])
        if server.poll() is None:
            server.kill()
            server.wait()
