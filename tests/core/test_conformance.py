"""The conformance suite: one set of checks run over every registered game.

For each game and player count it plays many seeded random games and checks,
at every decision, the promises of the engine contract (see ``engine.py``):
saves round-trip, undo/redo, purity of ``apply``, conservation of components,
hidden information, termination.  A new game plugs in by being registered.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from karavan_core import IllegalAction, Match, Seat, all_games
from karavan_core.bots import RandomBot
from karavan_core.engine import Action
from karavan_core.saves import (
    structure_action,
    structure_state,
    unstructure_action,
    unstructure_state,
)

# Per game and player count.  Every game is played to its end with the light
# checks at every decision (a decision is offered, the game ends) and the
# inventory and result checked at its end; one game in FULL_EVERY gets every
# check at every decision.  Raise both with --conformance-games N and
# --conformance-full-every K (K=1 checks everything in every game).  The
# defaults keep this file near twenty seconds on one core; the slow run plays
# SLOW_GAMES more per game and player count.
DEFAULT_GAMES = 30
DEFAULT_FULL_EVERY = 25
SLOW_GAMES = 300
MAX_DECISIONS = 20_000  # a game still running after this many decisions never ends

# The fewest and the most players in the default run; the counts between with the slow checks.
CASES = [
    pytest.param(
        game,
        n,
        id=f"{game.name}-{n}p",
        # Karakorum's four players are the longest games of all: with the slow checks too.
        marks=()
        if n == game.min_players or (n == game.max_players and game.name != "karakorum")
        else pytest.mark.slow,
    )
    for game in all_games()
    for n in range(game.min_players, game.max_players + 1)
]


@pytest.fixture
def game_count(request) -> int:
    return request.config.getoption("--conformance-games") or DEFAULT_GAMES


@pytest.fixture
def full_every(request) -> int:
    return request.config.getoption("--conformance-full-every") or DEFAULT_FULL_EVERY


def _roundtrip_state(game, state):
    return structure_state(game, json.loads(json.dumps(unstructure_state(game, state))))


# -- the promises, one function each: a failure names the promise it broke ------------------


def saves_round_trip(game, state) -> None:
    """A cattrs save/load round trip gives an equal state."""
    assert _roundtrip_state(game, state) == state, "a state must survive a save round trip"


def observations_hide_what_they_must(game, state, rng: random.Random) -> dict[int, Any]:
    """A state dealt afresh from a player's observation looks the same to that player, and the
    same to everyone (public view, standings, components) as the true one.  Returns the deals."""
    public = game.observe(state, None)
    assert public.player is None, "the public view belongs to nobody"
    standings = game.result(state)
    samples = {}
    for player in range(len(state.players)):
        seen = game.observe(state, player)
        sampled = game.sample_state(seen, random.Random(rng.random()))
        assert game.observe(sampled, player) == seen, "a deal from a view keeps that view"
        assert game.observe(sampled, None) == public, "a deal from a view keeps the public view"
        assert game.result(sampled) == standings, "a deal from a view keeps the standings"
        assert game.inventory(sampled) == game.inventory(state), "a deal makes or loses no card"
        samples[player] = sampled
    return samples


def decisions_are_offered_and_distinct(game, state) -> list[Action]:
    """A game not over offers decisions, each once, each surviving a save round trip."""
    legal = game.legal_actions(state)
    assert legal, "a game that is not over must offer a decision"
    assert len(set(legal)) == len(legal), "legal decisions must be distinct"
    for action in legal[:3]:
        data = json.loads(json.dumps(unstructure_action(game, action)))
        assert structure_action(game, data) == action, "a decision must survive a save round trip"
    return legal


def illegal_decisions_are_refused_in_a_sentence(game, state, legal, seen_actions) -> None:
    """A decision that is not legal here is refused with a sentence, and changes nothing."""
    for old in seen_actions[-8:]:
        if old not in legal:
            with pytest.raises(IllegalAction) as refused:
                game.apply(state, old)
            assert str(refused.value).strip().endswith((".", "!", ")")), "a refusal is a sentence"
            return


def previews_come_from_the_deciders_view(game, state, legal, dealt) -> None:
    """Every word shown before a decision is the same in any state dealt from that view."""
    decider = state.to_move
    seen, dealt_seen = game.observe(state, decider), game.observe(dealt, decider)
    for action in legal:
        words = game.preview(seen, action)
        assert isinstance(words, str) and words, "every decision has words"
        assert game.preview(dealt_seen, action) == words, f"a preview leaks: {action}"


def quiet_decisions_reveal_nothing(game, state, legal, dealt) -> None:
    """A decision said to reveal nothing shows its decider the same next table whatever the
    hidden cards are: a gesture may run past it, and taking it back shows nothing."""
    decider = state.to_move
    seen, dealt_seen = game.observe(state, decider), game.observe(dealt, decider)
    for action in legal:
        if not game.reveals(seen, action):
            assert game.reveals(dealt_seen, action) is False, "reveals() reads the hidden cards"
            after = game.observe(game.apply(state, action), decider)
            assert game.observe(game.apply(dealt, action), decider) == after, action


def apply_is_pure_and_conserves(game, state, before_inventory, snapshot, after) -> None:
    """``apply`` left its input untouched; nothing was created or lost."""
    assert unstructure_state(game, state) == snapshot, "apply changed the state it was given"
    assert game.inventory(after) == before_inventory, "a decision made or lost a card"


def the_log_line_is_public(game, match: Match, dealt, action) -> None:
    """The log line is the same for the state dealt afresh, once the same decision led to the
    same public table."""
    line = match.log()[-1]
    assert line.strip(), "every decision has a log line"
    dealt_after = game.apply(dealt, action)
    if game.observe(dealt_after, None) == game.observe(match.state, None):
        redealt = game.describe(game.observe(dealt, None), action, game.observe(dealt_after, None))
        assert redealt == line, "a log line leaks what only some players saw"


def undo_and_redo_restore(match: Match, before, after) -> None:
    """Undo then redo gives equal states."""
    match.undo()
    assert match.state == before, "undo restores the state before the decision"
    match.redo()
    assert match.state == after, "redo restores the state after it"


def no_place_stays_unfilled(game, state, seed) -> None:
    """No place the rules fill stands empty while a card could fill it."""
    assert game.unfilled(state) is None, (seed, game.unfilled(state))


def _check_step(game, match: Match, rng: random.Random, seen_actions: list[Action]) -> None:
    """Every promise of the contract at the decision ``match`` is at, then that decision."""
    state = match.state
    snapshot = unstructure_state(game, state)
    saves_round_trip(game, state)
    seat = state.to_move
    assert seat is not None
    dealt = observations_hide_what_they_must(game, state, rng)[seat]
    legal = decisions_are_offered_and_distinct(game, state)
    illegal_decisions_are_refused_in_a_sentence(game, state, legal, seen_actions)
    previews_come_from_the_deciders_view(game, state, legal, dealt)
    quiet_decisions_reveal_nothing(game, state, legal, dealt)
    action = RandomBot(game, rng.randrange(2**31)).choose(game.observe(state, state.to_move), legal)
    seen_actions.append(action)
    inventory = game.inventory(state)
    match.play(action)
    apply_is_pure_and_conserves(game, state, inventory, snapshot, match.state)
    the_log_line_is_public(game, match, dealt, action)
    undo_and_redo_restore(match, state, match.state)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_games_keep_the_contract(game, players, game_count, full_every):
    """Thousands of random decisions, each checked against the whole contract."""
    play_and_check(game, players, range(game_count), full_every)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), CASES)
def test_many_more_random_games_keep_the_contract(game, players, game_count, full_every):
    """The slow run: other seeds, many more games."""
    play_and_check(game, players, range(game_count, game_count + SLOW_GAMES), full_every)


def play_and_check(game, players: int, seeds: range, full_every: int) -> None:
    """Play a seeded random game for each of ``seeds``, checking the contract as it goes."""
    names = [f"Player {i + 1}" for i in range(players)]
    seats = [Seat(name) for name in names]
    for seed in seeds:
        rng = random.Random(seed)
        match = Match(game, seats, seed)
        initial_inventory = game.inventory(match.state)
        seen_actions: list[Action] = []
        decisions = 0
        while not match.is_over():
            if seed % full_every == 0:
                _check_step(game, match, rng, seen_actions)
            else:
                legal = game.legal_actions(match.state)
                assert legal, "a game that is not over must offer a decision"
                match.play(legal[rng.randrange(len(legal))])
            no_place_stays_unfilled(game, match.state, seed)
            decisions += 1
            assert decisions < MAX_DECISIONS, f"seed {seed} never ends"
        final = match.state
        assert game.inventory(final) == initial_inventory
        assert game.legal_actions(final) == []
        assert final.to_move is None
        result = game.result(final)
        assert len(result.scores) == players
        assert result.winners and all(0 <= w < players for w in result.winners)
        assert len(result.breakdown) == players
        assert _roundtrip_state(game, final) == final


@pytest.mark.parametrize(("game", "players"), CASES)
def test_same_seed_same_game(game, players):
    """A seed replays a game exactly: randomness only comes from the state's generator."""
    names = [f"P{i}" for i in range(players)]
    a = game.new_game(names, 1234)
    b = game.new_game(names, 1234)
    rng_a, rng_b = random.Random(5), random.Random(5)
    while not game.is_over(a):
        assert a == b
        legal_a, legal_b = game.legal_actions(a), game.legal_actions(b)
        assert legal_a == legal_b
        a = game.apply(a, legal_a[rng_a.randrange(len(legal_a))])
        b = game.apply(b, legal_b[rng_b.randrange(len(legal_b))])
    assert a == b


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in all_games()])
def test_player_counts_are_enforced(game):
    with pytest.raises(ValueError):
        game.new_game(["Solo"] * (game.min_players - 1), 1)
    with pytest.raises(ValueError):
        game.new_game(["P"] * (game.max_players + 1), 1)


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in all_games()])
def test_disclose_tells_the_hidden_cards_that_a_public_redeal_changes(game):
    """``disclose`` (a finished game's replay, every card face up) names what nobody sees.

    Dealing the hidden parts afresh from the public view keeps everything public,
    so the disclosure is all that can tell the two states apart: it must.
    """
    rng = random.Random(3)
    match = Match(game, [Seat("Ann"), Seat("Bob")], 17)
    for _ in range(12):
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
    state = match.state
    rows = game.disclose(state)
    assert rows and all(isinstance(what, str) and isinstance(cards, str) for what, cards in rows)

    def cards(some_state) -> dict:
        data = unstructure_state(game, some_state)
        data.pop("rng")  # the generator is not a card
        return data

    differed = 0
    for seed in range(5):
        other = state
        for seat in range(2):  # each player's hidden cards in turn: only the public view stays
            other = game.sample_state(game.observe(other, seat), random.Random(seed + 10 * seat))
        assert game.observe(other, None) == game.observe(state, None)
        if cards(other) != cards(state):
            differed += 1
            assert game.disclose(other) != rows
    assert differed
