"""Turning states and actions into JSON-ready data and back, with cattrs.

Structuring is strict, because what comes back may have been edited by
hand: a whole number must be a JSON integer (never a bool, a float or a
string), a flag true or false, a text a string, and no unknown key is taken.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Union

import cattrs
from cattrs.preconf.json import make_converter
from cattrs.strategies import configure_tagged_union

from karavan_core.engine import Action, Game, State
from karavan_core.registry import get_game


def _strict_int(value: object, _: type) -> int:
    if type(value) is not int:
        raise TypeError(f"expected a whole number, not {type(value).__name__}")
    return value


def _strict_bool(value: object, _: type) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected true or false, not {type(value).__name__}")
    return value


def _strict_str(value: object, _: type) -> str:
    if type(value) is not str:
        raise TypeError(f"expected text, not {type(value).__name__}")
    return value


def _strict_enum(value: object, kind: type[enum.Enum]) -> enum.Enum:
    if type(value) is not (str if issubclass(kind, str) else int):
        raise TypeError(f"expected a {kind.__name__}, not {type(value).__name__}")
    return kind(value)


@cache
def converter_for(game_name: str) -> cattrs.Converter:
    """A JSON converter knowing ``game_name``'s states and actions."""
    game = get_game(game_name)
    conv = make_converter(forbid_extra_keys=True)
    # Hooks on a class also serve its subclasses, first match in the MRO: bool is an int,
    # and the games' StrEnum and IntEnum values are str and int, so each gets its own.
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(enum.StrEnum, _strict_enum)
    conv.register_structure_hook(enum.IntEnum, _strict_enum)
    configure_tagged_union(
        Union[game.action_types],  # noqa: UP007 - a runtime union of classes
        conv,
        tag_name="type",
        tag_generator=lambda cls: cls.__name__,
    )
    return conv


def action_union(game: Game[Any, Any, Any]) -> Any:
    """The type that (un)structures any of ``game``'s actions."""
    return Union[game.action_types]  # noqa: UP007


def unstructure_state(game: Game[Any, Any, Any], state: State) -> Any:
    """``state`` as JSON-ready data."""
    return converter_for(game.name).unstructure(state, game.state_type)


def structure_state(game: Game[Any, Any, Any], data: Any) -> State:
    """The state described by JSON-ready ``data``."""
    state: State = converter_for(game.name).structure(data, game.state_type)
    return state


@cache
def _action_data(game_name: str) -> Callable[[Action], Any]:
    """What turns one of ``game_name``'s actions into data, looked up once: finding the hook
    of a union made at run time cost more than using it, at every decision of every table."""
    game = get_game(game_name)
    hook: Callable[[Action], Any] = converter_for(game_name).get_unstructure_hook(
        action_union(game)
    )
    return hook


def unstructure_action(game: Game[Any, Any, Any], action: Action) -> Any:
    """``action`` as JSON-ready data (tagged with its class name)."""
    return _action_data(game.name)(action)


def structure_action(game: Game[Any, Any, Any], data: Any) -> Action:
    """The action described by JSON-ready ``data`` (which is left as it was)."""
    if isinstance(data, dict):
        data = dict(data)  # the tagged union takes the tag out of the dict it is given
    action: Action = converter_for(game.name).structure(data, action_union(game))
    return action


def unstructure_actions(game: Game[Any, Any, Any], actions: Sequence[Action]) -> Any:
    """A list of actions as JSON-ready data."""
    one = _action_data(game.name)
    return [one(action) for action in actions]


def structure_actions(game: Game[Any, Any, Any], data: Any) -> list[Action]:
    """The list of actions described by JSON-ready ``data``."""
    if not isinstance(data, list):
        raise TypeError("expected a list of decisions")
    return [structure_action(game, item) for item in data]
