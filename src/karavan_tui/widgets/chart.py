"""A plain-text chart of each player's score over the game."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

# One marker and one colour per seat: the marker alone tells the lines apart.
MARKERS = ("1", "2", "3", "4")
STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green")


def score_chart(
    names: Sequence[str], series: Sequence[Sequence[int]], width: int = 56, height: int = 8
) -> Text:
    """Draw ``series[seat][decision]`` as marker dots on a ``width`` x ``height`` grid.

    The x axis is the decision number (squeezed to fit), the y axis the score.
    """
    steps = max(len(s) for s in series)
    top = max(1, max(max(s) for s in series))
    grid = [[" "] * width for _ in range(height)]
    owner: list[list[int | None]] = [[None] * width for _ in range(height)]
    for seat, values in enumerate(series):
        for column in range(width):
            index = min(len(values) - 1, round(column * (steps - 1) / max(1, width - 1)))
            row = height - 1 - round(values[index] * (height - 1) / top)
            grid[row][column] = MARKERS[seat]
            owner[row][column] = seat
    label_width = len(str(top))
    text = Text()
    for row in range(height):
        value = round(top * (height - 1 - row) / (height - 1))
        label = str(value) if row in (0, height - 1) or row == height // 2 else ""
        text.append(f"{label:>{label_width}} |")
        for column in range(width):
            drawn_by = owner[row][column]
            text.append(grid[row][column], style=STYLES[drawn_by] if drawn_by is not None else "")
        text.append("\n")
    text.append(" " * label_width + " +" + "-" * width + "\n")
    text.append(" " * (label_width + 2) + f"decision 0{'':>{width - 12}}{steps - 1:>3}\n")
    for seat, name in enumerate(names):
        text.append(f"  {MARKERS[seat]} ", style=STYLES[seat])
        text.append(f"{name} ({series[seat][-1]})  ")
    return text
