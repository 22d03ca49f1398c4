"""Damaged, foreign, tampered and impossible saves: every one is refused in one line.

A generator makes, for every game, saves spoilt in every way we could think
of: broken files, hostile JSON, edited seats and decisions, positions of an
older format that no replay reaches.  Each must give a one-line refusal
naming the file (exit status 2 on the command line), leave the file as it
was, and do so quickly.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from karavan_core import Match, SaveError, Seat, get_game, load_match, save_match
from karavan_core.saves import list_saves
from karavan_tui.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "saves" / "examples"
GOLDEN_V2 = {
    "karakum": "karakum-3p-v2.json",
    "karawane": "karawane-3p-v2.json",
    "karakorum": "karakorum-2p-v2.json",
    "jaipur": "jaipur-2p-v2.json",
}
SEATS = {
    "karakum": "Ann,Bob,bot:greedy",
    "karawane": "Ann,bot:random,Cleo",
    "karakorum": "Ann,bot:hard",
    "jaipur": "Ann,bot:random",
}

Json = dict[str, Any]  # a save's JSON data
Spoiler = Callable[[Json], object]  # changes a save's JSON data in place, or returns new bytes


def good_save(game: str) -> Json:
    """A format-3 save of ``game`` in mid-game, with something to redo."""
    seats = [Seat.parse(text, i) for i, text in enumerate(SEATS[game].split(","))]
    match = Match(get_game(game), seats, seed=31, options={"first_player": 0})
    rng = random.Random(4)
    for _ in range(24):
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
    match.undo()
    from karavan_core.saves import envelope

    return envelope(match)


def nested(depth: int) -> bytes:
    return b'{"format":"karavan-save","version":3,"x":' + b"[" * depth + b"]" * depth + b"}"


def spoilers(game: str) -> Iterator[tuple[str, Spoiler]]:
    """Every way to spoil a save of ``game``: (what, how)."""

    def set_key(key: str, value: object) -> Spoiler:
        return lambda data: data.__setitem__(key, value)

    def drop_key(key: str) -> Spoiler:
        return lambda data: data.pop(key)

    def raw(content: bytes) -> Spoiler:
        return lambda data: content

    def text(change: Callable[[str], str]) -> Spoiler:
        return lambda data: change(json.dumps(data)).encode()

    def first_action(change: Callable[[Json], None]) -> Spoiler:
        def spoil(data: Json) -> None:
            change(data["history"][0])

        return spoil

    # Broken and foreign files.
    yield "empty", raw(b"")
    yield "blank", raw(b"   \n")
    yield "binary", raw(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    yield "bad utf-8", lambda data: json.dumps(data).encode().replace(b'"Ann"', b'"An\xff"', 1)
    yield "truncated", lambda data: json.dumps(data).encode()[:-30]
    yield "a list", raw(b"[1, 2, 3]")
    yield "a number", raw(b"42")
    yield "foreign json", raw(json.dumps({"name": "other program", "data": [1]}).encode())
    yield "no version", drop_key("version")
    yield "version as text", set_key("version", "3")
    yield "version true", set_key("version", True)
    yield "version zero", set_key("version", 0)
    yield "newer version", set_key("version", 99)
    yield "unknown game", set_key("game", "chess")
    yield "game as a list", set_key("game", ["karakum"])
    # Hostile JSON.
    yield "nested 100,000 deep", raw(nested(100_000))
    yield "nested 1,000 deep", raw(nested(1_000))
    yield "seed of 5,000 digits", text(lambda t: t.replace('"seed": 31', '"seed": ' + "7" * 5000))
    yield "seed 1e999", text(lambda t: t.replace('"seed": 31', '"seed": 1e999'))
    yield "seed NaN", text(lambda t: t.replace('"seed": 31', '"seed": NaN'))
    yield "seed -Infinity", text(lambda t: t.replace('"seed": 31', '"seed": -Infinity'))
    yield "seed 1.5", set_key("seed", 1.5)
    yield "seed true", set_key("seed", True)
    yield "seed as text", set_key("seed", "31")
    yield "huge seed", set_key("seed", 2**80)
    yield "no seed", drop_key("seed")
    # Seats that do not fit.
    yield "one seat", lambda data: data.__setitem__("seats", data["seats"][:1])
    yield (
        "five seats",
        lambda data: data.__setitem__(
            "seats",
            data["seats"] + [{"name": f"X{i}", "kind": "human", "level": None} for i in range(5)],
        ),
    )
    yield "no seats", set_key("seats", [])
    yield "seats not a list", set_key("seats", {"name": "Ann"})
    yield "unknown bot level", lambda data: data["seats"][1].update(kind="bot", level="godlike")
    yield "bot without level", lambda data: data["seats"][1].update(kind="bot", level=None)
    yield "human with a level", lambda data: data["seats"][0].update(level="hard")
    yield "alien seat kind", lambda data: data["seats"][0].update(kind="alien")
    yield "extra seat key", lambda data: data["seats"][0].update(secret=1)
    yield "same names", lambda data: data["seats"][1].update(name="ann")
    yield "empty name", lambda data: data["seats"][0].update(name="")
    yield "name of 300 characters", lambda data: data["seats"][0].update(name="A" * 300)
    yield "escape code in a name", lambda data: data["seats"][0].update(name="A\x1b]0;pwned\x07")
    yield "bidi override in a name", lambda data: data["seats"][0].update(name="\u202eAnn")
    yield "lone surrogate in a name", lambda data: data["seats"][0].update(name="A\ud800")
    yield "name as a number", lambda data: data["seats"][0].update(name=7)
    # Options that no game starts with.
    yield "first player beyond the seats", set_key("options", {"first_player": 7})
    yield "first player negative", set_key("options", {"first_player": -1})
    yield "first player as text", set_key("options", {"first_player": "0"})
    yield "unknown option", set_key("options", {"cheat": True})
    yield "options as a list", set_key("options", [1])
    # Decisions that are not legal, or not decisions.
    yield "history not a list", set_key("history", {"type": "x"})
    yield "unknown decision", first_action(lambda a: a.update(type="Teleport"))
    yield "decision without type", first_action(lambda a: a.pop("type"))
    yield "decision with an extra key", first_action(lambda a: a.update(extra=1))
    yield "illegal decision first", lambda data: data["history"].insert(0, data["history"][3])
    yield "decision twice", lambda data: data["history"].insert(1, data["history"][0])
    yield (
        "history cut short",
        lambda data: data.__setitem__("history", data["history"][:-1] + data["history"][:1]),
    )
    yield "decisions reordered", lambda data: data["history"].reverse()
    yield "illegal redo list", _illegal_redo
    yield "redo not a list", set_key("redo", "nothing")
    yield "a million decisions", lambda data: data.__setitem__("history", [{}] * 1_000_001)
    for key, value in (
        ("bool", True),
        ("float", 1.0),
        ("huge", 10**40),
        ("negative", -5),
        ("text", "1"),
    ):
        yield f"{key} in a decision", _every_number_in_first_action(value)
    # Undo steps that do not fit.
    yield "undo steps beyond the decisions", set_key("joined", [10_000])
    yield "undo step at zero", set_key("joined", [0])
    yield "undo steps as text", set_key("joined", ["1"])
    # Hint counts that do not fit.
    yield "no hint counts", drop_key("hints")
    yield "hint counts for too few seats", lambda data: data["hints"].pop()
    yield "negative hint count", lambda data: data["hints"].__setitem__(0, -1)
    yield "hint count as text", lambda data: data["hints"].__setitem__(0, "2")
    yield "hint count true", lambda data: data["hints"].__setitem__(0, True)
    yield "hints asked by a bot", _bot_with_hints


def _bot_with_hints(data: Json) -> None:
    """A bot seat that asked for hints (only humans can)."""
    data["seats"][1].update(kind="bot", level="hard")
    data["hints"][1] = 3


def _illegal_redo(data: Json) -> None:
    """Put first on the redo list a decision of the history that is not legal where it stands."""
    from karavan_core.saves import structure_action, unstructure_action

    game = get_game(data["game"])
    seats = [Seat(s["name"], s["kind"], s["level"]) for s in data["seats"]]
    match = Match(game, seats, data["seed"], data["options"])
    for item in data["history"]:
        match.play(structure_action(game, item))
    legal = match.legal_actions()
    wrong = next(item for item in data["history"] if structure_action(game, item) not in legal)
    data["redo"].insert(0, unstructure_action(game, structure_action(game, wrong)))


def _every_number_in_first_action(value: object) -> Spoiler:
    """Replace every whole number inside the first decision (if it has any) by ``value``."""

    def swap(item: object) -> object:
        if isinstance(item, bool) or not isinstance(item, int | list | dict):
            return item
        if isinstance(item, int):
            return value
        if isinstance(item, list):
            return [swap(x) for x in item]
        return {k: (v if k == "type" else swap(v)) for k, v in item.items()}

    def spoil(data: Json) -> None:
        index = next(
            (
                i
                for i, action in enumerate(data["history"])
                if any(isinstance(v, int | list) for k, v in action.items() if k != "type")
            ),
            None,
        )
        if index is None:
            data["history"].insert(0, {"type": data["history"][0]["type"], "n": value})
        else:
            data["history"][index] = swap(data["history"][index])

    return spoil


def v2_spoilers(game: str) -> Iterator[tuple[str, Spoiler]]:
    """Ways to spoil an older save's stored positions (format 2 stored them)."""

    def in_state(key: str, change: Callable[[Any], object]) -> Spoiler:
        def spoil(data: Json) -> None:
            data["state"][key] = change(data["state"][key])

        return spoil

    yield "start position edited", lambda data: data["initial_state"].update(current=1)
    yield "position of another seed", set_key_v2("seed", 32)
    if game == "jaipur":
        yield "a hundred-card hand", in_state("hands", lambda h: [[100] * 6, h[1]])
        yield "negative counts", in_state("herds", lambda h: [-3, h[1]])
    elif game == "karakum":
        yield "a hundred-card hand", in_state("hands", lambda h: [[100] * 6, *h[1:]])
        yield "duplicated camel", in_state("market", lambda m: [m[0], *m[:-1]])
    elif game == "karawane":
        yield "duplicated card", in_state("hands", lambda h: [h[0] + h[0][:1], *h[1:]])
        yield "camel beyond the board", in_state("camels", lambda c: [[99, *c[0][1:]], *c[1:]])
    else:
        yield "duplicated card", in_state("table", lambda t: t + t[:1] if t else t + [t])
        yield "track beyond the top", in_state("tracks", lambda t: [[99, 0, 0], *t[1:]])
    yield (
        "more seats than players",
        lambda data: data["seats"].append({"name": "Zed", "kind": "human", "level": None}),
    )
    yield "state missing", lambda data: data.pop("state")


def set_key_v2(key: str, value: object) -> Spoiler:
    return lambda data: data.__setitem__(key, value)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_spoilt(folder: Path, name: str, data: Json, spoil: Spoiler) -> Path:
    copy = json.loads(json.dumps(data))
    result = spoil(copy)
    content = (
        result if isinstance(result, bytes) else json.dumps(copy).encode("utf-8", "surrogatepass")
    )
    path = folder / f"{name.replace(' ', '-').replace(',', '')}.json"
    path.write_bytes(content)
    return path


def assert_refused(path: Path, capsys) -> None:
    """One line naming the file, exit 2 on the command line, the file untouched, quickly."""
    before = digest(path)
    start = time.perf_counter()
    with pytest.raises(SaveError) as refused:
        load_match(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: ") and "\n" not in message and len(message) < 300
    assert main(["resume", str(path), "--saves", str(path.parent)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("karavan: ") and "Traceback" not in err
    assert time.perf_counter() - start < 5
    assert digest(path) == before


CASES = [(game, what) for game in SEATS for what, _ in spoilers(game)]


@pytest.mark.parametrize(("game", "what"), CASES, ids=[f"{g}-{w}" for g, w in CASES])
def test_a_spoilt_save_is_refused_in_one_line(tmp_path, capsys, game, what):
    spoil = dict(spoilers(game))[what]
    path = write_spoilt(tmp_path, what, good_save(game), spoil)
    assert_refused(path, capsys)


V2_CASES = [(game, what) for game in SEATS for what, _ in v2_spoilers(game)]


@pytest.mark.parametrize(("game", "what"), V2_CASES, ids=[f"{g}-{w}" for g, w in V2_CASES])
def test_an_older_save_whose_positions_no_replay_reaches_is_refused(tmp_path, capsys, game, what):
    data = json.loads((EXAMPLES / GOLDEN_V2[game]).read_text())
    path = write_spoilt(tmp_path, what, data, dict(v2_spoilers(game))[what])
    assert_refused(path, capsys)


def test_names_with_control_characters_in_an_older_save_are_replaced(tmp_path):
    data = json.loads((EXAMPLES / GOLDEN_V2["jaipur"]).read_text())
    data["seats"][0]["name"] = "A\x1b]0;pwned\x07\u202en"
    data["initial_state"]["players"][0] = data["state"]["players"][0] = data["seats"][0]["name"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="does not lead"):
        load_match(path)  # the positions name the player: the replay with the clean name differs
    data = json.loads((EXAMPLES / GOLDEN_V2["karawane"]).read_text())
    data["seats"][0]["name"] = "A\x1b[31mnn"
    path.write_text(json.dumps(data))
    # Karawane's format-2 positions also carry the names: refused rather than trusted.
    with pytest.raises(SaveError):
        load_match(path)


def test_a_byte_order_mark_is_accepted(tmp_path):
    data = good_save("karakum")
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(data).encode())
    assert len(load_match(path).history) == len(data["history"])


def test_fifos_devices_folders_and_huge_files_never_hang_the_listing(tmp_path, capsys):
    folder = tmp_path / "saves"
    folder.mkdir()
    good = save_match(
        load_match(_write(folder / "good.json", good_save("jaipur"))), folder / "good.json"
    )
    os.mkfifo(folder / "pipe.json")
    (folder / "zero.json").symlink_to("/dev/zero")
    (folder / "dir.json").mkdir()
    (folder / "loop").symlink_to(folder)  # a link back to the folder is not followed
    with (folder / "huge.json").open("wb") as handle:
        handle.truncate(11 * 1024 * 1024)
    start = time.perf_counter()
    summaries, bad = list_saves(folder)
    assert [s.path for s in summaries] == [good]
    problems = {error.path.name: error.problem for error in bad}
    assert set(problems) == {"pipe.json", "zero.json", "huge.json"}
    assert "not a regular file" in problems["pipe.json"]
    assert "not a regular file" in problems["zero.json"]
    assert "larger than a save" in problems["huge.json"]
    assert main(["saves", "--saves", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert "good.json" in out and err.count("\n") == 3
    assert main(["resume", str(folder / "pipe.json"), "--saves", str(folder)]) == 2
    assert time.perf_counter() - start < 10


def _write(path: Path, data: Json) -> Path:
    path.write_text(json.dumps(data))
    return path
