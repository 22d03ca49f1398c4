"""Karakorum's components: the one data table for the game.

Everything here comes from the rulebook and docs/rulings.md; nothing is assumed.
"""

from __future__ import annotations

from enum import StrEnum


class Peak(StrEnum):
    """A peak, and the colour of its summit cards, goal cards and track."""

    RED = "red"
    GREEN = "green"
    YELLOW = "yellow"

    @property
    def letter(self) -> str:
        """One letter per peak so that colour is never the only cue."""
        return PEAK_LETTERS[self]


PEAKS: tuple[Peak, ...] = tuple(Peak)
PEAK_INDEX: dict[Peak, int] = {peak: i for i, peak in enumerate(PEAKS)}
PEAK_LETTERS: dict[Peak, str] = {Peak.RED: "R", Peak.GREEN: "G", Peak.YELLOW: "Y"}


class GoalKind(StrEnum):
    """The four expedition goals, one card of each per peak."""

    FOUR = "four"  # an expedition of at least 4 cards
    SIX = "six"  # an expedition of at least 6 cards
    DOUBLE = "double"  # two expeditions of the peak, each of at least 3 cards
    AXES = "axes"  # at least 10 ice axes visible on one expedition

    @property
    def label(self) -> str:
        """The goal's name in words."""
        return GOAL_LABELS[self]

    @property
    def points(self) -> int:
        """How far the goal moves the peak's marker."""
        return GOAL_POINTS[self]


GOAL_KINDS: tuple[GoalKind, ...] = tuple(GoalKind)
GOAL_POINTS: dict[GoalKind, int] = {
    GoalKind.FOUR: 5,
    GoalKind.SIX: 12,
    GoalKind.DOUBLE: 10,
    GoalKind.AXES: 15,
}
GOAL_LABELS: dict[GoalKind, str] = {
    GoalKind.FOUR: "4-card",
    GoalKind.SIX: "6-card",
    GoalKind.DOUBLE: "double 3-card",
    GoalKind.AXES: "10-axe",
}
GOAL_MIN_CARDS: dict[GoalKind, int] = {GoalKind.FOUR: 4, GoalKind.SIX: 6}
DOUBLE_MIN_CARDS = 3  # each of the two expeditions of the double goal
GOAL_MIN_AXES = 10

# Summit cards: every value of every peak appears once with each of these axe counts.
CARD_VALUES: tuple[int, ...] = tuple(range(1, 9))
AXES_PER_COPY: tuple[int, ...] = (0, 1, 1, 2, 3)

TRACK_TOP = 30  # moves past this space are lost; all three markers here win at once
REMOVAL_PENALTY = 3  # removing a 1-2 card expedition moves its marker back (never below 0)
MIN_SCORING_CARDS = 3  # smaller expeditions cannot be scored, only removed
MAX_EXPEDITIONS = 4
EXTRA_EXPEDITIONS = 1  # one main expedition per peak plus this many extra of any peak
REVEAL_BEYOND_PLAYERS = 1  # the active player reveals at most players + 1 cards
MIN_PLAYERS = 2
MAX_PLAYERS = 4
