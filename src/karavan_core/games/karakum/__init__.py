"""Karakum: buy camels with goods and build the strongest caravan (2-4 players)."""

from karavan_core.games.karakum.game import GAME, Karakum

__all__ = ["GAME", "Karakum"]
