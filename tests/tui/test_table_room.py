"""At 200x50 a table fills the terminal: no zone keeps more than a few blank rows, and the
hand's cards are drawn large (issue 30); at 80x24 the same zones cut nothing."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from karavan_tui.glyphs import UNICODE
from karavan_tui.tables.karakum.players import worth
from karavan_tui.tables.karakum.zones import TableData
from karavan_tui.widgets.cards import CardRow

from .helpers import game_screen, karakum_match, running
from .room import blank_rows
from .test_jaipur_table import mid_game as jaipur_mid_game

FEW = 3  # blank rows a zone may keep (a large card's face centred in its rows has some too)


def karakum_mid_game():
    """Three players some sixty decisions in: each caravan has begun."""
    return karakum_match("Ann,bot:random,bot:random", moves=60)


def every_card_large(table) -> None:
    """Every card that has a large face shows it (the room is there for it)."""
    for row in table.query(CardRow):
        for card in row.cards:
            face = card.face
            if card.display and face is not None and face.large is not None:
                assert str(card.render()) == str(face.large)


# With the slow checks: the large cards at 200x50 are checked by default on Jaipur's hand.
@pytest.mark.slow
@pytest.mark.parametrize(
    "size",
    [pytest.param((200, 50), id="200x50"), pytest.param((120, 40), id="120x40")],
)
@pytest.mark.parametrize("match", [jaipur_mid_game, karakum_mid_game], ids=["jaipur", "karakum"])
async def test_every_zone_uses_its_rows(tmp_path, size, match):
    async with running(tmp_path, match(), size=size) as (app, _pilot):
        zones = list(game_screen(app).table.query(".zone"))
        assert len(zones) == 4
        blanks = {zone.id: blank_rows(app, zone) for zone in zones}
        assert all(blank <= FEW for blank in blanks.values()), blanks


@pytest.mark.slow
async def test_the_karakum_cards_are_drawn_large_at_200x50_their_costs_in_words(tmp_path):
    async with running(tmp_path, karakum_mid_game(), size=(200, 50)) as (app, pilot):
        table = game_screen(app).table
        every_card_large(table)
        market = [str(card.render()) for card in table.query_one("#market-row", CardRow).cards]
        assert "red camel\ncosts 2 spices\ntaxed +1\n+1 free card" in market[0]
        assert "pays for\nblue camels" in str(
            table.query_one("#hand-row", CardRow).cards[0].render()
        )
        caravans = str(table.query_one("#caravans").render())
        assert "chain 3 camels worth 11" in caravans  # each caravan's worth on a line of its own
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert str(table.query_one("#market-row", CardRow).cards[0].render()) == "•R1✱\ncost 2"
        assert "worth" not in str(table.query_one("#caravans").render())


async def test_the_jaipur_hand_is_drawn_large_at_200x50_and_compact_at_80x24(tmp_path):
    async with running(tmp_path, jaipur_mid_game(), size=(200, 50)) as (app, pilot):
        table = game_screen(app).table
        every_card_large(table)
        hand = table.query_one("#hand-row", CardRow).cards
        assert "tokens left" in str(hand[0].render())  # a good's token values on its card
        assert "largest herd" in str(hand[-1].render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert str(hand[0].render()) == str(hand[0].face.text)
        for zone in table.query(".zone"):  # every line drawn fits its zone: nothing cut
            lines = str(zone.render()).splitlines() if zone.id == "players" else []
            assert len(lines) <= zone.content_region.height


@pytest.mark.slow
async def test_a_large_jaipur_card_lists_every_token_left_on_its_pile(tmp_path):
    """Leather's nine tokens, at 200x50: every one of them is said, on the one line under
    "tokens left" (a run of equal values counted, as the chips count a pile)."""
    from karavan_core.games.jaipur.components import Card

    from .test_jaipur_table import jaipur_match

    match = jaipur_match("Ann,bot:random")
    leather = match.state.goods_piles[Card.LEATHER.index]
    assert len(leather) == 9
    async with running(tmp_path, match, size=(200, 50)) as (app, _pilot):
        card = game_screen(app).table.query_one("#hand-row", CardRow).cards[Card.LEATHER.index]
        lines = str(card.render()).splitlines()
        said = lines[lines.index("tokens left") + 1 :]
        assert len(said) == 1 and cell_len(said[0]) <= card.content_size.width
        values = []
        for word in said[0].split():
            value, _, count = word.partition("×")
            values += [int(value)] * int(count or 1)
        assert tuple(values) == leather


def test_a_karakum_left_side_is_said_to_add_half_its_camels_points():
    """The score counts half the left side's total, and the caravan's lines say so."""
    match = next(
        m
        for moves in range(0, 400, 10)
        if any((m := karakum_match("Ann,bot:random", moves=moves)).state.lefts)
    )
    state = match.state
    seat = next(s for s, left in enumerate(state.lefts) if left)
    scores = match.game.result(state).scores
    data = TableData(
        obs=match.game.observe(state, 0), before=None, legal=frozenset(), g=UNICODE, scores=scores
    )
    total = sum(camel.value for camel in state.lefts[seat])
    chain = sum(camel.value for camel in state.caravans[seat])
    assert scores[seat] == chain + total // 2
    lines = worth(data, seat, 200, 2)
    assert f"worth {total // 2} (half of {total}) · {scores[seat]} point" in lines[1]
    short = worth(data, seat, 40, 1)[0]
    assert f"left side {total // 2} · " in short
