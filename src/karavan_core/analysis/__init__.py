"""Advice from the Expert search: hints at the table and the review of a whole game.

Pure, like the rest of the engine: the app and ``karavan review`` both drive it.
"""

from karavan_core.analysis.judge import (
    THRESHOLDS,
    Analyst,
    Hint,
    Judgement,
    Verdict,
    advice_seed,
    decision_accuracy,
    gesture_hints,
    verdict_for,
)
from karavan_core.analysis.review import (
    GameReview,
    PlayerSummary,
    ReviewedDecision,
    review_dict,
    review_match,
)

__all__ = [
    "THRESHOLDS",
    "Analyst",
    "GameReview",
    "Hint",
    "Judgement",
    "PlayerSummary",
    "ReviewedDecision",
    "Verdict",
    "advice_seed",
    "decision_accuracy",
    "gesture_hints",
    "review_dict",
    "review_match",
    "verdict_for",
]
