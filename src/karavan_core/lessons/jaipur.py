"""The Jaipur lesson: a whole match of two rounds, dealt from seed 18, the learner first.

Every rule comes up at one of the steps: taking one good, taking the camels,
exchanging, selling (precious goods two at least), the bonus tokens, the end
of a round and the camel token, the seals and the match.  The moves below are
the whole match, Greedy against Greedy (``python bench/lessons.py emit
jaipur 18``); the steps pick the learner's decisions to make by hand.
"""

from __future__ import annotations

from karavan_core.engine import Action
from karavan_core.games.jaipur.components import Card
from karavan_core.games.jaipur.state import Exchange, Sell, TakeCamels, TakeGood
from karavan_core.lessons import Lesson, Step

MOVES: tuple[Action, ...] = (
    TakeCamels(),  # 0
    Exchange((1, 1, 0, 0, 0, 0), (0, 0, 0, 0, 0, 1), 1),  # 1
    Sell(Card.DIAMONDS, 2),  # 2
    Sell(Card.GOLD, 2),  # 3
    Exchange((0, 0, 0, 1, 0, 2), (0, 0, 0, 0, 1, 0), 2),  # 4
    TakeCamels(),  # 5
    TakeCamels(),  # 6
    Exchange((0, 0, 2, 0, 1, 0), (0, 0, 0, 0, 0, 0), 3),  # 7
    Sell(Card.LEATHER, 3),  # 8
    Sell(Card.SILVER, 2),  # 9
    Exchange((0, 0, 0, 2, 0, 0), (0, 0, 0, 0, 0, 0), 2),  # 10
    TakeCamels(),  # 11
    Sell(Card.CLOTH, 3),  # 12
    Exchange((1, 0, 0, 0, 2, 0), (0, 0, 0, 1, 0, 0), 2),  # 13
    TakeCamels(),  # 14
    Sell(Card.DIAMONDS, 3),  # 15
    Sell(Card.SPICE, 1),  # 16
    Exchange((0, 1, 2, 0, 0, 0), (0, 0, 0, 0, 0, 0), 3),  # 17
    TakeGood(Card.CLOTH),  # 18
    Sell(Card.SILVER, 2),  # 19
    TakeCamels(),  # 20
    Sell(Card.SPICE, 3),  # 21
    Exchange((0, 1, 0, 0, 1, 3), (0, 0, 0, 0, 0, 0), 5),  # 22
    TakeCamels(),  # 23
    Exchange((0, 2, 0, 0, 2, 0), (0, 0, 0, 1, 0, 3), 0),  # 24
    TakeGood(Card.CLOTH),  # 25
    Sell(Card.GOLD, 3),  # 26
    Sell(Card.CLOTH, 1),  # 27
    Sell(Card.SPICE, 3),  # 28
    Sell(Card.SPICE, 2),  # 29
    TakeCamels(),  # 30
    Exchange((0, 2, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0), 1),  # 31
    Exchange((1, 0, 2, 0, 0, 0), (0, 0, 0, 1, 0, 1), 1),  # 32
    Sell(Card.GOLD, 3),  # 33
    Sell(Card.SILVER, 3),  # 34
    TakeCamels(),  # 35
    Sell(Card.DIAMONDS, 2),  # 36
    TakeCamels(),  # 37
    Exchange((1, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0), 2),  # 38
    Exchange((0, 0, 0, 1, 0, 1), (0, 0, 0, 0, 0, 0), 2),  # 39
    TakeCamels(),  # 40
    Sell(Card.CLOTH, 1),  # 41
    Exchange((0, 0, 0, 2, 0, 0), (0, 0, 0, 0, 0, 0), 2),  # 42
    TakeCamels(),  # 43
    Sell(Card.CLOTH, 3),  # 44
    Sell(Card.LEATHER, 1),  # 45
    Exchange((0, 0, 0, 0, 1, 1), (0, 0, 0, 0, 0, 0), 2),  # 46
    Exchange((0, 0, 0, 2, 1, 0), (0, 0, 0, 0, 0, 0), 3),  # 47
    TakeCamels(),  # 48
    TakeGood(Card.CLOTH),  # 49
    Exchange((0, 0, 0, 0, 1, 1), (0, 0, 0, 0, 0, 0), 2),  # 50
    TakeCamels(),  # 51
    Sell(Card.LEATHER, 3),  # 52
    Exchange((0, 0, 1, 0, 1, 0), (0, 0, 0, 0, 0, 0), 2),  # 53
    TakeCamels(),  # 54
    Sell(Card.SPICE, 2),  # 55
    Exchange((0, 2, 0, 0, 0, 0), (0, 0, 0, 0, 2, 0), 0),  # 56
    Sell(Card.CLOTH, 3),  # 57
    Sell(Card.GOLD, 2),  # 58
    Exchange((0, 0, 0, 0, 1, 3), (0, 0, 0, 0, 0, 0), 4),  # 59
    TakeCamels(),  # 60
    Sell(Card.LEATHER, 3),  # 61
    Exchange((0, 0, 0, 0, 2, 1), (0, 0, 0, 0, 0, 0), 3),  # 62
    Sell(Card.SPICE, 1),  # 63
    Sell(Card.SPICE, 2),  # 64
)

STEPS = (
    Step(
        0,
        "Welcome to Jaipur! You and Greedy are traders. The market in the middle holds "
        "five cards: three camels, a diamond and a cloth. Your hand holds five goods; "
        "camels never go in a hand, they wait in your herd (the last card of your row, K). "
        "Each turn you do exactly one thing: take from the market, or sell. "
        "There is no passing.",
        "Look at the market and your hand",
        teaches=("one-action",),
    ),
    Step(
        0,
        "Take the camels. Camels are always taken all together, never one by one, and "
        "they go to your herd, not your hand. The market is then filled back to five "
        "cards from the deck. A big herd is what you pay with in an exchange, later.",
        "Take the camels: choose one of the marked camels in the market",
        decisions=1,
        why="camels come all together, and a herd is what you trade with later.",
        teaches=("take-camels", "refill"),
    ),
    Step(
        2,
        "Now sell. Selling puts cards of one good from your hand on the discard pile; for "
        "each card you take the top token of that good's pile, the best first. Diamonds, "
        "gold and silver are precious: they sell two at least. Choose your diamonds in "
        "your hand and sell both.",
        "Sell your two diamonds: choose them in your hand",
        decisions=1,
        why="the top diamond tokens are worth 7 each, the best tokens of the game.",
        teaches=("sell", "sell-precious"),
    ),
    Step(
        4,
        "An exchange: take two goods or more from the market and give back as many "
        "cards, from your hand or your herd. You may not take camels this way, nor give "
        "back a good you are taking. Take the cloth and both leathers, and give two camels "
        "and a spice. Mark them with Space, then press Enter (or press x for a picker).",
        "Exchange: take the cloth and 2 leathers, give 2 camels and 1 spice",
        decisions=1,
        why="it gathers three leathers for one sale, paid mostly with camels.",
        teaches=("exchange",),
    ),
    Step(
        8,
        "Selling three cards or more of one good also wins a bonus token: the bigger the "
        "sale, the richer the pile it comes from (3, 4, or 5 and more). Its value is hidden "
        "from Greedy until the round ends. Sell your three leathers.",
        "Sell your three leathers for a bonus token",
        decisions=1,
        why="three at once win a bonus token on top of the leather tokens.",
        teaches=("bonus",),
    ),
    Step(
        18,
        "The next turns were played for you (the log has them all). Your hand is empty "
        "now. Take one good: the cloth. Taking a single good is only allowed while you "
        "hold fewer than seven cards, and you may never end a turn with more than seven.",
        "Take the cloth from the market",
        decisions=1,
        why="one good at a time fills an empty hand, and the market is refilled for Greedy.",
        teaches=("take-good", "hand-limit"),
    ),
    Step(
        28,
        "More turns were played for you. A round ends at once when three goods have run "
        "out of tokens, or when the deck cannot refill the market. Diamonds and gold are "
        "gone, and the spice pile has three tokens left: sell your three spices to end "
        "the round.",
        "Sell your three spices: it ends the round",
        decisions=1,
        why="it empties the third pile and ends the round while you lead.",
        teaches=("round-end",),
    ),
    Step(
        29,
        "Round one is over. The larger herd takes the camel token, worth 5: Greedy had five "
        "camels to your four. The richer player takes a seal of excellence: you, by 67 to "
        "66. (Tied totals go to more bonus tokens, then more goods tokens.) The loser "
        "starts the next round, so Greedy begins round two; it is played for you.",
        "Round one: the camel token and the seal",
        teaches=("camel-token", "seals", "ties", "round-starter"),
    ),
    Step(
        64,
        "Round two was played for you, and it is nearly over: gold and cloth are gone, "
        "and the spice pile holds two tokens. Sell your two spices. Your herd of six beats "
        "Greedy's none, so the camel token is yours this time.",
        "Sell your two spices to end round two",
        decisions=1,
        why="it ends the round with you far ahead, camel token included.",
        teaches=("round-end",),
    ),
    Step(
        65,
        "The first trader with two seals wins the match, and that is you, two seals to "
        "none. You have met every rule of Jaipur: one action a turn, camels all together, "
        "one good, exchanges, sales and bonuses, the camel token and the seals.",
        "You win the match",
        teaches=("match",),
    ),
)

LESSON = Lesson("jaipur", 18, 0, MOVES, STEPS)
