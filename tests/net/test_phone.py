"""``karavan web`` on a phone: headless Chromium (Debian's) emulating a 390x844 phone (touch,
device pixel ratio 3) held upright and turned, playing a whole Jaipur game against a bot by
taps alone, from the title screen to the game over.

The test reads the terminal as the page's xterm.js draws it: the bytes the app sends over
the page's WebSocket fed to a pyte screen of the size the page asked for.  A tap lands on
the middle of a cell, from the canvas's size and the grid.  A screenshot at each size is
kept under ``screens/`` for review; it is compared by its dimensions, not by its pixels
(which differ with the fonts of a machine).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from .helpers import free_port
from .test_browser import CHROMIUM_ARGS, KARAVAN, answered, wait_until

SCREENS = Path(__file__).with_name("screens")
PHONE = {"is_mobile": True, "has_touch": True, "device_scale_factor": 3}
SIZES = [
    pytest.param((390, 844), id="portrait"),
    pytest.param((844, 390), id="landscape"),
]
MY_TURN = "take a good, take the camels"
PICKER = "Enter or click to choose"
PICKER_TOP = r"█▀{8}"  # the top left of a picker's border


def png_size(path: Path) -> tuple[int, int]:
    """The width and height of the PNG image at ``path`` (from its header)."""
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", header[16:24])
    return width, height


class Phone:
    """A phone's tab on Karavan's page: its terminal read back, and taps on its cells."""

    def __init__(self, page: Any, url: str) -> None:
        import pyte

        self.page = page
        self.pyte = pyte
        self.screen: Any = None
        self.stream: Any = None
        page.on("websocket", self.follow)
        page.goto(url)

    def follow(self, socket: Any) -> None:
        """Read what the app draws, at the size the page asks for (first in the address)."""
        size = re.search(r"width=(\d+)&height=(\d+)", socket.url)
        if size is None:
            return
        self.size(int(size[1]), int(size[2]))
        socket.on("framereceived", self.feed)
        socket.on("framesent", self.sent)

    def size(self, columns: int, rows: int) -> None:
        if self.screen is None:
            self.screen = self.pyte.Screen(columns, rows)
            self.stream = self.pyte.ByteStream(self.screen)
        else:
            self.screen.resize(rows, columns)

    def sent(self, payload: str | bytes) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.size(size["width"], size["height"])

    def feed(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            self.stream.feed(payload)

    # Reading --------------------------------------------------------------------------

    def lines(self) -> list[str]:
        """The terminal's rows as text."""
        self.page.wait_for_timeout(1)  # let Playwright hand over the frames that came
        return list(self.screen.display) if self.screen is not None else []

    def text(self) -> str:
        return "\n".join(self.lines())

    def wait_for(self, words: str, seconds: float = 60) -> None:
        end = time.monotonic() + seconds
        while words not in self.text():
            assert time.monotonic() < end, f"never shown: {words!r}\n{self.text()}"
            self.page.wait_for_timeout(100)

    def find(
        self, pattern: str, rows: range | None = None, first: bool = False
    ) -> list[tuple[int, int, str]]:
        """Where ``pattern`` is on screen (in ``rows``): (row, middle column, what matched),
        or its ``first`` column."""
        found = []
        for row, line in enumerate(self.lines()):
            if rows is None or row in rows:
                for match in re.finditer(pattern, line):
                    middle = (match.start() + match.end() - 1) // 2
                    found.append((row, match.start() if first else middle, match[0]))
        return found

    def row_of(self, words: str) -> int:
        return next(row for row, line in enumerate(self.lines()) if words in line)

    # Touching -------------------------------------------------------------------------

    def grid(self) -> dict[str, float]:
        """The terminal's place on the page, its canvas and the pixel ratio."""
        return self.page.evaluate(
            """() => {
                const box = document.querySelector('.xterm-screen').getBoundingClientRect();
                const canvas = document.querySelector('.xterm-screen canvas');
                return {x: box.x, y: box.y, width: box.width, height: box.height,
                        canvas: canvas.width, canvasHeight: canvas.height,
                        ratio: window.devicePixelRatio, inner: window.innerWidth};
            }"""
        )

    def tap(self, row: int, column: int) -> None:
        """Tap the middle of the cell at ``row``, ``column``."""
        box = self.grid()
        columns, rows = self.screen.columns, self.screen.lines
        x = box["x"] + (column + 0.5) * box["width"] / columns
        y = box["y"] + (row + 0.5) * box["height"] / rows
        self.page.touchscreen.tap(x, y)
        self.page.wait_for_timeout(150)

    def tap_words(self, words: str) -> None:
        (row, column, _), *_ = self.find(re.escape(words))
        self.tap(row, column)


def decisions(saves: Path) -> int:
    """How many decisions the visitor's game has kept (its save, as the app writes it)."""
    files = list(saves.glob("visitors/*/saves/jaipur-*.json"))
    if not files:
        return 0
    try:
        return len(json.loads(files[0].read_text())["history"])
    except (ValueError, KeyError):
        return -1  # being written


def start_jaipur_by_taps(phone: Phone) -> None:
    """From the title: New game, the game Jaipur, Start (seat 2 is the dialog's bot)."""
    phone.wait_for("New game")
    phone.tap_words("New game")
    phone.wait_for("Start (ctrl+s)")
    phone.tap_words("Karakum")  # the game's list
    phone.wait_for("Jaipur")
    (row, column, _), *_ = phone.find("Jaipur", range(phone.row_of("Karakum") + 1, 99))
    phone.tap(row, column)
    phone.wait_for("Jaipur ")
    phone.tap_words("Start (ctrl+s)")
    phone.wait_for("Market")


def candidates(phone: Phone) -> list[tuple[int, int, str]]:
    """The cards to try, in order, with what each would do: a sale from a full hand, else
    a good, else the camels.

    A zone runs from its title's row to the next row with a bottom corner (a note or a
    tooltip may hide the rest of its border), left of the side panel where there is one.
    """
    lines = phone.lines()
    market = next((i for i, line in enumerate(lines) if "Market" in line), -1)
    hand = next((i for i, line in enumerate(lines) if "s hand ·" in line), -1)
    if -1 in (market, hand):  # drawn in part yet, or under a note
        return []

    def zone(top: int) -> range:
        return range(top, next((i for i in range(top + 1, len(lines)) if "╯" in lines[i]), top))

    right = lines[market].find("╮")  # the table's right edge (the side panel is beyond)

    def cards(pattern: str, rows: range) -> list[tuple[int, int, str]]:
        return [spot for spot in phone.find(pattern, rows) if spot[1] < right]

    words = r"diamond|gold|silver|cloth|spice|leather"
    goods = [(row, at, f"take {word}") for row, at, word in cards(words, zone(market))]
    camels = [(row, at, "camels") for row, at, _ in cards(r"camel", zone(market))]
    held = [(row, at, f"sell {word}") for row, at, word in cards(words, zone(hand))]
    full = re.search(r"hand · (\d) of 7", lines[hand])
    sell_first = full is not None and int(full[1]) >= 5
    return [*held, *goods, *camels] if sell_first else [*goods, *camels, *held]


def summary_shown(phone: Phone) -> bool:
    """Whether a round's summary is open (a row of its table: the game over's says
    "camel token")."""
    return "Camel token" in phone.text()


def game_over(phone: Phone) -> bool:
    """Whether the game is over (a decision of the player's may end it)."""
    return "Game over" in phone.text()


def waited(phone: Phone, condition: Any, seconds: float) -> bool:
    """Wait up to ``seconds`` until ``condition()``; whether it came true."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        phone.page.wait_for_timeout(100)
    return True


def refused(phone: Phone) -> bool:
    """Whether the app is saying why a tap did nothing (its note stays a few seconds)."""
    text = phone.text()
    return "Not allowed" in text or "Wait: it is" in text


def pick_first_entry(phone: Phone, saves: Path, before: int) -> None:
    """Tap a picker's first entry (how many to sell); close the picker if that decides
    nothing.  The picker may be drawn in part yet: its border comes first."""
    tops: list[tuple[int, int, str]] = []

    def border() -> bool:  # kept as read: the next frame may already be another
        tops[:] = phone.find(PICKER_TOP, first=True)
        return bool(tops)

    if waited(phone, border, 10):
        top, edge, _ = tops[0]
        phone.tap(top + 3, edge + 3)  # under the title and a blank row
        if waited(phone, lambda: decisions(saves) > before or PICKER not in phone.text(), 10):
            return
    if PICKER in phone.text():
        phone.tap_words("Esc")
        waited(phone, lambda: PICKER not in phone.text(), 10)


def my_turn_by_taps(phone: Phone, saves: Path) -> bool:
    """Make one decision by taps: try the candidates until one is taken; whether one was.

    A busy machine may take seconds to answer a tap: each wait is for what the tap brings
    (a decision kept, a picker, or the app's note saying why not), not for a set time.
    """
    before = decisions(saves)
    waited(phone, lambda: candidates(phone), 10)
    tried: list[str] = []
    while decisions(saves) == before:  # read afresh after each tap: a note may move cards
        if summary_shown(phone) or game_over(phone):
            return True  # the round ended (its summary comes first), or the game
        if PICKER in phone.text():
            pick_first_entry(phone, saves, before)
            continue
        left = [spot for spot in candidates(phone) if spot[2] not in tried]
        if not left:
            return False
        row, column, what = left[0]
        tried.append(what)
        waited(phone, lambda: not refused(phone), 10)  # an earlier note gone first
        phone.tap(row, column)
        waited(
            phone,
            lambda: decisions(saves) > before or PICKER in phone.text() or refused(phone),
            15,
        )
    return True


def play_to_game_over(phone: Phone, saves: Path, title: list[str]) -> None:
    """Tap through a whole game: decisions, round summaries, to the game over."""
    end = time.monotonic() + 900
    missed = 0  # turns in a row where no tap decided
    while not game_over(phone):
        assert time.monotonic() < end, f"the game never ended\n{phone.text()}"
        text = phone.text()
        if summary_shown(phone):
            phone.tap_words("Camel token")  # a tap on the round's summary goes on
            # Once: a second tap while the page still shows the summary would land on the
            # table's (or the game over's) key under it.
            assert waited(phone, lambda: not summary_shown(phone), 15), phone.text()
        elif MY_TURN in text and "thinking" not in text:
            title.append(phone.page.title())
            # The status line may still say so just after the player's decision.
            missed = 0 if my_turn_by_taps(phone, saves) else missed + 1
            assert missed < 3, f"no tap made a decision\n{phone.text()}"
        else:
            phone.page.wait_for_timeout(200)


@pytest.mark.slow
@pytest.mark.xdist_group("phone")  # one browser at a time: the taps wait on a busy machine
@pytest.mark.parametrize("size", SIZES)
def test_a_phone_plays_a_whole_jaipur_game_by_taps(tmp_path, size):
    sync_api = pytest.importorskip("playwright.sync_api")
    pytest.importorskip("pyte")
    chromium = shutil.which("chromium")
    if chromium is None:
        if os.environ.get("CI"):
            raise AssertionError(".ci/run installs Debian's chromium before the slow tests")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    width, height = size
    port, state = free_port(), tmp_path / "state"
    web = subprocess.Popen(
        [*KARAVAN, "web", "--port", str(port), "--state", str(state)],
        cwd=tmp_path,
        env=dict(os.environ, KARAVAN_SETTINGS=str(tmp_path / "settings.json")),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until(lambda: answered(url), "karavan web never answered")
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": width, "height": height}, **PHONE)
            phone = Phone(context.new_page(), url)
            phone.wait_for("New game")
            # The page is as wide as the phone, its canvas drawn in device pixels.
            box = phone.grid()
            assert box["inner"] == width and box["ratio"] == 3
            assert abs(box["canvas"] - 3 * box["width"]) <= 3
            assert abs(box["canvasHeight"] - 3 * box["height"]) <= 3
            columns, rows = phone.screen.columns, phone.screen.lines
            upright = height > width
            assert (columns, rows) >= (40, 30) if upright else columns >= 80 and rows >= 24
            start_jaipur_by_taps(phone)
            # Upright, the narrow table: its side panel behind a tab.
            if columns < 80:
                phone.wait_for("Scores · log (i)")
            else:
                phone.wait_for("Log · seed")
            titles: list[str] = []
            play_to_game_over(phone, state, titles)
            # The tab said it was the player's turn while a decision waited.
            assert "Your turn - Karavan" in titles
            assert decisions(state) > 20
            phone.wait_for("Title (t)")  # every button in sight, upright too (two rows)
            phone.page.wait_for_timeout(500)
            shot = tmp_path / "over.png"
            phone.page.screenshot(path=str(shot))
            name = f"jaipur-{'portrait' if upright else 'landscape'}.png"
            kept = SCREENS / name
            if os.environ.get("KARAVAN_KEEP_SCREENS"):  # taking new pictures to review
                kept.write_bytes(shot.read_bytes())
            assert png_size(shot) == png_size(kept) == (3 * width, 3 * height)
            browser.close()
    finally:
        web.terminate()
        try:
            web.wait(10)
        except subprocess.TimeoutExpired:
            web.kill()
