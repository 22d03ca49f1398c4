"""Dialogs shown over a screen, one per module."""
