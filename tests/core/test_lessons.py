"""The lessons against the engine: real deals, legal moves, every rule taught."""

from __future__ import annotations

import re

import pytest

from karavan_core import Match, Seat, get_game
from karavan_core.lessons import LEARNER, Lesson, Step, get_lesson, lesson_names

# Every rule of each game, as RULINGS.md and the rulebooks (/work/shared/seeds) give them;
# each must be taught by some step of the game's lesson.
RULES: dict[str, set[str]] = {
    "karakum": {
        "one-action",  # gather or buy one camel, once a turn
        "gather",  # two cards, face up from the row or blind from the deck
        "row-refill",  # a face-up card taken is replaced at once
        "gold-gather",  # a face-up gold is the whole gather, never the second card
        "buy",  # a market camel costs its number in units of its good
        "market-slide",  # the camels before the gap move away from the deck, a new one next to it
        "tax",  # the colour next to the camel deck costs one unit more
        "pay-gold",  # a gold is one unit of any colour
        "pay-pairs",  # two identical cards of another good are one unit
        "caravan-colour",  # the next camel shares the last one's colour...
        "caravan-number",  # ...or its number
        "left-side",  # a camel that cannot join goes left of the master
        "join",  # left-side camels join as soon as they can
        "join-choice",  # several can: the owner chooses
        "free-card",  # a value-1 camel gives a free card
        "end",  # the market cannot be refilled: the game ends
        "scoring",  # caravan + half the left side; ties: the longest caravan
    },
    "karawane": {
        "turn",  # play one card a turn, then draw back up to three
        "draw-back",  # an empty deck: play on with fewer cards
        "forward",  # an oasis card moves your own camel forward
        "forward-skip",  # occupied squares are not counted, forward
        "back-skip",  # nor backward
        "mirage",  # moves an opponent's desert camel back
        "city",  # pushed back past square 1: the city
        "driver",  # to the square just ahead of the leader, never onto the oasis
        "sandstorm",  # everyone reshuffles all twelve cards and draws three
        "oasis-exact",  # the oasis is reached by exact count
        "oasis-deeper",  # a camel in the oasis never goes back, but may go deeper
        "no-effect",  # no card can be used: play one without effect
        "end",  # the game ends when all six oasis squares are taken
        "scoring",  # the oasis squares held, summed; ties share the win
    },
    "karakorum": {
        "round",  # the first player reveals, takes; the others take or pass; all place
        "reveal",  # one card at a time, 1 to players + 1
        "stop",  # deciding after each card whether to go on
        "take",  # at least one card...
        "take-more",  # ...several only if all of one peak
        "pass",  # the others take one card or pass
        "take-others",  # one card from another player's round
        "take-placeable",  # only a card the taker can place
        "new-expedition",  # a card starts an expedition of its peak
        "limits",  # four at most: one per peak and one more
        "order",  # values never go down within an expedition
        "remove",  # 1-2-card expeditions removed for 3 (never below 0)
        "score",  # 3+ cards just added to: scored by axes
        "goal",  # or with a goal card, used once by anyone
        "final",  # the last round, then every expedition cancelled (3+ axes, else -3)
        "champions",  # peak champions drop their peak (the lowest of several), sum the rest
        "instant-win",  # all three markers on 30 win at once (a track stops at 30)
    },
    "jaipur": {
        "one-action",  # one action a turn: take or sell, no passing
        "take-good",  # take one good (only with fewer than 7 cards in hand)
        "hand-limit",  # 7 cards at most at the end of a turn
        "take-camels",  # all the market's camels at once, into the herd
        "refill",  # the market is filled back to five from the deck
        "exchange",  # 2+ goods for as many cards of hand and herd, no camel taken, no kind back
        "sell",  # cards of one good for the top tokens of its pile
        "sell-precious",  # diamonds, gold and silver: two at least
        "bonus",  # 3, 4, 5+ cards: a hidden bonus token of that size
        "round-end",  # three piles empty, or the market cannot be refilled
        "camel-token",  # the larger herd takes the camel token
        "seals",  # the round's richer player takes a seal
        "ties",  # tied totals: more bonus tokens, then more goods tokens
        "round-starter",  # the round's loser starts the next
        "match",  # two seals win the match
    },
}


def test_every_game_has_a_lesson_and_a_list_of_its_rules():
    assert set(lesson_names()) == set(RULES)


@pytest.mark.parametrize("name", lesson_names())
def test_every_rule_is_taught_in_some_step(name):
    lesson = get_lesson(name)
    assert lesson.rules >= RULES[name], RULES[name] - lesson.rules
    assert lesson.rules <= RULES[name], lesson.rules - RULES[name]  # no rule unknown to the list


@pytest.mark.parametrize("name", lesson_names())
def test_the_lesson_replays_against_the_engine(name):
    """The deal is the engine's own from the seed, each move legal at its point, the game
    played to its end; the steps wait only for the learner's own decisions."""
    lesson = get_lesson(name)
    game = get_game(name)
    assert lesson.game_name == game.name
    # The deal is the seed's, whatever the players are called.
    assert lesson.deal(["Ann", "Greedy"]) == game.new_game(
        ["Ann", "Greedy"], lesson.seed, {"first_player": lesson.first_player}
    )
    states = list(lesson.states(["Ann", "Greedy"]))  # game.apply raises on an illegal move
    assert len(states) == len(lesson.moves) + 1
    for state, move in zip(states, lesson.moves, strict=False):
        assert move in game.legal_actions(state)
    assert game.is_over(states[-1])
    for step in lesson.steps:
        assert step.say and step.task
        for index in range(step.at, step.end):
            assert states[index].to_move == LEARNER, (step, index)
        if step.decisions:
            assert step.why, step
    # The last step is read once the game is over: the lesson ends there.
    last = lesson.steps[-1]
    assert last.at == len(lesson.moves) and not last.decisions


@pytest.mark.parametrize("name", lesson_names())
def test_a_step_after_turns_played_for_the_learner_says_so(name):
    """Between its steps the lesson plays on by itself, the learner's seat too: the next
    step says so, or the learner finds a hand changed and a log line not theirs."""
    lesson = get_lesson(name)
    states = list(lesson.states(["Ann", "Greedy"]))
    waited = 0  # where the lesson last waited for the learner
    for number, step in enumerate(lesson.steps, start=1):
        played = [i for i in range(waited, step.at) if states[i].to_move == LEARNER]
        if played:
            assert "for you" in step.say, (number, step.say[:60])
        waited = step.end if step.decisions else step.at


@pytest.mark.parametrize("name", lesson_names())
def test_the_match_of_a_lesson_logs_every_move_in_public_words(name):
    lesson = get_lesson(name)
    match = Match(
        lesson.game, [Seat("Ann"), Seat("Greedy", "bot", "greedy")], lesson.seed, lesson.options
    )
    for move in lesson.moves:
        match.play(move)
    assert len(match.log()) == len(lesson.moves) + 1


def test_steps_that_overlap_are_refused():
    with pytest.raises(ValueError, match="follow one another"):
        Lesson(
            game_name="jaipur",
            seed=1,
            first_player=0,
            moves=(),
            steps=(
                Step(at=2, say="a", task="b", decisions=2, why="c"),
                Step(at=3, say="d", task="e"),
            ),
        )


GOOD_WORDS = r"diamonds?|gold|silver|cloth|spices?|leather|jewelry|silk|honey|paper"


@pytest.mark.parametrize("name", lesson_names())
def test_a_lesson_counts_goods_in_words_not_digits(name):
    """ "take a cloth and both leather cards", not "take 1 cloth and 2 leather": a count of
    goods is said in words, as the rest of the lesson says it."""
    for step in get_lesson(name).steps:
        for text in (step.task, step.say):
            assert not re.search(rf"\b\d+ ({GOOD_WORDS})\b", text), text


def test_the_karakum_lesson_says_the_camel_deck_is_empty_when_its_last_turn_comes():
    """The last step's turn does not empty the camel deck: it is empty already."""
    lesson = get_lesson("karakum")
    step = next(step for step in lesson.steps if "end" in step.teaches)
    states = list(lesson.states(["You", "Greedy"]))
    assert not states[step.at].camel_deck
    assert "empties it" not in step.say and "it is empty now" in step.say
