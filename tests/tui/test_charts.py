"""The sparkline charts of the results and the review: every point drawn, on one scale."""

from __future__ import annotations

import pytest

from karavan_tui.widgets.chart import ASCII_RAMP, UNICODE_RAMP, chance_chart, score_chart


def sparkline(chart, name: str, width: int) -> str:
    """The row of ``name``'s sparkline (the cells between the name and the last value)."""
    row = next(line for line in chart.plain.splitlines() if line.startswith(name))
    return row[len(name) + 1 : len(name) + 1 + width]


@pytest.mark.parametrize("ascii_mode", [False, True])
def test_a_chance_of_zero_is_drawn_at_the_lowest_level_not_left_blank(ascii_mode):
    ramp = ASCII_RAMP if ascii_mode else UNICODE_RAMP
    points = [(0, 0.5), (2, 0.0), (4, 1.0), (6, 0.0)]
    chart = chance_chart(["Ann", "Bob"], [points, [(0, 0.0)]], 8, width=8, ascii_mode=ascii_mode)
    ann, bob = sparkline(chart, "Ann", 8), sparkline(chart, "Bob", 8)
    assert " " not in ann and " " not in bob
    assert bob == ramp[1] * 8  # 0% all along: the lowest visible level
    assert ann[-1] == ramp[1] and ramp[-1] in ann  # 100% the highest


def test_a_score_of_zero_is_drawn_at_the_lowest_level_not_left_blank():
    chart = score_chart(["Ann", "Bob"], [[0, 0, 3, 6], [0, 0, 0, 0]], width=4)
    assert sparkline(chart, "Bob", 4) == UNICODE_RAMP[1] * 4
    ann = sparkline(chart, "Ann", 4)
    assert ann[:2] == UNICODE_RAMP[1] * 2 and ann[-1] == UNICODE_RAMP[-1]
    assert UNICODE_RAMP.index(UNICODE_RAMP[1]) < UNICODE_RAMP.index(ann[2]) < len(UNICODE_RAMP) - 1
