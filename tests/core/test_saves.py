"""Saves: the versioned envelope, atomic writes, golden files and every kind of bad file."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import json
import os
import random
import shutil
import unicodedata
from pathlib import Path

import pytest

from karavan_core import Match, SaveError, Seat, get_game, load_match, save_match
from karavan_core import saves as saves_module
from karavan_core.games.karakum.components import ROW_RULE_OPTION
from karavan_core.games.karakum.state import DrawCard
from karavan_core.games.karawane.components import DEEPER_RULE_OPTION as KARAWANE_DEEPER_RULE
from karavan_core.saves import (
    FORMAT_VERSION,
    check_stem,
    default_saves_dir,
    envelope,
    latest_save,
    list_saves,
    new_save_path,
    read_envelope,
)
from karavan_core.saves import files as saves_files

KARAKUM = get_game("karakum")
JAIPUR = get_game("jaipur")
EXAMPLES = Path(__file__).resolve().parents[2] / "saves" / "examples"


def three_player_match(decisions: int = 40) -> Match:
    seats = [Seat("Ann"), Seat("Bob"), Seat.parse("bot:random:Cleo")]
    match = Match(KARAKUM, seats, seed=77, options={"first_player": 1})
    rng = random.Random(5)
    for _ in range(decisions):
        if match.is_over():
            break
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
    return match


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextlib.contextmanager
def golden(name: str, version: int):
    """Load the golden save ``name`` of format ``version``; yield it and its JSON.

    Checks what every format keeps (its game, history and redo list) first,
    and after the block that the file is still the same bytes.
    """
    path = EXAMPLES / name
    before = digest(path)
    data = json.loads(path.read_text())
    match = load_match(path)
    assert data["version"] == version and match.game.name == data["game"]
    assert len(match.history) == len(data["history"]) and len(match.undone) == len(data["redo"])
    yield match, data
    assert digest(path) == before


def test_save_and_load_give_the_same_state_history_and_next_cards(tmp_path):
    """Done-when: part of a seeded 3-player match saved, loaded fresh, and continued identically."""
    match = three_player_match()
    match.undo()  # leave something to redo too
    path = save_match(match, tmp_path / "part.json")
    loaded = load_match(path)
    assert loaded.state == match.state
    assert loaded.states == match.states
    assert loaded.history == match.history and loaded.redo_actions == match.redo_actions
    assert loaded.seats == match.seats and loaded.seed == 77 and loaded.options == match.options
    # The same next cards: the generator travelled with the state.
    for m in (match, loaded):
        m.undone.clear()
        while DrawCard() not in m.legal_actions():
            m.play(m.legal_actions()[0])
        m.play(DrawCard())
    assert loaded.state == match.state
    # Undo survives the reload.
    assert loaded.undo() and match.undo() and loaded.state == match.state


def test_saves_carry_a_format_version_and_stay_small(tmp_path):
    match = three_player_match(5000)
    assert match.is_over()
    path = save_match(match, tmp_path / "done.json")
    data = json.loads(path.read_text())
    assert data["format"] == "karavan-save" and data["version"] == FORMAT_VERSION
    assert data["game"] == "karakum" and len(data["history"]) == len(match.history)
    # No position is stored: the seed and the decisions are the game.
    assert "state" not in data and "initial_state" not in data
    assert path.stat().st_size < 60_000


def test_write_is_atomic_and_leaves_no_temp_files(tmp_path, monkeypatch):
    match = three_player_match(10)
    path = save_match(match, tmp_path / "a.json")
    before = digest(path)
    match.play(match.legal_actions()[0])

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(saves_files.os, "replace", crash)
    with pytest.raises(OSError):
        save_match(match, path)
    assert digest(path) == before  # the old save is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]  # and no temp file is left


def test_golden_example_save_keeps_loading():
    """saves/examples holds a format-1 save; every later version must keep loading it."""
    path = EXAMPLES / "karakum-3p-v1.json"
    before = digest(path)
    match = load_match(path)
    assert match.game is KARAKUM and [s.name for s in match.seats] == ["Ann", "Bob", "Cleo"]
    assert len(match.history) == 57 and match.can_redo() and not match.is_over()
    assert match.seats[2].is_bot and match.seats[2].level == "random"
    replay = Match(KARAKUM, match.seats, match.seed, match.options)
    for action in match.history:
        replay.play(action)
    assert replay.state == match.state
    assert digest(path) == before


def test_golden_jaipur_save_from_before_known_goods_keeps_loading():
    """A format-1 Jaipur save predates ``known``: it is worked out by replaying the history."""
    path = EXAMPLES / "jaipur-2p-v1.json"
    before = digest(path)
    match = load_match(path)
    assert match.game is JAIPUR and [s.name for s in match.seats] == ["Ann", "Raj"]
    assert len(match.history) == 56 and len(match.undone) == 4
    assert match.state.round_number == 2 and match.initial.known == ((0,) * 6, (0,) * 6)
    replay = Match(JAIPUR, match.seats, match.seed, match.options)
    for action in match.history:
        replay.play(action)
    assert replay.state == match.state and any(map(any, match.state.known))
    assert digest(path) == before


def test_a_format_1_jaipur_save_whose_history_went_astray_is_reported(tmp_path):
    good = (EXAMPLES / "jaipur-2p-v1.json").read_text()
    data = json.loads(good)
    data["state"]["herds"] = [9, 9]
    path = tmp_path / "astray.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="does not lead to its saved position"):
        load_match(path)


@pytest.mark.parametrize(
    "name",
    ["karakum-3p-v2.json", "karawane-3p-v2.json", "karakorum-2p-v2.json", "jaipur-2p-v2.json"],
)
def test_golden_format_2_saves_of_every_game_keep_loading(name):
    """Format 2 stored positions: they agree with a replay from the seed, and load as before."""
    with golden(name, 2) as (match, data):
        assert [seat.name for seat in match.seats] == [seat["name"] for seat in data["seats"]]
        assert match.can_redo() and match.redo() and match.undo()


@pytest.mark.parametrize(
    "name",
    ["karakum-3p-v3.json", "karawane-3p-v3.json", "karakorum-2p-v3.json", "jaipur-2p-v3.json"],
)
def test_golden_format_3_saves_of_every_game_keep_loading(name, tmp_path):
    """Format 3 had no hint counts: its players asked for none, and it saves again as the
    current format (FORMAT_VERSION)."""
    with golden(name, 3) as (match, data):
        assert match.hints == [0] * len(match.seats)
        joined = [i for i, ply in enumerate(match.plies + match.undone) if not ply.starts]
        assert joined == data["joined"]
        assert match.can_redo() and match.redo() and match.undo()
        again = save_match(match, tmp_path / name)
        assert json.loads(again.read_text())["version"] == FORMAT_VERSION
        assert load_match(again).history == match.history


@pytest.mark.parametrize(
    "name",
    ["karakum-3p-v4.json", "karawane-3p-v4.json", "karakorum-2p-v4.json", "jaipur-2p-v4.json"],
)
def test_golden_format_4_saves_of_every_game_keep_loading(name, tmp_path):
    """Format 4 kept no take-back counts nor revision: none are counted, the revision starts
    at one change per decision, and it saves again as the current format."""
    with golden(name, 4) as (match, data):
        assert match.hints == data["hints"] and match.hints[0] == 2
        assert match.takebacks == [0] * len(match.seats)
        assert match.revision == len(data["history"]) + len(data["redo"])
        assert match.can_redo() and match.redo() and match.undo()
        again = load_match(save_match(match, tmp_path / name))
        assert (again.history, again.hints, again.revision) == (
            match.history,
            match.hints,
            match.revision,
        )


@pytest.mark.parametrize(
    ("name", "version"),
    [
        (f"{game}-v{version}.json", version)
        for version in (5, 6)
        for game in ("karakum-3p", "karawane-3p", "karakorum-2p", "jaipur-2p")
    ],
)
def test_golden_format_5_and_6_saves_of_every_game_keep_loading(name, version, tmp_path):
    """Format 5 and 6 games that never met a rule changed since go on under today's rules."""
    with golden(name, version) as (match, data):
        assert match.hints == data["hints"] and match.takebacks == data["takebacks"]
        assert match.revision == data["revision"] and match.options == data["options"]
        assert match.can_redo() and match.redo() and match.undo()
        again = load_match(save_match(match, tmp_path / name))
        assert again.states == match.states and again.redo_actions == match.redo_actions


def test_an_old_karawane_save_whose_oasis_camels_stayed_replays_by_its_own_rules(tmp_path):
    """A format-6 game played when a camel in the oasis never moved again (before RULINGS.md's
    revision) replays as it was played, and keeps that rule to its end."""
    with golden("karawane-3p-v6-oasis-stays.json", 6) as (match, data):
        assert match.options[KARAWANE_DEEPER_RULE] is False
        assert not match.state.deeper_in_oasis and match.is_over()
        again = load_match(save_match(match, tmp_path / "old-rule.json"))
        assert again.states == match.states and again.options == match.options
    # Under today's rules a card played without effect there had one: it is refused.
    data["version"] = FORMAT_VERSION
    path = tmp_path / "todays-rules.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="decision 64 of its history is not legal"):
        load_match(path)


def test_an_old_karakum_save_that_met_the_empty_row_replays_by_its_own_rules(tmp_path):
    """A format-5 game in which a payment left face-up places empty (the rule before
    RULINGS.md's refill) replays as it was played, and keeps that rule to its end."""
    with golden("karakum-4p-v5-empty-row.json", 5) as (match, _):
        assert match.options[ROW_RULE_OPTION] is False
        assert not match.state.payment_refills_row
        assert None in match.state.row and KARAKUM.unfilled(match.state) is not None
        again = load_match(save_match(match, tmp_path / "old-rule.json"))
        assert again.states == match.states and again.options == match.options
    # Under today's rules the same decisions would make another game, or none at all.
    data = json.loads((EXAMPLES / "karakum-4p-v5-empty-row.json").read_text())
    data["version"] = FORMAT_VERSION
    path = tmp_path / "todays-rules.json"
    path.write_text(json.dumps(data))
    try:
        today = load_match(path)
    except SaveError as error:
        assert "is not legal" in str(error)
    else:
        assert today.state != match.state and today.state.payment_refills_row


def test_take_backs_and_the_revision_are_saved_and_loaded(tmp_path):
    match = Match(KARAKUM, [Seat("Ann"), Seat("Hal", "bot", "hard")], seed=4)
    match.play(match.legal_actions()[0])
    match.undo()
    match.count_takeback(0)
    loaded = load_match(save_match(match, tmp_path / "takebacks.json"))
    assert loaded.takebacks == [1, 0] and loaded.revision == match.revision == 2


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("takebacks", [0, 3], "a bot seat has take-backs"),
        ("takebacks", [1], "take-back counts do not fit its seats"),
        ("revision", -1, "revision is not a count from 0"),
        ("revision", "5", "'revision' does not hold what it should"),
    ],
)
def test_spoiled_take_back_counts_and_revisions_are_refused(tmp_path, key, value, problem):
    match = Match(KARAKUM, [Seat("Ann"), Seat("Hal", "bot", "hard")], seed=4)
    match.play(match.legal_actions()[0])
    path = save_match(match, tmp_path / "spoiled.json")
    data = json.loads(path.read_text())
    data[key] = value
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=problem):
        load_match(path)


def test_hint_counts_are_saved_and_loaded(tmp_path):
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob"), Seat("Hal", "bot", "hard")], seed=4)
    match.count_hint(0)
    match.count_hint(0)
    match.count_hint(1)
    with pytest.raises(ValueError, match="Only a human"):
        match.count_hint(2)
    loaded = load_match(save_match(match, tmp_path / "hints.json"))
    assert loaded.hints == [2, 1, 0]


BAD_FILES = {
    "truncated": lambda good: good[: len(good) // 2],
    "corrupted": lambda good: good.replace(b'"seats"', b'"se\x00ats"', 1)[:-40] + b"}}}",
    "not JSON": lambda good: b"\x89PNG\r\n\x1a\n\x00\x00binary",
    "foreign": lambda good: json.dumps({"name": "some other program", "data": [1, 2]}).encode(),
    "newer": lambda good: good.replace(b'"version":%d' % FORMAT_VERSION, b'"version":99', 1),
    "unknown game": lambda good: good.replace(b'"game":"karakum"', b'"game":"chess"', 1),
    "bad seed": lambda good: good.replace(b'"seed":', b'"seed_x":', 1),
    "bad history": lambda good: good.replace(b'"history":[', b'"history":[{"type":"Pass"},', 1),
    "empty": lambda good: b"",
    "a list": lambda good: b"[1, 2, 3]",
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_bad_files_give_one_line_naming_file_and_problem_and_stay_untouched(tmp_path, kind):
    good = save_match(three_player_match(20), tmp_path / "good.json").read_bytes()
    path = tmp_path / f"{kind.replace(' ', '-')}.json"
    path.write_bytes(BAD_FILES[kind](good))
    before = digest(path)
    with pytest.raises(SaveError) as error:
        load_match(path)
    message = str(error.value)
    assert message.startswith(str(path) + ": ") and "\n" not in message
    assert len(message) < 200
    assert digest(path) == before


def test_problem_sentences_say_what_is_wrong(tmp_path):
    good = save_match(three_player_match(5), tmp_path / "good.json").read_bytes()
    cases = {
        "newer": "newer Karavan",
        "foreign": "not a Karavan save",
        "truncated": "not valid JSON",
        "unknown game": "unknown game",
        "empty": "empty",
    }
    for kind, words in cases.items():
        path = tmp_path / "x.json"
        path.write_bytes(BAD_FILES[kind](good))
        with pytest.raises(SaveError, match=words):
            load_match(path)


def test_wrong_game_and_missing_and_oversized_files(tmp_path):
    path = save_match(three_player_match(5), tmp_path / "k.json")
    with pytest.raises(SaveError, match="a save of karakum, not of jaipur"):
        load_match(path, expect_game="jaipur")
    with pytest.raises(SaveError, match="no such file"):
        load_match(tmp_path / "nope.json")
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(10 * 1024 * 1024 + 1)
    with pytest.raises(SaveError, match="larger than a save can be"):
        read_envelope(huge)
    assert huge.stat().st_size == 10 * 1024 * 1024 + 1


@pytest.mark.parametrize("module", sorted(Path(saves_module.__file__).parent.glob("*.py")))
def test_loading_never_uses_pickle_eval_or_exec(module):
    tree = ast.parse(module.read_text())
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"pickle", "marshal", "shelve", "dill", "yaml"}
    called = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    assert not called & {"eval", "exec", "compile", "__import__"}


def test_new_save_paths_never_overwrite(tmp_path):
    first = new_save_path(tmp_path, "karakum", "my game")
    first.write_text("{}")
    second = new_save_path(tmp_path, "karakum", "my game")
    assert first.name == "my game.json" and second.name == "my game-2.json"
    bad_names = (
        "../../etc/passwd",
        "a/b",
        "x" * 65,
        ".hidden",
        "",
        "name\x1b[2J",
        "_x",
        "a\u200bb",
    )
    for bad in bad_names + ("a\\b", "tab\there", "new\nline", "ünï\u0000"):
        with pytest.raises(ValueError):
            new_save_path(tmp_path, "karakum", bad)
    assert new_save_path(tmp_path, "karakum", "Ann vs Bob.json").name == "Ann vs Bob.json"


def test_a_save_name_may_be_in_any_language_and_is_spelt_one_way():
    """The message said "letters" but only ASCII passed: an Estonian or Polish name was refused."""
    for name in ("Mäng õhtul", "Gra Łukasza", "Übung 2", "Ка-раван", "キャラバン"):
        assert check_stem(name) == name
    decomposed = unicodedata.normalize("NFD", "Mäng")
    assert check_stem(decomposed) == "Mäng" != decomposed


def test_listing_and_latest_save(tmp_path):
    older = save_match(three_player_match(3), tmp_path / "older.json")
    data = json.loads(older.read_text())
    data["saved_at"] = "2020-01-01T00:00:00+00:00"
    older.write_text(json.dumps(data))
    newer = save_match(three_player_match(6), tmp_path / "newer.json")
    (tmp_path / "broken.json").write_text("{not json")
    good, bad = list_saves(tmp_path)
    assert [s.path for s in good] == [newer, older]
    assert good[0].players == ("Ann", "Bob", "Cleo") and good[0].decisions == 6
    assert len(bad) == 1 and "broken.json" in str(bad[0])
    assert latest_save(tmp_path).path == newer


def test_saves_folder_default_env_and_override(tmp_path, monkeypatch):
    monkeypatch.delenv("KARAVAN_SAVES", raising=False)
    monkeypatch.chdir(tmp_path)
    assert default_saves_dir() == tmp_path / "saves"
    monkeypatch.setenv("KARAVAN_SAVES", str(tmp_path / "env"))
    assert default_saves_dir() == tmp_path / "env"
    assert default_saves_dir(tmp_path / "flag") == tmp_path / "flag"


def test_example_saves_are_ordinary_readable_files(tmp_path):
    copy = tmp_path / "copy.json"
    shutil.copy(EXAMPLES / "karakum-3p-v1.json", copy)
    path = save_match(load_match(copy), copy)
    assert os.stat(path).st_mode & 0o444


def test_an_existing_save_keeps_its_permission_bits(tmp_path):
    path = save_match(three_player_match(3), tmp_path / "private.json")
    path.chmod(0o600)
    save_match(three_player_match(6), path)
    assert path.stat().st_mode & 0o777 == 0o600


def test_temporary_files_of_ended_writers_are_removed_and_only_those(tmp_path):
    import subprocess
    import sys

    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = int(ended.stdout)
    abandoned = tmp_path / f".game.json.{dead}.0badc0de.tmp"
    mine = tmp_path / f".game.json.{os.getpid()}.12345678.tmp"
    stranger = tmp_path / ".notes.tmp"
    for path in (abandoned, mine, stranger):
        path.write_text("{")
    assert saves_files.remove_abandoned_temps(tmp_path) == [abandoned]
    assert not abandoned.exists() and mine.exists() and stranger.exists()


def test_envelopes_of_a_match_change_after_change_are_its_envelope_each_time():
    """A server keeps a table's save at every change, each decision turned into data once;
    a save is the same as one made afresh, after decisions, take-backs and redos alike."""
    from karavan_core.saves import Envelopes

    match = Match(get_game("jaipur"), [Seat("Ann"), Seat("Bob")], 7)
    envelopes = Envelopes()
    rng = random.Random(3)

    def same() -> None:
        kept, fresh = envelopes.of(match), envelope(match)
        del kept["saved_at"], fresh["saved_at"]
        assert kept == fresh

    for step in range(60):
        if step % 9 == 8 and match.can_undo():
            match.undo()
        elif step % 9 == 0 and match.can_redo():
            match.redo()
        else:
            match.play(rng.choice(match.legal_actions()))
        same()
