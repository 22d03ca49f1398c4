"""``karavan web`` in a real browser: headless Chromium (Debian's) driven by Playwright."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request

import pytest

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


def shown(frames: list[str | bytes]) -> str:
    """What the app wrote to the browser's terminal so far, without escape sequences."""
    text = "".join(f.decode("utf-8", "ignore") if isinstance(f, bytes) else f for f in frames)
    return ESCAPES.sub("", text)


@pytest.mark.slow
def test_karavan_web_serves_the_app_to_a_browser(tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            raise AssertionError(".ci/run installs Debian's chromium before the slow tests")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    port = free_port()
    saves = tmp_path / "saves"
    env = dict(os.environ, KARAVAN_SETTINGS=str(tmp_path / "settings.json"))
    web = subprocess.Popen(
        [sys.executable, "-m", "karavan_tui", "web", "--port", str(port), "--saves", str(saves)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    assert answer.status == 200
                    break
            except OSError:
                assert time.monotonic() < deadline, "karavan web never answered"
                time.sleep(0.2)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            frames: list[str | bytes] = []

            def keep(payload: str | bytes) -> None:
                frames.append(payload)

            page.on("websocket", lambda ws: ws.on("framereceived", keep))
            page.goto(f"http://127.0.0.1:{port}/")
            assert page.title() == "Karavan"

            def wait_for(words: str, seconds: float = 30) -> None:
                end = time.monotonic() + seconds
                while words not in shown(frames):
                    assert time.monotonic() < end, f"the browser never showed {words!r}"
                    page.wait_for_timeout(100)

            page.click(".textual-terminal")  # the terminal takes keys once it has focus
            wait_for("Join a table")
            assert "New game" in shown(frames)
            page.screenshot(path=str(tmp_path / "title.png"))
            page.keyboard.press("n")
            wait_for("Start")
            page.keyboard.press("Control+s")
            end = time.monotonic() + 30
            while not list(saves.glob("*.json")):  # the new game's first autosave
                assert time.monotonic() < end, "no game started from the browser"
                page.wait_for_timeout(100)
            wait_for("Undo")
            page.screenshot(path=str(tmp_path / "table.png"))
            browser.close()
    finally:
        web.terminate()
        try:
            web.wait(10)
        except subprocess.TimeoutExpired:
            web.kill()
