"""The Karakum lesson: a whole game dealt from seed 97, the learner first.

Every rule comes up at one of the steps: gathering (and the face-up gold that
is a whole gather), buying with the tax, paying with gold and with pairs,
caravans by colour and by number, the left side and the camels that join from
it, the value-1 camel's free card, the end and the scoring.  The moves below
are the whole game, Greedy against Greedy but for the learner's gold at
decision 8, which Greedy never takes (``python bench/lessons.py emit karakum
97``); the steps pick the learner's decisions to make by hand.
"""

from __future__ import annotations

from karavan_core.engine import Action
from karavan_core.games.karakum.state import Buy, DrawCard, Join, Pay, TakeCard
from karavan_core.lessons import Lesson, Step

MOVES: tuple[Action, ...] = (
    TakeCard(2),  # 0
    DrawCard(),  # 1
    TakeCard(2),  # 2
    DrawCard(),  # 3
    TakeCard(3),  # 4
    TakeCard(2),  # 5
    TakeCard(2),  # 6
    DrawCard(),  # 7
    TakeCard(3),  # 8
    TakeCard(0),  # 9
    TakeCard(4),  # 10
    TakeCard(4),  # 11
    TakeCard(4),  # 12
    TakeCard(2),  # 13
    TakeCard(4),  # 14
    DrawCard(),  # 15
    DrawCard(),  # 16
    DrawCard(),  # 17
    DrawCard(),  # 18
    Buy(3),  # 19
    Pay((0, 0, 0, 1, 0, 0)),  # 20
    TakeCard(0),  # 21
    Buy(2),  # 22
    Pay((0, 0, 0, 0, 3, 1)),  # 23
    Buy(1),  # 24
    Pay((0, 0, 0, 1, 0, 1)),  # 25
    DrawCard(),  # 26
    TakeCard(2),  # 27
    TakeCard(2),  # 28
    TakeCard(3),  # 29
    TakeCard(3),  # 30
    TakeCard(2),  # 31
    Buy(1),  # 32
    Pay((1, 0, 0, 0, 0, 0)),  # 33
    TakeCard(2),  # 34
    TakeCard(3),  # 35
    DrawCard(),  # 36
    DrawCard(),  # 37
    DrawCard(),  # 38
    Buy(3),  # 39
    Pay((0, 0, 4, 0, 0, 0)),  # 40
    Buy(2),  # 41
    Pay((0, 0, 5, 0, 0, 0)),  # 42
    Buy(0),  # 43
    Pay((0, 0, 0, 5, 0, 0)),  # 44
    DrawCard(),  # 45
    DrawCard(),  # 46
    DrawCard(),  # 47
    DrawCard(),  # 48
    Buy(4),  # 49
    Pay((0, 0, 0, 0, 4, 1)),  # 50
    Buy(0),  # 51
    Pay((6, 0, 1, 2, 0, 0)),  # 52
    Buy(1),  # 53
    Pay((0, 5, 0, 0, 0, 0)),  # 54
    TakeCard(1),  # 55
    DrawCard(),  # 56
    TakeCard(0),  # 57
    TakeCard(4),  # 58
    DrawCard(),  # 59
    DrawCard(),  # 60
    DrawCard(),  # 61
    TakeCard(2),  # 62
    DrawCard(),  # 63
    TakeCard(2),  # 64
    Buy(0),  # 65
    Pay((2, 0, 0, 2, 2, 0)),  # 66
    Join(1),  # 67
    TakeCard(0),  # 68
    DrawCard(),  # 69
    TakeCard(4),  # 70
    DrawCard(),  # 71
    Buy(3),  # 72
    Pay((2, 4, 2, 0, 0, 1)),  # 73
    TakeCard(3),  # 74
    DrawCard(),  # 75
    DrawCard(),  # 76
    TakeCard(3),  # 77
    TakeCard(1),  # 78
    TakeCard(1),  # 79
    TakeCard(0),  # 80
    DrawCard(),  # 81
    DrawCard(),  # 82
    TakeCard(3),  # 83
    TakeCard(0),  # 84
    TakeCard(1),  # 85
    DrawCard(),  # 86
    TakeCard(0),  # 87
    Buy(1),  # 88
    Pay((2, 0, 0, 0, 0, 0)),  # 89
    Buy(1),  # 90
    Pay((0, 2, 2, 2, 2, 0)),  # 91
    TakeCard(1),  # 92
    TakeCard(0),  # 93
    TakeCard(1),  # 94
    TakeCard(1),  # 95
    Buy(1),  # 96
    Pay((0, 2, 0, 0, 2, 0)),  # 97
    TakeCard(3),  # 98
    TakeCard(1),  # 99
    TakeCard(1),  # 100
    TakeCard(0),  # 101
    DrawCard(),  # 102
    DrawCard(),  # 103
    DrawCard(),  # 104
    TakeCard(3),  # 105
    Buy(1),  # 106
    Pay((2, 2, 2, 0, 2, 0)),  # 107
    DrawCard(),  # 108
    DrawCard(),  # 109
    TakeCard(1),  # 110
    DrawCard(),  # 111
    Buy(2),  # 112
    Pay((3, 0, 2, 2, 0, 1)),  # 113
    Buy(0),  # 114
    Pay((0, 1, 0, 2, 0, 0)),  # 115
    TakeCard(4),  # 116
    TakeCard(1),  # 117
    DrawCard(),  # 118
    DrawCard(),  # 119
    TakeCard(3),  # 120
    DrawCard(),  # 121
    TakeCard(0),  # 122
    Buy(1),  # 123
    Pay((0, 0, 0, 2, 0, 1)),  # 124
)

STEPS = (
    Step(
        0,
        "Welcome to Karakum! Build the most valuable caravan of camels. The market holds "
        "five camels for sale, the row five face-up resources, and your hand the cards you "
        "pay with. Each turn you do one thing: gather resources, or buy one camel.",
        "Look at the market, the row and your hand",
        teaches=("one-action",),
    ),
    Step(
        0,
        "Gather: take two cards, each one face up from the row or blind from the top of "
        "the deck. A card taken from the row is replaced at once, so your second pick sees "
        "the new card. Take the face-up paper, then draw one from the deck.",
        "Gather: take the face-up paper, then draw from the deck",
        decisions=2,
        why="paper is the good you hold least of.",
        teaches=("gather", "row-refill"),
    ),
    Step(
        8,
        "A face-up gold is a whole gather on its own: take it and your turn ends (it may "
        "never be your second card, though a gold drawn blind from the deck still lets you "
        "take another). Gold pays for a camel of any colour. Take the gold.",
        "Take the face-up gold: it is your whole gather",
        decisions=1,
        why="gold pays for any camel, one unit per card.",
        teaches=("gold-gather",),
    ),
    Step(
        19,
        "The next turns were played for you. Buy a camel: it costs its number in units, "
        "and one card of its own good is one unit (orange is honey). Your caravan is empty, "
        "so any camel may start it. Buy the orange 1 with one honey: choose it, then "
        "press Enter to pay the cards marked.",
        "Buy the orange 1 and pay one honey",
        decisions=2,
        why="a value-1 camel is cheap and brings a free card.",
        teaches=("buy",),
    ),
    Step(
        21,
        "A value-1 camel gives a free card: the deck's top or any face-up card, gold "
        "included. Meanwhile the market slid toward the deck and a new camel filled its "
        "first slot. Take the face-up jewelry.",
        "Take a free card: the face-up jewelry",
        decisions=1,
        why="jewelry pays for the blue camels in the market.",
        teaches=("free-card", "market-slide"),
    ),
    Step(
        24,
        "Each camel after the first must share the colour or the number of the last one "
        "in your caravan. The orange 2 shares orange with your orange 1. One gold is one "
        "unit of any colour: pay one honey and one gold.",
        "Buy the orange 2 with one honey and one gold",
        decisions=2,
        why="it follows your orange 1 by colour.",
        teaches=("caravan-colour", "pay-gold"),
    ),
    Step(
        32,
        "A camel that fits neither colour nor number goes to the left of your caravan "
        "master. The blue 1 is neither orange nor a 2: buy it with a jewelry, and it waits "
        "on the left. Then take the free card its 1 gives you: the face-up paper.",
        "Buy the blue 1 (it goes left), then take the face-up paper",
        decisions=3,
        why="left-side camels can still join later, and the 1 brings a free card.",
        teaches=("left-side",),
    ),
    Step(
        65,
        "The camel next to the camel deck sets the tax: every camel of its colour, that "
        "camel too, costs one unit more. The red 2 costs 3 units. Pay with pairs: two "
        "identical cards of another good make one unit. Pay two jewelry, two honey and "
        "two paper. It joins by number (after the orange 2), and at once the red 5 waiting "
        "on the left joins by colour.",
        "Buy the taxed red 2 with three pairs",
        decisions=2,
        why="it joins your caravan and draws the left-side camels in after it.",
        teaches=("tax", "pay-pairs", "caravan-number", "join"),
    ),
    Step(
        67,
        "Left-side camels must join as soon as they fit. Two fit after the red 5: the green "
        "5 and the purple 5. When several can, you choose which goes first; the other "
        "follows if it still fits. Move the green 5 in.",
        "Choose the green 5 to join the caravan first",
        decisions=1,
        why="then the purple 5 follows it by number.",
        teaches=("join-choice",),
    ),
    Step(
        123,
        "The game went on for you. The game ends when the market cannot be filled after "
        "a turn because the camel deck is empty, and this turn empties it. Buy the green "
        "2: it goes to the left side.",
        "Buy the green 2 with two honey and one gold",
        decisions=2,
        why="your last turn still adds points, if only on the left side.",
        teaches=("end",),
    ),
    Step(
        125,
        "The score: every camel in your caravan counts its number, the left side counts "
        "half its numbers, rounded down. You: 32 in the caravan and half of 2 on the left, "
        "33 in all. Greedy: 30. You win! (A tie goes to the longest caravan.)",
        "You win the game",
        teaches=("scoring",),
    ),
)

LESSON = Lesson("karakum", 97, 0, MOVES, STEPS)
