"""Bot tournaments: many seeded games between levels, and their statistics.

UI-free: the ``karavan simulate`` command and ``bench/bots.py`` both drive it.

Fairness.  Seats are rotated between games: in game ``i`` seat ``s`` is played
by ``order[(s + i) % n]`` and seat 0 always starts, so over every ``n``
consecutive games each level plays each position once, first included.  Those
``n`` games share one deal (the same seed), so no level profits from a lucky
deal either.  With three or more players each run of ``n`` games takes the next
circular ``order`` of the levels, so no level always sits after the same one.

Reproducibility.  Every deal seed and bot seed derives from the tournament
seed and the game's index alone, so a seed reproduces the whole tournament,
whatever the number of worker processes.  Only the measured thinking times vary.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from attrs import asdict, frozen

from karavan_core.bots import ALL_LEVELS, make_bot
from karavan_core.processes import worker_pool
from karavan_core.registry import get_game

MAX_DECISIONS = 20_000  # a game still running after this many decisions is stopped unfinished


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed mixed from ``seed`` and ``parts``, stable across processes."""
    text = "|".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


@frozen(kw_only=True)
class GameSpec:
    """One game to play: which level sits where, and its seeds."""

    game: str
    index: int
    levels: tuple[str, ...]
    deal_seed: int
    bot_seeds: tuple[int, ...]


@frozen(kw_only=True)
class GameRecord:
    """What happened in one game of a tournament.

    ``decisions`` counts every decision of the game; ``think_seconds[s]`` is
    the time seat ``s``'s bot spent choosing, over ``seat_decisions[s]`` choices,
    ``max_think_seconds[s]`` its longest choice; ``iterations[s]`` counts the
    search iterations it ran, in ``search_seconds[s]`` (searching bots only).
    ``finished`` is false only if the game hit :data:`MAX_DECISIONS`.
    """

    index: int
    levels: tuple[str, ...]
    deal_seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: int
    seat_decisions: tuple[int, ...]
    think_seconds: tuple[float, ...]
    finished: bool = True
    max_think_seconds: tuple[float, ...] = ()
    iterations: tuple[int, ...] = ()
    search_seconds: tuple[float, ...] = ()


@frozen(kw_only=True)
class LevelSummary:
    """One level's results over a tournament.

    ``seat_games`` counts the games a seat of this level played (a level in two
    seats counts twice); ``wins`` gives a shared win as a fraction.
    ``seconds_per_decision`` averages over every decision, forced ones included;
    ``max_seconds`` is the longest single decision; ``iterations_per_second``
    is the search speed of a searching level (0 for the others).
    """

    level: str
    seat_games: int
    wins: float
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    decisions: int
    seconds_per_decision: float
    max_seconds: float = 0.0
    iterations_per_second: float = 0.0


@frozen
class Summary:
    """A tournament's statistics per level, and the mean game length in decisions."""

    games: int
    unfinished: int
    mean_decisions: float
    levels: tuple[LevelSummary, ...]


def seating_orders(levels: Sequence[str]) -> list[tuple[str, ...]]:
    """Every order of ``levels`` round the table, the given one first.

    Rotating the seats alone gives each level every place in the turn order
    but always the same neighbours: at four players Expert would always play
    just after Hard and just before Random.  Who sits after whom matters
    where players hinder the next one (two identical searches won 38.5% and
    29.5% of 100 four-player Karawane games so seated), so a tournament
    goes through every circular order, keeping the first level in place.
    """
    first, *rest = levels
    return [(first, *others) for others in itertools.permutations(rest)]


def schedule(
    game: str, players: int, seats: Sequence[str], games: int, seed: int
) -> list[GameSpec]:
    """The games of a tournament, seats rotated and deals shared within each rotation.

    Each run of ``players`` games plays one deal with the seats rotated; the
    next run takes the next circular order of the levels (see
    :func:`seating_orders`).  With two players there is only one.
    """
    if len(seats) != players:
        raise ValueError(f"Give one level per seat: {players} levels, not {len(seats)}.")
    levels = [level.strip().lower() for level in seats]
    for level in levels:
        if level not in ALL_LEVELS:
            known = ", ".join(ALL_LEVELS)
            raise ValueError(f"No bot level {level!r}; the levels are: {known}.")
    g = get_game(game)
    g.check_players(["?"] * players)
    return [
        GameSpec(game=g.name, index=index, levels=seated, deal_seed=deal, bot_seeds=bots)
        for index, seated, deal, bots in seatings(levels, games, seed)
    ]


def seatings(
    seats: Sequence[str], games: int, seed: int
) -> list[tuple[int, tuple[str, ...], int, tuple[int, ...]]]:
    """Who sits where in each game of :func:`schedule`, with its seeds, for any seat labels.

    One ``(index, labels by seat, deal seed, bot seeds by seat)`` per game.
    Benchmarks that seat something other than a level (a level with changed
    settings) play the same games as a tournament of levels would.
    """
    players = len(seats)
    orders = seating_orders(seats)
    out = []
    for index in range(games):
        shift = index % players
        order = orders[index // players % len(orders)]
        out.append(
            (
                index,
                tuple(order[(seat + shift) % players] for seat in range(players)),
                derive_seed(seed, "deal", index // players),
                tuple(derive_seed(seed, "bot", index, seat) for seat in range(players)),
            )
        )
    return out


def play_game(spec: GameSpec) -> GameRecord:
    """Play one game between bots; each bot is given only its own observation."""
    game = get_game(spec.game)
    n = len(spec.levels)
    names = [f"{level.capitalize()} {seat + 1}" for seat, level in enumerate(spec.levels)]
    bots = [
        make_bot(level, game, seed) for level, seed in zip(spec.levels, spec.bot_seeds, strict=True)
    ]
    state = game.new_game(names, spec.deal_seed, {"first_player": 0})
    decisions = 0
    seat_decisions = [0] * n
    think = [0.0] * n
    longest = [0.0] * n
    iterations = [0] * n
    searching = [0.0] * n
    while not game.is_over(state) and decisions < MAX_DECISIONS:
        seat = state.to_move
        assert seat is not None
        legal = game.legal_actions(state)
        observation = game.observe(state, seat)
        start = time.perf_counter()
        action = bots[seat].choose(observation, legal)
        spent = time.perf_counter() - start
        think[seat] += spent
        longest[seat] = max(longest[seat], spent)
        ran = getattr(bots[seat], "last_iterations", 0)
        if ran:
            iterations[seat] += ran
            searching[seat] += spent
        seat_decisions[seat] += 1
        state = game.apply(state, action)
        decisions += 1
    result = game.result(state)
    return GameRecord(
        index=spec.index,
        levels=spec.levels,
        deal_seed=spec.deal_seed,
        scores=tuple(result.scores),
        winners=tuple(result.winners),
        decisions=decisions,
        seat_decisions=tuple(seat_decisions),
        think_seconds=tuple(think),
        finished=game.is_over(state),
        max_think_seconds=tuple(longest),
        iterations=tuple(iterations),
        search_seconds=tuple(searching),
    )


def run_tournament(
    specs: Sequence[GameSpec],
    jobs: int = 1,
    progress: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Play every game of ``specs`` in ``jobs`` processes; records come back in order.

    ``progress`` is called once per finished game (in the calling process).
    """
    records: list[GameRecord] = []
    if jobs <= 1:
        for spec in specs:
            record = play_game(spec)
            records.append(record)
            if progress is not None:
                progress(record)
        return records
    with worker_pool(jobs) as pool:
        for record in pool.map(play_game, specs):
            records.append(record)
            if progress is not None:
                progress(record)
    return records


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% for the default ``z``)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(records: Sequence[GameRecord]) -> Summary:
    """Win rate with its 95% interval, mean score and thinking time per level."""
    order: list[str] = []
    seat_games: dict[str, int] = {}
    wins: dict[str, float] = {}
    score_sum: dict[str, float] = {}
    decisions: dict[str, int] = {}
    seconds: dict[str, float] = {}
    longest: dict[str, float] = {}
    iterations: dict[str, int] = {}
    searching: dict[str, float] = {}
    for record in records:
        share = 1.0 / len(record.winners) if record.winners else 0.0
        for seat, level in enumerate(record.levels):
            if level not in seat_games:
                order.append(level)
                seat_games[level] = 0
                wins[level] = score_sum[level] = seconds[level] = 0.0
                longest[level] = searching[level] = 0.0
                decisions[level] = iterations[level] = 0
            seat_games[level] += 1
            if seat in record.winners:
                wins[level] += share
            score_sum[level] += record.scores[seat]
            decisions[level] += record.seat_decisions[seat]
            seconds[level] += record.think_seconds[seat]
            if record.max_think_seconds:
                longest[level] = max(longest[level], record.max_think_seconds[seat])
            if record.iterations:
                iterations[level] += record.iterations[seat]
                searching[level] += record.search_seconds[seat]
    levels = []
    for level in order:
        n = seat_games[level]
        low, high = wilson_interval(wins[level], n)
        levels.append(
            LevelSummary(
                level=level,
                seat_games=n,
                wins=wins[level],
                win_rate=wins[level] / n,
                ci_low=low,
                ci_high=high,
                mean_score=score_sum[level] / n,
                decisions=decisions[level],
                seconds_per_decision=seconds[level] / decisions[level] if decisions[level] else 0.0,
                max_seconds=longest[level],
                iterations_per_second=iterations[level] / searching[level]
                if searching[level]
                else 0.0,
            )
        )
    games = len(records)
    return Summary(
        games=games,
        unfinished=sum(1 for r in records if not r.finished),
        mean_decisions=sum(r.decisions for r in records) / games if games else 0.0,
        levels=tuple(levels),
    )


def report_dict(
    game: str,
    players: int,
    seats: Sequence[str],
    seed: int,
    records: Sequence[GameRecord],
    elapsed: float | None = None,
) -> dict[str, Any]:
    """A tournament as plain JSON-ready data: its settings, summary and every game."""
    return {
        "game": game,
        "players": players,
        "seats": list(seats),
        "games": len(records),
        "seed": seed,
        "elapsed_seconds": elapsed,
        "summary": asdict(summarize(records)),
        "records": [asdict(record) for record in records],
    }
