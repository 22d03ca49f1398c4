"""Widgets shared by the screens and the game tables."""
