"""The lessons' data files: read as the lessons, and checked at the door."""

from __future__ import annotations

import json
from importlib.resources import files

import pytest

from karavan_core.lessons import dump_moves, get_lesson, lesson_names, load_lesson

PACKAGE = files("karavan_core.lessons")


@pytest.fixture
def folder(tmp_path):
    """A copy of Jaipur's lesson files, to damage."""
    for name in ("jaipur.toml", "jaipur.moves.json"):
        (tmp_path / name).write_bytes((PACKAGE / name).read_bytes())
    return tmp_path


def edit(folder, filename, old, new):
    """Replace ``old`` (which must be there) by ``new`` in ``filename``."""
    path = folder / filename
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_copy_of_the_files_reads_as_the_lesson(folder):
    assert load_lesson(folder, "jaipur") == get_lesson("jaipur")


def test_a_lesson_is_read_once_and_every_game_has_one():
    assert lesson_names() == ["karakum", "karawane", "karakorum", "jaipur"]
    assert get_lesson("Jaipur ") is get_lesson("jaipur")
    with pytest.raises(KeyError, match="No lesson for 'chess'"):
        get_lesson("chess")


@pytest.mark.parametrize("name", lesson_names())
def test_the_moves_files_are_what_dump_moves_writes(name):
    """``bench/lessons.py emit`` writes them with dump_moves: one decision a line."""
    lesson = get_lesson(name)
    text = (PACKAGE / f"{name}.moves.json").read_text(encoding="utf-8")
    assert dump_moves(lesson.game, lesson.moves) == text
    lines = text.splitlines()
    assert lines[0] == "[" and lines[-1] == "]" and len(lines) == len(lesson.moves) + 2
    assert json.loads(lines[1].rstrip(",")) == json.loads(text)[0]


TOML, JSON = "jaipur.toml", "jaipur.moves.json"
# A file of the lesson, what is changed in it, and (part of) the reason the door gives.
DAMAGE = [
    (TOML, "seed = 18", "seed = ", "is not valid TOML"),
    (TOML, "first_player = 0", "first_player = 0\nfirst_player = 1", "is not valid TOML"),
    (TOML, "seed = 18", "seed = 18\ncolour = 'red'", "the lesson has an unknown key 'colour'"),
    (TOML, 'task = "Take the cloth', 'tsak = "Take the cloth', "step 6 has an unknown key"),
    (TOML, "first_player = 0\n", "", "the lesson has no 'first_player'"),
    (TOML, "at = 18\ndecisions = 1\n", "decisions = 1\n", "step 6 has no 'at'"),
    (TOML, "at = 18", 'at = "18"', "step 6's 'at' is not a whole number"),
    (TOML, "at = 18", "at = true", "step 6's 'at' is not a whole number"),
    (TOML, "first_player = 0", "first_player = 0\nwelcome = 3", "'welcome' is not text"),
    (TOML, 'teaches = ["bonus"]', "teaches = [8]", "step 5's 'teaches' is not a list of rule"),
    (TOML, "at = 18", "at = -1", "step 6 counts decisions below zero"),
    (TOML, "at = 18", "at = 1", "damaged: a lesson's steps follow one another"),
    (TOML, "at = 65", "at = 66", "step 10 goes past the last of its 65 moves"),
    (TOML, 'game = "jaipur"', 'game = "chess"', "its game 'chess' is not one of Karavan's"),
    (TOML, 'game = "jaipur"', 'game = "karakum"', "a lesson of 'karakum', not of 'jaipur'"),
    (JSON, '{"type": "TakeCamels"}', '{"type": "TakeCamels"', "is not valid JSON"),
    (JSON, '{"type": "TakeCamels"}', '{"type": "TakeCamels"}, NaN', "is not valid JSON"),
    (JSON, '{"type": "TakeCamels"}', '{"type": "Reveal"}', "move 0 is not a Jaipur decision"),
    (JSON, '{"type": "TakeCamels"}', '"TakeCamels"', "move 0 is not a Jaipur decision"),
    (JSON, '"good": "diamonds"', '"good": "rubies"', r"move 2 does not fit \(.*good"),
    (JSON, '"count": 2', '"count": 2.0', r"move 2 does not fit \(.*count"),
    (JSON, '"count": 2', '"count": 2, "price": 7', r"move 2 does not fit \(.*price"),
]


@pytest.mark.parametrize(("filename", "old", "new", "reason"), DAMAGE)
def test_a_damaged_file_is_refused_in_one_sentence_naming_it(folder, filename, old, new, reason):
    """A damaged TOML, an unknown or missing key, a wrong type, a move the codec cannot read."""
    edit(folder, filename, old, new)
    with pytest.raises(ValueError, match=rf"^The lesson file .*{filename} ") as caught:
        load_lesson(folder, "jaipur")
    assert caught.match(reason)
    assert "\n" not in str(caught.value)


def test_a_moves_file_that_is_not_a_list_is_refused(folder):
    (folder / "jaipur.moves.json").write_text('{"type": "TakeCamels"}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"jaipur\.moves\.json is damaged: it is not a list"):
        load_lesson(folder, "jaipur")


@pytest.mark.parametrize(
    ("steps", "reason"), [("[1]", "step 1 is not a table"), ('"all"', "'steps' is not a list")]
)
def test_steps_that_are_not_tables_are_refused(folder, steps, reason):
    head = 'game = "jaipur"\nseed = 18\nfirst_player = 0\n'
    (folder / "jaipur.toml").write_text(f"{head}steps = {steps}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"jaipur\.toml is damaged: .*{reason}"):
        load_lesson(folder, "jaipur")


@pytest.mark.parametrize("missing", ["jaipur.toml", "jaipur.moves.json"])
def test_a_missing_file_is_named(folder, missing):
    (folder / missing).unlink()
    with pytest.raises(ValueError, match=rf"The lesson file .*{missing} cannot be read"):
        load_lesson(folder, "jaipur")
