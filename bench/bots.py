"""Benchmarks of the bots: search speed and seat-swapped strength tournaments.

    python bench/bots.py speed [--games GAME,...] [--positions N]
    python bench/bots.py strength [--games GAME,...] [--pairings A-B,...] [--count N]
                                  [--players N] [--seed N] [--jobs N] [--json FILE]

``speed`` plays random games and, at sampled positions, times one decision of
each thinking level: seconds per decision (mean and worst) and, for the search
levels, iterations per second.  ``strength`` runs one tournament per game and
pairing (the same as ``karavan simulate GAME --seats A,B --games N``) and
prints a Markdown table of the first level's win rate with its 95% interval.
Figures, not tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from karavan_core import game_names, get_game
from karavan_core.bots import SearchBot, make_bot
from karavan_core.tournament import report_dict, run_tournament, schedule, summarize

DEFAULT_PAIRINGS = "greedy-random,hard-random,hard-greedy,expert-hard"


def speed(games: list[str], positions: int, players: int) -> None:
    """Print seconds per decision and iterations per second per game and level."""
    print("| game | level | s/decision (mean) | s/decision (worst) | iterations/s |")
    print("|---|---|---|---|---|")
    for name in games:
        game = get_game(name)
        for level in ("greedy", "hard", "expert"):
            times: list[float] = []
            iterations = 0
            seed = 0
            while len(times) < positions:
                state = game.new_game([f"P{i}" for i in range(players)], seed)
                rng = random.Random(seed)
                bot = make_bot(level, game, seed)
                step = 0
                while not game.is_over(state) and len(times) < positions:
                    legal = game.legal_actions(state)
                    if step % 9 == 4 and len(legal) > 1:
                        observation = game.observe(state, state.to_move)
                        start = time.perf_counter()
                        bot.choose(observation, legal)
                        times.append(time.perf_counter() - start)
                        if isinstance(bot, SearchBot):
                            iterations += bot.last_iterations
                    state = game.apply(state, legal[rng.randrange(len(legal))])
                    step += 1
                seed += 1
            total = sum(times)
            rate = f"{iterations / total:.0f}" if iterations else "–"
            print(
                f"| {name} | {level} | {total / len(times):.3f} | {max(times):.3f} | {rate} |",
                flush=True,
            )


def strength(
    games: list[str],
    pairings: list[tuple[str, str]],
    count: int,
    players: int,
    seed: int,
    jobs: int,
    json_path: str | None,
) -> None:
    """Run every pairing in every game and print the first level's results."""
    print(
        "| game | players | pairing | games | win rate of the first | 95% CI | "
        "mean scores | s/decision | mean length |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    reports = []
    for name in games:
        for first, second in pairings:
            seats = [first] + [second] * (players - 1)
            start = time.perf_counter()
            records = run_tournament(schedule(name, players, seats, count, seed), jobs)
            elapsed = time.perf_counter() - start
            summary = summarize(records)
            by_level = {level.level: level for level in summary.levels}
            a, b = by_level[first], by_level[second]
            print(
                f"| {name} | {players} | {first} vs {second} | {summary.games} | "
                f"{a.win_rate:.1%} | {a.ci_low:.1%}–{a.ci_high:.1%} | "
                f"{a.mean_score:.1f} / {b.mean_score:.1f} | "
                f"{a.seconds_per_decision:.3f} / {b.seconds_per_decision:.3f} | "
                f"{summary.mean_decisions:.0f} |",
                flush=True,
            )
            reports.append(report_dict(name, players, seats, seed, records, elapsed))
    if json_path:
        with open(json_path, "w", encoding="utf-8") as out:
            json.dump(reports, out, indent=1)


def main() -> None:
    """Parse the command line and run the chosen benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["speed", "strength"])
    parser.add_argument("--games", default=",".join(game_names()), help="games, comma-separated")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=20, help="speed: positions per level")
    parser.add_argument("--pairings", default=DEFAULT_PAIRINGS, help="strength: A-B,…")
    parser.add_argument("--count", type=int, default=200, help="strength: games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", help="strength: write every tournament here")
    args = parser.parse_args()
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if args.what == "speed":
        speed(games, args.positions, args.players)
    else:
        pairings = [tuple(p.split("-", 1)) for p in args.pairings.split(",")]
        strength(games, pairings, args.count, args.players, args.seed, args.jobs, args.json)


if __name__ == "__main__":
    main()
