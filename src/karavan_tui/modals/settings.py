"""Settings: theme, ASCII mode, the bell, the tables' chat, desktop notifications and how
long bots pause before moving."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Footer, Label, Select

from karavan_tui.config import BOT_DELAYS
from karavan_tui.context import karavan_app
from karavan_tui.widgets.chrome import DropDown, TickBox


class SettingsScreen(ModalScreen[None]):
    """Changes apply at once and are remembered."""

    BINDINGS = [Binding("escape", "close", "Close")]
    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical {
        width: 64; height: auto; border: thick $accent; background: $surface; padding: 0 1;
    }
    SettingsScreen #settings-title { text-style: bold; margin-bottom: 1; }
    SettingsScreen Horizontal { height: auto; margin-bottom: 1; }
    SettingsScreen .label { width: 16; }
    SettingsScreen Select { width: 30; }
    SettingsScreen .hint { color: $text-muted; width: 100%; }
    """

    def compose(self) -> ComposeResult:
        """The settings."""
        app = karavan_app(self)
        settings = app.settings
        with Vertical():
            yield Label("Settings", id="settings-title")
            with Horizontal():
                yield Label("Theme", classes="label")
                yield DropDown(
                    [(name, name) for name in sorted(app.available_themes)],
                    value=app.theme,
                    allow_blank=False,
                    compact=True,
                    id="theme",
                )
            # Second, under the theme: its list opens over the rows below, which leaves
            # it room inside the dialog's border even at 80x24.
            with Horizontal():
                yield Label("Bot pause", classes="label")
                delays = sorted(set(BOT_DELAYS) | {settings.bot_delay})
                yield DropDown(
                    [(f"{delay:g} s", delay) for delay in delays],
                    value=settings.bot_delay,
                    allow_blank=False,
                    compact=True,
                    id="delay",
                )
            with Horizontal():
                yield Label("ASCII mode", classes="label")
                yield TickBox(
                    "plain symbols for simple terminals", settings.ascii, id="ascii", compact=True
                )
            with Horizontal():
                yield Label("Bell", classes="label")
                yield TickBox("when it is your turn", settings.bell, id="bell", compact=True)
            with Horizontal():
                yield Label("Clock bell", classes="label")
                yield TickBox(
                    "your last 10 seconds", settings.clock_bell, id="clock_bell", compact=True
                )
            with Horizontal():
                yield Label("Chat", classes="label")
                yield TickBox(
                    "read and write at online tables", settings.chat, id="chat", compact=True
                )
            with Horizontal():
                yield Label("Desktop", classes="label")
                yield TickBox(
                    "notes of your turn, games started",
                    settings.desktop_notes,
                    id="desktop_notes",
                    compact=True,
                )
            yield Label(
                "Colours follow NO_COLOR when it is set; letters always name the colours.",
                classes="hint",
            )
        yield Footer()

    def on_select_changed(self, event: Select.Changed) -> None:
        """Apply a theme or bot pause."""
        if event.select.id == "theme":
            self.app.theme = str(event.value)
        elif event.select.id == "delay":
            delay = event.value
            assert isinstance(delay, int | float)  # never blank: allow_blank is off
            karavan_app(self).set_bot_delay(float(delay))

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """Turn ASCII mode, the bell, the chat or the desktop notifications on or off (a
        table under the dialog follows the chat's setting when it is back on top)."""
        app = karavan_app(self)
        if event.checkbox.id in ("bell", "clock_bell", "chat", "desktop_notes"):
            setattr(app.settings, event.checkbox.id, event.value)
            app.save_settings()
        else:
            app.set_ascii(event.value)

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
