"""Jaipur's round summary: each player's tokens, herd, camel token and total, and the seal."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from karavan_core.games.jaipur.state import RoundResult
from karavan_core.text import plural


def added(values: Sequence[int]) -> str:
    """Token values and their sum: "none", "3", "3 + 2 = 5"."""
    if len(values) < 2:
        return str(values[0]) if values else "none"
    return " + ".join(map(str, values)) + f" = {sum(values)}"


class RoundSummaryScreen(ModalScreen[None]):
    """The finished rounds: each player's tokens, herd, camel token and total, and why the seal
    went where it did."""

    # n too: a lesson's status line says "n goes on" while a summary is open over it.
    BINDINGS = [Binding("enter,escape,space,n", "close", "Continue", key_display="Enter")]
    DEFAULT_CSS = """
    RoundSummaryScreen { align: center middle; }
    RoundSummaryScreen > VerticalScroll {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RoundSummaryScreen .round-title { text-style: bold; margin-top: 1; }
    RoundSummaryScreen .round-reason { margin-top: 1; }
    RoundSummaryScreen #summary-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(
        self,
        players: Sequence[str],
        rounds: Sequence[RoundResult],
        next_starter: str | None,
        star: str,
    ) -> None:
        super().__init__()
        self.players = tuple(players)
        self.rounds = tuple(rounds)
        self.next_starter = next_starter
        self.star = star

    def compose(self) -> ComposeResult:
        """A part per round, newest first, and the way on."""
        with VerticalScroll(id="summary"):
            # A round just finished: its summary alone; asked for: every round, newest first.
            shown = self.rounds[-1:] if self.next_starter is not None else self.rounds
            for past in reversed(shown):
                yield Static(Content(self._title(past)), classes="round-title")
                yield Static(self._table(past), classes="round-table")
                yield Static(Content(past.reason), classes="round-reason")
            if self.next_starter is not None:
                number = self.rounds[-1].number + 1
                starts = f"{self.next_starter} starts round {number}."
                hint = f"{starts} Press Enter or click to play on."
            else:
                hint = "Press Enter or click to go back to the table."
            yield Static(hint, id="summary-hint")
        yield Footer()

    def _title(self, past: RoundResult) -> str:
        who = "no seal" if past.winner is None else f"{self.players[past.winner]} takes the seal"
        return f"Round {past.number}: {who}"

    def _table(self, past: RoundResult) -> Table:
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column("")
        for seat, name in enumerate(self.players):
            mark = f" {self.star}" if past.winner == seat else ""
            table.add_column(Text(f"{name}{mark}"), justify="right")
        scores = past.scores
        table.add_row(
            "Goods tokens",
            *(f"{s.goods_points} ({plural(len(s.goods_tokens), 'token')})" for s in scores),
        )
        table.add_row(
            "Bonus tokens",
            *(added(s.bonus_tokens) for s in scores),
        )
        table.add_row("Herd", *(plural(s.herd, "camel") for s in scores))
        table.add_row(
            "Camel token", *(str(s.camel_token) if s.camel_token else "-" for s in scores)
        )
        table.add_row(
            Text("Total", style="bold"), *(Text(str(s.total), style="bold") for s in scores)
        )
        # Seals held once this round was settled (the earlier rounds' winners and its own).
        held = [sum(1 for r in self.rounds[: past.number] if r.winner == seat) for seat in (0, 1)]
        table.add_row("Seals", *(str(n) for n in held))
        return table

    def on_click(self) -> None:
        """A click anywhere goes on as well."""
        self.dismiss(None)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
