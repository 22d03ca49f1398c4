"""The Karawane table: whole games through keys and clicks, privacy, refusals, snapshots."""

from __future__ import annotations

import random

import attrs
import pytest
from rich.cells import cell_len

from karavan_core.analysis import judge
from karavan_core.analysis.judge import Hint
from karavan_core.games.karawane.components import CITY, Card, Kind
from karavan_core.games.karawane.state import KarawaneState, Play, PlayWithoutEffect
from karavan_core.match import Match
from karavan_tui.glyphs import ASCII, UNICODE
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.tables.karawane import KarawaneTable
from karavan_tui.tables.karawane.gestures import SEAT_LETTERS, card_of
from karavan_tui.tables.karawane.zones import (
    LABEL,
    Track,
    TrackZone,
    roomy_track_text,
    track_text,
)
from karavan_tui.widgets.cards import CardRow
from karavan_tui.words import cut, short_name

from .helpers import (
    SEED,
    game_screen,
    local_match,
    make_app,
    near_the_end,
    play_out_by_keys,
    running,
    seeded_match,
    settle,
    start_with,
    state_of,
)
from .room import blank_rows, table_zones
from .test_snapshots import SIZES, TABLE_SIZES, snap_table, steady

LABELS = [card.label for card in Card]


def karawane_match(
    seats: str = "Ann,bot:random", seed: int = SEED, first: int | None = 0, moves: int = 0
) -> Match:
    """A Karawane match with ``moves`` decisions already played by a seeded random policy."""
    return seeded_match("karawane", seats, seed, first, moves)


def table(app) -> KarawaneTable:
    """The open Karawane table."""
    return game_screen(app).query_one(KarawaneTable)


async def play_card(pilot, app, slot: int) -> None:
    """Move the hand's cursor to ``slot`` by arrow keys and press Enter."""
    row = table(app).query_one(CardRow)
    assert app.screen.focused is row
    steps = slot - row.cursor  # the cursor stops at the ends: no wrapping round
    await pilot.press(*["right" if steps > 0 else "left"] * abs(steps), "enter")
    await pilot.pause()


async def click_camel(pilot, app, seat: int, camel: int) -> None:
    """Click camel ``camel`` of ``seat`` where the track draws it."""
    track = table(app).query_one(TrackZone)
    line, column = next(spot for spot, who in track.spots.items() if who == (seat, camel))
    # The content starts inside the border (1) and the padding (1 column).
    await pilot.click(TrackZone, offset=(column + 2, line + 1))
    await pilot.pause()


@pytest.mark.slow
async def test_whole_game_human_against_random_bot_through_keys_and_a_click(tmp_path):
    """Title → new game dialog → Karawane → a whole seeded game by keys → game over."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter", "down", "enter")  # the game list: Karawane follows Karakum
        await pilot.pause()
        app.screen.query_one("#kind-1").value = "bot:random"
        app.screen.query_one("#first").value = "0"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        screen = game_screen(app)
        match = screen.driver.link.match
        assert match.game.name == "karawane" and match.seed == SEED
        assert [seat.name for seat in match.seats] == ["Player 1", "Random bot"]
        # The first move by mouse: camel A1 in the city, then the first card offered for it.
        assert match.to_move == 0
        await click_camel(pilot, app, 0, 0)
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.click("#choices", offset=(2, 1))
        await settle(pilot, app)
        first = match.history[0]
        assert isinstance(first, Play) and (first.owner, first.camel) == (0, 0)
        await play_out_first_cards(pilot, app)


@pytest.mark.slow  # the end of a game by keys
async def test_the_last_stretch_of_a_game_by_keys_ends_at_the_game_over_screen(tmp_path):
    async with running(tmp_path, near_the_end("karawane", "Ann,bot:random", left=5)) as (
        app,
        pilot,
    ):
        await play_out_first_cards(pilot, app)


async def play_out_first_cards(pilot, app) -> None:
    """Play the first playable card of the hand (on the first camel offered) until the end."""
    match = local_match(app)
    turns = 0

    async def turn() -> None:
        nonlocal turns
        assert isinstance(app.screen, TableScreen) and match.to_move == 0
        legal = match.legal_actions()
        hand = state_of(match, KarawaneState).hands[0]
        slot = next(i for i, card in enumerate(hand) if card in map(card_of, legal))
        before = len(match.history)
        await play_card(pilot, app, slot)
        if isinstance(app.screen, ChoiceScreen):  # the camel to play the card on
            await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before] in legal and card_of(match.history[before]) == hand[slot]
        turns += 1

    await play_out_by_keys(pilot, app, turn, 500)
    assert turns > 2


def rendered(app) -> str:
    """The text on screen."""
    return app.export_screenshot().replace("&#160;", " ")


def stuck_card_match(seats: str = "Ann,bot:random") -> tuple[Match, int]:
    """A fresh game where Ann holds a card with no use while another card has one."""
    for seed in range(1, 500):
        match = karawane_match(seats, seed=seed)
        usable = {card_of(action) for action in match.legal_actions()}
        for slot, card in enumerate(state_of(match, KarawaneState).hands[0]):
            if card not in usable:
                return match, slot
    raise AssertionError("no such deal")


@pytest.mark.slow
async def test_curtain_between_two_humans_hides_every_private_card(tmp_path):
    match, stuck = stuck_card_match("Ann,Bob")
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        hand_row = screen.query_one("#hand-row", CardRow)
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
        assert screen.table.view.observation.player is None and not hand_row.display
        # Nothing private is drawn, nor kept in the hidden cards.
        assert all(not str(card.render()).strip() for card in hand_row.cards)
        assert "Pass to Ann" in rendered(app)
        assert not any(label in rendered(app) for label in LABELS)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and screen.table.view.observation.player == 0
        hand = match.state.hands[0]
        assert [str(card.render()).split("\n")[0] for card in hand_row.cards] == [
            card.label for card in hand
        ]
        # Ann first tries a card she cannot use: the engine refuses it...
        await play_card(pilot, app, stuck)
        refusal = match.game.why_illegal(match.state, PlayWithoutEffect(hand[stuck]))
        assert next(iter(app._notifications)).message == refusal
        slot = next(i for i, c in enumerate(hand) if c in map(card_of, match.legal_actions()))
        await play_card(pilot, app, slot)
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter")
        await pilot.pause()
        assert len(match.history) == 1
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
        assert screen.table.view.observation.player is None and not hand_row.display
        assert all(not str(card.render()).strip() for card in hand_row.cards)
        # ...but no toast outlives her turn, and the curtain is opaque: no card is named
        # but the one the public log tells she played.
        assert not list(app._notifications)
        text = rendered(app)
        public = " ".join(match.log())
        assert "Pass to Bob" in text
        assert {label for label in LABELS if label in text} <= {
            label for label in LABELS if label in public
        }
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.view.observation.player == 1 and hand_row.display
        assert str(screen.query_one("#hand").border_title).startswith("Bob's hand")


async def test_illegal_attempts_are_refused_with_a_notification(tmp_path):
    match, slot = stuck_card_match()
    game, state = match.game, match.state
    card = state.hands[0][slot]
    assert card.kind is Kind.MIRAGE  # nobody has left the city yet
    assert game.why_illegal(state, PlayWithoutEffect(card))  # nor may it be thrown away
    # The refusals are the engine's own sentences.
    reason = game.why_illegal(state, PlayWithoutEffect(card))
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        await play_card(pilot, app, slot)
        assert isinstance(app.screen, TableScreen)
        assert [n.message for n in app._notifications] == [reason]
        # A rival's camel in the city cannot be moved by any card in Ann's hand: the
        # engine says why of the card that would move a rival's camel, her Mirage.
        await click_camel(pilot, app, 1, 0)
        assert isinstance(app.screen, TableScreen)
        messages = [n.message for n in app._notifications]
        city = "That camel is in the city: a Mirage only moves a camel on a desert square."
        assert messages == [city]  # the newer refusal replaces the older one: same title
        assert match.history == [] and match.state is state
        assert table(app).view.observation.camels == state.camels


async def test_ascii_mode_and_four_players_fit_80x24(tmp_path):
    match = karawane_match("Ann,bot:random,bot:random,bot:random", moves=30)
    async with running(tmp_path, match) as (app, pilot):
        app.set_ascii(True)
        await pilot.pause()
        track = table(app).query_one(TrackZone)
        assert "·" not in str(track.render()) and "city > desert" in str(track.border_title)
        players = table(app).query_one("#players")
        lines = str(players.render()).split("\n")
        assert "hand deck" in lines[0]  # a line of headings, then a line per player
        assert [line[3] for line in lines[1:5]] == list("ABCD")
        assert players.content_region.height >= 5


@pytest.mark.slow
async def test_a_resize_lays_the_track_and_the_piles_out_again_for_the_new_width(tmp_path):
    """The zones draw from what the table gave them: a resize alone redraws them."""
    match = karawane_match(moves=40)
    async with running(tmp_path, match) as (app, pilot):
        track = table(app).query_one(TrackZone)
        players = table(app).query_one("#players")
        narrow = str(track.render()).splitlines()
        assert len(narrow) == 7  # the city, the desert in two rows of ten, the oasis row
        narrow_piles = str(players.render())
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        wide = str(track.render()).splitlines()
        assert len(wide) == 13 and "─ 20 ─" in wide[5]  # the city, three rows of boxes
        await pilot.resize_terminal(200, 30)
        await pilot.pause()
        wide = str(track.render()).splitlines()
        assert len(wide) == 5 and "20" in wide[1]  # no rows for boxes: the desert in one row
        assert len(str(players.render())) > len(narrow_piles)  # longer piles fit
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert str(track.render()).splitlines() == narrow
        assert str(players.render()) == narrow_piles


@pytest.mark.slow
@pytest.mark.parametrize("seats", [2, 3, 4])
async def test_at_200x50_the_cards_are_large_and_no_zone_keeps_blank_rows(tmp_path, seats):
    match = karawane_match(",".join(["Ann"] + ["bot:random"] * (seats - 1)), moves=40)
    async with running(tmp_path, match, size=(200, 50)) as (app, _pilot):
        track = table(app).query_one(TrackZone)
        assert track.has_class("-roomy")  # every square a box, the camel and its owner in it
        drawn = str(track.render()).splitlines()
        assert "─ 20 ─" in drawn[5] and "─ 6pt ─" in drawn[9]
        assert track.content_region.height == len(drawn)  # every box in sight
        for (line, column), (seat, camel) in track.spots.items():
            assert drawn[line][column : column + 2] == f"{SEAT_LETTERS[seat]}{camel + 1}"
        desert = [sq for line in match.state.camels for sq in line if sq != CITY]
        assert len(track.spots) == len(desert) + sum(
            line.count(CITY) for line in match.state.camels
        )
        assert table(app).query_one("#hand").outer_size.height >= 11  # a large card's rows
        zones = table_zones(app)
        assert [zone.id for zone in zones] == ["track", "hand", "players"]
        assert {zone.id: blank_rows(app, zone) for zone in zones} == {
            "track": 0,
            "hand": 0,
            "players": 0,
        }
        row = table(app).query_one(CardRow)
        held = [card for card in row.cards if card.face and "-empty" not in card.face.classes]
        assert held
        for card in held:
            drawn = str(card.render())
            assert card.face is not None and drawn == str(card.face.large)
            assert "free square" in drawn or "Every player" in drawn or "leader" in drawn
        players = str(table(app).query_one("#players").render())
        assert "to come" in players and "camels" in players  # each player in full


async def test_a_camel_in_its_box_is_clicked_to_play_on_it(tmp_path):
    match = karawane_match(moves=6)
    async with running(tmp_path, match, size=(200, 50)) as (app, pilot):
        track = table(app).query_one(TrackZone)
        assert track.has_class("-roomy")
        boxed = [who for (line, _), who in track.spots.items() if line > 0]
        assert boxed  # a camel in the desert
        await click_camel(pilot, app, *boxed[0])
        assert isinstance(app.screen, ChoiceScreen)  # the cards to play on it


@pytest.mark.slow
async def test_the_track_keeps_its_compact_rows_where_the_hand_would_lose_its_room(tmp_path):
    """At 180x40 four players' blocks leave no rows for boxes: the track stays compact."""
    match = karawane_match("Ann,bot:random,bot:random,bot:random", moves=20)
    async with running(tmp_path, match, size=(180, 40)) as (app, _pilot):
        track = table(app).query_one(TrackZone)
        assert not track.has_class("-roomy")
        assert len(str(track.render()).splitlines()) == 5
        assert {zone.id: blank_rows(app, zone) for zone in table_zones(app)}["hand"] == 0


@pytest.mark.slow
@pytest.mark.parametrize("size", [(180, 50), (180, 40)], ids=["180x50", "180x40"])
async def test_piles_that_wrap_squeeze_the_hand_and_nothing_leaves_the_screen(tmp_path, size):
    """At 180 columns each rival's twelve cards to come wrap onto a second line at the start
    (the viewer's nine in her deck, her hand on the table, keep to one): the hand gives up
    those rows (below the boxes at 180x50, the compact track at 180x40, where its cards
    were cut), every card's face still whole."""
    match = karawane_match("Ann,bot:random,bot:random,bot:random")
    async with running(tmp_path, match, size=size) as (app, _pilot):
        assert table(app).query_one(TrackZone).has_class("-roomy") == (size[1] == 50)
        zones = table_zones(app)
        assert sum(zone.outer_size.height for zone in zones) == table(app).size.height
        assert {zone.id: blank_rows(app, zone) for zone in zones}["players"] == 0
        players = str(table(app).query_one("#players").render()).splitlines()
        assert len(players) == 4 * 5 - 1  # a rival's block a line longer than four
        row = table(app).query_one(CardRow)
        inside = table(app).query_one("#hand").content_region
        for card in row.cards:
            drawn = str(card.render())
            assert card.face is not None and drawn in (str(card.face.text), str(card.face.large))
            assert card.content_size.height >= len(drawn.splitlines())  # the face in full
            assert inside.contains_region(card.region)  # and the card, border and all


@pytest.mark.slow
async def test_the_players_zone_takes_the_rows_of_its_blocks_as_they_change(tmp_path):
    """At 180x40 the rival's twelve cards to come wrap onto a second line; once cards are
    played they fit on one, and the zone gives the row back (it kept it blank).  The viewer's
    deck (nine cards, her hand on the table) keeps to one line from the start."""
    match = karawane_match()
    async with running(tmp_path, match, size=(180, 40)) as (app, pilot):
        players = table(app).query_one("#players")
        assert players.content_region.height == 2 * 5 - 1
        await pilot.press("enter")
        await pilot.pause()
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter")
        await settle(pilot, app)
        assert len(match.history) >= 2  # a card each
        lines = str(players.render()).splitlines()
        assert len(lines) < 2 * 5 - 1 and players.content_region.height == len(lines)
        assert blank_rows(app, players) == 0


def test_a_name_too_long_for_its_box_keeps_what_tells_it_apart():
    assert short_name("Ann", 9, "…") == "Ann"
    assert short_name("Random bot 2", 9, "…") == "Random 2"  # not "Random b…" for every bot
    assert short_name("Expert bot 12", 9, "…") == "Expert 12"
    assert short_name("Alexandrina", 9, "…") == "Alexandr…"
    assert short_name("Anna Maria Lopez", 9, "...") == "Anna M..."
    # Tighter still, the first word is cut before the last: the bots still differ.
    assert short_name("Random bot 2", 6, "…") == "Ran… 2"
    assert short_name("Expert bot 12", 7, "...") == "E... 12"
    assert short_name("Random bot 2", 4, "...") == "R..."  # no room for a letter and its end


@pytest.mark.parametrize("glyphs", [UNICODE, ASCII], ids=["unicode", "ascii"])
def test_a_boxed_track_marks_moved_and_hinted_camels_and_keeps_literal_names(glyphs):
    match = karawane_match(moves=30)
    game, rng = match.game, random.Random(1)
    before = game.observe(match.state, 0)
    while len(match.history) < 34 or before.camels == game.observe(match.state, 0).camels:
        match.play(rng.choice(match.legal_actions()))
    after = attrs.evolve(game.observe(match.state, 0), players=("[b]Ann[/b]", "Bob"))
    desert = [
        (seat, camel)
        for seat, line in enumerate(after.camels)
        for camel, square in enumerate(line)
        if square != CITY
    ]
    hinted = desert[0]
    text, spots = roomy_track_text(Track(after, before, glyphs), hinted, 11)
    lines = text.plain.split("\n")
    assert len(lines) == 13 and all(len(line) <= LABEL + 110 for line in lines)
    corner = "+" if glyphs == ASCII else "╭"
    assert lines[1].startswith(" " * LABEL + corner)
    token = f"{SEAT_LETTERS[hinted[0]]}{hinted[1] + 1}"
    line, column = next(spot for spot, who in spots.items() if who == hinted and spot[0] > 0)
    assert lines[line][column : column + 3] == token + glyphs.left
    if hinted[0] == 0:
        assert cut("[b]Ann[/b]", 9, glyphs.ellipsis) in lines[line + 1]  # as typed, not markup
    assert {who for spot, who in spots.items() if spot[0] > 0} == set(desert)
    moved = [
        (seat, camel)
        for seat, line in enumerate(after.camels)
        for camel, square in enumerate(line)
        if square != CITY and before.camels[seat][camel] != square
    ]
    for seat, camel in moved:
        line, column = next(spot for spot, who in spots.items() if who == (seat, camel))
        assert lines[line][column - 1] == glyphs.changed


# Each kind of card is boxed in its own colour (karawane.tcss).
KIND_BORDERS = {
    "oasis": "#4FA84A",
    "mirage": "#A466CC",
    "driver": "#E08A2E",
    "sandstorm": "#C29A5C",
}


def kind_of(card) -> str:
    """The kind of card a hand card shows, from its classes."""
    return next(name[1:] for name in card.classes if name[1:] in KIND_BORDERS)


def border_colour(card) -> str:
    """The colour of a card's border."""
    return card.styles.border_top[1].hex


@pytest.mark.slow
async def test_at_120x40_the_cards_are_boxed_in_ascii_too_and_at_80x24_compact(tmp_path):
    match = karawane_match(moves=40)
    async with running(tmp_path, match, size=(120, 40)) as (app, pilot):
        card = table(app).query_one(CardRow).cards[0]
        assert card.styles.border_top[0] == "round" and card.styles.height is not None
        assert str(card.render()).count("\n") == 1  # the compact face, in its border
        cards = table(app).query_one(CardRow).cards
        assert [border_colour(c) for c in cards] == [KIND_BORDERS[kind_of(c)] for c in cards]
        app.set_ascii(True)
        await pilot.pause()
        assert card.styles.border_top[0] == "ascii"
        assert [border_colour(c) for c in cards] == [KIND_BORDERS[kind_of(c)] for c in cards]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert card.styles.border_top[0] == "" and card.size.height == 2
        assert "hand deck" in str(table(app).query_one("#players").render())  # one line each


def two_camel_position() -> tuple[Match, list[Play]]:
    """Ann to move, holding a card that could move either of two camels."""
    for moves in range(6, 200, 2):
        match = karawane_match(moves=moves)
        if match.to_move != 0:
            continue
        by_card: dict[Card, list[Play]] = {}
        for action in match.legal_actions():
            if isinstance(action, Play):
                by_card.setdefault(action.card, []).append(action)
        for plays in by_card.values():
            if len(plays) >= 2:
                return match, plays
    raise AssertionError("no such position")


def hint_with(monkeypatch, action) -> None:
    """The Expert's hint is ``action`` (the search itself is tested elsewhere)."""

    def hint(self, observation, legal):
        assert action in legal
        return Hint(action, self.game.preview(observation, action), 0.5)

    monkeypatch.setattr(judge.Analyst, "hint", hint)


@pytest.mark.slow
async def test_a_hint_marks_the_camel_it_moves_and_the_pickers_flag_it(tmp_path, monkeypatch):
    match, plays = two_camel_position()
    hinted = plays[-1]  # not the first choice: the picker must start on it by itself
    hint_with(monkeypatch, hinted)
    app = start_with(tmp_path, match)
    before = len(match.history)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        await settle(pilot, app)
        track = table(app).query_one(TrackZone)
        # The camel it moves is marked on the track, the card to play in the hand.
        assert getattr(track, "hinted", None) == (hinted.owner, hinted.camel)
        pointer = game_screen(app).glyphs.left
        token = f"{SEAT_LETTERS[hinted.owner]}{hinted.camel + 1}{pointer}"
        assert token in str(track.render())
        hand = table(app).query_one("#hand-row", CardRow)
        assert [card.index for card in hand.cards if card.has_class("-hinted")] == [
            match.state.hands[0].index(hinted.card)
        ]
        # Enter on the card (the cursor is on it): the camel picker starts on the hint.
        await pilot.press("enter")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ChoiceScreen)
        flagged = [i for i, words in enumerate(picker.options) if words.endswith("(hint)")]
        assert flagged == [picker.query_one("#choices").highlighted]
        await pilot.press("escape")
        await pilot.pause()
        # From the camel: the card picker flags the hinted card too.
        await click_camel(pilot, app, hinted.owner, hinted.camel)
        picker = app.screen
        assert isinstance(picker, ChoiceScreen)
        flagged = [i for i, words in enumerate(picker.options) if words.endswith("(hint)")]
        assert flagged == [picker.query_one("#choices").highlighted]
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before] == hinted


@pytest.mark.slow
def test_snapshot_of_a_hint_on_the_track(snap_compare, tmp_path, monkeypatch):
    match, plays = two_camel_position()
    hint_with(monkeypatch, plays[-1])

    async def ask(pilot):
        await steady(pilot)
        await pilot.press("h")
        await steady(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    app = start_with(tmp_path, match)
    assert snap_compare(app, terminal_size=(80, 24), run_before=ask)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_snapshot_start(snap_compare, tmp_path, size):
    assert snap_table(snap_compare, tmp_path, karawane_match(), size)


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_snapshot_mid_game(snap_compare, tmp_path, size):
    match = karawane_match("Ann,bot:random,bot:random", moves=40)
    assert snap_table(snap_compare, tmp_path, match, size)


def sent_back_to_the_city():
    """Two observations of Ann's, before and after the bot's mirage sent one of her camels
    back to the city (with one of hers already there, so it is not the first token)."""
    for seed in range(1, 400):
        match = karawane_match("Ann,bot:random", seed=seed)
        rng = random.Random(seed)
        while not match.is_over():
            before = match.state
            match.play(rng.choice(match.legal_actions()))
            after = match.state
            back = [
                camel
                for camel, square in enumerate(after.camels[0])
                if square == CITY != before.camels[0][camel]
            ]
            if back and before.to_move == 1 and after.camels[0].count(CITY) > 1:
                game = match.game
                return game.observe(before, 0), game.observe(after, 0), back[0]
    raise AssertionError("no such game")


@pytest.mark.parametrize("glyphs", [UNICODE, ASCII], ids=["unicode", "ascii"])
def test_a_camel_sent_back_to_the_city_is_marked_as_news(glyphs):
    """Underlining alone is lost without colour: the city marks it as the desert does."""
    before, after, camel = sent_back_to_the_city()
    text, spots = track_text(Track(after, before, glyphs), None, 60)
    city = text.plain.split("\n")[0]
    token = f"A{camel + 1}"
    assert f"{glyphs.changed}{token}" in city
    column = city.index(token)
    assert spots[(0, column)] == (0, camel)  # still clicked where it is drawn
    quiet, _ = track_text(Track(after, after, glyphs), None, 60)
    assert glyphs.changed not in quiet.plain.split("\n")[0]
    assert len(quiet.plain.split("\n")[0].rstrip()) == len(city.rstrip())


@pytest.mark.slow
async def test_four_players_blocks_keep_their_piles_to_a_line_rather_than_give_up(tmp_path):
    """At 120x40 four whole blocks are a few rows too many: the piles keep to a line each
    (cut, with a count) instead of the one-line table, which left 14 rows empty."""
    match = karawane_match("Ann,bot:random,bot:random,bot:random", moves=30)
    async with running(tmp_path, match, size=(120, 40)) as (app, _pilot):
        players = table(app).query_one("#players")
        lines = str(players.render()).splitlines()
        assert len(lines) <= players.content_region.height
        assert sum("played" in line for line in lines) == 4
        # The rivals' cards to come (hand or deck); the viewer's deck, her hand being shown.
        assert sum("to come" in line for line in lines) == 3
        assert sum("in deck" in line for line in lines) == 1
        assert all(cell_len(line) <= players.content_region.width for line in lines)


@pytest.mark.parametrize("size", [(120, 40), (200, 50)])
async def test_on_a_tall_screen_the_move_list_takes_the_rows_under_the_track(tmp_path, size):
    """The list of moves opens at the bottom, the track kept in sight; from 40 rows it shows
    as many entries as a list in the middle would (it used to scroll in six rows while the
    hand's cards took eighteen)."""
    async with running(tmp_path, karawane_match(moves=30), size=size) as (app, pilot):
        legal = len(local_match(app).legal_actions())
        assert legal > 6
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        shown = app.screen.query_one("#choices").size.height
        assert shown >= min(legal, 13)
        dialog = app.screen.query_one("ChoiceScreen > Vertical").region
        track = table(app).query_one(TrackZone).region
        assert dialog.y >= track.bottom  # the track stays in sight above the list
