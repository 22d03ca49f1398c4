"""The panels beside every table: scores, the log, and the status line."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from karavan_core.match import Seat
from karavan_tui.glyphs import Glyphs


class ScoreBoard(Static):
    """Each player's score so far, the player to move marked."""

    _last: Text | None = None

    def show(
        self,
        seats: Sequence[Seat],
        scores: Sequence[int],
        to_move: int | None,
        winners: Sequence[int],
        g: Glyphs,
    ) -> None:
        """Draw one line per seat."""
        width = max(len(seat.name) for seat in seats)
        text = Text()
        for index, seat in enumerate(seats):
            if index:
                text.append("\n")
            mark = g.turn if index == to_move else g.winner if index in winners else " "
            text.append(f"{mark} ", style="bold")
            text.append(f"{seat.name:<{width}}", style="bold" if index == to_move else "")
            text.append(f" {scores[index]:>3}")
        if text != self._last:
            self._last = text
            self.update(text)


class GameLog(VerticalScroll):
    """Every decision so far in plain words, newest at the bottom.

    One text that wraps to the column (and re-wraps on resize); it is rebuilt
    only when the log changed.
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.shown: list[str] | None = None  # None: nothing written yet

    def compose(self):
        """The text of the log."""
        yield Static("", id="log-text")

    def show(self, lines: Sequence[str]) -> None:
        """Show ``lines`` (the whole log) and scroll to the newest."""
        lines = list(lines)
        if lines == self.shown:
            return
        self.shown = lines
        text = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, start=1))
        self.query_one("#log-text", Static).update(Text(text or "No moves yet."))
        self.call_after_refresh(self.scroll_end, animate=False)


class StatusLine(Static):
    """Whose turn it is and what they must decide, plus the quiet indicators."""

    def show(self, prompt: str, thinking: bool, saved: str, g: Glyphs) -> None:
        """Draw the status line."""
        text = Text(prompt, style="bold")
        if thinking:
            text.append(f"  {g.thinking}", style="italic")
        if saved:
            text.append(f"  {saved}", style="dim")
        self.update(text, layout=False)  # always one line
