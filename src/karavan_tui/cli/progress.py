"""What the long commands (``simulate``, ``review``) print: the progress bar, the figures."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table
    from rich.text import Text


def figures_table(title: str | Text, row_label: str, figures: list[str]) -> Table:
    """A table of one row per level or player: its ``row_label`` column, then ``figures``.

    The figures are numbers, so their columns are right-aligned.
    """
    from rich.table import Table

    table = Table(title=title)
    table.add_column(row_label)
    for figure in figures:
        table.add_column(figure, justify="right")
    return table


def progress_bar(console: Console) -> Progress:
    """A bar with what is done of how many, the time taken and the time left; gone when done."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}", markup=False),  # descriptions hold names: no markup
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
