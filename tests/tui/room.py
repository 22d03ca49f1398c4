"""How a table uses the room it gets: the blank rows inside each of its zones, as drawn."""

from __future__ import annotations

from textual.app import App
from textual.widget import Widget


def screen_lines(app: App[object]) -> list[str]:
    """The screen's rows as plain text, as the compositor last drew them."""
    strips = app.screen._compositor.render_strips()  # the drawn screen, row by row
    return ["".join(segment.text for segment in strip) for strip in strips]


def blank_rows(app: App[object], zone: Widget) -> int:
    """How many rows inside ``zone`` (within its border and padding) show nothing at all."""
    lines = screen_lines(app)
    region = zone.content_region
    return sum(
        1 for y in range(region.y, region.bottom) if not lines[y][region.x : region.right].strip()
    )


def table_zones(app: App[object]) -> list[Widget]:
    """The zones of the open table (the bordered panels), top to bottom."""
    return list(app.screen.query("#table .zone"))
