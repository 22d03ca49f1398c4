"""Engine benchmark: random full games, decisions, and saves, per game and player count.

    python bench/engine.py [--seconds 3] [--game karakum]

Prints one line per game and player count: random full games per second and
decisions (legal_actions + apply) per second on one core, then the time to
save and to load a finished game through the match layer, and its file size.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from karavan_core import Match, Seat, all_games, get_game, load_match, save_match


def random_games(game, players: int, seconds: float) -> tuple[float, float]:
    """Play seeded random games for about ``seconds``; return games/s and decisions/s."""
    names = [f"P{i}" for i in range(players)]
    done = decisions = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        state = game.new_game(names, seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            legal = game.legal_actions(state)
            state = game.apply(state, legal[rng.randrange(len(legal))])
            decisions += 1
        done += 1
        seed += 1
    elapsed = time.perf_counter() - start
    return done / elapsed, decisions / elapsed


def save_and_load(game, players: int, folder: Path) -> tuple[float, float, int]:
    """Save and load a finished random game; return seconds to save, to load, and bytes."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="play time per line")
    parser.add_argument("--game", help="only this game")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # the figures are per core
    chosen = [get_game(args.game)] if args.game else all_games()
    header = (
        f"{'game':<10} {'players':>7} {'games/s':>9} {'decisions/s':>12} "
        f"{'save ms':>8} {'load ms':>8} {'size KB':>8}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for game in chosen:
            for players in range(game.min_players, game.max_players + 1):
                per_game, per_decision = random_games(game, players, args.seconds)
                saved, loaded, size = save_and_load(game, players, Path(tmp))
                print(
                    f"{game.name:<10} {players:>7} {per_game:>9.0f} {per_decision:>12,.0f} "
                    f"{saved * 1e3:>8.1f} {loaded * 1e3:>8.1f} {size / 1024:>8.1f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
