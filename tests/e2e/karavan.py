"""Karavan as a person uses it, through a :class:`~tests.e2e.terminal.Terminal`.

What the tests need to know about the app's screens lives here: how the New
game dialog is filled in by keys, how to tell that the table waits for the
player, and which parts of the table to compare.  Whose turn it is and how
many decisions were made is read from the game's autosave, which the app
writes after every decision, so no wait depends on how fast a bot thinks.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

from karavan_core import Match, all_games, load_match
from karavan_core.saves import SaveError, save_files

from .terminal import Box, Terminal

MOVES = "Every move you can make now"  # the move list's title
PLAYER = "Ann"
SEED = 2024
REVIEWED = re.compile(rf"{PLAYER}: accuracy (\d+\.\d)% over (\d+) decisions?")
REVIEW_TIME = 600.0  # seconds: every search of a real review, on a busy two-core machine
TITLE = "Load a saved game"  # on the title screen's menu


def karavan_command() -> str:
    """The installed ``karavan`` console script, beside this interpreter or on the PATH."""
    beside = Path(sys.executable).parent / "karavan"
    if beside.exists():
        return str(beside)
    found = shutil.which("karavan")
    if found is None:
        raise RuntimeError("the karavan command is not installed (pip install -e .)")
    return found


def clean_environment(home: Path, settings: Path) -> dict[str, str]:
    """An environment for the app with nothing of the user's: a fresh home and settings file."""
    # PYTHONPATH: where the tests put a checkout's own sources first, the app runs them too.
    keep = ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        KARAVAN_SETTINGS=str(settings),
        TERM="xterm-256color",
        COLORTERM="truecolor",
        LANG=env.get("LANG") or "C.UTF-8",
    )
    return env


class Karavan:
    """Starts the installed ``karavan`` with one home, settings file and saves folder."""

    def __init__(self, home: Path, settings: Path, saves: Path, cwd: Path) -> None:
        self.env = clean_environment(home, settings)
        self.saves = saves
        self.cwd = cwd
        self.started: list[Terminal] = []
        self._read: tuple[object, Match] | None = None  # the last save read, by file and version

    def start(self, *args: str, size: tuple[int, int] = (80, 24)) -> Terminal:
        """``karavan ARGS --saves DIR`` in a ``size`` (columns, rows) terminal."""
        command = [karavan_command(), *args, "--saves", str(self.saves)]
        terminal = Terminal(command, *size, env=self.env, cwd=self.cwd)
        self.started.append(terminal)
        return terminal

    def kill_all(self) -> None:
        """End every command started here that still runs."""
        for terminal in self.started:
            terminal.kill()

    def autosave_path(self) -> Path:
        """The newest save file."""
        files = sorted(save_files(self.saves), key=lambda path: path.stat().st_mtime)
        assert files, f"no save in {self.saves}"
        return files[-1]

    def autosave(self) -> Match | None:
        """The game in the newest save file, if there is one and it loads."""
        try:
            path = self.autosave_path()
            info = path.stat()
            version = (path, info.st_mtime_ns, info.st_size)
            if self._read is None or self._read[0] != version:
                self._read = (version, load_match(path))
        except (AssertionError, SaveError, OSError):  # none yet, or replaced meanwhile
            return None
        return self._read[1]


def game_titles() -> list[str]:
    """The games in the order the New game dialog lists them."""
    return [game.title for game in all_games()]


def field(label: str, value: str) -> re.Pattern[str]:
    """A line of the New game dialog showing ``value`` in the field ``label``."""
    return re.compile(rf"{re.escape(label)} +{re.escape(value)}(?: |$)", re.M)


def choose_in_select(terminal: Terminal, steps: int) -> None:
    """Open the focused drop-down, move ``steps`` down and take that entry."""
    terminal.press("enter")
    terminal.wait_for("Dismiss menu")  # the Footer, while the open list has the focus
    terminal.press(*["down"] * steps, "enter")
    terminal.wait_gone("Dismiss menu")


def tab_to(terminal: Terminal, tabs: int, label: str, shown: str) -> tuple[int, int]:
    """Press Tab ``tabs`` times to reach the field showing ``shown`` on the row ``label``.

    The app moves the focus a little after the key, and keys sent meanwhile still
    go to the field it leaves; so, as a person would, this waits until the field
    is drawn focused (its look changes) before anything else is typed.
    """
    place = terminal.locate(shown, label)
    assert place is not None, f"no {shown!r} beside {label!r}:\n{terminal.text()}"
    before = terminal.style(*place)
    terminal.press(*["tab"] * tabs)
    terminal.wait_until(lambda _: terminal.style(*place) != before, f"the focus on {label}")
    terminal.settle()
    return place


def type_over(terminal: Terminal, place: tuple[int, int], old: str, new: str) -> None:
    """In the focused text field showing ``old`` at ``place``: empty it, then type ``new``."""
    row = place[0]

    def line() -> str:
        return terminal.lines()[row]

    terminal.press("end", "ctrl+u")  # Ctrl+U deletes everything left of the cursor
    terminal.wait_until(lambda _: old not in line(), f"{old!r} deleted")
    terminal.type(new)
    terminal.wait_until(lambda _: re.search(rf" {re.escape(new)}(?: |$)", line()), repr(new))


def wait_until_selected(terminal: Terminal, text: str) -> tuple[int, int]:
    """Wait until a text field shows ``text`` selected (it has the focus); where it is."""
    place = terminal.wait_until(lambda _: terminal.locate(text), repr(text))
    assert isinstance(place, tuple)
    row, column = place

    def selected(_: str) -> bool:
        return terminal.style(row, column) != terminal.style(row, column + len(text) + 1)

    terminal.wait_until(selected, f"{text!r} selected")
    return place


def new_game_by_keys(terminal: Terminal, title: str, name: str = PLAYER, seed: int = SEED) -> None:
    """From the title screen: New game, ``title`` against the dialog's Hard bot, ``name`` first.

    Every field is checked on the screen once set; the dialog is left with Ctrl+S.
    """
    terminal.wait_for("New game")
    terminal.press("n")
    terminal.wait_for("Start (ctrl+s)")
    terminal.settle()
    choose_in_select(terminal, game_titles().index(title))  # the Game field has the focus
    terminal.wait_for(field("Game", title))
    terminal.settle()  # the form follows the game chosen (its player counts)
    default = re.compile(r"Seat 1 +Human +\S +(\S+(?: \S+)*)")  # the kind's ▼, then the name
    player = terminal.wait_for(default).group(1)
    place = tab_to(terminal, 3, "Seat 1", player)  # past Players and Seat 1's kind
    type_over(terminal, place, player, name)
    terminal.wait_for(re.compile(r"Seat 2 +Bot: hard "))  # the dialog's own choice of bot
    tab_to(terminal, 3, "First", "Random")  # past Seat 2's kind and name
    choose_in_select(terminal, 1)  # Random, then Seat 1
    terminal.wait_for(field("First", "Seat 1"))
    terminal.settle()
    shown = terminal.wait_for(re.compile(r"Seed +(\d+)")).group(1)
    place = tab_to(terminal, 1, "Seed", shown)
    type_over(terminal, place, shown, str(seed))
    terminal.press("ctrl+s")
    terminal.wait_gone("Start (ctrl+s)")


def prompt_pattern(name: str = PLAYER) -> re.Pattern[str]:
    """The status line while ``name`` is to decide and no bot is thinking."""
    return re.compile(rf"^ {re.escape(name)}: (?!.*thinking)", re.M)


def last_logged(terminal: Terminal) -> int | None:
    """The number of the last decision the Log box shows (0 before the first), if it shows."""
    log = terminal.boxes().get("Log")
    if log is None:
        return None
    numbers = [int(found.group(1)) for line in log.inside if (found := NUMBERED.match(line))]
    return max(numbers, default=0)


NUMBERED = re.compile(r" ?(\d+)\. ")  # a decision in the log: "12. Ann takes…"


def wait_for_table(
    terminal: Terminal, karavan: Karavan, fits: Callable[[int], bool], what: str
) -> Match:
    """Wait until the saved game has a number of decisions that ``fits`` and seat 0 to move,
    and the screen shows that game: its log up to the last decision, the player's prompt."""

    def ready(screen: str) -> Match | None:
        match = karavan.autosave()
        if match is None or not fits(len(match.history)) or match.to_move != 0:
            return None
        if last_logged(terminal) != len(match.history) or not prompt_pattern().search(screen):
            return None
        return match

    found = terminal.wait_until(ready, f"{what}, {PLAYER} to move, on the screen")
    assert isinstance(found, Match)
    terminal.settle()
    return found


def wait_for_turn(terminal: Terminal, karavan: Karavan, decisions: int) -> Match:
    """Wait until more than ``decisions`` were made and the table waits for seat 0 again."""
    return wait_for_table(terminal, karavan, lambda n: n > decisions, f"over {decisions} decisions")


def decide_from_move_list(terminal: Terminal, *keys: str) -> None:
    """``a`` for the move list, ``keys`` in it, Enter on the highlighted decision."""
    terminal.press("a")
    terminal.wait_for(MOVES)
    terminal.settle()  # the list takes the focus as it opens
    terminal.press(*keys, "enter")
    terminal.wait_gone(MOVES)


TOAST_EDGE = "▌"  # the bar down the left of a note (a toast); the table draws none


def table(terminal: Terminal) -> dict[str, Box]:
    """The table's boxes, once no note covers them.

    A note ("You drew 1 silk from the deck.") is drawn over the table for a few
    seconds; what is compared is the table under it.
    """
    terminal.wait_until(lambda screen: TOAST_EDGE not in screen, "the notes gone")
    return terminal.boxes()


def wait_for_review(terminal: Terminal, judged: int) -> None:
    """On the review screen: wait for the accuracy line, over ``judged`` decisions."""

    def reviewed(screen: str) -> re.Match[str] | None:
        assert "The review stopped" not in screen, screen  # no use waiting on
        return REVIEWED.search(screen)

    found = terminal.wait_until(reviewed, "the accuracy line", timeout=REVIEW_TIME)
    assert isinstance(found, re.Match) and int(found.group(2)) == judged, found


def quit_app(terminal: Terminal) -> None:
    """Esc back to the title (t from the results, where Esc says the ways on), then ``q``;
    the command ends with status 0."""
    for _ in range(20):
        if TITLE in terminal.text():
            break
        terminal.press("escape")
        terminal.settle()
        if "t goes to the title" in terminal.text():
            terminal.press("t")
            terminal.settle()
    assert TITLE in terminal.text(), terminal.text()
    terminal.press("q")
    assert terminal.wait_exit() == 0
