"""Karakorum: lead expeditions up three peaks with summit cards (2-4 players)."""

from karavan_core.games.karakorum.game import GAME, Karakorum

__all__ = ["GAME", "Karakorum"]
