"""Jaipur: a two-player trading duel of goods and camels, played to two seals."""

from karavan_core.games.jaipur.rules import GAME, Jaipur

__all__ = ["GAME", "Jaipur"]
