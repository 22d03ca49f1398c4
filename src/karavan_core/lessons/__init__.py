"""Guided first games ("Learn to play"): one lesson per game, as data.

A :class:`Lesson` is a real deal of the engine (a seed and who starts) and
every decision of one whole game played from it (``moves``), the learner's
and the opponent's alike.  Its :class:`Step` s say what to look at and what to
do at chosen points of that game: a step either waits for the learner to make
the next decision(s) of ``moves`` (exactly those, as engine actions) or, with
no decision, for the learner to read it and go on.  Every decision between
one step and the next is played by the lesson itself and told from the log.

Each game's lesson is data in this package: ``GAME.toml`` holds the deal and
the steps, ``GAME.moves.json`` the moves in the save files' encoding of
decisions (one a line), and both are checked as they are read.  The app's
lesson driver plays them over the normal table.  Nothing here knows of a
screen.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from karavan_core.lessons.data import dump_moves, load_lesson
from karavan_core.lessons.model import Lesson, Step
from karavan_core.registry import game_names

__all__ = [
    "LEARNER",
    "OPPONENT_LEVEL",
    "OPPONENT_NAME",
    "Lesson",
    "Step",
    "dump_moves",
    "get_lesson",
    "lesson_names",
    "load_lesson",
]

LEARNER = 0  # the learner's seat in every lesson
OPPONENT_NAME = "Greedy"
OPPONENT_LEVEL = "greedy"

_FOLDER = files(__name__)


def lesson_names() -> list[str]:
    """The games that have a lesson, in the registry's order."""
    return [name for name in game_names() if (_FOLDER / f"{name}.toml").is_file()]


def get_lesson(name: str) -> Lesson:
    """The lesson of the game called ``name``; ``KeyError`` if it has none."""
    key = name.strip().lower()
    names = lesson_names()
    if key not in names:
        raise KeyError(f"No lesson for {name!r}; the lessons are: {', '.join(names)}.")
    return _lesson(key)


@cache
def _lesson(name: str) -> Lesson:
    """The lesson of ``name``, read from its files once."""
    return load_lesson(_FOLDER, name)
