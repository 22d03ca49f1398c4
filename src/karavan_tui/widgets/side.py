"""The panels beside every table: scores, the log, and the status line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
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


LOG_TAIL = 40  # entries drawn beside the table; the whole log is one key away


def numbered(lines: Sequence[str], start: int = 0) -> Text:
    """Log lines, one per paragraph: decision ``n`` numbered ``n.``, the opening line (0) plain.

    ``start`` is the place of the first of ``lines`` in the whole log.
    """
    return Text(
        "\n".join(f"{n}. {line}" if n else line for n, line in enumerate(lines, start=start))
    )


class GameLog(VerticalScroll):
    """The opening line and the latest decisions in plain words, newest at the bottom.

    Only the last :data:`LOG_TAIL` entries are drawn, so a long game costs no
    more per move than a short one; the game screen shows the whole log on
    request.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shown: list[str] | None = None

    def compose(self) -> ComposeResult:
        """The text of the log."""
        yield Static("", id="log-text")

    def show(self, lines: Sequence[str]) -> None:
        """Show the end of ``lines`` (the whole log) and scroll to the newest."""
        tail = list(lines[-LOG_TAIL:])
        if tail == self.shown:
            return
        self.shown = tail
        start = len(lines) - len(tail)
        text = Text(f"({start} earlier: press l)\n", style="dim") if start else Text()
        text.append_text(numbered(tail, start))
        self.query_one("#log-text", Static).update(text)
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
