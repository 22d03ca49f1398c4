"""The parts Textual draws itself (header icon, scrollbars, checkboxes, drop-down arrows),
made to follow ASCII mode."""

from __future__ import annotations

from collections.abc import Hashable
from typing import ClassVar, TypeVar

from textual.content import Content
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.widgets import Checkbox, Header, Select, Static

V = TypeVar("V", bound=Hashable)  # the values a drop-down list offers

UNICODE_ICON = "⭘"
ASCII_ICON = "*"
WEB_ICON = "≈"  # in a browser: in the page's own font (Roboto Mono), where ⭘ is not


class AppHeader(Header):
    """The header of every screen: its icon is plain ASCII in ASCII mode, and one the
    page's font draws in a browser."""

    def on_mount(self) -> None:
        """Take the icon of the current symbol set."""
        self.follow_ascii(getattr(self.app, "ascii_mode", False))

    def follow_ascii(self, on: bool) -> None:
        """Show the icon of ASCII mode (``on``) or of Unicode."""
        self.icon = ASCII_ICON if on else WEB_ICON if self.app.is_web else UNICODE_ICON


class AsciiScrollBarRender(ScrollBarRender):
    """Scrollbars without the eighth-block characters (the thumb is a plain colour block)."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


def use_ascii_scrollbars(on: bool) -> None:
    """Draw every scrollbar with ASCII-safe characters (``on``) or Textual's own."""
    ScrollBar.renderer = AsciiScrollBarRender if on else ScrollBarRender


class DropDown(Select[V]):
    """A drop-down list whose arrow is plain ASCII in ASCII mode (``v``, and ``^`` open)."""

    def on_mount(self) -> None:
        """Take the arrows of the current symbol set."""
        self.follow_ascii(getattr(self.app, "ascii_mode", False))

    def follow_ascii(self, on: bool) -> None:
        """Draw the arrows of ASCII mode (``on``) or of Unicode."""
        self.query_one(".down-arrow", Static).update("v" if on else "▼")
        self.query_one(".up-arrow", Static).update("^" if on else "▲")


class TickBox(Checkbox):
    """A checkbox whose box is empty while unticked (Textual's shows a dim X there), and
    drawn as ``[X]`` / ``[ ]`` in ASCII mode."""

    @property
    def _button(self) -> Content:
        """The box for the current value and symbol set (Textual draws it from these)."""
        plain = getattr(self.app, "ascii_mode", False)
        self.BUTTON_LEFT, self.BUTTON_RIGHT = ("[", "]") if plain else ("▐", "▌")
        self.BUTTON_INNER = "X" if self.value else " "
        button: Content = super()._button
        return button
