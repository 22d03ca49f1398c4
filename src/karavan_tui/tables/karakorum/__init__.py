"""Karakorum's table: gestures (what a choice means), zones (what is drawn), the wiring."""

from karavan_tui.tables.karakorum.table import KarakorumTable

__all__ = ["KarakorumTable"]
