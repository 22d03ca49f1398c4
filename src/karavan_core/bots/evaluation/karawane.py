"""Karawane evaluation: oasis points held, plus the progress of the camels still in the desert."""

from __future__ import annotations

import math

from karavan_core.bots.evaluation import GameEvaluation, SearchSettings
from karavan_core.games.karawane import components as C
from karavan_core.games.karawane.components import FIRST_OASIS, LAST_SQUARE
from karavan_core.games.karawane.rules import oasis_points, occupied, score
from karavan_core.games.karawane.state import KarawaneState
from karavan_core.values import replace

# The search levels score a position as soon as the decision is taken, where Hard-v1
# (bench/hard_v1.py, the search by playouts alone) first plays eight random decisions (they say
# little about a race): over 100 seat-swapped games (seed 101) that beat Hard-v1 64.0%
# (54.2–72.7), taking 0.13 s a decision to its 0.31 s.  Pooling the deals makes an iteration
# cheaper still, so Hard searches 600 and Expert 3,000, which beat that Hard 68.0% (54.2–79.2)
# over 50 games (seed 102).
# At four players that Expert wins a little more than its share against three
# Hard (29.7% of 400 games, seed 103; 27.1% of the first 48).  Measured on that
# seed's deals and not kept: Expert with the other players answering greedily
# below the root, 25.9% of 29 games at 0.71 s a decision (over its time); with
# UCB's constant 0.15 instead of 0.3, 22.8% of 63; over 250 deals (as many
# visits per deal as Hard's), 24.9% of 85.
# At two players, against Hard on the deals of seed 102 from game 88 on, paired with
# today's Expert on the same deals, and not kept: implicit minimax backups (each node
# also keeping its best line's rewards, blended in at 0.3; Lanctot et al., 2014) won
# 55.8% of 86 games where Expert won 61.6% (−5.8 ± 13.5 points); a value model fitted
# to 800 self-play games (this evaluation, points, progress, camels in the city, the
# cards still to play, the move), which foretold held-out winners a little better (log
# loss 0.583 to 0.598), won 41.4% of 111 where Expert won 57.7% (−16.2 ± 12.4). Its
# largest weight was on still holding the camel driver, which a search may read as a
# reason never to play it (a guess, not checked).
# Nor progressive widening, which made Jaipur's Expert stronger: widened by the
# square root of a node's visits, Expert won 5 of 15 seat-swapped games head to
# head against today's (seed 103), and was stopped there.
# Karawane is decided more by what a player cannot see than Karakum is (measured
# with bench/variants.py): Hard dealing the rival's true hand, the decks shuffled,
# won 68.3% (55.8–78.7) of 60 games against Hard (seed 1), and Expert searching
# the true state (every deck's order too) won all of 7 (seed 102).  Guessing the
# hand from the rival's last two plays does not get there: weighing each deal by
# how likely those plays were with its hand (a softmax of the Greedy evaluation's
# lead after each play they could have made, at 0.5 points) gave the true hand on
# average only 1.13 times its prior weight, and as Hard it won 45.5% (35.5–55.8)
# of 88 games against Hard (seed 102).  Against Hard on the deals of the 400-game
# row (seed 102), paired with today's Expert on the same deals (it won 55.8% of
# all 400): with UCB's constant 0.1, 55.8% of 104 games, level with it (+0.0 ±
# 11.4 points); with 0.6, 49.6% of 125 (−4.8 ± 11.9); with twice the budget
# (6,000 iterations, which two players' cheaper iterations would allow in the
# time), 55.5% of 200 (−1.0 ± 9.5); with three times, 65.4% of 78 (+6.4 ±
# 14.5), too slow (0.74 s a decision at the 95th percentile where this Expert
# took 0.22 s); played out in December on all 400 games after the rewards' fix,
# on a machine twice as fast, 61.0% (56.1–65.7) where today's Expert won 57.0%
# (+4.0 ± 6.9 points, not shown; p95 0.38 s at two players, 0.55 s at three
# and four); with each leaf scored after the next player's greedy reply
# (1,500 iterations, twice this Expert's time), 45.5% of 132 (−10.0 ± 12.0);
# as five of Hard's trees, their root visits summed (an ensemble of 3,000
# iterations in all), 49.5% of 97 (−6.2 ± 12.9); counting a held camel driver
# at half the leap it offers now (this evaluation values only cards played, so
# a search sees playing the driver early as pure gain), 57.0% of 200 where
# today's Expert won 56.5% (+0.5 ± 9.6); over 200 deals instead of 50, 55.2%
# of 58 (−5.2 ± 17.8), and 0.57 s its longest decision: stopped.  At four
# players 5,000 iterations took 0.42 s a decision on average: over Expert's
# time before it had played enough games to tell.  On a machine running twice
# as fast (December), 6,000 iterations (0.24 s a decision on average, 0.32 s at
# the 95th percentile) won 25.1% (19.0–32.4) of the first 160 games of seed 103,
# where the row's Expert won 27.7%: more budget is not what four players lack.
# Nor perfect-information Monte Carlo (bench/variants.py's pimc10-expert: ten deals,
# each searched alone with 300 iterations, where a rival answers as its dealt hand
# allows; the best mean reward over the trees taken): 52.0% (45.1–58.8) of 200 games
# against Hard at two players (seed 102) where today's Expert won 56.5% of them, and
# 25.0% (18.9–32.2) of the first 160 at four (seed 103) where it won 27.7%.
# Nor, at four players, rewards that share one chance of winning (a softmax of the
# estimated points over the scale, where each player is paid the logistic of its lead
# over the best other; bench/variants.py's shares-expert): 26.2% (20.0–33.6) of the
# same 160 games.
# Other weights for this
# evaluation (CMA-ES over its six constants, the share, the claims' growth, the
# desert camels' worth, its power, the scale and a city term) did not stand
# out: played by Greedy, 600 games a candidate, the best of four generations
# won 53–56% against these weights; played by Hard at 100 iterations, 48 games
# a candidate, two generations averaged 49% and 47% where these won 62% and 58%
# of the same games.  Nor the rivals choosing below the root by what they hold:
# each rival decision also kept its mean reward per hand of the rival's in the
# deal, blended with the shared mean as four visits' worth, so a rival's reply
# depends on its own cards where the shared tree makes it reply alike in every
# deal.  At two players it won 57.5% of the 400 games (seed 102) where today's
# Expert won 55.8% of the same deals (+1.8 ± 6.6 points); at four, 26.1% of 160
# (seed 103) where today's won 27.7% (−1.6 ± 7.6), and took 0.27 s a decision
# on average to today's 0.21 s.  Nor sequential halving at the root (December: rounds of
# equal visits on shared deals, the better half by mean reward kept after each): 50.0% of
# 82 games of the 2-player row where today's Expert won 59.8% (−9.8 ± 13.4 points).
# Kept (December): at two players Expert searches 9,000 iterations, where a
# decision then takes about as long as 3,000 do at four.  Head to head against
# the Expert of 3,000 at every size, seats swapped on 200 deals (seed 21), it won
# 55.0% (50.1–59.8) of 400 games, +0.39 ± 0.31 points a game, at 0.29 s a
# decision on average to 0.10 s.  At three and four players 9,000 took 0.55 s at
# the 95th percentile, over Expert's time, so there it stays at 3,000.  So
# changed, Expert beat Hard 60.0% (55.1–64.7) of 400 games (seed 102), where
# the Expert of 3,000 won 57.0%.
HARD = SearchSettings(iterations=600, model=False, greedy_finish=False)
EXPERT = replace(HARD, iterations=3000, two_player_iterations=9000)

SCALE = 3.0
# Measured: with playouts cut after 8 decisions Hard beat Greedy in 20 of 30
# games, after 40 in 11 of 30 (random Karawane play says little about a race).
ROLLOUT_DEPTH = 8
# What a camel that reaches the oasis is worth on average, by the table's points.
MEAN_OASIS = sum(C.OASIS_POINTS) / len(C.OASIS_POINTS)
OASIS = range(FIRST_OASIS, LAST_SQUARE + 1)
# The search evaluation's mix: this much of the points still free in the oasis,
# shared out among the desert camels, the rest ``evaluate``.  A camel at the
# oasis edge claims e^3 ≈ 20 times the share of one in the city.  Hard with
# this mix beat Random 98.5% and Greedy 74.0% of the time over 200
# seat-swapped games (with ``evaluate`` alone 93.5% and 65.5%); the shares
# alone won 96% and 41% over 100 games each, half of each 98.5% and 67%.
SHARE_WEIGHT = 0.25
PROGRESS_WEIGHT = 3.0
# Each desert square's claim, worked out once: the search evaluates thousands of positions.
CLAIM = tuple(math.exp(PROGRESS_WEIGHT * square / FIRST_OASIS) for square in range(FIRST_OASIS))


def evaluate(state: KarawaneState, player: int) -> float:
    """Oasis points, plus each desert camel's share of an average oasis square by its progress."""
    line = state.camels[player]
    points = float(score(line))
    if state.is_over:
        return points
    for square in line:
        if square < FIRST_OASIS:
            # Progress counts more than linearly: the last squares are the contested ones.
            progress = square / FIRST_OASIS
            points += 0.8 * MEAN_OASIS * progress * progress
    return points


def search_evaluate(state: KarawaneState, player: int) -> float:
    """``evaluate``, mixed with the player's share of the oasis points still free.

    Those points go to camels still in the desert, the further a camel has
    come the more likely to it.  So a camel that goes in early on a poor
    square is seen to leave the deep ones to the others, which ``evaluate``
    (rewarding any entry) misses, and losses to Random came from just that.
    """
    return search_values(state)[player]


def search_values(state: KarawaneState) -> list[float]:
    """:func:`search_evaluate` of every player: the free squares and the claims counted once."""
    estimates = [evaluate(state, seat) for seat in range(len(state.camels))]
    if state.is_over:
        return estimates
    shares = free_shares(state)
    return [
        (1 - SHARE_WEIGHT) * estimate + SHARE_WEIGHT * share
        for estimate, share in zip(estimates, shares, strict=True)
    ]


def free_shares(state: KarawaneState) -> list[float]:
    """Each player's oasis points held, plus their share of the free squares' points by progress."""
    camels = state.camels
    taken = occupied(camels)
    free = sum(oasis_points(square) for square in OASIS if square not in taken)
    claims = []
    everyone = 0.0
    for line in camels:
        mine = 0.0
        for square in line:
            if square < FIRST_OASIS:
                claim = CLAIM[square]
                everyone += claim
                mine += claim
        claims.append(mine)
    return [
        score(line) + (free * mine / everyone if everyone else 0.0)
        for line, mine in zip(camels, claims, strict=True)
    ]


EVALUATION = GameEvaluation(
    evaluate=evaluate,
    scale=SCALE,
    search_evaluate=search_evaluate,
    search_values=search_values,
    rollout_depth=ROLLOUT_DEPTH,
    hard=HARD,
    expert=EXPERT,
)
"""What Karawane's bots read of a position (see GameEvaluation)."""
