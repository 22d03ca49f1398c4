"""The match layer: seats, undo to the last human decision, redo, the change hook."""

from __future__ import annotations

import random

import pytest

from karavan_core import IllegalAction, Match, Seat, get_game
from karavan_core.games.karakum.state import Buy, DrawCard, Pay
from karavan_core.match import bot_names, parse_table

KARAKUM = get_game("karakum")


def play_random(match: Match, decisions: int, rng: random.Random) -> None:
    for _ in range(decisions):
        if match.is_over():
            return
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])


def test_seat_parsing():
    assert Seat.parse("Ann") == Seat("Ann")
    bot = Seat.parse("bot:random", 2)
    assert bot.is_bot and bot.level == "random" and bot.name == "Random bot 3"
    assert Seat.parse("bot:greedy:Omar") == Seat("Omar", "bot", "greedy")
    # At a table, a bot given no name is named by its level, numbered only among its likes.
    table = parse_table(["Ann", "bot:hard", "bot:random", "bot:hard:Hal", "bot:random"])
    assert [seat.name for seat in table] == [
        "Ann",
        "Hard bot",
        "Random bot 1",
        "Hal",
        "Random bot 2",
    ]
    assert bot_names([None, "hard"]) == [None, "Hard bot"]
    with pytest.raises(ValueError):
        Seat.parse("  ")


def test_undo_returns_to_the_last_human_decision_taking_bot_decisions_too():
    seats = [Seat("Ann"), Seat.parse("bot:random", 1), Seat.parse("bot:random", 2)]
    match = Match(KARAKUM, seats, seed=4, options={"first_player": 0})
    rng = random.Random(1)
    while match.to_move == 0 or not match.history:
        play_random(match, 1, rng)
    while match.to_move != 0:  # the bots play until Ann is to move again
        play_random(match, 1, rng)
    humans = [i for i in range(len(match.history)) if match.actor(i) == 0]
    last_human = humans[-1]
    before = match.state_at(last_human)
    undone = len(match.history) - last_human
    assert undone > 1
    end = match.state
    assert match.undo()
    assert match.state == before and len(match.history) == last_human
    assert len(match.undone) == undone
    assert match.redo()
    assert match.state == end and not match.undone


def test_redo_replays_the_human_decision_and_the_bot_decisions_after_it_only():
    seats = [Seat("Ann"), Seat("Bob")]
    match = Match(KARAKUM, seats, seed=9)
    play_random(match, 6, random.Random(3))
    states = list(match.states)
    assert match.undo() and match.undo()
    assert match.state == states[-3]
    assert match.redo()
    assert match.state == states[-2]
    assert match.can_redo()


def test_a_new_decision_clears_the_redo_list():
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob")], seed=9)
    play_random(match, 3, random.Random(3))
    match.undo()
    assert match.can_redo()
    match.play(match.legal_actions()[0])
    assert not match.can_redo()


def test_undo_with_only_bots_goes_back_one_decision_and_nothing_to_undo_at_start():
    match = Match(KARAKUM, [Seat.parse("bot:random"), Seat.parse("bot:random")], seed=2)
    assert not match.can_undo() and not match.undo() and not match.redo()
    play_random(match, 4, random.Random(0))
    third = match.state_at(3)
    match.undo()
    assert match.state == third


def test_illegal_play_changes_nothing_and_every_change_is_reported():
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob")], seed=5)
    state, revision = match.state, match.revision
    with pytest.raises(IllegalAction):  # nothing is being bought at the start of a turn
        match.play(Pay((0, 0, 0, 0, 0, 0)))
    assert match.state == state and match.revision == revision
    match.play(match.legal_actions()[0])
    match.undo()
    match.redo()
    assert match.revision == revision + 3


def test_undo_then_same_move_reveals_the_same_card():
    """Randomness lives in the state: replaying a decision after undo gives the same outcome."""
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob")], seed=12)
    draw = DrawCard()
    first = match.play(draw)
    match.undo()
    assert match.play(draw) == first


def test_log_opens_with_the_deal_and_describes_every_decision():
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob")], seed=12)
    play_random(match, 5, random.Random(1))
    log = match.log()
    assert len(log) == 6 and all(line.endswith(".") for line in log)
    assert log[0].startswith("A new game of Karakum")


def test_the_log_forgets_undone_decisions_and_tells_the_replayed_ones_again():
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob")], seed=12)
    play_random(match, 6, random.Random(1))
    full = match.log()
    match.undo()
    assert match.log() == full[:-1]
    match.redo()
    assert match.log() == full


def test_a_gesture_is_one_undo_step_and_all_or_nothing():
    """Buying is Buy then Pay: played by one call, taken back and replayed as one."""
    seats = [Seat("Ann"), Seat("Bob")]
    match = Match(KARAKUM, seats, seed=3, options={"first_player": 0})
    rng = random.Random(2)
    while not any(isinstance(a, Buy) for a in match.legal_actions()):
        play_random(match, 1, rng)
    buy = next(a for a in match.legal_actions() if isinstance(a, Buy))
    pay = KARAKUM.legal_actions(KARAKUM.apply(match.state, buy))[0]
    start, decisions = match.state, len(match.history)
    with pytest.raises(IllegalAction):  # the payment is refused: the purchase is not made
        match.play(buy, Pay((99, 0, 0, 0, 0, 0)))
    assert match.state is start and len(match.history) == decisions
    match.play(buy, pay)
    after = match.state
    assert len(match.history) == decisions + 2
    assert match.undo() and match.state == start
    assert match.redo() and match.state == after


def test_public_views_follow_undo_and_redo():
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob")], seed=12)
    play_random(match, 6, random.Random(1))
    full = match.public_views()
    assert len(full) == 7 and full == [match.view(None, i) for i in range(7)]
    match.undo()
    assert match.public_views() == full[: len(match.states)]
    match.redo()
    assert match.public_views() == full
