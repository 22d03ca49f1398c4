"""A command in a pseudo-terminal, read as a terminal draws it.

A :class:`Terminal` starts a command in a pty of a given size (pexpect) and
feeds everything it writes into a ``pyte`` screen, so a test reads the same
characters a person would see, cell by cell, after the escape sequences are
applied.  Waiting polls that screen until what is awaited shows; the only
fixed pause is the one that tells a lone Esc from the start of a key sequence.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pyte

# What a terminal sends for the keys the tests press (xterm's sequences).
KEYS = {
    "enter": "\r",
    "escape": "\x1b",
    "esc": "\x1b",
    "tab": "\t",
    "shift+tab": "\x1b[Z",
    "space": " ",
    "backspace": "\x7f",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "f1": "\x1bOP",
}

ESCAPE_PAUSE = 0.3  # seconds after a lone Esc: longer than the app waits to see more
WAIT = 60.0  # seconds a wait may take before the test fails: generous on a busy machine


def key_sequence(key: str) -> str:
    """What the terminal sends for ``key``: a name from :data:`KEYS`, ``ctrl+X``, or a character."""
    if len(key) == 1:
        return key
    name = key.lower()
    if name.startswith("ctrl+") and len(name) == 6 and name[5].isalpha():
        return chr(ord(name[5]) - ord("a") + 1)
    return KEYS[name]


@dataclass(frozen=True)
class Box:
    """A box drawn on the screen: its title, the text inside, and the text on its bottom line."""

    title: str
    inside: tuple[str, ...]
    bottom: str

    @property
    def name(self) -> str:
        """The title up to its first ``·`` (or the whole title)."""
        return self.title.split("·")[0].strip()


def _box_at(cells: list[list[str]], top: int, left: int) -> Box | None:
    """The box whose top left corner is at ``(top, left)``, if a whole one is drawn there."""
    row = cells[top]
    try:
        right = row.index("╮", left + 1)
    except ValueError:
        return None
    for bottom in range(top + 1, len(cells)):
        edge = cells[bottom][left]
        if edge == "╰" and cells[bottom][right] == "╯":
            break
        if edge != "│":
            return None
    else:
        return None

    def text(y: int) -> str:
        return "".join(cells[y][left + 1 : right])

    inside = tuple(text(y).rstrip() for y in range(top + 1, bottom))
    return Box(text(top).strip("─ "), inside, text(bottom).strip("─ "))


class Terminal:
    """A command running in a ``columns`` x ``rows`` pseudo-terminal, with an emulated screen."""

    def __init__(
        self,
        args: list[str],
        columns: int,
        rows: int,
        env: Mapping[str, str],
        cwd: Path,
    ) -> None:
        self.columns, self.rows = columns, rows
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(
            args[0], args[1:], env=dict(env), cwd=str(cwd), dimensions=(rows, columns)
        )

    # Reading the screen

    def pump(self, timeout: float = 0.05) -> bool:
        """Feed what the command has written (waiting up to ``timeout`` for some); False at EOF."""
        try:
            data = self.child.read_nonblocking(65536, timeout=timeout)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.stream.feed(data)
        return True

    def read_for(self, seconds: float) -> None:
        """Read what the command draws during ``seconds``."""
        deadline = time.monotonic() + seconds
        while self.pump(max(0.0, deadline - time.monotonic())) and time.monotonic() < deadline:
            pass

    def lines(self) -> list[str]:
        """The screen's rows as text, trailing blanks removed."""
        return [line.rstrip() for line in self.screen.display]

    def text(self) -> str:
        """The whole screen as text, one row a line."""
        return "\n".join(self.lines())

    def cells(self) -> list[list[str]]:
        """The screen cell by cell (a wide character's second cell is empty)."""
        buffer = self.screen.buffer
        return [[buffer[y][x].data for x in range(self.columns)] for y in range(self.rows)]

    def locate(self, text: str, row_holding: str = "") -> tuple[int, int] | None:
        """The row and column of the first cell of ``text`` on a row that holds ``row_holding``."""
        for y, row in enumerate(self.cells()):
            line = "".join(cell or "\0" for cell in row)  # one character a cell
            if row_holding in line and text in line:
                return y, line.index(text)
        return None

    def style(self, row: int, column: int) -> tuple[object, ...]:
        """How the cell at ``row``, ``column`` is drawn: colours, weight, reverse video."""
        cell = self.screen.buffer[row][column]
        return (cell.fg, cell.bg, cell.bold, cell.reverse, cell.underscore)

    def boxes(self) -> dict[str, Box]:
        """Every rounded box on the screen (``╭─ title ─╮`` … ``╰─╯``), by its title.

        A title's first words name the box ("Log · seed 7" is ``Log``); two boxes
        of the same name get ``#2``, ``#3`` after it, in reading order.
        """
        cells = self.cells()
        found: dict[str, Box] = {}
        for top, row in enumerate(cells):
            for left, char in enumerate(row):
                if char != "╭":
                    continue
                box = _box_at(cells, top, left)
                if box is None:
                    continue
                name, count = box.name, 2
                while name in found:
                    name, count = f"{box.name}#{count}", count + 1
                found[name] = box
        return found

    def wait_until(
        self, check: Callable[[str], object], what: str, timeout: float = WAIT
    ) -> object:
        """Poll the screen until ``check(text)`` is true; its value, or fail showing the screen."""
        deadline = time.monotonic() + timeout
        alive = True
        while True:
            found = check(self.text())
            if found:
                return found
            if not alive or time.monotonic() > deadline:
                state = "the command ended" if not alive else f"{timeout:.0f} s passed"
                raise AssertionError(f"waited for {what}; {state}. The screen:\n{self.text()}")
            alive = self.pump(0.1)

    def wait_for(self, pattern: str | re.Pattern[str], timeout: float = WAIT) -> re.Match[str]:
        """Wait until ``pattern`` (a regex, or literal text when a ``str``) is on the screen."""
        regex = pattern if isinstance(pattern, re.Pattern) else re.compile(re.escape(pattern))
        found = self.wait_until(regex.search, repr(regex.pattern), timeout)
        assert isinstance(found, re.Match)
        return found

    def wait_gone(self, text: str, timeout: float = WAIT) -> None:
        """Wait until ``text`` is no longer on the screen."""
        self.wait_until(lambda screen: text not in screen, f"{text!r} to go", timeout)

    def settle(self, quiet: float = 0.35, timeout: float = WAIT) -> None:
        """Read until the command has drawn nothing for ``quiet`` seconds (a frame is complete).

        A screen's size classes come with the layout after its first frame: on a busy
        machine the two frames can be a fifth of a second apart, so the wait is longer.
        """
        deadline = time.monotonic() + timeout
        last = time.monotonic()
        while time.monotonic() < deadline:
            before = self.text()
            if not self.pump(0.05):
                return
            if self.text() != before:
                last = time.monotonic()
            elif time.monotonic() - last >= quiet:
                return
        raise AssertionError(f"the screen never settled. The screen:\n{self.text()}")

    # Typing

    def press(self, *keys: str) -> None:
        """Press named keys (``enter``, ``escape``, ``tab``, arrows, ``f1``…) or single characters.

        Each key is sent on its own, and what the screen drew meanwhile is read.
        """
        for key in keys:
            sequence = key_sequence(key)
            self.child.send(sequence.encode())
            # A lone Esc is told from the start of a longer sequence by the pause after
            # it (Textual waits 0.1 s): let that pass before the next key.
            self.read_for(ESCAPE_PAUSE if sequence == "\x1b" else 0.01)

    def type(self, text: str) -> None:
        """Type ``text`` character by character."""
        for char in text:
            self.press(char)

    # Ending

    def wait_exit(self, timeout: float = WAIT) -> int:
        """Wait for the command to end by itself; its exit status."""
        deadline = time.monotonic() + timeout
        while self.pump(0.1):
            if time.monotonic() > deadline:
                raise AssertionError(f"the command did not end. The screen:\n{self.text()}")
        self.child.close()
        status = self.child.exitstatus
        if status is None:  # killed by a signal
            return -(self.child.signalstatus or 0)
        return int(status)

    def kill(self) -> None:
        """End the command if it still runs (teardown: never leave a child behind)."""
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close(force=True)
