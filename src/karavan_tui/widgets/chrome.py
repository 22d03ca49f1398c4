"""The parts Textual draws itself (header icon, scrollbars), made to follow ASCII mode."""

from __future__ import annotations

from typing import ClassVar

from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.widgets import Header

UNICODE_ICON = "⭘"
ASCII_ICON = "*"


class AppHeader(Header):
    """The header of every screen: its icon is plain ASCII in ASCII mode."""

    def on_mount(self) -> None:
        """Take the icon of the current symbol set."""
        self.follow_ascii(getattr(self.app, "ascii_mode", False))

    def follow_ascii(self, on: bool) -> None:
        """Show the icon of ASCII mode (``on``) or of Unicode."""
        self.icon = ASCII_ICON if on else UNICODE_ICON


class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars without the eighth-block characters (the thumb is a plain colour block)."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


def use_ascii_scrollbars(on: bool) -> None:
    """Draw every scrollbar with ASCII-safe characters (``on``) or Textual's own."""
    ScrollBar.renderer = AsciiScrollBarRender if on else ScrollBarRender
