"""Karawane: race three camels into the oasis with oasis, mirage and driver cards (2-4 players)."""

from karavan_core.games.karawane.game import GAME, Karawane

__all__ = ["GAME", "Karawane"]
