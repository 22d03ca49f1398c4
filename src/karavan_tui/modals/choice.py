"""Pick one of a list: payments, which camel joins, every legal decision."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, OptionList
from textual.widgets.option_list import Option


class ChoiceScreen(ModalScreen[int | None]):
    """A titled list; dismisses with the chosen index, or ``None`` on Escape.

    ``place`` puts it in the middle of the screen or at its ``"bottom"``, where it
    leaves the top of the table (Karawane's track) in sight.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: auto; min-width: 40; max-width: 76; height: auto; max-height: 20;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ChoiceScreen #choice-title { text-style: bold; width: 100%; margin-bottom: 1; }
    ChoiceScreen OptionList { height: auto; max-height: 14; border: none; padding: 0; }
    ChoiceScreen #choice-hint { color: $text-muted; margin-top: 1; }
    ChoiceScreen.-bottom { align: center bottom; }
    ChoiceScreen.-bottom > Vertical { max-height: 11; margin-bottom: 1; }
    ChoiceScreen.-bottom OptionList { max-height: 6; }
    ChoiceScreen.-bottom #choice-title { margin-bottom: 0; }
    .-ascii ChoiceScreen > Vertical { border: ascii $accent; }
    """

    def __init__(
        self,
        title: str,
        options: Sequence[str],
        hint: str | None = None,
        place: str = "middle",
    ) -> None:
        super().__init__(classes="-bottom" if place == "bottom" else "")
        self.choice_title = title
        self.options = list(options)
        self.hint = hint or "Enter or click to choose, Esc to cancel"

    def compose(self) -> ComposeResult:
        """Title, list and hint."""
        with Vertical():
            # Options and titles hold player names and other outside text: never markup.
            yield Label(Content(self.choice_title), id="choice-title")
            yield OptionList(
                *(
                    Option(Content(f"{i + 1}. {text}"), id=str(i))
                    for i, text in enumerate(self.options)
                ),
                id="choices",
            )
            yield Label(Content(self.hint), id="choice-hint")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Answer with the chosen index."""
        event.stop()
        if self.is_active:  # a second Enter before the picker is gone must not pop the table
            self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        """Close without choosing."""
        if self.is_active:
            self.dismiss(None)
