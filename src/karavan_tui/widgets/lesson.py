"""The lesson's panel beside the table: what just happened, what to do now, and advice.

It stands in the log's place (the whole log is one key away): what happened
since the learner's last decision is told at its top in the log's own words.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from karavan_tui.glyphs import Glyphs
from karavan_tui.widgets.side import first_sentence

TOLD = 3  # the newest decisions told in the panel; the log beside it has every one


class LessonPanel(VerticalScroll):
    """The words of the lesson's step, under the decisions made since the learner's last."""

    DEFAULT_CSS = """
    LessonPanel {
        height: 1fr;
        border: round $accent;
        border-title-color: $text-accent;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    .-ascii LessonPanel { border: ascii $accent; }
    LessonPanel > Static { height: auto; }
    """

    # Not a stop of Tab: Enter there did nothing, and the arrows belong to the cards.  Its
    # own keys scroll it (and the mouse wheel) wherever the focus is.
    can_focus = False

    def compose(self) -> ComposeResult:
        """The text."""
        yield Static("", id="lesson-text")

    def show(self, title: str, happened: Sequence[str], say: str, advice: str, g: Glyphs) -> None:
        """Draw the step: ``advice`` (after a move the lesson refused), ``say``, then what
        ``happened`` (log lines) since the learner's last decision.

        What to do comes first: at 80x24 the panel may have to scroll for the rest,
        and the line over the table and the log say what happened too.
        """
        self.border_title = title
        text = Text()
        if advice:
            text.append(g.words(advice), style="bold")
            text.append("\n\n")
        text.append(g.words(say))
        if happened:
            text.append("\n\nWhat happened", style="bold")
            left = len(happened) - TOLD
            if left > 0:
                text.append(f"\n(and {left} before: see the log)", style="dim")
            for line in happened[-TOLD:]:
                text.append(f"\n{g.changed} {g.words(first_sentence(line))}")
        self.query_one("#lesson-text", Static).update(text)
        self.scroll_home(animate=False)
