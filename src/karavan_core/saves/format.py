"""The save format, and loading a save by replaying it.

A game is a pure function of its seed, options, seats and decisions, so a
save (format :data:`FORMAT_VERSION`) holds just those, the redo list, how decisions
group into undo steps, how many hints and take-backs each player asked for, and the
table's count of changes.  Loading deals the game afresh from the seed and replays
every decision, each of which must be legal, then checks the redo list the
same way: a save is verified, never trusted.  Saves of formats 1 and 2 also
stored the starting and current positions; those must agree with the replay.  A save
of an older format whose game met a rule changed since replays by the rule it was
played with (:data:`RULES_CHANGED`).

Every problem becomes a :class:`SaveError`: one line naming the file and the
problem.  The file itself is never changed by reading it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from attrs import frozen

from karavan_core.bots import BOT_LEVELS
from karavan_core.engine import Action, Game, IllegalAction
from karavan_core.games.karakum.components import ROW_RULE_OPTION as KARAKUM_ROW_RULE
from karavan_core.games.karawane.components import DEEPER_RULE_OPTION as KARAWANE_DEEPER_RULE
from karavan_core.match import BOT, HUMAN, MAX_SEED, Match, Seat, names_differ
from karavan_core.registry import game_names, get_game
from karavan_core.saves.codec import structure_action, unstructure_actions, unstructure_state
from karavan_core.saves.files import (
    FileProblem,
    atomic_write,
    read_limited,
    remove_abandoned_temps,
    save_files,
)
from karavan_core.saves.lock import open_elsewhere
from karavan_core.text import check_name, clean_name, parse_json, printable
from karavan_core.version import __version__

FORMAT = "karavan-save"
FORMAT_VERSION = 7
MAX_DECISIONS = 100_000  # far beyond any real game: a longer list is not a save
MAX_REVISION = 10**12  # changes at one table: far beyond any game, however often undone
# The options a game may be started with (the rest keep the rules an older save was played by).
OPTIONS = frozenset({"first_player", KARAKUM_ROW_RULE, KARAWANE_DEEPER_RULE})
# Rules changed since a format: a save of an older format replays by the options that keep
# the rules it was played with, unless its game never met a state where the change decides
# otherwise (Game.older_rules_matter): then it goes on under today's rules.
RULES_CHANGED: dict[int, dict[str, dict[str, Any]]] = {
    6: {"karakum": {KARAKUM_ROW_RULE: False}},  # a payment refills the empty face-up places
    7: {"karawane": {KARAWANE_DEEPER_RULE: False}},  # a camel in the oasis may go deeper
}
# State fields a format version introduced: a save of an older version lacks them.  Only
# formats 1 and 2 stored positions, so a field added since is listed under 3.
FIELDS_ADDED: dict[int, dict[str, frozenset[str]]] = {
    2: {"jaipur": frozenset({"known"})},
    3: {
        "karakorum": frozenset({"final_expeditions"}),  # kept since format 5
        "karakum": frozenset({"payment_refills_row"}),  # since format 6
        "karawane": frozenset({"deeper_in_oasis"}),  # since format 7
    },
}


class SaveError(Exception):
    """A save file that cannot be read; ``str()`` is one line naming file and problem."""

    def __init__(self, path: os.PathLike[str] | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        problem = " ".join(printable(problem).split())
        if len(problem) > 160:  # what a file holds can be long: the line stays short
            problem = problem[:159] + "…"
        super().__init__(f"{printable(str(self.path))}: {problem}")


class _Unfit(Exception):
    """A save's contents do not fit; ``str()`` is the problem, as a clause."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- writing -----------------------------------------------------------------------------


def _joined(match: Match) -> list[int]:
    """The decisions (history, then redo list) that continue the gesture before them."""
    plies = match.plies + match.undone
    return [index for index, ply in enumerate(plies) if not ply.starts]


def envelope(match: Match, history: list[Any] | None = None) -> dict[str, Any]:
    """The JSON-ready save of ``match`` (its decisions as data: ``history``, if given)."""
    game = match.game
    if history is None:
        history = unstructure_actions(game, match.history)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "program": f"karavan {__version__}",
        "game": game.name,
        "created_at": match.created_at,
        "saved_at": _now(),
        "seed": match.seed,
        "options": match.options,
        "seats": [{"name": s.name, "kind": s.kind, "level": s.level} for s in match.seats],
        "history": history,
        "redo": unstructure_actions(game, match.redo_actions),
        "joined": _joined(match),
        "hints": list(match.hints),
        "takebacks": list(match.takebacks),
        "revision": match.revision,
    }


class Envelopes:
    """The saves of one match, change after change, each of its decisions turned into data
    once: a server keeps a table's whole save at every decision, and the decisions are
    most of it.  A decision taken back is turned into data again if it is made again."""

    def __init__(self) -> None:
        self._actions: list[Action] = []
        self._data: list[Any] = []

    def of(self, match: Match) -> dict[str, Any]:
        """The JSON-ready save of ``match`` as it is now."""
        actions = match.history
        same = 0
        for mine, before in zip(actions, self._actions, strict=False):
            if mine is not before:
                break
            same += 1
        data = self._data[:same] + unstructure_actions(match.game, actions[same:])
        self._actions, self._data = actions, data
        return envelope(match, list(data))


def save_match(match: Match, path: str | os.PathLike[str]) -> Path:
    """Write ``match`` to ``path`` atomically and return the path."""
    target = Path(path)
    atomic_write(target, json.dumps(envelope(match), separators=(",", ":")))
    return target


# -- reading -----------------------------------------------------------------------------


def read_envelope(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The checked envelope of the save at ``path``, any format version (:class:`SaveError`)."""
    source = Path(path)
    try:
        raw = read_limited(source)
    except FileProblem as problem:
        raise SaveError(source, str(problem)) from None
    if raw.startswith(b"\xef\xbb\xbf"):  # a byte-order mark, as some editors write
        raw = raw[3:]
    if not raw.strip():
        raise SaveError(source, "file is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(source, "not a Karavan save (not text)") from None
    try:
        data = parse_json(text)
    except json.JSONDecodeError as error:
        raise SaveError(
            source,
            f"damaged or truncated: not valid JSON (line {error.lineno}, column {error.colno})",
        ) from None
    except ValueError as error:  # an integer of thousands of digits, 1e999, NaN
        raise SaveError(source, f"damaged: {str(error).split(':')[0].lower()}") from None
    except RecursionError:
        raise SaveError(source, "damaged: nested far deeper than a save is") from None
    return checked_envelope(data, source)


def checked_envelope(data: object, source: str | os.PathLike[str]) -> dict[str, Any]:
    """``data`` (parsed JSON) as a save envelope of any format version; else :class:`SaveError`
    naming ``source`` (a file, or where else the envelope was kept)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(source, "not a Karavan save (no Karavan format marker)")
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise SaveError(source, "damaged: the format version is missing or invalid")
    if version > FORMAT_VERSION:
        raise SaveError(
            source,
            f"written by a newer Karavan (save format {version}; this version reads up to "
            f"{FORMAT_VERSION})",
        )
    name = data.get("game")
    if not isinstance(name, str) or name not in game_names():
        raise SaveError(source, f"unknown game {printable(repr(name))[:40]}")
    return data


Progress = Callable[[int, int], None]
"""Told ``(decisions replayed, decisions in all)`` now and then while a save is replayed."""

PROGRESS_EVERY = 50
"""Decisions replayed between two calls of a :data:`Progress`."""


def load_match(
    path: str | os.PathLike[str],
    expect_game: str | None = None,
    progress: Progress | None = None,
) -> Match:
    """Rebuild the match saved at ``path``, verified by replaying it, with undo and redo
    (``progress``, if given, is told how far the replay is: a long save takes a while)."""
    source = Path(path)
    return match_from_envelope(read_envelope(source), source, expect_game, progress)


def match_from_envelope(
    data: dict[str, Any],
    source: str | os.PathLike[str],
    expect_game: str | None = None,
    progress: Progress | None = None,
) -> Match:
    """Rebuild the match of the checked envelope ``data`` (see :func:`checked_envelope`),
    verified by replaying it; :class:`SaveError` naming ``source`` if it does not fit."""
    if expect_game is not None and data["game"] != expect_game:
        raise SaveError(source, f"a save of {data['game']}, not of {expect_game}")
    game = get_game(data["game"])
    try:
        return _rebuild(game, data, progress)
    except _Unfit as problem:
        raise SaveError(source, f"damaged: {problem}") from None
    except RecursionError:
        raise SaveError(source, "damaged: nested far deeper than a save is") from None
    except Exception as error:  # whatever else an edited file trips, it is refused in one line
        raise SaveError(
            source, f"damaged: the {game.title} game inside does not fit ({_why(error)})"
        ) from None


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise _Unfit(f"{key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _Unfit(f"{key!r} does not hold what it should")
    return value


def _seats(game: Game[Any, Any, Any], data: Any, version: int) -> list[Seat]:
    if not isinstance(data, list):
        raise _Unfit("the seats are not a list")
    if not game.min_players <= len(data) <= game.max_players:
        raise _Unfit(f"it seats {len(data)}, but {game.title} is for {game.player_counts}")
    seats = []
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict) or not set(item) <= {"name", "kind", "level"}:
            raise _Unfit(f"seat {number} is not a seat")
        name, kind, level = item.get("name"), item.get("kind", HUMAN), item.get("level")
        if not isinstance(name, str) or kind not in (HUMAN, BOT):
            raise _Unfit(f"seat {number} is not a seat")
        if kind == BOT and level not in BOT_LEVELS:
            raise _Unfit(f"seat {number} has an unknown bot level {printable(repr(level))[:30]}")
        if kind == HUMAN and level is not None:
            raise _Unfit(f"seat {number} is a human with a bot level")
        if version < 3:
            name = clean_name(name)  # older versions took any name: make it safe to show
        else:
            try:
                check_name(name)
            except ValueError as error:
                raise _Unfit(f"seat {number}: {_clause(error)}") from None
        seats.append(Seat(name, kind, level))
    if not names_differ(seats):
        raise _Unfit("two seats have the same name")
    return seats


def _rebuild(
    game: Game[Any, Any, Any], data: dict[str, Any], progress: Progress | None = None
) -> Match:
    """Deal the game from its seed and replay the saved decisions (raises :class:`_Unfit`)."""
    version = data["version"]
    seed = _field(data, "seed", int)
    if not -MAX_SEED < seed < MAX_SEED:
        raise _Unfit("the seed is out of range")
    options = data.get("options") or {}
    if not isinstance(options, dict) or not set(options) <= OPTIONS:
        raise _Unfit("the options are not ones a game starts with")
    seats = _seats(game, data.get("seats"), version)
    history_data = _field(data, "history", list)
    redo_data = _field(data, "redo", list)
    if len(history_data) + len(redo_data) > MAX_DECISIONS:
        raise _Unfit("far more decisions than any game has")
    decisions = (
        _decisions(game, history_data, "history"),
        _decisions(game, redo_data, "redo list"),
    )
    created = data.get("created_at")
    start = (game, seats, seed, created if isinstance(created, str) else None)
    joined = _joins(data, version, len(history_data), len(redo_data))
    older = _older_rules(game, version)
    match, met = _replay(*start, options | older, decisions, joined, progress)
    if older and not met:  # the change never touched this game: it is the same under today's
        match, _ = _replay(*start, options, decisions, joined)
    if version >= 4:
        match.hints = _hints(data, seats)
    if version >= 5:
        match.takebacks = _counts(data, "takebacks", seats, "take-back")
        revision = _field(data, "revision", int)
        # One change may bring several decisions (a gesture, a redo with the bots' replies).
        if not 0 <= revision <= MAX_REVISION:
            raise _Unfit(f"its revision is not a count from 0 to {MAX_REVISION}")
        match.revision = revision
    else:  # older saves kept no count of the table's changes: one per decision will do
        match.revision = len(history_data) + len(redo_data)
    if version < 3:
        _check_positions(game, data, match)
    return match


def _older_rules(game: Game[Any, Any, Any], version: int) -> dict[str, Any]:
    """The options that keep the rules a save of format ``version`` was played with."""
    older: dict[str, Any] = {}
    for since, games in sorted(RULES_CHANGED.items()):
        if version < since:
            older |= games.get(game.name, {})
    return older


def _replay(
    game: Game[Any, Any, Any],
    seats: list[Seat],
    seed: int,
    created: str | None,
    options: dict[str, Any],
    decisions: tuple[list[Action], list[Action]],
    joined: set[int],
    progress: Progress | None = None,
) -> tuple[Match, bool]:
    """The match dealt from ``seed`` with ``decisions`` (history, redo list) replayed, and
    whether it met a state where a rule changed since decides otherwise."""
    history, redo = decisions
    total = len(history) + len(redo)
    try:
        match = Match(game, seats, seed, options, created_at=created)
    except ValueError as error:  # options the game refuses
        raise _Unfit(_clause(error)) from None
    met = False
    for index, action in enumerate(history + redo):
        if progress is not None and index % PROGRESS_EVERY == 0:
            progress(index, total)
        where = "history" if index < len(history) else "redo list"
        number = index + 1 if index < len(history) else index - len(history) + 1
        try:
            match.push(action, starts=index not in joined)
        except IllegalAction as error:
            raise _Unfit(f"decision {number} of its {where} is not legal ({error})") from None
        met = met or game.older_rules_matter(match.state)
    match.take_back_to(len(history))
    if progress is not None:
        progress(total, total)
    return match, met


def _decisions(game: Game[Any, Any, Any], data: list[Any], where: str) -> list[Action]:
    """The decisions of ``data``, each one a decision of ``game`` (raises :class:`_Unfit`)."""
    kinds = {kind.__name__ for kind in game.action_types}
    decisions = []
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict) or item.get("type") not in kinds:
            raise _Unfit(f"decision {number} of its {where} is not a {game.title} decision")
        try:
            decisions.append(structure_action(game, item))
        except Exception as error:  # cattrs names what does not fit
            raise _Unfit(f"decision {number} of its {where} does not fit ({_why(error)})") from None
    return decisions


def _clause(error: BaseException) -> str:
    """An error's sentence as a clause to follow "damaged:"."""
    text = str(error).strip().rstrip(".")
    return text[:1].lower() + text[1:]


def _joins(data: dict[str, Any], version: int, done: int, undone: int) -> set[int]:
    if version < 3:
        return set()  # older versions kept every decision its own undo step
    joined = _field(data, "joined", list)
    if not all(type(i) is int and 0 < i < done + undone for i in joined):
        raise _Unfit("its undo steps do not fit its decisions")
    if done in joined:
        raise _Unfit("its undo steps split a gesture between history and redo list")
    return set(joined)


def _hints(data: dict[str, Any], seats: list[Seat]) -> list[int]:
    return _counts(data, "hints", seats, "hint")


def _counts(data: dict[str, Any], key: str, seats: list[Seat], what: str) -> list[int]:
    """A count per seat of what only humans do (hints, take-backs); raises :class:`_Unfit`."""
    counts: list[int] = _field(data, key, list)
    if len(counts) != len(seats) or not all(
        type(n) is int and 0 <= n <= MAX_DECISIONS for n in counts
    ):
        raise _Unfit(f"its {what} counts do not fit its seats")
    if any(n and seat.is_bot for n, seat in zip(counts, seats, strict=True)):
        raise _Unfit(f"a bot seat has {what}s")
    return counts


def _check_positions(game: Game[Any, Any, Any], data: dict[str, Any], match: Match) -> None:
    """A save of format 1 or 2 stored its positions: they must be those of the replay."""
    version = data["version"]
    newer = set().union(
        *(fields.get(game.name, ()) for v, fields in FIELDS_ADDED.items() if v > version)
    )
    for key, state in (("initial_state", match.initial), ("state", match.state)):
        replayed = unstructure_state(game, state)
        stored = data.get(key)
        if not isinstance(stored, dict):
            raise _Unfit(f"{key!r} is missing")
        expected = {k: v for k, v in replayed.items() if k not in newer}
        if json.loads(json.dumps(expected)) != stored:
            which = "starting position" if key == "initial_state" else "saved position"
            raise _Unfit(f"its history does not lead to its {which}")


def _why(error: BaseException) -> str:
    leaves = list(_leaf_errors(error))
    first = leaves[0] if leaves else error
    if isinstance(first, KeyError):
        return f"missing {first.args[0]!r}" if first.args else "something is missing"
    text = str(first).splitlines()[0] if str(first) else type(first).__name__
    return text[:100]


def _leaf_errors(error: BaseException) -> list[BaseException]:
    inner = getattr(error, "exceptions", None)
    if not inner:
        return [error]
    return [leaf for sub in inner for leaf in _leaf_errors(sub)]


# -- listing -----------------------------------------------------------------------------


@frozen(kw_only=True)
class SaveSummary:
    """One line of the saves table, worked out from the verified save."""

    path: Path
    game: str
    players: tuple[str, ...]
    decisions: int
    saved_at: str
    over: bool


def summarize(path: str | os.PathLike[str]) -> SaveSummary:
    """The table line for the save at ``path``, after verifying it (raises :class:`SaveError`)."""
    source = Path(path)
    data = read_envelope(source)
    match = load_match(source)
    saved_at = data.get("saved_at")
    return SaveSummary(
        path=source,
        game=match.game.title,
        players=tuple(seat.name for seat in match.seats),
        decisions=len(match.history),
        saved_at=saved_at if isinstance(saved_at, str) else "",
        over=match.is_over(),
    )


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def list_saves(folder: Path) -> tuple[list[SaveSummary], list[SaveError]]:
    """Every save in ``folder`` and its subfolders, newest first, and the files that failed.

    Temporary files that an interrupted write left behind are removed first.
    """
    good: list[SaveSummary] = []
    bad: list[SaveError] = []
    remove_abandoned_temps(folder)
    for path in save_files(folder):
        try:
            good.append(summarize(path))
        except SaveError as error:
            bad.append(error)
    # Times are kept to the second: the file's modification time breaks ties.
    good.sort(key=lambda s: (s.saved_at, _mtime(s.path)), reverse=True)
    return good, bad


def latest_save(folder: Path) -> SaveSummary | None:
    """The most recently saved match in ``folder``, if any loads."""
    good, _ = list_saves(folder)
    return good[0] if good else None


def resumable(summaries: list[SaveSummary]) -> SaveSummary | None:
    """Of ``summaries`` (newest first, as :func:`list_saves` gives them): the newest in
    progress that no other window plays now."""
    return next((s for s in summaries if not s.over and not open_elsewhere(s.path)), None)
