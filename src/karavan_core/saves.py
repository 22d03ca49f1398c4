"""Saving and loading matches.

A save is a versioned JSON envelope built with cattrs: the options, seed and
seats, the initial and current state, and the whole history and redo list,
so that undo and redo survive a reload.  Files are written atomically (a temp
file in the same folder, fsync, ``os.replace``).  Loading never uses pickle,
eval or exec; a file that is not a sound Karavan save raises :class:`SaveError`
with one line naming the file and the problem, and is never modified.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any, Union

import cattrs
from attrs import frozen
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from karavan_core.engine import Action, Game, State
from karavan_core.match import Match, Seat
from karavan_core.registry import game_names, get_game
from karavan_core.version import __version__

FORMAT = "karavan-save"
FORMAT_VERSION = 2
MAX_BYTES = 10 * 1024 * 1024
SAVES_ENV = "KARAVAN_SAVES"

_UMASK = os.umask(0)
os.umask(_UMASK)
_FILE_MODE = 0o666 & ~_UMASK


def _add_jaipur_known_goods(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 to 2: Jaipur's state gained ``known`` (the goods seen going into each hand).

    A match starts with nothing known; the saved position's ``known`` is
    worked out by replaying the history.  Whether the history replays, and
    leads to the saved position, is left to :func:`load_match`, which replays
    it again and names the fault.
    """
    data = dict(data, version=2)
    initial, saved = data.get("initial_state"), data.get("state")
    if data.get("game") != "jaipur" or not isinstance(initial, dict) or not isinstance(saved, dict):
        return data
    hands = initial.get("hands")
    if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
        return data
    nothing = [[0] * len(hand) for hand in hands]
    initial = dict(initial, known=nothing)
    data.update(initial_state=initial, state=dict(saved, known=nothing))
    try:
        game = get_game("jaipur")
        conv = converter_for("jaipur")
        state = conv.structure(initial, game.state_type)
        for action in conv.structure(data["history"], list[action_union(game)]):
            state = game.apply(state, action)
    except Exception:  # a damaged save: load_match finds the fault and names it
        return data
    data["state"] = dict(saved, known=conv.unstructure(state.known, tuple[tuple[int, ...], ...]))
    return data


# Upgrades from an older format version to the next one, keyed by the old version.
# Each takes and returns the raw JSON envelope.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: _add_jaipur_known_goods,
}


class SaveError(Exception):
    """A save file that cannot be read; ``str()`` is one line naming file and problem."""

    def __init__(self, path: os.PathLike[str] | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


@cache
def converter_for(game_name: str) -> cattrs.Converter:
    """A JSON converter knowing ``game_name``'s states and actions."""
    game = get_game(game_name)
    conv = make_converter()
    configure_tagged_union(
        Union[game.action_types],  # noqa: UP007 - a runtime union of classes
        conv,
        tag_name="type",
        tag_generator=lambda cls: cls.__name__,
    )
    return conv


def action_union(game: Game) -> Any:
    """The type that (un)structures any of ``game``'s actions."""
    return Union[game.action_types]  # noqa: UP007


def unstructure_state(game: Game, state: State) -> Any:
    """``state`` as JSON-ready data."""
    return converter_for(game.name).unstructure(state, game.state_type)


def structure_state(game: Game, data: Any) -> State:
    """The state described by JSON-ready ``data``."""
    return converter_for(game.name).structure(data, game.state_type)


def unstructure_action(game: Game, action: Action) -> Any:
    """``action`` as JSON-ready data (tagged with its class name)."""
    return converter_for(game.name).unstructure(action, action_union(game))


def structure_action(game: Game, data: Any) -> Action:
    """The action described by JSON-ready ``data``."""
    return converter_for(game.name).structure(data, action_union(game))


def default_saves_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """Where saves go: ``override``, else ``$KARAVAN_SAVES``, else ``./saves``."""
    if override:
        return Path(override)
    env = os.environ.get(SAVES_ENV)
    return Path(env) if env else Path.cwd() / "saves"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def envelope(match: Match) -> dict[str, Any]:
    """The JSON-ready save envelope of ``match``."""
    game = match.game
    conv = converter_for(game.name)
    union = action_union(game)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "program": f"karavan {__version__}",
        "game": game.name,
        "created_at": match.created_at,
        "saved_at": _now(),
        "seed": match.seed,
        "options": match.options,
        "seats": conv.unstructure(list(match.seats), list[Seat]),
        "decisions": len(match.history),
        "over": match.is_over(),
        "initial_state": conv.unstructure(match.initial, game.state_type),
        "state": conv.unstructure(match.state, game.state_type),
        "history": conv.unstructure(match.history, list[union]),
        "redo": conv.unstructure(match.redo_actions, list[union]),
    }


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            os.fchmod(handle.fileno(), _FILE_MODE)  # mkstemp makes 0600; saves are ordinary files
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    try:  # make the rename itself durable where the platform allows it
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def save_match(match: Match, path: str | os.PathLike[str]) -> Path:
    """Write ``match`` to ``path`` atomically and return the path."""
    target = Path(path)
    atomic_write(target, json.dumps(envelope(match), separators=(",", ":")))
    return target


def read_envelope(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The checked, upgraded envelope of the save at ``path`` (raises :class:`SaveError`)."""
    source = Path(path)
    try:
        size = source.stat().st_size
    except FileNotFoundError:
        raise SaveError(source, "no such file") from None
    except OSError as error:
        raise SaveError(source, f"cannot be read ({error.strerror})") from None
    if size > MAX_BYTES:
        raise SaveError(source, f"file is {size / 1e6:.1f} MB, larger than a save can be (10 MB)")
    try:
        raw = source.read_bytes()
    except OSError as error:
        raise SaveError(source, f"cannot be read ({error.strerror})") from None
    if not raw.strip():
        raise SaveError(source, "file is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveError(source, "not a Karavan save (not text)") from None
    except json.JSONDecodeError as error:
        raise SaveError(
            source,
            f"damaged or truncated: not valid JSON (line {error.lineno}, column {error.colno})",
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(source, "not a Karavan save (no Karavan format marker)")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(source, "damaged: the format version is missing or invalid")
    if version > FORMAT_VERSION:
        raise SaveError(
            source,
            f"written by a newer Karavan (save format {version}; this version reads up to "
            f"{FORMAT_VERSION})",
        )
    while version < FORMAT_VERSION:
        data = MIGRATIONS[version](data)
        version = data["version"]
    name = data.get("game")
    if not isinstance(name, str) or name not in game_names():
        raise SaveError(source, f"unknown game {name!r}")
    return data


def load_match(path: str | os.PathLike[str], expect_game: str | None = None) -> Match:
    """Rebuild the match saved at ``path`` with its undo and redo history."""
    source = Path(path)
    data = read_envelope(source)
    if expect_game is not None and data["game"] != expect_game:
        raise SaveError(source, f"a save of {data['game']}, not of {expect_game}")
    game = get_game(data["game"])
    conv = converter_for(game.name)
    union = action_union(game)
    try:
        seats = conv.structure(data["seats"], list[Seat])
        initial = conv.structure(data["initial_state"], game.state_type)
        current = conv.structure(data["state"], game.state_type)
        history = conv.structure(data["history"], list[union])
        future = conv.structure(data["redo"], list[union])
        seed = data["seed"]
        options = data.get("options") or {}
        if not isinstance(seed, int) or not isinstance(options, dict):
            raise ValueError("bad seed or options")
    except (KeyError, TypeError, ValueError, AttributeError, cattrs.BaseValidationError) as error:
        raise SaveError(
            source, f"damaged: the {game.title} game inside does not fit ({_why(error)})"
        ) from None
    match = Match(game, seats, seed, options, initial=initial, created_at=data.get("created_at"))
    try:
        for action in history:
            match.states.append(game.apply(match.state, action))
            match.history.append(action)
            match.starts.append(True)
    except Exception as error:
        raise SaveError(source, f"damaged: its history cannot be replayed ({error})") from None
    if match.state != current:
        raise SaveError(source, "damaged: its history does not lead to its saved position")
    match.future = [(action, True) for action in future]
    return match


def _why(error: BaseException) -> str:
    if isinstance(error, cattrs.BaseValidationError):
        leaves = list(_leaf_errors(error))
        if leaves:
            return str(leaves[0]).splitlines()[0]
    if isinstance(error, KeyError):
        return f"missing {error.args[0]!r}"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _leaf_errors(error: BaseException) -> Iterator[BaseException]:
    if isinstance(error, cattrs.BaseValidationError):
        for inner in error.exceptions:
            yield from _leaf_errors(inner)
    else:
        yield error


@frozen
class SaveSummary:
    """One line of the saves table."""

    path: Path
    game: str
    players: tuple[str, ...]
    decisions: int
    saved_at: str
    over: bool


def summarize(path: str | os.PathLike[str]) -> SaveSummary:
    """The table line for the save at ``path`` (raises :class:`SaveError`)."""
    source = Path(path)
    data = read_envelope(source)
    try:
        players = tuple(str(seat["name"]) for seat in data["seats"])
        decisions = int(data["decisions"])
    except (KeyError, TypeError, ValueError):
        raise SaveError(source, "damaged: the players or decision count are missing") from None
    title = get_game(data["game"]).title
    return SaveSummary(
        source, title, players, decisions, str(data.get("saved_at", "")), bool(data.get("over"))
    )


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def list_saves(folder: Path) -> tuple[list[SaveSummary], list[SaveError]]:
    """Every save in ``folder`` and its subfolders, newest first, and the files that failed."""
    good: list[SaveSummary] = []
    bad: list[SaveError] = []
    if not folder.is_dir():
        return good, bad
    for path in sorted(folder.rglob("*.json")):
        try:
            good.append(summarize(path))
        except SaveError as error:
            bad.append(error)
    # Times are kept to the second: the file's modification time breaks ties.
    good.sort(key=lambda s: (s.saved_at, _mtime(s.path)), reverse=True)
    return good, bad


def new_save_path(folder: Path, game_name: str, stem: str | None = None) -> Path:
    """A fresh file name in ``folder``: ``stem.json`` or ``GAME-YYYYMMDD-HHMMSS.json``.

    An existing file is never reused: a counter is added until the name is free.
    """
    base = stem or f"{game_name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    base = "".join(ch if ch.isalnum() or ch in "-_ ." else "_" for ch in base).strip() or game_name
    path = folder / f"{base}.json"
    counter = 2
    while path.exists():
        path = folder / f"{base}-{counter}.json"
        counter += 1
    return path


def enable_autosave(match: Match, path: Path) -> None:
    """Save ``match`` to ``path`` now and after every change (play, undo, redo)."""
    match.save_path = path
    match.on_change = lambda m: save_match(m, path)
    save_match(match, path)


def latest_save(folder: Path) -> SaveSummary | None:
    """The most recently saved match in ``folder``, if any loads."""
    good, _ = list_saves(folder)
    return good[0] if good else None
