"""The app's injected configuration and the small settings file it remembers.

Tests and the command line build the app the same way: a :class:`AppConfig`
names the saves folder, the settings file and the bot delay, so nothing the
app does depends on the user's home folder unless asked to.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import attrs
from attrs import Factory, define, field, frozen

from karavan_core.bots import BOT_LEVELS
from karavan_core.match import BOT, Seat, names_differ
from karavan_core.registry import game_names
from karavan_core.saves import atomic_write
from karavan_core.text import check_name, printable
from karavan_net.lobby import DOOR_ENV, CreateTable
from karavan_net.protocol import parse_address

# The longest address and table code the Join dialog takes (and so the settings keep).
MAX_ADDRESS = 300
MAX_PATH = 4096  # the longest file name kept in the settings
MAX_CODE = 64

SETTINGS_ENV = "KARAVAN_SETTINGS"
VISITOR_ENV = "KARAVAN_VISITOR"  # set by karavan web: who this tab's visitor is, for hosts
SAVES_WORDS_ENV = "KARAVAN_SAVES_WORDS"  # set by karavan web: its saves folder, in words
TOUCH_ENV = "KARAVAN_TOUCH"  # set by karavan web for a tab on a touch screen (no hover)
DEFAULT_THEME = "textual-dark"
DEFAULT_BOT_DELAY = 0.6
BOT_DELAYS: tuple[float, ...] = (0.0, 0.3, 0.6, 1.0, 2.0)
MAX_SEATS = 4  # the most players any game seats


def default_settings_path() -> Path:
    """``$KARAVAN_SETTINGS``, else ``$XDG_CONFIG_HOME/karavan/settings.json``."""
    env = os.environ.get(SETTINGS_ENV)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "karavan" / "settings.json"


@define
class Settings:
    """What the player chose and the app remembers between runs."""

    theme: str = DEFAULT_THEME
    ascii: bool = False
    bot_delay: float = DEFAULT_BOT_DELAY
    bell: bool = True  # a bell when it is your turn at a hosted table, after the others'
    clock_bell: bool = True  # a bell as your own live clock enters its last seconds
    chat: bool = True  # the chat of hosted tables: shown, and written in
    desktop_notes: bool = True  # a desktop notification of a turn elsewhere, a game started
    # What the new game dialog offers next time: the game last started, the name of its
    # first human player, and its seats (so also how many played).
    last_game: str | None = None
    player_name: str | None = None
    last_seats: tuple[Seat, ...] = ()
    # How far each game's lesson has gone: the step to go on from (past the last: finished).
    lessons: dict[str, int] = Factory(dict)
    # The table last joined, so that the Join dialog offers it again after a drop.
    last_join: LastJoin | None = None
    # The server last played on (Play online offers it again).
    last_server: str | None = None
    # A file of the CAs that check a wss:// server's certificate besides the system's
    # (for a self-signed server): karavan online --tls-ca FILE keeps it here.
    tls_ca: str | None = None

    @classmethod
    def load(cls, path: Path) -> Settings:
        """Read ``path``; a missing or unreadable file gives the defaults."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        settings = cls()
        if isinstance(data.get("theme"), str):
            settings.theme = data["theme"]
        if isinstance(data.get("ascii"), bool):
            settings.ascii = data["ascii"]
        if isinstance(data.get("bell"), bool):
            settings.bell = data["bell"]
        if isinstance(data.get("clock_bell"), bool):
            settings.clock_bell = data["clock_bell"]
        if isinstance(data.get("chat"), bool):
            settings.chat = data["chat"]
        if isinstance(data.get("desktop_notes"), bool):
            settings.desktop_notes = data["desktop_notes"]
        delay = data.get("bot_delay")
        if isinstance(delay, int | float) and not isinstance(delay, bool) and 0 <= delay <= 10:
            settings.bot_delay = float(delay)
        if isinstance(data.get("last_game"), str):
            settings.last_game = data["last_game"]  # the dialog offers it only if it knows it
        name = data.get("player_name")
        if isinstance(name, str) and _fits(name):
            settings.player_name = name
        settings.last_seats = _seats(data.get("last_seats"))
        lessons = data.get("lessons")
        if isinstance(lessons, dict):
            settings.lessons = {
                game: step
                for game, step in lessons.items()
                if game in game_names()
                and isinstance(step, int)
                and not isinstance(step, bool)
                and 0 <= step < 1000
            }
        settings.last_join = LastJoin.load(data.get("last_join"))
        server = data.get("last_server")
        if isinstance(server, str) and len(server) <= MAX_ADDRESS and _address(server):
            settings.last_server = server
        ca = data.get("tls_ca")
        if isinstance(ca, str) and 0 < len(ca) <= MAX_PATH and printable(ca) == ca:
            settings.tls_ca = ca
        return settings

    def save(self, path: Path) -> None:
        """Write the settings to ``path`` (atomically; failures are ignored by the caller)."""
        data = {
            "theme": self.theme,
            "ascii": self.ascii,
            "bell": self.bell,
            "clock_bell": self.clock_bell,
            "chat": self.chat,
            "desktop_notes": self.desktop_notes,
            "bot_delay": self.bot_delay,
            "last_game": self.last_game,
            "player_name": self.player_name,
            "last_seats": [{"name": seat.name, "bot": seat.level} for seat in self.last_seats],
            "lessons": self.lessons,
            "last_join": None if self.last_join is None else attrs.asdict(self.last_join),
            "last_server": self.last_server,
            "tls_ca": self.tls_ca,
        }
        atomic_write(path, json.dumps(data, indent=2) + "\n")


@frozen
class LastJoin:
    """Where the player last took a seat at a hosted table, and under which name."""

    address: str
    code: str
    name: str

    @classmethod
    def load(cls, data: object) -> LastJoin | None:
        """The remembered table read from the settings file (outside data), if all of it is fit."""
        if not isinstance(data, dict):
            return None
        address, code, name = data.get("address"), data.get("code"), data.get("name")
        if not (isinstance(address, str) and isinstance(code, str) and isinstance(name, str)):
            return None
        try:
            parse_address(address)
        except ValueError:
            return None
        if not 0 < len(code) <= MAX_CODE or printable(code) != code or not code.isprintable():
            return None
        if len(address) > MAX_ADDRESS or printable(address) != address or not _fits(name):
            return None
        return cls(address, code, name)


def _address(text: str) -> bool:
    """Whether ``text`` (read from the settings file: outside data) is an address to offer."""
    try:
        parse_address(text)
    except ValueError:
        return False
    return printable(text) == text and text.isprintable()


def _fits(name: str) -> bool:
    """Whether ``name`` (read from the settings file: outside data) is a valid player name."""
    try:
        return check_name(name) == name
    except ValueError:
        return False


def _seats(data: object) -> tuple[Seat, ...]:
    """The remembered seats read from the settings file (outside data): all valid, or none.

    Each is ``{"name": ..., "bot": LEVEL or null}``; names must fit and differ, levels exist.
    """
    if not isinstance(data, list) or not 1 <= len(data) <= MAX_SEATS:
        return ()
    seats = []
    for item in data:
        if not isinstance(item, dict):
            return ()
        name, level = item.get("name"), item.get("bot")
        if not isinstance(name, str) or not _fits(name):
            return ()
        if level is None:
            seats.append(Seat(name))
        elif isinstance(level, str) and level in BOT_LEVELS:
            seats.append(Seat(name, BOT, level))
        else:
            return ()
    return tuple(seats) if names_differ(seats) else ()


def _random_seed() -> int:
    return random.SystemRandom().randrange(1, 1_000_000)


@define
class AppConfig:
    """Everything the app takes from outside.

    ``bot_delay`` overrides the remembered setting when given (tests use 0);
    ``ascii`` turns ASCII mode on for this run (``--ascii``) whatever the setting;
    ``seed_factory`` makes the seeds offered for new games (tests fix it);
    ``review_jobs`` is how many processes a review uses, and ``review_budget``
    the iterations of its searches and of a hint's, which is the review's open
    search (``None``: each game's own; tests make both small); ``visitor`` is who
    plays, to the hosts this Karavan joins, behind ``karavan web``, and
    ``saves_words`` names the saves folder there (its path is the server's);
    ``door`` is the one server this Karavan plays on behind that server's ssh door
    (door mode: its lobby, and nothing of the machine it runs on); ``challenge`` the
    table the lobby asks for once it opens (a challenge to named players), if any.
    """

    saves_dir: Path
    settings_path: Path = field(factory=default_settings_path)
    bot_delay: float | None = None
    ascii: bool = False
    seed_factory: Callable[[], int] = _random_seed
    animations: bool = True
    review_jobs: int = field(factory=lambda: max(1, min(4, os.cpu_count() or 1)))
    review_budget: tuple[int, int] | None = None
    visitor: str | None = field(factory=lambda: os.environ.get(VISITOR_ENV) or None)
    saves_words: str | None = field(factory=lambda: os.environ.get(SAVES_WORDS_ENV) or None)
    door: str | None = field(factory=lambda: os.environ.get(DOOR_ENV) or None)
    touch: bool = field(factory=lambda: os.environ.get(TOUCH_ENV) == "1")  # no tooltips
    challenge: CreateTable | None = None  # the table `karavan online --challenge` asks for
