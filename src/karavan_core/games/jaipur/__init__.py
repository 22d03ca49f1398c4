"""Jaipur: a two-player trading duel of goods and camels, played to two seals."""

from karavan_core.games.jaipur.game import GAME, Jaipur

__all__ = ["GAME", "Jaipur"]
