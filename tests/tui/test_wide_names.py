"""Names with wide characters (an emoji takes two cells): every column stays in line."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from karavan_tui.widgets.chart import chance_chart, score_chart
from karavan_tui.widgets.side import ScoreBoard

from .helpers import game_screen, seeded_match, settle, start_with

WIDE = "Zoë🐪"  # five characters, six cells
NAMES = [WIDE, "Bob", "Camilla"]


def column_after(line: str, name: str) -> int:
    """The cell where the text after ``name`` (and the spaces that pad it) starts."""
    start = line.index(name) + len(name)
    rest = line[start:]
    return cell_len(line[:start]) + len(rest) - len(rest.lstrip(" "))


def rows(text: str, names=NAMES) -> list[tuple[str, str]]:
    """The lines of ``text`` that hold one of ``names`` after a turn mark, with that name."""
    found = []
    for line in text.splitlines():
        for name in names:
            if f" {name} " in f" {line} " and not line.lstrip().startswith("seen"):
                found.append((line, name))
                break
    return found


ZONES = {
    "karakum": "#caravans",
    "karawane": "#players",
    "karakorum": "#climbers",
    "jaipur": "#players",
}


@pytest.mark.parametrize("game", list(ZONES))
async def test_a_wide_name_keeps_the_scores_and_the_players_columns_in_line(tmp_path, game):
    names = NAMES[:2] if game == "jaipur" else NAMES
    seats = ",".join([names[0], *(f"bot:random:{name}" for name in names[1:])])
    match = seeded_match(game, seats, moves=12)
    while match.to_move != 0:
        match.play(match.legal_actions()[0])
    app = start_with(tmp_path, match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = game_screen(app)
        scores = str(screen.query_one(ScoreBoard).render())
        found = rows(scores, names)
        assert len(found) == len(names)
        assert len({cell_len(line) for line, _ in found}) == 1, found
        zone = str(screen.query_one(ZONES[game]).render())
        found = [(line, name) for line, name in rows(zone, names) if line.index(name) < 8]
        assert {name for _, name in found} == set(names), zone
        assert len({column_after(line, name) for line, name in found}) == 1, found


def test_a_wide_name_keeps_the_charts_in_line():
    for chart in (
        score_chart(NAMES, [[0, 1, 2], [0, 2, 4], [1, 1, 1]], width=20),
        chance_chart(NAMES, [[(0, 0.5), (1, 0.7)], [(0, 0.5), (1, 0.2)], [(0, 0.3)]], 2, width=20),
    ):
        lines = [line for line in chart.plain.splitlines() if line.startswith(tuple(NAMES))]
        assert len(lines) == 3
        assert len({cell_len(line) for line in lines}) == 1, lines
