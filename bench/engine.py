"""Engine benchmark: random play per game and player count, alone or against a baseline.

    python bench/engine.py [--seconds 3] [--warmup 1] [--game karakum]
    python bench/engine.py --baseline 966cffa [--rounds 3] [--seconds 3] [--game jaipur]

A decision is ``legal_actions`` then ``apply_legal`` with a random one of
them: what random play and the bots' search do.  ``apply`` (the engine's
door, which takes any action and so looks it up among the legal decisions)
is measured too, as "via apply": the listing just made is handed to it where
the engine takes one (``apply(state, action, legal)``, since issue 27), as
every caller that has it does; older engines found it in a memo of theirs.
Times are the process's CPU time on one core, so another program sharing the
machine slows the figures little.
Each measurement starts with ``--warmup`` seconds of untimed play from other
seeds, so that the figures are the pace of a running engine, caches filled,
rather than that of its first games (``--warmup 0`` measures from cold).

Alone, it prints one line per game and player count: random full games per
second, decisions per second both ways, then the time to save and to load a
finished game through the match layer, and its file size.

With ``--baseline`` (a commit, whose ``src/`` is taken with ``git archive``,
or the path of a checkout or of its ``src/``), every measurement runs in a
fresh process, this tree's and the baseline's alternately, ``--rounds``
times; it prints the medians and the ratio of this tree to the baseline.
"""

from __future__ import annotations

import argparse
import inspect
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def pin_to_one_core() -> None:
    """Run on one core (child processes inherit it): the figures are per core."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})


# Warm-up games are dealt from other seeds than the measured ones, so that
# nothing the engine caches during the warm-up is a measured game's own position.
WARMUP_SEEDS = 1_000_000


def random_play(
    game: Any, players: int, seconds: float, door: bool, first_seed: int = 0
) -> tuple[float, float]:
    """Play seeded random games for about ``seconds`` of CPU time; return games/s, decisions/s.

    ``door`` applies each decision with ``apply`` instead of ``apply_legal``.
    Only names that every version of the engine has are used here, so that a
    baseline runs the very same loop.
    """
    names = [f"P{i}" for i in range(players)]
    hands_over = door and "legal" in inspect.signature(game.apply).parameters
    done = decisions = 0
    seed = first_seed
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_game(names, seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            if hands_over:
                state = game.apply(state, action, legal)
            elif door:
                state = game.apply(state, action)
            else:
                state = game.apply_legal(state, action)
            decisions += 1
        done += 1
        seed += 1
    elapsed = time.process_time() - start
    return done / elapsed, decisions / elapsed


def save_and_load(game: Any, players: int, folder: Path) -> tuple[float, float, int]:
    """Save and load a finished random game; return seconds to save, to load, and bytes."""
    from karavan_core import Match, Seat, load_match, save_match

    match = Match(game, [Seat(f"P{i}") for i in range(players)], seed=99)
    rng = random.Random(99)
    while not match.is_over():
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
    path = folder / f"{game.name}-{players}.json"
    repeats = 5
    start = time.perf_counter()
    for _ in range(repeats):
        save_match(match, path)
    saved = (time.perf_counter() - start) / repeats
    start = time.perf_counter()
    for _ in range(repeats):
        load_match(path)
    loaded = (time.perf_counter() - start) / repeats
    return saved, loaded, path.stat().st_size


def warm_up(game: Any, players: int, seconds: float) -> None:
    """Play untimed random games first: the steady pace is measured, not the first games'.

    Both engines keep caches that fill as play goes on (the one at 966cffa
    its shared exchanges, this one its exchange blocks and payments), so a
    short run from a cold process would mostly measure how quickly they fill.
    """
    if seconds > 0:
        random_play(game, players, seconds, door=False, first_seed=WARMUP_SEEDS)


def worker(game_name: str, players: int, seconds: float, door: bool, warmup: float) -> None:
    """Measure one line in this process (whichever engine is on the path) and print it as JSON."""
    from karavan_core import get_game

    game = get_game(game_name)
    warm_up(game, players, warmup)
    per_game, per_decision = random_play(game, players, seconds, door)
    print(json.dumps({"games": per_game, "decisions": per_decision}))


def lines(game: str | None) -> list[tuple[str, int]]:
    """The (game, players) lines to measure, from this tree's registry."""
    from karavan_core import all_games, get_game

    chosen = [get_game(game)] if game else all_games()
    return [(g.name, n) for g in chosen for n in range(g.min_players, g.max_players + 1)]


def alone(args: argparse.Namespace) -> None:
    """This tree's figures, measured in this process."""
    from karavan_core import get_game

    header = (
        f"{'game':<10} {'players':>7} {'games/s':>9} {'decisions/s':>12} {'via apply':>10} "
        f"{'save ms':>8} {'load ms':>8} {'size KB':>8}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for name, players in lines(args.game):
            game = get_game(name)
            warm_up(game, players, args.warmup)
            per_game, per_decision = random_play(game, players, args.seconds, door=False)
            _, via_apply = random_play(game, players, args.seconds, door=True)
            saved, loaded, size = save_and_load(game, players, Path(tmp))
            print(
                f"{name:<10} {players:>7} {per_game:>9.0f} {per_decision:>12,.0f} "
                f"{via_apply:>10,.0f} {saved * 1e3:>8.1f} {loaded * 1e3:>8.1f} "
                f"{size / 1024:>8.1f}",
                flush=True,
            )


def baseline_source(spec: str, folder: Path) -> Path:
    """The baseline's ``src`` folder: the path given, or the commit extracted into ``folder``."""
    path = Path(spec)
    if path.is_dir():
        return path / "src" if (path / "src" / "karavan_core").is_dir() else path
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", spec, "src"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.11.4 and later
            tar.extractall(folder, filter="data")
        else:  # pragma: no cover - older 3.11
            tar.extractall(folder)
    return folder / "src"


def measure(
    source: Path, name: str, players: int, seconds: float, door: bool, warmup: float
) -> float:
    """Decisions per second of the engine in ``source``, measured in a fresh process."""
    env = dict(os.environ, PYTHONPATH=str(source))
    command = [sys.executable, __file__, "--worker", name, str(players), str(seconds)]
    command += ["--warmup", str(warmup)]
    if door:
        command.append("--door")
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    return float(json.loads(out)["decisions"])


def against(args: argparse.Namespace) -> None:
    """This tree against the baseline, each measurement in a fresh process, alternately."""
    with tempfile.TemporaryDirectory() as tmp:
        base = baseline_source(args.baseline, Path(tmp))
        this = ROOT / "src"
        print(
            f"decisions/s, median of {args.rounds} alternate runs of {args.seconds:g} s each "
            f"after {args.warmup:g} s of warm-up (CPU time, one core); baseline {args.baseline}\n"
        )
        header = (
            f"{'game':<10} {'players':>7} {'this':>9} {'baseline':>9} {'ratio':>6} "
            f"{'via apply':>10} {'baseline':>9} {'ratio':>6}"
        )
        print(header)
        print("-" * len(header))
        for name, players in lines(args.game):
            row = []
            for door in (False, True):
                mine: list[float] = []
                theirs: list[float] = []
                for round_ in range(args.rounds):
                    # Alternate which goes first, so that neither always follows the other.
                    order = [(this, mine), (base, theirs)]
                    for source, figures in order if round_ % 2 == 0 else order[::-1]:
                        figures.append(
                            measure(source, name, players, args.seconds, door, args.warmup)
                        )
                a, b = statistics.median(mine), statistics.median(theirs)
                row.append(f"{a:>9,.0f} {b:>9,.0f} {a / b:>5.2f}x")
            print(f"{name:<10} {players:>7} {row[0]} {row[1]:>27}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="play time per measurement")
    parser.add_argument(
        "--warmup", type=float, default=1.0, help="untimed play first, seconds (0: none)"
    )
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--baseline", help="a commit, or the path of a checkout or its src/")
    parser.add_argument("--rounds", type=int, default=3, help="with --baseline: runs per side")
    parser.add_argument("--worker", nargs=3, metavar=("GAME", "PLAYERS", "SECONDS"))
    parser.add_argument("--door", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    pin_to_one_core()
    if args.worker:
        name, players, seconds = args.worker
        worker(name, int(players), float(seconds), args.door, args.warmup)
    elif args.baseline:
        against(args)
    else:
        alone(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
