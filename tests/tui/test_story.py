"""The table tells the story: what the others did is marked, keys never surprise."""

from __future__ import annotations

import random

import pytest
from textual.app import App, ComposeResult

from karavan_core.games.jaipur.state import TakeGood
from karavan_core.games.karakum.components import RES_LETTERS, Res
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.modals.save_as import SaveAsScreen
from karavan_tui.screens.title import TitleScreen
from karavan_tui.tables.karakum.zones import ResourceZone
from karavan_tui.widgets.cards import Card, CardFace, CardRow
from karavan_tui.words import cells

from .helpers import game_screen, karakum_match, press_to, running, seeded_match, settle, start_with
from .test_snapshots import steady


async def test_after_a_bots_move_its_changes_are_marked_and_told(tmp_path):
    match = seeded_match("jaipur", "Ann,bot:random", seed=4, first=0)  # the bot takes camels
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        banner = str(screen.query_one("#banner").render())
        assert banner.startswith("A new game")  # Ann starts: nothing has happened yet
        take = next(a for a in match.legal_actions() if isinstance(a, TakeGood))
        screen.decide(take)  # Ann takes a good; the bot answers
        await settle(pilot, app)
        assert match.to_move == 0 and len(match.history) == 2
        said = match.log()[-1].split(". ")[0]
        banner = str(screen.query_one("#banner").render())
        assert said.rstrip(".") in banner
        market = screen.query_one("#market", CardRow)
        changed = [card for card in market.cards if card.has_class("-changed")]
        assert changed, "the bot's move changed the market: the new cards are marked"
        # Undo takes both back: nothing is news any more; the line says what was taken back.
        await pilot.press("u")
        await settle(pilot, app)
        assert not any(card.has_class("-changed") for card in market.cards)
        taken = "You took back your last decision and the decision after it."
        assert str(screen.query_one("#banner").render()) == taken


def karakum_left_side_join():
    """A Karakum match at Ann's turn just after a camel of the bot's left side joined its chain."""
    for seed in range(1, 100):
        match = karakum_match(seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            before = match.state
            match.play(rng.choice(match.legal_actions()))
            after = match.state
            joined = [camel for camel in before.lefts[1] if camel in after.caravans[1]]
            if joined and after.to_move == 0:
                return match, joined[0]
    raise AssertionError("no such game")


@pytest.mark.slow
async def test_a_camel_that_joins_from_the_left_side_is_marked_as_news(tmp_path):
    match, camel = karakum_left_side_join()
    async with running(tmp_path, match) as (app, _pilot):
        screen = game_screen(app)
        caravans = str(screen.query_one("#caravans").render())
        token = f"{RES_LETTERS[camel.color]}{camel.value}"
        line = next(line for line in caravans.split("\n") if match.seats[1].name in line)
        chain = line.split(screen.glyphs.master)[1]  # the bot's chain, after its master
        assert f"{screen.glyphs.changed}{token}" in chain


@pytest.mark.slow
def test_snapshot_of_a_camel_that_joined_from_the_left_side(snap_compare, tmp_path):
    match, _ = karakum_left_side_join()
    assert snap_compare(start_with(tmp_path, match), terminal_size=(80, 24), run_before=steady)


def karakum_jewelry_refilled():
    """A Karakum match at Ann's turn just after a face-up card was refilled by jewelry (blue)."""
    for seed in range(1, 200):
        match = karakum_match(seed=seed)
        rng = random.Random(seed)
        for _ in range(60):
            before, mover = match.state.row, match.state.to_move
            match.play(rng.choice(match.legal_actions()))
            after = match.state
            changed = [slot for slot, card in enumerate(after.row) if card != before[slot]]
            if mover == 1 and after.to_move == 0 and any(after.row[s] is Res.BLUE for s in changed):
                return match, next(s for s in changed if after.row[s] is Res.BLUE)
    raise AssertionError("no such game")


@pytest.mark.slow
async def test_a_refilled_face_up_card_says_new_within_its_narrow_face(tmp_path):
    """At 80x24 a resource card is seven cells wide: "jewelry" fills it, so the news
    goes on the second line instead of a mark before the name."""
    match, slot = karakum_jewelry_refilled()
    async with running(tmp_path, match) as (app, _pilot):
        row = game_screen(app).query_one(ResourceZone)
        card = row.cards[1 + slot]  # the deck comes first
        assert card.has_class("-changed")
        face = str(card.render())
        assert face == f"jewelry\n{game_screen(app).glyphs.changed}new"
        assert all(cells(line) <= card.content_region.width for line in face.split("\n"))


class Row(App[None]):
    """One card row, for the cursor's own tests."""

    def compose(self) -> ComposeResult:
        yield CardRow(4, id="row")


def faces(*keys: str | None, closed: tuple[int, ...] = ()) -> list[CardFace | None]:
    return [
        None if key is None else CardFace(key, "-off" if i in closed else "", key=key)
        for i, key in enumerate(keys)
    ]


async def test_the_cursor_follows_its_card_never_wraps_and_leaves_a_gone_card_sensibly():
    app = Row()
    async with app.run_test() as pilot:
        row = app.query_one(CardRow)
        row.focus()
        row.set_faces(faces("gold", "silk", "camel", "camel"))
        await pilot.pause()
        await pilot.press("left")  # at the first card: no wrapping onto the exchange or the end
        assert row.cursor == 0
        await pilot.press("end", "right")
        assert row.cursor == 3
        await pilot.press("home", "right")
        assert row.cursor == 1  # on the silk
        row.set_faces(faces("silk", "gold", "camel", "camel"))  # it moved: the cursor follows
        assert row.cursor == 0
        row.set_faces(faces("spice", "gold", "camel", "camel", closed=(0,)))
        assert row.cursor == 1  # the silk is gone and what came cannot be taken: the nearest
        row.set_faces(faces("spice", None, "camel", "camel"))
        assert row.cursor in (0, 2) and row.cards[row.cursor].display
        assert all(isinstance(card, Card) for card in row.cards)


@pytest.mark.slow
async def test_q_and_s_work_on_the_curtain(tmp_path):
    async with running(tmp_path, karakum_match("Ann,Bob")) as (app, pilot):
        assert isinstance(app.screen, CurtainScreen)
        await press_to(pilot, "s", SaveAsScreen)
        await press_to(pilot, "escape", CurtainScreen)
        await pilot.press("q")
        await settle(pilot, app)
        assert isinstance(app.screen, TitleScreen)
