"""``karavan web`` in a real browser: headless Chromium (Debian's) driven by Playwright.

Two browser contexts are two visitors (each its own cookies): the second sees
none of the first one's saves and cannot take the seat the first one plays.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from karavan_core.saves import SaveError, summarize
from karavan_core.saves.lock import open_elsewhere

from .helpers import free_port

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ESCAPES = re.compile(r"\x1b\[[0-9;?<>=]*[A-Za-z~]|\x1b[()][A-Z0-9]|\x1b[=>]|\x1b\][^\x07]*\x07")
KARAVAN = [sys.executable, "-m", "karavan_tui"]
TABLE_CODE = "browser-test-table"
# The bytes of a terminal title (OSC 2) coming in on one of the page's WebSockets.
TITLE_FROM_TERMINAL = """() => {
    const socket = new WebSocket("ws://127.0.0.1:9/nowhere");
    const title = new TextEncoder().encode("\\x1b]2;Your turn - Karavan\\x07");
    socket.dispatchEvent(new MessageEvent("message", { data: title.buffer }));
    socket.close();
}"""
VIEWPORT = {"width": 1280, "height": 800}


def shown(frames: list[str | bytes]) -> str:
    """What the app wrote to the browser's terminal so far, without escape sequences."""
    text = "".join(f.decode("utf-8", "ignore") if isinstance(f, bytes) else f for f in frames)
    return ESCAPES.sub("", text)


class Tab:
    """A browser tab on Karavan's page, with what its terminal has been sent."""

    def __init__(self, context: Any, url: str) -> None:
        self.page = context.new_page()
        self.frames: list[str | bytes] = []
        self.asked: list[str] = []  # every address the page asked for
        self.page.on("request", lambda request: self.asked.append(request.url))
        self.page.on("websocket", lambda ws: ws.on("framereceived", self.keep))
        self.page.goto(url)
        assert self.page.title() == "Karavan"
        # The terminal takes keys once it has focus (a click could land on a menu entry).
        self.page.focus(".textual-terminal .xterm-helper-textarea")

    def keep(self, payload: str | bytes) -> None:
        self.frames.append(payload)

    def wait_for(self, words: str, seconds: float = 30) -> None:
        end = time.monotonic() + seconds
        while words not in shown(self.frames):
            assert time.monotonic() < end, f"the browser never showed {words!r}"
            self.page.wait_for_timeout(100)

    def press(self, *keys: str) -> None:
        """Press ``keys`` one at a time: a key sent while the focus moves lands in the old field."""
        for key in keys:
            self.page.keyboard.press(key)
            self.page.wait_for_timeout(50)

    def type(self, text: str) -> None:
        """Type ``text`` (a key at a time)."""
        self.press(*text)

    def join(self, address: str, name: str) -> None:
        """Fill in Join a table from the title screen and press enter."""
        self.press("j")
        self.wait_for("Join (enter)")
        self.type(TABLE_CODE)  # the code's field has the focus
        self.wait_for(TABLE_CODE)  # on a busy machine a key may land late: each field is seen
        self.press("Shift+Tab", "End", *["Backspace"] * 30)
        self.type(address)
        self.wait_for(address)
        self.press("Tab", "Tab")
        self.type(name)
        self.wait_for(name)
        self.press("Enter")


def wait_until(condition: Any, what: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, what
        time.sleep(0.1)


def decided(save: Path) -> bool:
    """Whether the game saved at ``save`` holds a decision (a save being written reads as none)."""
    try:
        return summarize(save).decisions > 0
    except SaveError:
        return False


def answered(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@pytest.mark.slow
def test_karavan_web_serves_each_visitor_their_own_app_in_a_browser(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            raise AssertionError(".ci/run installs Debian's chromium before the slow tests")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    port, table_port = free_port(), free_port()
    state = tmp_path / "state"
    env = dict(os.environ, KARAVAN_SETTINGS=str(tmp_path / "settings.json"))
    host_out = tmp_path / "host.out"
    processes = []
    with host_out.open("w") as out:
        processes.append(
            subprocess.Popen(
                [*KARAVAN, "host", "jaipur", "--players", "Ann,Bob", "--headless",
                 "--port", str(table_port), "--code", TABLE_CODE],
                cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
            )
        )  # fmt: skip
    processes.append(
        subprocess.Popen(
            [*KARAVAN, "web", "--port", str(port), "--state", str(state)],
            cwd=tmp_path,  # where the host keeps its saves (./saves): no visitor may see them
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until(lambda: answered(url), "karavan web never answered")
        wait_until(lambda: "Hosting Jaipur" in host_out.read_text(), "the host never started")
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            first, second = (browser.new_context(viewport=VIEWPORT) for _ in range(2))

            # The first visitor starts a game: it is saved in that visitor's own folder.
            tab = Tab(first, url)
            tab.wait_for("Join a table")
            assert "New game" in shown(tab.frames)
            # The page asked nothing from elsewhere (its font included)...
            origin = f"http://127.0.0.1:{port}/"
            assert all(asked.startswith((origin, "ws://127.0.0.1")) for asked in tab.asked)
            # ... and the tab takes the title the app gives its terminal (its turn at a table).
            tab.page.evaluate(TITLE_FROM_TERMINAL)
            assert tab.page.title() == "Your turn - Karavan"
            tab.page.evaluate("document.title = 'Karavan'")
            tab.page.screenshot(path=str(tmp_path / "title.png"))
            tab.press("n")
            tab.wait_for("Start")
            tab.press("Control+s")
            wait_until(
                lambda: list(state.glob("visitors/*/saves/*.json")),
                "no game started from the browser",
            )
            tab.wait_for("Undo")
            tab.page.screenshot(path=str(tmp_path / "table.png"))
            (folder,) = state.glob("visitors/*")

            # Another tab of the same browser is the same visitor: its game is there to resume
            # once the first tab, which plays it, is closed (one game, one window).
            # (A game nobody decided in is not kept: the first tab takes a decision first.)
            (save,) = state.glob("visitors/*/saves/*.json")
            tab.wait_for("Player 1: gather")  # the bot has moved: the player's turn
            tab.press("a")
            tab.wait_for("Every move you can make now")
            tab.press("Enter")
            wait_until(lambda: decided(save), "the decision taken in the browser was not kept")
            tab.page.close()
            wait_until(lambda: not open_elsewhere(save), "the first tab's Karavan kept its game")
            again = Tab(first, url)
            again.wait_for("last played")
            again.join(f"127.0.0.1:{table_port}", "Bob")
            wait_until(lambda: "Bob joined." in host_out.read_text(), "Bob never joined")
            wait_until((folder / "seats.json").exists, "the seat's secret was not kept")

            # Another browser is another visitor: no saves, and Bob's seat is not theirs.
            other = Tab(second, url)
            other.wait_for("Resume (no game in progress)")
            other.join(f"127.0.0.1:{table_port}", "Bob")
            other.wait_for("seat is taken")
            other.page.screenshot(path=str(tmp_path / "refused.png"))
            assert "last played" not in shown(other.frames)
            assert "Bob is back." not in host_out.read_text()
            folders = set(state.glob("visitors/*"))
            assert len(folders) == 2
            (theirs,) = folders - {folder}
            assert not list((theirs / "saves").glob("*.json"))
            assert not (theirs / "seats.json").exists()
            browser.close()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
