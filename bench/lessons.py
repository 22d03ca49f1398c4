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
touches and the log line.  ``emit`` prints the game's moves as the lesson's
moves file, ``src/karavan_core/lessons/GAME.moves.json`` (a JSON list, one
decision a line: ``emit GAME SEED > that file``).  Nothing is asserted.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable
from typing import Any

from karavan_core import get_game
from karavan_core.bots import make_bot
from karavan_core.engine import Action, State
from karavan_core.lessons import dump_moves
from karavan_core.match import bot_seed

PLAYERS = ("You", "Greedy")
Detector = Callable[[Any, Any, Action, Any], Iterable[str]]


def karakum_gold(state: Any, legal: list[Action], moves: list[Action]) -> Action | None:
    """Karakum's learner takes a face-up gold as a whole gather once (Greedy never does)."""
    from karavan_core.games.karakum.components import Res
    from karavan_core.games.karakum.state import Step, TakeCard

    if len(moves) < 8 or state.step is not Step.CHOOSE or state.current != 0:
        return None
    golds = [a for a in legal if isinstance(a, TakeCard) and state.row[a.slot] is Res.GOLD]
    if not golds or FORCED["done"]:
        return None
    FORCED["done"] = True
    return golds[0]


def karawane_deeper(state: Any, legal: list[Action], moves: list[Action]) -> Action | None:
    """Karawane's learner takes a camel already in the oasis deeper once (Greedy may not)."""
    from karavan_core.games.karawane.components import FIRST_OASIS
    from karavan_core.games.karawane.state import Play

    if state.current != 0 or FORCED["done"]:
        return None
    deeper = [
        a
        for a in legal
        if isinstance(a, Play) and a.owner == 0 and state.camels[0][a.camel] >= FIRST_OASIS
    ]
    if not deeper:
        return None
    FORCED["done"] = True
    return deeper[0]


FORCED: dict[str, bool] = {"done": False}
# Decisions Greedy would not make but a lesson needs: given the state, the legal decisions
# and the moves so far, the learner's forced decision, or None to let Greedy choose.
POLICIES: dict[str, Callable[[Any, list[Action], list[Action]], Action | None]] = {
    "karakum": karakum_gold,
    "karawane": karawane_deeper,
}


def play_out(name: str, seed: int, first: int) -> tuple[list[Action], list[State]]:
    """A whole game of Greedy against Greedy from ``seed``, ``first`` starting (with the
    game's forced decisions, if it has any)."""
    game = get_game(name)
    state = game.new_game(PLAYERS, seed, {"first_player": first})
    bots = [make_bot("greedy", game, seed=bot_seed(seed, seat)) for seat in range(2)]
    moves: list[Action] = []
    states = [state]
    FORCED["done"] = False
    policy = POLICIES.get(name)
    while not game.is_over(state):
        seat = state.to_move
        legal = game.legal_actions(state)
        forced = policy(state, legal, moves) if policy is not None else None
        action = forced or bots[seat].choose(game.observe(state, seat), legal)
        state = game.apply(state, action)
        moves.append(action)
        states.append(state)
    return moves, states


# -- what each decision shows of the rules ----------------------------------------------------


def by_kind(action: Action, rules: dict[Any, str]) -> Iterable[str]:
    """The rules ``action`` touches by its kind alone (``rules``: kind of decision, rule)."""
    return [rule for kind, rule in rules.items() if isinstance(action, kind)]


def jaipur_rules(game: Any, before: Any, action: Action, after: Any) -> Iterable[str]:
    from karavan_core.games.jaipur import components as C
    from karavan_core.games.jaipur import state as J

    kinds = {J.TakeGood: "take-good", J.TakeCamels: "take-camels", J.Exchange: "exchange"}
    yield from by_kind(action, kinds | {J.Sell: "sell"})
    if isinstance(action, J.Exchange) and action.camels:
        yield "exchange-camels"
    if isinstance(action, J.Sell):
        if action.good in C.PRECIOUS:
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
    from karavan_core.games.karawane import components as C
    from karavan_core.games.karawane import state as W
    from karavan_core.games.karawane.rules import occupied

    yield from by_kind(action, {W.PlaySandstorm: "sandstorm", W.PlayWithoutEffect: "no-effect"})
    if isinstance(action, W.Play):
        start = before.camels[action.owner][action.camel]
        end = after.camels[action.owner][action.camel]
        taken = occupied(before.camels)
        between = range(min(start, end) + 1, max(start, end))
        skipped = any(square in taken for square in between)
        kind = action.card.kind
        if kind is C.Kind.OASIS:
            yield "forward"
            if skipped:
                yield "forward-skip"
        if kind is C.Kind.MIRAGE:
            yield "mirage"
            if skipped:
                yield "back-skip"
            if end == 0:
                yield "city"
        if kind is C.Kind.DRIVER:
            yield "driver"
        if end >= C.FIRST_OASIS:
            yield "oasis-deeper" if start >= C.FIRST_OASIS else "oasis"
    if after.over:
        yield "end"


def karakum_rules(game: Any, before: Any, action: Action, after: Any) -> Iterable[str]:
    from karavan_core.games.karakum import components as C
    from karavan_core.games.karakum import state as M

    seat = before.current
    if isinstance(action, M.TakeCard | M.DrawCard):
        if before.step is M.Step.BONUS:
            yield "free-card"
        elif isinstance(action, M.TakeCard) and before.row[action.slot] is C.Res.GOLD:
            yield "gold-gather"
        else:
            yield "gather"
    yield from by_kind(action, {M.Buy: "buy", M.Join: "join-choice"})
    if isinstance(action, M.Buy) and before.market[0].color is before.market[action.slot].color:
        yield "tax"
    if isinstance(action, M.Pay):
        camel = before.market[before.slot]
        if action.cards[C.GOLD_INDEX]:
            yield "pay-gold"
        if any(n for i, n in enumerate(action.cards[:5]) if i != camel.color.index):
            yield "pay-pairs"
        old, new = before.caravans[seat], after.caravans[seat]
        if len(new) > len(old) and old:
            if old[-1].color is new[len(old)].color:
                yield "caravan-colour"
            if old[-1].value == new[len(old)].value:
                yield "caravan-number"
        if len(after.lefts[seat]) > len(before.lefts[seat]):
            yield "left-side"
        if len(new) > len(old) + 1:
            yield "join"
    if after.step is M.Step.OVER:
        yield "end"


def karakorum_rules(game: Any, before: Any, action: Action, after: Any) -> Iterable[str]:
    from karavan_core.games.karakorum import state as K

    yield from by_kind(action, {K.Reveal | K.StopRevealing: "reveal", K.Pass: "pass"})
    if isinstance(action, K.Take):
        taking = {K.Step.TAKE: "take", K.Step.TAKE_MORE: "take-more"}
        yield taking.get(before.step, "take-others")
    if isinstance(action, K.Place):
        yield "new-expedition" if action.expedition is None else "place"
    yield from by_kind(action, {K.Remove: "remove"})
    if isinstance(action, K.Score):
        yield "score" if action.goal is None else "goal"
    if after.before_final and not before.before_final:
        yield "final"
    if after.step is K.Step.OVER:
        yield "end"


DETECTORS: dict[str, Detector] = {
    "karakorum": karakorum_rules,
    "karakum": karakum_rules,
    "jaipur": jaipur_rules,
    "karawane": karawane_rules,
}


def rules_of(
    name: str, states: list[State], moves: list[Action]
) -> list[tuple[int | None, set[str]]]:
    """For every decision: who took it and the rules it touches."""
    game = get_game(name)
    detect = DETECTORS[name]
    found = []
    for index, action in enumerate(moves):
        before, after = game.observe(states[index], None), game.observe(states[index + 1], None)
        seat = states[index].to_move
        found.append((seat, set(detect(game, before, action, after))))
    return found


# -- commands -------------------------------------------------------------------------------


def search(name: str, seeds: range, first: int, top: int) -> None:
    """Rank the seeds: the learner meets every rule, early, in a short game."""
    ranked = []
    for seed in seeds:
        moves, states = play_out(name, seed, first)
        firsts: dict[str, int] = {}
        for index, (seat, rules) in enumerate(rules_of(name, states, moves)):
            for rule in rules:
                if seat == 0 or rule in ("round-end", "camel-token", "match", "end", "final"):
                    firsts.setdefault(rule, index)
        won = get_game(name).result(states[-1]).winners == (0,)
        ranked.append((len(moves), seed, firsts, won))
    every = sorted({rule for _, _, firsts, _ in ranked for rule in firsts})
    ranked.sort(key=lambda row: (-len(row[2]), not row[3], row[0]))
    print("seed  moves  won  " + "  ".join(every))
    for length, seed, firsts, won in ranked[:top]:
        cells = "  ".join(f"{firsts.get(rule, '-')!s:>{len(rule)}}" for rule in every)
        print(f"{seed:>4}  {length:>5}  {'yes' if won else ' no'}  {cells}")


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
    """The game's moves as the text of a lesson's moves file (JSON, one decision a line)."""
    moves, _ = play_out(name, seed, first)
    print(dump_moves(get_game(name), moves), end="")


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
