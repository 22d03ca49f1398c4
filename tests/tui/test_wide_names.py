"""Names with wide characters (an emoji takes two cells): every column stays in line."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from karavan_tui.widgets.side import ScoreBoard

from .helpers import game_screen, running, seeded_match

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


@pytest.mark.parametrize(  # one game by default, every game with the slow checks
    "game", [pytest.param(g, marks=() if g == "karakum" else pytest.mark.slow) for g in ZONES]
)
async def test_a_wide_name_keeps_the_scores_and_the_players_columns_in_line(tmp_path, game):
    names = NAMES[:2] if game == "jaipur" else NAMES
    seats = ",".join([names[0], *(f"bot:random:{name}" for name in names[1:])])
    match = seeded_match(game, seats, moves=12)
    while match.to_move != 0:
        match.play(match.legal_actions()[0])
    async with running(tmp_path, match) as (app, _pilot):
        screen = game_screen(app)
        scores = str(screen.query_one(ScoreBoard).render())
        found = rows(scores, names)
        assert len(found) == len(names)
        assert len({cell_len(line) for line, _ in found}) == 1, found
        zone = str(screen.query_one(ZONES[game]).render())
        found = [(line, name) for line, name in rows(zone, names) if line.index(name) < 8]
        assert {name for _, name in found} == set(names), zone
        assert len({column_after(line, name) for line, name in found}) == 1, found
