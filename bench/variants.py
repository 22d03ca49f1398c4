"""Seat-swapped games between bot levels and variants: settings changed, or hidden cards seen.

    python bench/variants.py play GAME A,B[,...] [--players N] [--games N] [--seed N]
                                  [--part K/M] --out FILE
    python bench/variants.py summary FILE [FILE ...]

A seat is a bot level (``hard``, ``expert``, ``hard-v1``, ...), or a variant:

* ``LEVEL:field=value;field=value`` — the level with some of its
  :class:`SearchSettings` changed (``expert:exploration=0.1;deals=50``);
* ``oracle-LEVEL`` — the level searching the true state as its only deal: it
  knows every hidden card and the order of every deck, its own included;
* ``hands-LEVEL`` — the level dealing the others' true hands, every deck
  shuffled afresh (the games where that is defined: Karakum and Karawane);
* ``shares-LEVEL`` — the level paid, for an open game, each player's
  softmax share of one chance of winning instead of the logistic of its
  lead over the best other (the same at two players);
* ``pimcK-LEVEL`` — perfect-information Monte Carlo: K deals from the
  observation, the level's search run on each alone with a K-th of its
  budget, the decision with the best mean reward over the trees taken.

``oracle`` and ``hands`` are yardsticks, not players: how much a search would gain from
what it may not know says how much of a game is decided by the hidden cards,
and so how far better play alone can go.  Games are scheduled as ``karavan
simulate`` schedules them (seats rotated, one deal a rotation, the same
seeds and seat names), so a run of plain levels plays the very games of
``karavan simulate GAME --seats A,B --seed N``.  Each finished game is
appended to ``--out`` as a line of JSON and a run started again skips the
games already there; ``--part K/M`` plays every M-th deal from the K-th (K from 0), so
M processes can share a run.  ``summary`` prints each seat's win rate with
its 95% interval and the first seat's mean lead over the best other, per
deal, with its 95% interval.  Figures, not tests: nothing is asserted.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, cast

from karavan_core import get_game
from karavan_core.bots import ALL_LEVELS, Bot, make_bot
from karavan_core.bots.evaluation import Evaluator
from karavan_core.bots.ismcts import SearchBot
from karavan_core.engine import Action, Game, Observation, State
from karavan_core.games.karakum.state import KarakumState
from karavan_core.games.karawane.state import KarawaneState
from karavan_core.rng import fresh_rng
from karavan_core.tournament import seatings, wilson_interval
from karavan_core.values import replace


def _shuffled(items: Iterable[Any], rng: random.Random) -> tuple[Any, ...]:
    items = list(items)
    rng.shuffle(items)
    return tuple(items)


def _karakum_hands(truth: KarakumState, rng: random.Random) -> State:
    """The true state with both decks shuffled (the camels set aside go in with the deck)."""
    camels = _shuffled(truth.camel_deck + truth.removed, rng)
    size = len(truth.camel_deck)
    return replace(
        truth,
        resource_deck=_shuffled(truth.resource_deck, rng),
        camel_deck=camels[:size],
        removed=camels[size:],
        rng=fresh_rng(rng),
    )


def _karawane_hands(truth: KarawaneState, rng: random.Random) -> State:
    """The true state with every player's deck shuffled."""
    decks = tuple(_shuffled(deck, rng) for deck in truth.decks)
    return replace(truth, decks=decks, rng=fresh_rng(rng))


HANDS_DEALS: dict[str, Callable[[Any, random.Random], State]] = {
    "karakum": _karakum_hands,
    "karawane": _karawane_hands,
}


class _Seeing:
    """A game whose deals come from the true state, for a bot that may see it."""

    def __init__(self, game: Game[Any, Any, Any], how: str) -> None:
        self._game = game
        self._how = how
        self.truth: State | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def sampler(self, observation: Observation) -> Callable[[random.Random], State]:
        truth = self.truth
        assert truth is not None  # told before each decision
        if self._how == "oracle":
            return lambda rng: truth
        deal = HANDS_DEALS[self._game.name]
        return lambda rng: deal(truth, rng)


class Pimc:
    """Perfect-information Monte Carlo: one tree per sampled deal, the root means averaged.

    ``trees`` deals are dealt from the observation; the level's search runs on
    each alone (its budget shared out), and the decision with the best mean
    reward over the trees that tried it is taken.
    """

    def __init__(self, bot: SearchBot, trees: int) -> None:
        self.bot = bot
        self.trees = trees

    def choose(self, observation: Observation, legal: Sequence[Action]) -> Action:
        bot = self.bot
        if len(legal) == 1:
            return legal[0]
        game = bot.game
        rng = bot.decision_rng(observation)
        deal = game.sampler(observation)
        total = bot.budget(observation)
        iterations, two_players = bot.iterations, bot.two_player_iterations
        alone = _Seeing(game, "oracle")  # each tree's one deal, searched as its only one
        sums: dict[Any, float] = defaultdict(float)
        counts: dict[Any, int] = defaultdict(int)
        for _ in range(self.trees):
            alone.truth = deal(rng)
            bot.game = cast(Game[Any, Any, Any], alone)  # it answers what a game answers
            bot.iterations = max(len(legal), total // self.trees)
            bot.two_player_iterations = None  # each tree's share, whatever the table's size
            try:
                root = bot.search(observation, legal)
            finally:
                bot.game, bot.iterations = game, iterations
                bot.two_player_iterations = two_players
            for action, child in root.children.items():
                sums[action] += child.reward / child.visits
                counts[action] += 1
        return max(legal, key=lambda a: (sums[a] / counts[a] if counts[a] else -1.0, rng.random()))


class _Shares:
    """An evaluation whose rewards for an open game are shares of one chance of winning.

    Each player's chance is a softmax of the estimated points over the
    evaluation's scale, where the levels pay each player the logistic of its
    lead over the best other; at two players the two are the same.
    """

    def __init__(self, evaluator: Evaluator) -> None:
        self._evaluator = evaluator

    def __getattr__(self, name: str) -> Any:
        return getattr(self._evaluator, name)

    def rewards(self, state: State, values: list[float] | None = None) -> list[float]:
        evaluator = self._evaluator
        if evaluator.game.is_over(state):
            rewards: list[float] = evaluator.rewards(state, values)
            return rewards
        if values is None:
            values = evaluator.values(state)
        top = max(values)
        exps = [math.exp((v - top) / evaluator.scale) for v in values]
        total = sum(exps)
        return [e / total for e in exps]


def make_seat(spec: str, game: Game[Any, Any, Any], seed: int) -> tuple[Bot | Pimc, _Seeing | None]:
    """The bot of one seat spec (see the module's docstring), and its seeing game or ``None``."""
    name, _, changes_text = spec.partition(":")
    seeing = None
    trees = 0
    shares = name.startswith("shares-")
    if shares:
        name = name[len("shares-") :]
    if name.startswith("pimc"):
        head, _, name = name.partition("-")
        trees = int(head[4:])
    for how in ("oracle", "hands"):
        if name.startswith(how + "-"):
            if how == "hands" and game.name not in HANDS_DEALS:
                raise SystemExit(f"hands- is not defined for {game.name}")
            seeing, name = _Seeing(game, how), name[len(how) + 1 :]
    changes: dict[str, Any] = {}
    for part in filter(None, changes_text.split(";")):
        field, _, value = part.partition("=")
        changes[field.strip()] = ast.literal_eval(value.strip())
    if name not in ALL_LEVELS:
        raise SystemExit(f"no level {name!r}; the levels are: {', '.join(ALL_LEVELS)}")
    bot = ALL_LEVELS[name](game, seed, **changes) if changes else make_bot(name, game, seed)
    if seeing is not None:
        if not isinstance(bot, SearchBot):
            raise SystemExit(f"{spec}: only a search level can be given the hidden cards")
        bot.game = cast(Game[Any, Any, Any], seeing)  # it answers what a game answers
    if shares:
        if not isinstance(bot, SearchBot):
            raise SystemExit(f"{spec}: only a search level has rewards to share")
        bot.evaluator = cast(Evaluator, _Shares(bot.evaluator))  # it answers alike
    if trees:
        if not isinstance(bot, SearchBot):
            raise SystemExit(f"{spec}: only a search level can search one tree a deal")
        return Pimc(bot, trees), seeing
    return bot, seeing


def play(
    name: str, index: int, levels: tuple[str, ...], deal_seed: int, bot_seeds: Sequence[int]
) -> dict[str, Any]:
    """Play one scheduled game; every bot is shown its own observation (a seeing one, the truth)."""
    game = get_game(name)
    seats = [make_seat(level, game, seed) for level, seed in zip(levels, bot_seeds, strict=True)]
    names = [f"{level.capitalize()} {seat + 1}" for seat, level in enumerate(levels)]
    state = game.new_game(names, deal_seed, {"first_player": 0})
    think = [0.0] * len(seats)
    decisions = [0] * len(seats)
    while not game.is_over(state):
        seat = state.to_move
        bot, seeing = seats[seat]
        if seeing is not None:
            seeing.truth = state
        legal = game.legal_actions(state)
        start = time.process_time()
        action = bot.choose(game.observe(state, seat), legal)
        think[seat] += time.process_time() - start
        decisions[seat] += 1
        state = game.apply(state, action)
    result = game.result(state)
    return {
        "index": index,
        "levels": list(levels),
        "scores": list(result.scores),
        "winners": list(result.winners),
        "think_seconds": think,
        "decisions": decisions,
    }


def run(args: argparse.Namespace) -> None:
    """Play the games of ``--part`` not yet in ``--out``, appending each as it ends."""
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {json.loads(line)["index"] for line in out.read_text().splitlines() if line}
    part, parts = map(int, args.part.split("/"))
    if not 0 <= part < parts:
        raise SystemExit(f"--part K/M counts K from 0 to M-1, not {args.part}")
    seats = args.seats.split(",")
    if len(seats) != args.players:
        raise SystemExit(f"give one seat per player: {args.players}, not {len(seats)}")
    for seating in seatings(seats, args.games, args.seed):
        index = seating[0]
        if index in done or index // args.players % parts != part:
            continue
        record = play(args.game, *seating)
        with out.open("a", encoding="utf-8") as lines:
            lines.write(json.dumps(record) + "\n")


def summary(paths: list[str]) -> None:
    """Each seat's win rate and the first seat's mean lead, per file of games."""
    for path in paths:
        records = [json.loads(line) for line in Path(path).read_text().splitlines() if line]
        wins: dict[str, float] = defaultdict(float)
        games: dict[str, int] = defaultdict(int)
        seconds: dict[str, float] = defaultdict(float)
        decisions: dict[str, int] = defaultdict(int)
        leads: dict[int, list[float]] = defaultdict(list)
        first = records[0]["levels"][0] if records else ""
        for record in records:
            scores, winners, levels = record["scores"], record["winners"], record["levels"]
            players = len(levels)
            for seat, level in enumerate(levels):
                games[level] += 1
                wins[level] += 1 / len(winners) if seat in winners else 0.0
                seconds[level] += record["think_seconds"][seat]
                decisions[level] += record["decisions"][seat]
                if level == first:
                    best_other = max(s for other, s in enumerate(scores) if other != seat)
                    leads[record["index"] // players].append(scores[seat] - best_other)
        print(f"{path}: {len(records)} games")
        for level, n in games.items():
            low, high = wilson_interval(wins[level], n)
            print(
                f"  {level}: {wins[level] / n:.1%} ({low:.1%}–{high:.1%}) of {n}, "
                f"{seconds[level] / max(1, decisions[level]):.3f} s a decision"
            )
        per_deal = [sum(lead) / len(lead) for lead in leads.values()]
        if len(per_deal) > 2:
            half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
            print(
                f"  {first}'s lead over the best other: {statistics.mean(per_deal):+.2f} "
                f"± {half:.2f} points (95%, {len(per_deal)} deals)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play the games of a run")
    playing.add_argument("game")
    playing.add_argument("seats", help="a level or variant per seat, comma-separated")
    playing.add_argument("--players", type=int, default=2)
    playing.add_argument("--games", type=int, default=400)
    playing.add_argument("--seed", type=int, default=1)
    playing.add_argument("--part", default="0/1", help="K/M: every M-th deal from the K-th")
    playing.add_argument("--out", required=True, help="the run's file (JSON lines)")
    summing = commands.add_parser("summary", help="summarise runs")
    summing.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.command == "play":
        run(args)
    else:
        summary(args.files)


if __name__ == "__main__":
    main()
