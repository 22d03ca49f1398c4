"""A lesson's two data files, read and checked at the door, and its moves written out.

``GAME.toml`` holds the game, the seed, who starts and the steps (one
``[[steps]]`` table each, its keys :class:`~karavan_core.lessons.model.Step`'s
fields); ``GAME.moves.json`` every decision of the game, a JSON list in the
save files' encoding, one decision a line so that a change reads well in a
diff.  (TOML has no null, which some decisions hold.)
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from typing import Any

import cattrs

from karavan_core.engine import Action, Game
from karavan_core.lessons.model import Lesson, Step
from karavan_core.registry import game_names, get_game
from karavan_core.saves.codec import structure_action, unstructure_actions
from karavan_core.text import parse_json, printable

# The keys of a lesson's TOML and of each of its ``[[steps]]``, with the type each holds; all
# must be there but the optional ones, which take Lesson's and Step's defaults.
Kinds = type | tuple[type, ...]  # what a key's value may be
_LESSON_KEYS: dict[str, Kinds] = {
    "game": str,
    "seed": int,
    "first_player": int,
    "welcome": str,
    "steps": list,
}
_STEP_KEYS: dict[str, Kinds] = {
    "at": int,
    "say": str,
    "task": str,
    "decisions": int,
    "why": (str, list),  # one reason for the step, or one for each of its decisions
    "teaches": list,
}
_OPTIONAL = {"welcome", "decisions", "why", "teaches"}
_KIND_NAMES: dict[Kinds, str] = {
    int: "a whole number",
    str: "text",
    list: "a list",
    (str, list): "text or a list",
}


class _Unfit(Exception):
    """What is wrong with a lesson's file, said as a clause."""


def _checked(table: object, keys: dict[str, Kinds], where: str) -> dict[str, Any]:
    """``table`` if it holds only ``keys``, each of its type, and every one not optional."""
    if not isinstance(table, dict):
        raise _Unfit(f"{where} is not a table")
    for key in table:
        if key not in keys:
            raise _Unfit(f"{where} has an unknown key {printable(repr(key))[:40]}")
    for key, kind in keys.items():
        if key not in table:
            if key not in _OPTIONAL:
                raise _Unfit(f"{where} has no {key!r}")
        elif not isinstance(table[key], kind) or isinstance(table[key], bool):
            raise _Unfit(f"{where}'s {key!r} is not {_KIND_NAMES[kind]}")
    return table


def _step(table: object, number: int) -> Step:
    where = f"step {number}"
    data = _checked(table, _STEP_KEYS, where)
    teaches = data.pop("teaches", [])
    if not all(isinstance(rule, str) for rule in teaches):
        raise _Unfit(f"{where}'s 'teaches' is not a list of rule names")
    if data["at"] < 0 or data.get("decisions", 0) < 0:
        raise _Unfit(f"{where} counts decisions below zero")
    why = data.pop("why", "")
    if isinstance(why, list):  # a reason for each of its decisions
        if len(why) != data.get("decisions", 0) or not all(isinstance(w, str) for w in why):
            raise _Unfit(f"{where}'s 'why' is not one reason for each of its decisions")
        why = tuple(why)
    return Step(**data, why=why, teaches=tuple(teaches))


def _moves(game: Game[Any, Any, Any], data: object) -> tuple[Action, ...]:
    """The decisions of ``data``, each a decision of ``game`` in the save files' encoding."""
    if not isinstance(data, list):
        raise _Unfit("it is not a list of decisions")
    kinds = {kind.__name__ for kind in game.action_types}
    moves = []
    for number, item in enumerate(data):
        if not isinstance(item, dict) or item.get("type") not in kinds:
            raise _Unfit(f"move {number} is not a {game.title} decision")
        try:
            moves.append(structure_action(game, item))
        except Exception as error:  # cattrs says what does not fit, and where
            raise _Unfit(
                f"move {number} does not fit ({cattrs.transform_error(error)[0]})"
            ) from None
    return tuple(moves)


def _read(folder: Traversable, filename: str) -> tuple[str, str]:
    """The text of ``filename`` in ``folder``, and its path to name in an error."""
    shown = str(folder / filename)
    try:
        return (folder / filename).read_text(encoding="utf-8"), shown
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"The lesson file {shown} cannot be read ({error}).") from None


def load_lesson(folder: Traversable, name: str) -> Lesson:
    """The lesson of ``folder``'s ``name``.toml and ``name``.moves.json.

    Anything amiss (not TOML or JSON, an unknown or missing key, a value of
    the wrong type, a move the save files' codec cannot read, steps out of
    order) is a ``ValueError`` naming the file.
    """
    text, shown = _read(folder, f"{name}.toml")
    try:
        data = _checked(tomllib.loads(text), _LESSON_KEYS, "the lesson")
        if data["game"] not in game_names():
            raise _Unfit(f"its game {printable(repr(data['game']))[:40]} is not one of Karavan's")
        if data["game"] != name:
            raise _Unfit(f"it is a lesson of {data['game']!r}, not of {name!r}")
        steps = tuple(_step(table, number) for number, table in enumerate(data["steps"], start=1))
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"The lesson file {shown} is not valid TOML: {error}.") from None
    except _Unfit as problem:
        raise ValueError(f"The lesson file {shown} is damaged: {problem}.") from None
    moves_text, moves_shown = _read(folder, f"{name}.moves.json")
    try:
        moves = _moves(get_game(name), parse_json(moves_text))
    except ValueError as error:  # JSON's decoding errors are ValueErrors too
        raise ValueError(f"The lesson file {moves_shown} is not valid JSON: {error}.") from None
    except _Unfit as problem:
        raise ValueError(f"The lesson file {moves_shown} is damaged: {problem}.") from None
    for number, step in enumerate(steps, start=1):
        if step.end > len(moves):
            raise ValueError(
                f"The lesson file {shown} is damaged: step {number} goes past the last of "
                f"its {len(moves)} moves."
            )
    try:
        return Lesson(
            game_name=name,
            seed=data["seed"],
            first_player=data["first_player"],
            moves=moves,
            steps=steps,
            welcome=data.get("welcome", ""),
        )
    except ValueError as error:  # the steps out of order
        reason = str(error).rstrip(".")
        raise ValueError(
            f"The lesson file {shown} is damaged: {reason[:1].lower()}{reason[1:]}."
        ) from None


def dump_moves(game: Game[Any, Any, Any], moves: Sequence[Action]) -> str:
    """``moves`` as the text of a ``.moves.json`` file: a JSON list, one decision a line."""
    lines = []
    for item in unstructure_actions(game, moves):
        tag = {"type": item.pop("type")}
        lines.append("  " + json.dumps(tag | item))  # the kind of decision first, as it reads
    return "[\n" + ",\n".join(lines) + "\n]\n"
