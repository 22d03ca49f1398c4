"""The Karawane lesson: a whole race dealt from seed 231, the learner first.

Every rule comes up at one of the steps: moving forward and back, occupied
squares skipped, the mirage and the city, the camel driver, the sandstorm, the
oasis reached by exact count, a card played without effect, the end and the
scoring.  The moves below are the whole game, Greedy against Greedy
(``python bench/lessons.py emit karawane 231``); the steps pick the
learner's decisions to make by hand.
"""

from __future__ import annotations

from karavan_core.engine import Action
from karavan_core.games.karawane.components import Card
from karavan_core.games.karawane.state import Play, PlaySandstorm, PlayWithoutEffect
from karavan_core.lessons import Lesson, Step

MOVES: tuple[Action, ...] = (
    Play(Card.OASIS_4, 0, 0),  # 0
    Play(Card.MIRAGE_3, 0, 0),  # 1
    Play(Card.OASIS_3, 0, 1),  # 2
    Play(Card.OASIS_2, 1, 0),  # 3
    Play(Card.MIRAGE_3, 1, 0),  # 4
    Play(Card.OASIS_4, 1, 0),  # 5
    Play(Card.OASIS_3, 0, 1),  # 6
    Play(Card.OASIS_2, 1, 0),  # 7
    Play(Card.OASIS_1, 0, 1),  # 8
    Play(Card.DRIVER, 1, 1),  # 9
    Play(Card.MIRAGE_2, 1, 1),  # 10
    Play(Card.OASIS_3, 1, 1),  # 11
    Play(Card.OASIS_2, 0, 1),  # 12
    Play(Card.MIRAGE_2, 0, 1),  # 13
    Play(Card.OASIS_2, 0, 1),  # 14
    Play(Card.OASIS_1, 1, 1),  # 15
    Play(Card.DRIVER, 0, 2),  # 16
    Play(Card.OASIS_3, 1, 1),  # 17
    Play(Card.MIRAGE_1, 1, 1),  # 18
    Play(Card.OASIS_1, 1, 1),  # 19
    Play(Card.OASIS_1, 0, 2),  # 20
    Play(Card.MIRAGE_1, 0, 2),  # 21
    PlaySandstorm(),  # 22
    Play(Card.DRIVER, 1, 2),  # 23
    Play(Card.DRIVER, 0, 0),  # 24
    Play(Card.MIRAGE_2, 0, 0),  # 25
    Play(Card.OASIS_3, 0, 1),  # 26
    Play(Card.MIRAGE_1, 0, 1),  # 27
    Play(Card.OASIS_4, 0, 2),  # 28
    Play(Card.OASIS_1, 1, 1),  # 29
    Play(Card.MIRAGE_1, 1, 1),  # 30
    Play(Card.OASIS_1, 1, 1),  # 31
    Play(Card.OASIS_1, 0, 0),  # 32
    Play(Card.OASIS_3, 1, 2),  # 33
    Play(Card.MIRAGE_3, 1, 1),  # 34
    Play(Card.OASIS_3, 1, 1),  # 35
    Play(Card.MIRAGE_2, 1, 1),  # 36
    Play(Card.MIRAGE_3, 0, 0),  # 37
    Play(Card.OASIS_2, 0, 1),  # 38
    Play(Card.OASIS_2, 1, 1),  # 39
    Play(Card.OASIS_2, 0, 0),  # 40
    Play(Card.OASIS_4, 1, 1),  # 41
    Play(Card.OASIS_3, 0, 0),  # 42
    Play(Card.OASIS_2, 1, 0),  # 43
    Play(Card.OASIS_1, 0, 0),  # 44
    PlaySandstorm(),  # 45
    Play(Card.MIRAGE_3, 1, 0),  # 46
    Play(Card.OASIS_3, 1, 0),  # 47
    Play(Card.OASIS_3, 0, 1),  # 48
    Play(Card.OASIS_3, 1, 0),  # 49
    Play(Card.OASIS_2, 0, 0),  # 50
    Play(Card.OASIS_2, 1, 0),  # 51
    Play(Card.MIRAGE_1, 1, 0),  # 52
    Play(Card.OASIS_2, 1, 0),  # 53
    Play(Card.MIRAGE_2, 1, 0),  # 54
    Play(Card.OASIS_1, 1, 0),  # 55
    PlayWithoutEffect(Card.OASIS_1),  # 56
    Play(Card.OASIS_4, 1, 0),  # 57
    PlaySandstorm(),  # 58
    Play(Card.OASIS_1, 1, 0),  # 59
)

STEPS = (
    Step(
        0,
        "Welcome to Karawane! Race your three camels from the city (on the left of the "
        "track) over twenty desert squares into the oasis, whose six squares score 1 to 6, "
        "the deepest most. Each turn you play one card of your three and draw back up to "
        "three from your own deck of twelve.",
        "Look at the track and your hand",
        teaches=("turn",),
    ),
    Step(
        0,
        "An oasis card moves one of your camels forward by its palms. Play Oasis 4 on a "
        "camel in the city: choose the marked card, then the camel.",
        "Play Oasis 4 on your camel 1",
        decisions=1,
        why="the biggest step is the best start.",
        teaches=("forward",),
    ),
    Step(
        2,
        "Greedy's mirage sent your camel back to square 1. Moves count free squares only: "
        "a square with a camel on it is skipped. Play Oasis 3 on your camel 2: it hops over "
        "square 1 and lands on square 4.",
        "Play Oasis 3 on your camel 2",
        decisions=1,
        why="it brings a second camel out of the city, past the occupied square.",
        teaches=("forward-skip",),
    ),
    Step(
        4,
        "A mirage moves an opponent's desert camel back by its palms, skipping occupied "
        "squares too. Past square 1 a camel lands in the city. Play Mirage 3 on Greedy's "
        "camel 1: from square 3 it goes all the way home.",
        "Play Mirage 3 on Greedy's camel 1",
        decisions=1,
        why="it sends Greedy's only camel on the track back to the city.",
        teaches=("mirage", "back-skip", "city"),
    ),
    Step(
        16,
        "The next turns were played for you. The camel driver puts one of your camels on "
        "the square just ahead of the race leader, the frontmost camel not yet in the "
        "oasis (never onto an oasis square). Greedy leads on square 14: drive your camel 3 "
        "out of the city to square 15.",
        "Play the camel driver on your camel 3",
        decisions=1,
        why="a camel from the city jumps to the front of the race.",
        teaches=("driver",),
    ),
    Step(
        22,
        "Your deck has run out, so you hold one card: the sandstorm. Play it: everyone "
        "gathers all twelve cards (hand, deck and played pile), shuffles them and draws "
        "three. When a deck is empty you play on with fewer cards.",
        "Play the sandstorm",
        decisions=1,
        why="it is your only card.",
        teaches=("sandstorm", "draw-back"),
    ),
    Step(
        28,
        "The oasis is reached by exact count: a move that would run past its last free "
        "square cannot be made, and a camel in the oasis stays there for good. Oasis 4 "
        "takes your camel 3 from square 15 over the occupied squares to oasis square 3.",
        "Play Oasis 4 on your camel 3",
        decisions=1,
        why="it brings your first camel into the oasis, worth 3 points.",
        teaches=("oasis-exact", "oasis-stays"),
    ),
    Step(
        56,
        "The race went on for you: all three of your camels are in the oasis now, so none "
        "of your cards can do anything. You must still play a card each turn: play one "
        "Oasis 1 without effect.",
        "Play an Oasis 1 without effect",
        decisions=1,
        why="a card with no possible effect is played away, and the 2 may serve later.",
        teaches=("no-effect",),
    ),
    Step(
        60,
        "The race ends at once when all six oasis squares are taken. Each player scores "
        "the squares their camels hold: you hold 3, 6 and 2 for 11 points, Greedy 4, 5 "
        "and 1 for 10. You win! (Tied players would share the win.)",
        "You win the race",
        teaches=("end", "scoring"),
    ),
)

LESSON = Lesson("karawane", 231, 0, MOVES, STEPS)
