"""Fit the search levels' evaluations to self-play: which positions go on to win.

    python bench/fit.py positions GAME [--players N] [--games N] [--first N] --out FILE
    python bench/fit.py fit GAME --data FILE[,FILE...] [--holdout K]

``positions`` plays seeded games between Hard-v1 bots at a small budget (100
iterations; one decision in twenty at random, so the games stray from the
searched line) and keeps every third position with the game's result, in a
gzipped pickle.  Game ``i`` deals from seed 10,000 + ``i`` and seats bots
seeded 1,000 ``i`` + seat, so a file is reproduced exactly by the same command.

``fit`` reads the positions and fits the weights of the game's value
features (``features``, ``FEATURES`` and ``WEIGHTS`` in its evaluation
module) so that ``softmax(weights · features)`` over the players predicts
who wins: a multinomial logit fitted by Newton's method, with a small ridge
penalty.  Every ``K``-th game is held out (not fitted) and the log loss there
is reported for the fitted weights, for the module's current ones and for the
Hard-v1 evaluation's chances, so an evaluation is judged on games it has not
seen.  Figures, not tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import math
import pickle
import random
import sys
import time
from pathlib import Path
from typing import Any

import hard_v1  # noqa: F401 - registers the hard-v1 level
from karavan_core import get_game
from karavan_core.bots import make_bot
from karavan_core.bots.evaluation import evaluator_for
from karavan_core.engine import Game, State

# A game kept for fitting: its index, the positions kept (states of any game, read by
# their own fields), its winners and its scores.
Row = tuple[int, list[Any], tuple[int, ...], tuple[int, ...]]
# Per position: every player's features, each player's share of the win, the state.
Sample = tuple[list[list[float]], list[float], State]
NOISE = 0.05  # the share of decisions taken at random while generating positions
KEEP_EVERY = 3
RIDGE = 1e-3


def positions(name: str, players: int, games: int, first: int, out: Path) -> None:
    """Play ``games`` self-play games and keep their positions and results in ``out``."""
    game = get_game(name)
    rows = []
    start = time.perf_counter()
    for index in range(first, first + games):
        state = game.new_game([f"P{i}" for i in range(players)], 10_000 + index)
        bots = [make_bot("hard-v1", game, 1000 * index + i, iterations=100) for i in range(players)]
        rng = random.Random(index)
        kept, step = [], 0
        while not game.is_over(state):
            legal = game.legal_actions(state)
            seat = state.to_move
            if len(legal) > 1 and rng.random() < NOISE:
                action = legal[rng.randrange(len(legal))]
            else:
                action = bots[seat].choose(game.observe(state, seat), legal)
            state = game.apply(state, action)
            step += 1
            if step % KEEP_EVERY == 0 and not game.is_over(state):
                kept.append(state)
        result = game.result(state)
        rows.append((index, kept, tuple(result.winners), tuple(result.scores)))
        print(f"{len(rows)} games, {time.perf_counter() - start:.0f} s", flush=True)
    with gzip.open(out, "wb") as file:
        pickle.dump(rows, file)


def load(paths: list[str]) -> list[Row]:
    """The games of every positions file, in order."""
    rows = []
    for path in paths:
        with gzip.open(path, "rb") as file:
            rows.extend(pickle.load(file))
    return rows


def samples(module: Any, rows: list[Row]) -> list[Sample]:
    """Per position: every player's features, each player's share of the win, the state.

    Where the values are about the round in progress (``ROUND_VALUES``, Jaipur)
    the share is that of the round's seal: rounds before the last are read from
    the game's last position kept, the last one went to the match's winner.
    """
    out: list[Sample] = []
    by_round = getattr(module, "ROUND_VALUES", False)
    for _, states, winners, _ in rows:
        if not states:
            continue
        players = len(states[0].players)
        finished = states[-1].rounds if by_round else ()
        for state in states:
            won = winners
            if by_round and len(state.rounds) < len(finished):
                seal = finished[len(state.rounds)].winner
                won = tuple(range(players)) if seal is None else (seal,)
            share = [1.0 / len(won) if seat in won else 0.0 for seat in range(players)]
            features = [module.features(state, seat) for seat in range(players)]
            out.append((features, share, state))
    return out


def softmax(values: list[float]) -> list[float]:
    top = max(values)
    exps = [math.exp(v - top) for v in values]
    total = sum(exps)
    return [e / total for e in exps]


def log_loss(weights: list[float], data: list[Sample]) -> float:
    """Mean negative log-likelihood of the winners under ``weights``."""
    total = 0.0
    for features, share, _ in data:
        chances = softmax([sum(w * f for w, f in zip(weights, x, strict=True)) for x in features])
        total -= sum(s * math.log(max(p, 1e-12)) for s, p in zip(share, chances, strict=True))
    return total / len(data)


def baseline_loss(game: Game[Any, Any, Any], data: list[Sample]) -> float:
    """The same loss for the Hard-v1 evaluation's rewards, read as chances (normalised)."""
    evaluator = evaluator_for(game, search=True)
    total = 0.0
    for _, share, state in data:
        rewards = evaluator.rewards(state)
        norm = sum(rewards) or 1.0
        total -= sum(
            s * math.log(max(r / norm, 1e-12)) for s, r in zip(share, rewards, strict=True)
        )
    return total / len(data)


def newton(data: list[Sample], dims: int, steps: int = 12) -> list[float]:
    """Maximum-likelihood weights of the multinomial logit, with a ridge penalty."""
    w = [0.0] * dims
    n = len(data)
    for _ in range(steps):
        grad = [-RIDGE * n * wi for wi in w]
        hess = [[(RIDGE * n if i == j else 0.0) for j in range(dims)] for i in range(dims)]
        for features, share, _ in data:
            p = softmax([sum(wi * f for wi, f in zip(w, x, strict=True)) for x in features])
            mean = [sum(p[q] * features[q][i] for q in range(len(p))) for i in range(dims)]
            for q, x in enumerate(features):
                diff = [x[i] - mean[i] for i in range(dims)]
                for i in range(dims):
                    grad[i] += share[q] * (x[i] - mean[i])
                    pd = p[q] * diff[i]
                    if pd:
                        row = hess[i]
                        for j in range(dims):
                            row[j] += pd * diff[j]
        step = solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit(name: str, paths: list[str], holdout: int) -> None:
    """Fit the value weights of ``name`` and compare the held-out losses."""
    game = get_game(name)
    module = importlib.import_module(f"karavan_core.bots.evaluation.{name}")
    rows = load(paths)
    train = samples(module, [row for row in rows if row[0] % holdout])
    test = samples(module, [row for row in rows if not row[0] % holdout])
    dims = len(module.FEATURES)
    print(f"{len(rows)} games: {len(train)} positions to fit, {len(test)} held out")
    weights = newton(train, dims)
    print(f"held-out log loss: fitted {log_loss(weights, test):.4f}, ", end="")
    print(f"current weights {log_loss(list(module.WEIGHTS), test):.4f}, ", end="")
    print(f"hard-v1 {baseline_loss(game, test):.4f}; ", end="")
    print(f"fitted, on its own games {log_loss(weights, train):.4f}")
    print("WEIGHTS = (")
    for label, value in zip(module.FEATURES, weights, strict=True):
        print(f"    {value:.4f},  # {label}")
    print(")")


def main() -> None:
    """Parse the command line and run the chosen step."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["positions", "fit"])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--data", default="")
    parser.add_argument("--holdout", type=int, default=5, help="every K-th game is held out")
    args = parser.parse_args()
    if args.what == "positions":
        if args.out is None:
            sys.exit("positions: give --out FILE")
        positions(args.game, args.players, args.games, args.first, args.out)
    else:
        fit(args.game, [p for p in args.data.split(",") if p], args.holdout)


if __name__ == "__main__":
    main()
