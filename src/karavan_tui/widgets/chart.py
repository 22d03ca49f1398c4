"""Each player's score over the game, one sparkline a player (lines never overlap)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from karavan_tui.words import padded, widest

UNICODE_RAMP = " ▁▂▃▄▅▆▇█"
ASCII_RAMP = " .:-=+*#@"
STYLES = ("bold cyan", "bold magenta", "bold yellow", "bold green")


def level(ramp: str, fraction: float) -> str:
    """The ramp's character for ``fraction`` (0 to 1) of the scale.

    Zero is the lowest visible step, never the ramp's blank: a point of the
    line is always drawn, so a chance of 0% reads as a low line, not a gap.
    """
    steps = len(ramp) - 2  # the visible steps above the lowest, blank left out
    return ramp[1 + round(max(0.0, min(1.0, fraction)) * steps)]


def resample(values: Sequence[int], width: int) -> list[int]:
    """``values`` squeezed (or stretched) to ``width`` points, keeping each stretch's last."""
    if not values:
        return [0] * width
    steps = len(values)
    return [values[min(steps - 1, (column + 1) * steps // width - 1)] for column in range(width)]


def score_chart(
    names: Sequence[str],
    series: Sequence[Sequence[int]],
    width: int = 48,
    ascii_mode: bool = False,
) -> Text:
    """One row per player: name, a sparkline of ``series[seat][decision]``, the final score.

    Every row shares one scale (zero to the highest score anyone reached), so
    the heights compare across players.
    """
    ramp = ASCII_RAMP if ascii_mode else UNICODE_RAMP
    top = max(1, max((max(values) for values in series if values), default=1))
    name_width = widest(names)  # in cells: an emoji takes two
    steps = max(len(values) for values in series)
    text = Text()
    for seat, (name, values) in enumerate(zip(names, series, strict=True)):
        text.append(f"{padded(name, name_width)} ", style="bold")
        for value in resample(values, width):
            text.append(level(ramp, value / top), style=STYLES[seat % len(STYLES)])
        text.append(f" {values[-1] if values else 0:>3}\n")
    text.append(f"{'':<{name_width}} from the deal to decision {steps - 1}, on one scale to {top}")
    return text


def chance_chart(
    names: Sequence[str],
    series: Sequence[Sequence[tuple[int, float]]],
    decisions: int,
    width: int = 48,
    ascii_mode: bool = False,
) -> Text:
    """One row per player: name, a sparkline of the chance of winning, the last chance.

    ``series[row]`` holds (decision number, chance after it) pairs in order; a
    column shows the chance after the latest judged decision at or before its
    place in the game, on one scale from 0 to 100%.
    """
    ramp = ASCII_RAMP if ascii_mode else UNICODE_RAMP
    name_width = widest(names)
    text = Text()
    for row, (name, points) in enumerate(zip(names, series, strict=True)):
        text.append(f"{padded(name, name_width)} ", style="bold")
        style = STYLES[row % len(STYLES)]
        for column in range(width):
            upto = (column + 1) * max(1, decisions) // width - 1
            known = [chance for index, chance in points if index <= upto]
            chance = known[-1] if known else (points[0][1] if points else 0.0)
            text.append(level(ramp, chance), style=style)
        last = points[-1][1] if points else 0.0
        text.append(f" {last:>4.0%}\n")
    text.append(f"{'':<{name_width}} chance of winning after each decision, 0 to 100%")
    return text
