"""Save the game under a name of the player's choosing."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label

from karavan_core.saves import MAX_STEM, check_stem


class SaveAsScreen(ModalScreen[str | None]):
    """Ask for a name; dismisses with it (stripped), or ``None`` on Escape."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    SaveAsScreen { align: center middle; }
    SaveAsScreen > Vertical {
        width: 60; height: auto; border: thick $accent; background: $surface; padding: 1 2;
    }
    SaveAsScreen Input { margin-top: 1; }
    SaveAsScreen #save-hint { color: $text-muted; margin-top: 1; width: 100%; }
    """

    def __init__(self, suggestion: str) -> None:
        super().__init__()
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        """Prompt and name field."""
        with Vertical():
            yield Label("Save the game as")
            yield Input(self.suggestion, id="save-name", compact=True, max_length=MAX_STEM)
            yield Label(
                "Enter to save, Esc to cancel. Autosave then goes on in that file.", id="save-hint"
            )
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Save under the typed name."""
        try:
            name = check_stem(event.value)
        except ValueError as error:  # checked here, before any file is touched
            self.notify(str(error), title="Not a save name", severity="warning")
            return
        self.dismiss(name)

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)
