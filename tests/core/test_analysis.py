"""Hints and reviews: the Expert search judging decisions from the decider's observation."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest
from attrs import evolve

from karavan_core import Match, Seat, get_game, load_match, save_match
from karavan_core.analysis import (
    Analyst,
    Verdict,
    decision_accuracy,
    gesture_hints,
    review_dict,
    review_match,
)
from karavan_core.analysis.review import tasks_for
from karavan_core.bots import make_bot
from karavan_core.engine import State
from karavan_core.games.jaipur.components import Card
from karavan_core.games.jaipur.state import Sell, TakeGood

JAIPUR = get_game("jaipur")


def counts(**named: int) -> tuple[int, ...]:
    """Six goods counts (or seven, with ``camel``) from keywords."""
    goods = tuple(named.get(card.value, 0) for card in list(Card)[:6])
    return goods + ((named["camel"],) if "camel" in named else ())


def decisive_jaipur() -> State:
    """The deciding round; two goods are sold out and Ann, to move, holds one leather.

    Selling it takes the last leather token: the third empty pile ends the round,
    Ann ahead 31 to 29 (Bob's larger herd included), and she wins the match.  Any
    other decision lets Bob sell the two silver everyone saw him take: the last
    silver token ends the round with Bob ahead, and he wins.  Every card is where
    the real game could have put it (the counts add up to the deck's).
    """
    state = JAIPUR.new_game(["Ann", "Bob"], seed=7, options={"first_player": 0})
    deck = (Card.CLOTH,) * 5 + (Card.SPICE,) * 6 + (Card.LEATHER,) + (Card.CAMEL,) * 8
    piles = list(state.goods_piles)
    piles[0] = piles[1] = ()  # diamonds and gold: sold out
    piles[2] = (5,)  # one silver token left
    piles[5] = (1,)  # one leather token left
    no_goods = ((),) * 6
    return evolve(
        state,
        seals=(1, 1),
        deck=deck[::2] + deck[1::2],
        market=counts(cloth=3, spice=2, camel=0),
        hands=(counts(leather=1), counts(silver=2)),
        known=(counts(leather=1), counts(silver=2)),
        herds=(0, 3),
        discard=counts(diamonds=6, gold=6, silver=4, leather=8),
        goods_piles=tuple(piles),
        goods_won=(
            ((7, 7, 5, 5, 5), *no_goods[1:5], (1,)),  # Ann: 30
            ((), (6, 6, 5, 5), *no_goods[2:5], (2,)),  # Bob: 24
        ),
    )


def test_a_decision_that_throws_the_match_away_is_a_blunder_with_the_better_choice_named():
    state = decisive_jaipur()
    legal = JAIPUR.legal_actions(state)
    assert Sell(Card.LEATHER, 1) in legal and TakeGood(Card.CLOTH) in legal
    seen = JAIPUR.observe(state, 0)
    judgement = Analyst(JAIPUR, seed=5).judge(seen, legal, TakeGood(Card.CLOTH))
    assert judgement.best == Sell(Card.LEATHER, 1)
    assert judgement.verdict is Verdict.BLUNDER
    assert judgement.win_before > 0.7 and judgement.win_after < 0.3
    assert judgement.accuracy < 10
    good = Analyst(JAIPUR, seed=5).judge(seen, legal, Sell(Card.LEATHER, 1))
    assert good.verdict is Verdict.GOOD and good.lost == 0 and good.accuracy == 100


def test_a_hint_comes_from_the_players_own_observation_and_says_its_chance():
    state = decisive_jaipur()
    seen = JAIPUR.observe(state, 0)
    hint = Analyst(JAIPUR, seed=1).hint(seen, JAIPUR.legal_actions(state))
    assert hint.action == Sell(Card.LEATHER, 1) and hint.win > 0.7
    assert hint.words == JAIPUR.preview(seen, hint.action)
    # The same observation with Bob's unseen cards dealt otherwise gives the same hint.
    other = evolve(state, deck=tuple(reversed(state.deck)))
    assert JAIPUR.observe(other, 0) == seen
    again = Analyst(JAIPUR, seed=1).hint(JAIPUR.observe(other, 0), JAIPUR.legal_actions(other))
    assert again == hint


def test_verdicts_and_accuracy_follow_the_chance_lost():
    assert decision_accuracy(0) == 100
    assert decision_accuracy(0.05) > decision_accuracy(0.1) > decision_accuracy(0.3) >= 0
    assert decision_accuracy(1) == 0


def short_game(tmp_path) -> Match:
    """A Jaipur save: Ann (played here by Greedy) against Hard, eight decisions in."""
    seats = [Seat("Ann"), Seat("Hal", "bot", "hard")]
    match = Match(JAIPUR, seats, seed=21, options={"first_player": 0})
    ann, hal = make_bot("greedy", JAIPUR, 1), make_bot("hard", JAIPUR, 2)
    while len(match.history) < 8:
        seat = match.to_move
        bot = ann if seat == 0 else hal
        match.play(bot.choose(JAIPUR.observe(match.state, seat), match.legal_actions()))
    match.count_hint(0)
    return load_match(save_match(match, tmp_path / "short.json"))


def without_times(data: dict[str, Any]) -> dict[str, Any]:
    for decision in data["decisions"]:
        decision.pop("think_seconds")
    return data


def test_the_review_of_a_save_is_the_same_every_time_and_in_any_number_of_processes(tmp_path):
    match = short_game(tmp_path)
    steps: list[tuple[int, int]] = []
    budget = (200, 120)  # smaller searches than the app's: the same promise, sooner
    first = review_match(
        match, progress=lambda done, total: steps.append((done, total)), budget=budget
    )
    second = review_match(match, jobs=2, budget=budget)
    assert first is not None and second is not None
    one, two = (without_times(review_dict(r, match)) for r in (first, second))
    assert one == two
    assert steps[0] == (0, 4) and steps[-1] == (4, 4)
    # Only Ann's decisions are rated (Hal is a bot), numbered by their place in the history.
    assert [d["index"] for d in one["decisions"]] == [0, 2, 4, 6]
    assert {d["seat"] for d in one["decisions"]} == {0}
    ann, hal = one["players"]
    assert ann["name"] == "Ann" and ann["hints"] == 1 and ann["rated_decisions"] == 4
    assert 0 <= ann["accuracy"] <= 100 and hal["accuracy"] is None
    for decision in one["decisions"]:
        assert decision["verdict"] in {v.value for v in Verdict}
        assert 0 <= decision["win_after"] <= decision["win_before"] <= 1
        assert decision["played"].startswith("Ann ") and decision["best"].startswith("Ann ")
    json.dumps(one)  # all of it is JSON


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_reviews_progress_moves_before_its_first_decision_is_judged(tmp_path, jobs):
    match = short_game(tmp_path)
    steps: list[float] = []
    review = review_match(
        match, jobs=jobs, progress=lambda done, total: steps.append(done), budget=(200, 120)
    )
    assert review is not None and steps[-1] == len(review.decisions) == 4
    first_judged = next(i for i, done in enumerate(steps) if done >= 1)
    assert any(0 < done < 1 for done in steps[:first_judged])
    assert steps == sorted(steps)  # it never goes back


def test_a_review_judges_each_decision_from_its_players_observation_only():
    match = Match(JAIPUR, [Seat("Ann"), Seat("Bob")], seed=3)
    for _ in range(6):
        match.play(match.legal_actions()[0])
    tasks = tasks_for(match)
    assert tasks and all(
        t.observation == JAIPUR.observe(match.state_at(t.index), t.seat) for t in tasks
    )
    assert all(t.observation.player == t.seat for t in tasks)
    assert [t.index for t in tasks_for(match, seats=[1])] == [t.index for t in tasks if t.seat == 1]


def test_a_cancelled_review_gives_nothing(tmp_path):
    match = short_game(tmp_path)
    assert review_match(match, cancelled=lambda: True) is None


@pytest.mark.parametrize("game", ["karakum", "karawane", "karakorum"])
def test_every_game_can_be_reviewed(game):
    rules = get_game(game)
    match = Match(rules, [Seat("Ann"), Seat("Bob")], seed=2)
    while len(match.history) < 3:
        match.play(match.legal_actions()[-1])
    analyst = Analyst(rules, seed=0, open_iterations=60, forced_iterations=40)
    for task in tasks_for(match):
        judgement = analyst.judge(task.observation, task.legal, task.played)
        assert judgement.best in task.legal and 0 <= judgement.lost <= 1


# A fresh interpreter whose stderr is an object without a real file descriptor, as
# inside a terminal app that captures output (Textual's fileno() is -1): a review in
# two processes must still work, and its workers must stay off the real stderr.
NO_DESCRIPTOR_STDERR = """
import io, os, sys
from karavan_core import Match, Seat, get_game
from karavan_core.analysis import review_match

class Captured(io.TextIOBase):
    def write(self, text):
        return len(text)

    def fileno(self):
        return -1

game = get_game("jaipur")
match = Match(game, [Seat("Ann"), Seat("Bob")], seed=3)
for _ in range(4):
    match.play(match.legal_actions()[0])
host = sys.stderr
sys.stderr = Captured()
try:
    review = review_match(match, jobs=2, budget=(30, 20))
finally:
    restored = sys.stderr
    sys.stderr = host
assert isinstance(restored, Captured), "the host's stderr is given back"
print(len(review.decisions))
"""


def test_a_review_in_several_processes_works_when_stderr_has_no_file_descriptor(tmp_path):
    expected = len(tasks_for(jaipur_after(4)))
    ran = subprocess.run(
        [sys.executable, "-c", NO_DESCRIPTOR_STDERR],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == [str(expected)]
    assert ran.stderr == ""


def jaipur_after(moves: int) -> Match:
    """Ann and Bob's Jaipur (seed 3) after ``moves`` first-listed decisions."""
    match = Match(JAIPUR, [Seat("Ann"), Seat("Bob")], seed=3)
    for _ in range(moves):
        match.play(match.legal_actions()[0])
    return match


@pytest.mark.parametrize("game", ["karakum", "karawane", "karakorum", "jaipur"])
def test_the_review_never_faults_a_decision_the_hint_chose(game):
    rules = get_game(game)
    seats = [Seat("Ann"), Seat("Bob", "bot", "random")]
    match = Match(rules, seats, seed=5, options={"first_player": 0})
    rng = random.Random(5)
    budget = (60, 40)  # small searches: the same promise, sooner
    hinted = {}
    while len(hinted) < 12 and not match.is_over():
        legal = match.legal_actions()
        if match.to_move == 0 and len(legal) > 1:
            seen = rules.observe(match.state, 0)
            (hint,) = gesture_hints(rules, seen, legal, match.seed, len(match.history), budget)
            hinted[len(match.history)] = hint.action
            match.play(hint.action)
        else:
            match.play(rng.choice(legal))
    # Judged in other processes (whose hash seeds differ), as the app's review is.
    review = review_match(match, jobs=2, budget=budget)
    assert review is not None
    judged = [d for d in review.decisions if d.index in hinted]
    assert len(judged) == len(hinted) == 12
    for decision in judged:
        assert decision.judgement.best == decision.judgement.played == hinted[decision.index]
        assert decision.verdict is Verdict.GOOD and decision.judgement.lost == 0
