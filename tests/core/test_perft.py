"""Golden "perft" counts, as python-chess keeps them: any unintended change of a rule shows up.

Along a few seeded games of every game and player count, the number of
legal decisions at every step is counted.  The totals, and a digest of the
whole sequence, are written down below; a change to any rule that alters
what is legal anywhere along these games changes them.  When a rule is
changed on purpose, the new figures are printed by running this module as a
script (``python -m tests.core.test_perft``) and copied here with the change.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from karavan_core import all_games, get_game
from karavan_core.games.karawane.components import DEEPER_RULE_OPTION

SEEDS = (1, 2, 3)

# (game, players): (decisions, legal decisions summed over them, digest of the counts).
# The figures are the engine's as of 966cffa, before the typed contract and the speed work;
# Karakum's at three and four players since a payment refills the empty face-up places,
# Karawane's since a camel in the oasis may go deeper (under the older rule, OLDER).
GOLDEN: dict[tuple[str, int], tuple[int, int, str]] = {
    ("karakum", 2): (480, 3900, "4ab1bd5edc6a396a"),
    ("karakum", 3): (602, 4785, "9b73c96617115857"),
    ("karakum", 4): (780, 5671, "4b242d8f17781696"),
    ("karawane", 2): (307, 1500, "5b8e40597b6a1fb4"),
    ("karawane", 3): (281, 1931, "764e8d4cb82de119"),
    ("karawane", 4): (349, 2599, "29c21f8cf6ad7a6e"),
    ("karakorum", 2): (1250, 2616, "05b2229f5c275858"),
    ("karakorum", 3): (1402, 3007, "b1cb42c57cb1b863"),
    ("karakorum", 4): (1459, 3088, "bcd3b4d33b24f5b4"),
    ("jaipur", 2): (604, 13939, "ab86cfc51e0747e3"),
}


# Karawane's figures as of 966cffa, when a camel in the oasis never moved again.
OLDER = {
    ("karawane", 2): (276, 1312, "ca01c8ade80465d2"),
    ("karawane", 3): (266, 1782, "bb9e0f7c2b19b503"),
    ("karawane", 4): (350, 2536, "06183d7f4b8821fb"),
}
OLDER_RULES = {"karawane": {DEEPER_RULE_OPTION: False}}


def perft(game_name: str, players: int, older: bool = False) -> tuple[int, int, str]:
    """Play the seeded games and count the legal decisions at each step (``older``: under
    the rules an older save keeps)."""
    game = get_game(game_name)
    options = {"first_player": 0} | (OLDER_RULES.get(game_name, {}) if older else {})
    counts: list[int] = []
    for seed in SEEDS:
        state = game.new_game([f"P{i}" for i in range(players)], seed, options)
        rng = random.Random(seed)
        while not game.is_over(state):
            legal = game.legal_actions(state)
            counts.append(len(legal))
            state = game.apply(state, legal[rng.randrange(len(legal))])
    digest = hashlib.sha256(",".join(map(str, counts)).encode()).hexdigest()[:16]
    return len(counts), sum(counts), digest


CASES = [
    (game.name, n) for game in all_games() for n in range(game.min_players, game.max_players + 1)
]


@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_the_legal_decisions_along_seeded_games_match_the_golden_counts(game, players):
    assert perft(game, players) == GOLDEN[game, players]


@pytest.mark.parametrize(("game", "players"), sorted(OLDER))
def test_the_older_rules_still_give_their_golden_counts(game, players):
    assert perft(game, players, older=True) == OLDER[game, players]


if __name__ == "__main__":
    for case in CASES:
        print(f"    {case!r}: {perft(*case)!r},")
