"""Finding and writing the deals of the "Learn to play" lessons (a helper, not part of the app).

    python bench/lessons.py search GAME [--seeds A-B] [--top N]
    python bench/lessons.py show GAME SEED [--first N]
    python bench/lessons.py emit GAME SEED [--first N]

Each lesson is one whole game, Greedy against Greedy, dealt from a seed.
``search`` plays the games of a range of seeds and ranks them: seeds whose
game lets the learner's seat (seat 0) meet the game's rules early and whose
game is short come first; it prints, per seed, the decisions and the first
decision at which each rule comes up (``-`` if it never does).  ``show``
prints one game decision by decision: number, who decides, the rules it
touches and the log line.  ``emit`` prints the game's moves as Python source,
for the ``MOVES`` of ``src/karavan_core/lessons/GAME.py``.  Nothing is asserted.
"""

from __future__ import annotations

import argparse
import enum
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from karavan_core import get_game
from karavan_core.bots import make_bot
from karavan_core.engine import Action, State
from karavan_core.match import bot_seed

PLAYERS = ("You", "Greedy")
Detector = Callable[[Any, Any, Action, Any], Iterable[str]]


def play_out(name: str, seed: int, first: int) -> tuple[list[Action], list[State]]:
    """A whole game of Greedy against Greedy from ``seed``, ``first`` starting."""
    game = get_game(name)
    state = game.new_game(PLAYERS, seed, {"first_player": first})
    bots = [make_bot("greedy", game, seed=bot_seed(seed, seat)) for seat in range(2)]
    moves: list[Action] = []
    states = [state]
    while not game.is_over(state):
        seat = state.to_move
        action = bots[seat].choose(game.observe(state, seat), game.legal_actions(state))
        state = game.apply(state, action)
        moves.append(action)
        states.append(state)
    return moves, states


# -- what each decision shows of the rules ----------------------------------------------------


def jaipur_rules(game: Any, before: Any, action: Action, after: Any) -> Iterable[str]:
    from karavan_core.games.jaipur.components import PRECIOUS
    from karavan_core.games.jaipur.state import Exchange, Sell, TakeCamels, TakeGood

    if isinstance(action, TakeGood):
        yield "take-good"
    if isinstance(action, TakeCamels):
        yield "take-camels"
    if isinstance(action, Exchange):
        yield "exchange"
        if action.camels:
            yield "exchange-camels"
    if isinstance(action, Sell):
        yield "sell"
        if action.good in PRECIOUS:
            yield "sell-precious"
        if action.count >= 3:
            yield "bonus"
    if len(after.rounds) > len(before.rounds):
        yield "round-end"
        if any(score.camel_token for score in after.rounds[-1].scores):
            yield "camel-token"
    if after.over:
        yield "match"


def karawane_rules(game: Any, before: Any, action: Action, after: Any) -> Iterable[str]:
    from karavan_core.games.karawane.components import FIRST_OASIS, Kind
    from karavan_core.games.karawane.rules import occupied
    from karavan_core.games.karawane.state import Play, PlaySandstorm, PlayWithoutEffect

    if isinstance(action, PlaySandstorm):
        yield "sandstorm"
    if isinstance(action, PlayWithoutEffect):
        yield "no-effect"
    if isinstance(action, Play):
        start = before.camels[action.owner][action.camel]
        end = after.camels[action.owner][action.camel]
        taken = occupied(before.camels)
        between = range(min(start, end) + 1, max(start, end))
        skipped = any(square in taken for square in between)
        kind = action.card.kind
        if kind is Kind.OASIS:
            yield "forward"
            if skipped:
                yield "forward-skip"
        if kind is Kind.MIRAGE:
            yield "mirage"
            if skipped:
                yield "back-skip"
            if end == 0:
                yield "city"
        if kind is Kind.DRIVER:
            yield "driver"
        if end >= FIRST_OASIS:
            yield "oasis"
    if after.over:
        yield "end"


DETECTORS: dict[str, Detector] = {"jaipur": jaipur_rules, "karawane": karawane_rules}


def rules_of(name: str, states: list[State], moves: list[Action]) -> list[tuple[int, set[str]]]:
    """For every decision: who took it and the rules it touches."""
    game = get_game(name)
    detect = DETECTORS[name]
    found = []
    for index, action in enumerate(moves):
        before, after = game.observe(states[index], None), game.observe(states[index + 1], None)
        seat = states[index].to_move
        found.append((seat, set(detect(game, before, action, after))))
    return found


# -- Python source of the moves -----------------------------------------------------------------


def source(value: object) -> str:
    """``value`` (an action, or a part of one) as Python source."""
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))
        args = ", ".join(source(getattr(value, f.name)) for f in fields)
        return f"{type(value).__name__}({args})"
    if isinstance(value, tuple):
        inner = ", ".join(source(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


# -- commands -------------------------------------------------------------------------------


def search(name: str, seeds: range, first: int, top: int) -> None:
    """Rank the seeds: the learner meets every rule, early, in a short game."""
    ranked = []
    for seed in seeds:
        moves, states = play_out(name, seed, first)
        firsts: dict[str, int] = {}
        for index, (seat, rules) in enumerate(rules_of(name, states, moves)):
            for rule in rules:
                if seat == 0 or rule in ("round-end", "camel-token", "match", "end"):
                    firsts.setdefault(rule, index)
        ranked.append((len(moves), seed, firsts))
    every = sorted({rule for _, _, firsts in ranked for rule in firsts})
    ranked.sort(key=lambda row: (-len(row[2]), row[0]))
    print("seed  moves  " + "  ".join(every))
    for length, seed, firsts in ranked[:top]:
        cells = "  ".join(f"{firsts.get(rule, '-')!s:>{len(rule)}}" for rule in every)
        print(f"{seed:>4}  {length:>5}  {cells}")


def show(name: str, seed: int, first: int) -> None:
    """One game, decision by decision."""
    from karavan_core.match import Match, Seat

    moves, states = play_out(name, seed, first)
    match = Match(
        get_game(name), [Seat(PLAYERS[0]), Seat(PLAYERS[1])], seed, {"first_player": first}
    )
    for move in moves:
        match.play(move)
    log = match.log()
    print(log[0])
    for index, (seat, rules) in enumerate(rules_of(name, states, moves)):
        print(f"{index:>4} {seat} {','.join(sorted(rules)):<28} {log[index + 1]}")


def emit(name: str, seed: int, first: int) -> None:
    """The game's moves as Python source, one per line."""
    moves, _ = play_out(name, seed, first)
    print("MOVES: tuple[Action, ...] = (")
    for index, move in enumerate(moves):
        print(f"    {source(move)},  # {index}")
    print(")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("search", "show", "emit"))
    parser.add_argument("game")
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--seeds", default="1-100")
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    if args.command == "search":
        low, high = (int(part) for part in args.seeds.split("-"))
        search(args.game, range(low, high + 1), args.first, args.top)
    elif args.command == "show":
        show(args.game, args.seed, args.first)
    else:
        emit(args.game, args.seed, args.first)


if __name__ == "__main__":
    main()
