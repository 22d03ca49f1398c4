"""Karawane's table: gestures (what a choice means), zones (what is drawn), the wiring."""

from karavan_tui.tables.karawane.table import KarawaneTable

__all__ = ["KarawaneTable"]
