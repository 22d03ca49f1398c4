"""How Karavan looks and sounds: the symbol set, the theme, the toasts, the keys' names, the
terminal's title, and the settings behind them.

:class:`KaravanLooks` is the part of :class:`~karavan_tui.app.KaravanApp` that
draws and remembers; the app itself moves between screens.
"""

from __future__ import annotations

import os
from typing import Any

from textual.binding import Binding
from textual.command import SearchIcon
from textual.content import Content
from textual.notifications import SeverityLevel

from karavan_tui.context import Karavan
from karavan_tui.desktop import TURN_NOTE, desktop_note
from karavan_tui.glyphs import Glyphs, glyphs
from karavan_tui.screens.table import TableScreen
from karavan_tui.textual_fixes import PALETTE_ID, SafeCommandPalette
from karavan_tui.widgets.chrome import AppHeader, DropDown, TickBox, use_ascii_scrollbars

TURN_TITLE = "Your turn"  # the terminal's (the browser tab's) title while it is


class AsciiCommandPalette(SafeCommandPalette):
    """Textual's command palette drawn with ASCII characters only."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(placeholder="Search for commands...", **kwargs)

    def on_mount(self) -> None:
        """A plain search icon."""
        self.query_one(SearchIcon).icon = ">"


class KaravanLooks(Karavan):
    """The app's looks and settings (the app sets the fields below as it starts)."""

    _settings_applied: bool  # until then, theme changes are not the player's
    turn_told: bool  # whether the title says it is the player's turn

    # -- outside text ---------------------------------------------------------------
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show a toast.  Karavan writes no markup, and toasts carry names and file
        names, so the text is always shown literally (``markup`` is ignored); they
        often carry the engine's words too, drawn in the current symbol set."""
        words = self.glyphs.words
        super().notify(
            words(message), title=words(title), severity=severity, timeout=timeout, markup=False
        )

    def withdraw_notes(self, title: str) -> None:
        """Take down the toasts titled ``title``: what they said is no longer so."""
        self.withdraw_toasts(self.glyphs.words(title))

    # -- settings ---------------------------------------------------------------------
    @property
    def glyphs(self) -> Glyphs:
        """The symbols for the current mode."""
        return glyphs(self.ascii_mode)

    @property
    def bot_delay(self) -> float:
        """Seconds a bot pauses before moving (the config overrides the setting)."""
        if self.config.bot_delay is not None:
            return self.config.bot_delay
        return self.settings.bot_delay

    def save_settings(self) -> None:
        """Remember the settings; a read-only home is no reason to stop playing."""
        try:
            self.settings.save(self.config.settings_path)
        except OSError:
            self.log.warning("could not save settings")

    def watch_theme(self, theme: str) -> None:
        """Remember the chosen theme."""
        if self._settings_applied and theme != self.settings.theme:
            self.settings.theme = theme
            self.save_settings()

    def set_ascii(self, on: bool) -> None:
        """Switch ASCII mode on or off and redraw."""
        self.ascii_mode = on
        self.settings.ascii = on
        self.set_class(on, "-ascii")
        self.save_settings()
        use_ascii_scrollbars(on)
        for screen in self.screen_stack:  # what Textual draws itself: icons, keys, scrollbars
            # Textual restyles the screen on top alone for a class of the app: the title
            # under a table would keep its rounded box once shown again.
            self.update_styles(screen)
            for header in screen.query(AppHeader):
                header.follow_ascii(on)
            for box in screen.query(TickBox):
                box.refresh()
            for listing in screen.query(DropDown):
                listing.follow_ascii(on)
            screen.refresh_bindings()
            screen.refresh(layout=True)
        self.redraw_game()

    def set_bot_delay(self, delay: float) -> None:
        """Change how long bots pause."""
        self.settings.bot_delay = delay
        self.save_settings()

    def tell_turn(self, mine: bool) -> None:
        """At a hosted table: a bell (if the settings have it) and the terminal's title, which
        is the browser tab's under ``karavan web``, say that it is the player's turn; and where
        the terminal is not in front (it says so) or the table is not on screen, a desktop
        notification (:meth:`tell_desktop`)."""
        if mine == self.turn_told:
            return
        if mine:
            self.call_player(TURN_TITLE)
            if not self.app_focus or not isinstance(self.screen, TableScreen):
                self.tell_desktop(TURN_NOTE)
            return
        self.turn_told = False
        self.write_title(self.TITLE or "")

    def call_player(self, words: str) -> None:
        """Call the player to a table: a bell (if the settings have it), and ``words`` ("Your
        turn", "Table 3 starts") in the terminal's title until :meth:`tell_turn` says the
        player has decided."""
        self.turn_told = True
        if self.settings.bell:
            self.bell()
        self.write_title(f"{words} - {self.TITLE or ''}")

    def tell_desktop(self, words: str) -> None:
        """A desktop notification saying ``words``, where the settings have them (a terminal
        that does not understand one ignores it)."""
        if self.settings.desktop_notes:
            self.write_escape(desktop_note(self.TITLE or "Karavan", words, os.environ))

    def get_key_display(self, binding: Binding) -> str:
        """Key names for the Footer; plain ASCII ("enter", not "⏎") in ASCII mode."""
        shown = super().get_key_display(binding)
        if self.ascii_mode and not shown.isascii():
            return binding.key.split(",")[0]
        return shown

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's title and subtitle, joined by a plain hyphen in ASCII mode."""
        if not self.ascii_mode:
            return super().format_title(title, sub_title)
        return Content(f"{title} - {sub_title}" if sub_title else title)

    def action_command_palette(self) -> None:
        """Open the command palette (in plain ASCII in ASCII mode)."""
        if not self.ascii_mode:
            super().action_command_palette()
        elif self.use_command_palette and not self.palette_open():
            self.push_screen(AsciiCommandPalette(id=PALETTE_ID))

    def action_help_quit(self) -> None:
        """Ctrl+C quits nothing (it copies in a text field): say which key does, in words
        (Textual's own notice is markup, which toasts here show literally)."""
        self.notify("Press Ctrl+Q to quit Karavan.", title="Do you want to quit?")

    def redraw_game(self) -> None:
        """Redraw any open table (after a change of symbols)."""
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.redraw()
