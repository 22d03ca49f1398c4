"""The hot-seat curtain: hides the whole table until the next player is at the keyboard."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Label

from karavan_tui.app_access import karavan_app


class CurtainScreen(Screen[None]):
    """A full, opaque screen saying "Pass to NAME"; Enter lifts it.

    It is a plain screen, not a modal, so nothing of the table shows through.
    """

    BINDINGS = [
        Binding("enter,space", "lift", "Show my cards", key_display="Enter"),
        Binding("s", "save_as", "Save as", tooltip="Save the game under a name"),
        Binding("q", "leave", "Title", tooltip="Back to the title (the game stays saved)"),
    ]
    DEFAULT_CSS = """
    CurtainScreen { align: center middle; background: $background; }
    CurtainScreen #curtain-name { text-style: bold; color: $accent; width: auto; }
    CurtainScreen Label { width: auto; margin: 1 0; }
    """

    def __init__(self, name: str, at_table: bool = True) -> None:
        super().__init__()
        self.player_name = name
        # Saving and leaving are the game table's keys; a replay's curtain only lifts.
        self.at_table = at_table

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Save and Title belong to a curtain over the game table only."""
        if action in ("save_as", "leave"):
            return self.at_table
        return True

    def compose(self) -> ComposeResult:
        """The message."""
        with Middle(), Center():
            yield Label(Content(f"Pass to {self.player_name}"), id="curtain-name")
        with Center():
            yield Label(
                Content(f"{self.player_name}, press Enter when only you can see the screen.")
            )
        yield Footer()

    def on_click(self) -> None:
        """A click lifts the curtain too."""
        self.dismiss(None)

    def action_save_as(self) -> None:
        """Save the game under the curtain by name; the curtain stays down."""
        from karavan_tui.screens.game import GameScreen

        below = [screen for screen in self.app.screen_stack if isinstance(screen, GameScreen)]
        if below:
            below[-1].action_save_as()

    def action_leave(self) -> None:
        """Back to the title without lifting the curtain (the game is saved already)."""
        karavan_app(self).show_title()

    def action_lift(self) -> None:
        """Show the table to the player."""
        self.dismiss(None)
