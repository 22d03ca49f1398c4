"""A yes-or-no question."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """Ask ``question``; dismisses with ``True`` only on an explicit yes."""

    BINDINGS = [
        Binding("escape,n", "answer(False)", "No"),
        Binding("y", "answer(True)", "Yes"),
    ]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 60; height: auto; border: thick $error; background: $surface; padding: 1 2;
    }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; align-horizontal: right; }
    ConfirmScreen Button { margin-left: 2; }
    """

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no  # shown as it is: n (and Esc) answers it

    @classmethod
    def consent(cls, question: str) -> ConfirmScreen:
        """A take-back another player asks for: agree (y) or decline (n)."""
        return cls(question, yes="Agree", no="Decline (n)")

    def compose(self) -> ComposeResult:
        """Question and buttons."""
        with Vertical():
            yield Static(Content(self.question))
            with Horizontal():
                yield Button(self.no, id="no", compact=True)
                yield Button(f"{self.yes} (y)", id="yes", variant="error", compact=True)

    def on_mount(self) -> None:
        """Start on the safe answer."""
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Answer by button."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer by key."""
        self.dismiss(yes)
