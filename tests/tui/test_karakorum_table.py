"""The Karakorum table: a whole game by keys and clicks, the curtain, refusals, snapshots."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from attrs import evolve
from rich.cells import cell_len
from rich.console import Console
from textual.app import App

from karavan_core.games.karakorum.components import Peak
from karavan_core.games.karakorum.rules import ALL_CARDS
from karavan_core.games.karakorum.state import (
    Card,
    Done,
    Expedition,
    KarakorumObservation,
    KarakorumState,
    Place,
    Remove,
    Reveal,
    Score,
    Step,
    Take,
)
from karavan_core.match import Match
from karavan_core.text import MAX_NAME_LENGTH
from karavan_tui.glyphs import UNICODE
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.tables.karakorum import KarakorumTable
from karavan_tui.tables.karakorum.faces import gone_since
from karavan_tui.tables.karakorum.players import Climbers, ClimbersZone
from karavan_tui.widgets.cards import CardRow
from karavan_tui.widgets.side import first_sentence

from .helpers import (
    SEED,
    against_random_bot,
    game_screen,
    local_match,
    near_the_end,
    play_out_by_keys,
    play_to_end,
    press_to,
    running,
    seeded_match,
    settle,
    start_with,
    state_of,
    visible_characters,
)
from .room import blank_rows, table_zones
from .test_snapshots import SIZES, TABLE_SIZES, snap_table


def karakorum_match(seats: str = "Ann,bot:random", **options) -> Match:
    """A Karakorum match (Ann first by default) after ``moves`` seeded random decisions."""
    return seeded_match("karakorum", seats, **options)


def climbing_match(seats: str, moves: int, seed: int = SEED) -> Match:
    """A match played on by a policy that builds and scores expeditions (random play rarely
    scores), so that a mid-game table has tracks, goals and long expeditions to show."""
    match = karakorum_match(seats, seed=seed)
    rng = random.Random(seed)

    def rank(action) -> int:
        if isinstance(action, Score):
            state = state_of(match, KarakorumState)
            axes = state.expeditions[state.current][action.expedition].axes
            return 0 if action.goal is not None else 1 if axes >= 8 else 9
        if isinstance(action, Place):
            return 2 if action.expedition is not None else 3
        if isinstance(action, Take):
            return 4
        if isinstance(action, Reveal):
            return 5 if len(state_of(match, KarakorumState).table) < 3 else 7
        return 8 if isinstance(action, Remove) else 6

    for _ in range(moves):
        if match.is_over():
            break
        legal = match.legal_actions()
        best = min(map(rank, legal))
        match.play(rng.choice([a for a in legal if rank(a) == best]))
    return match


def screen_text(app) -> str:
    """The rendered screen as text (the SVG's spaces made plain)."""
    return app.export_screenshot().replace("&#160;", " ")


@pytest.mark.slow
async def test_the_new_game_dialog_offers_karakorum_and_a_whole_game_plays_by_keys(tmp_path):
    """Title → dialog → a seeded game against a random bot, moves by Enter and a click."""
    async with against_random_bot(tmp_path, "karakorum") as (app, pilot):
        screen = game_screen(app)
        match = screen.driver.link.match
        assert match.game.name == "karakorum" and match.seed == SEED
        assert isinstance(screen.table, KarakorumTable)
        # One decision by mouse: the deck reveals (or, if not now, the engine says why).
        await pilot.click("#table-row Card")
        await settle(pilot, app)
        await play_out_by_enter(pilot, app)


@pytest.mark.slow  # the end of a game by keys
async def test_the_last_stretch_of_a_game_by_keys_ends_at_the_game_over_screen(tmp_path):
    match = near_the_end("karakorum", "Ann,bot:random", left=8)
    async with running(tmp_path, match) as (app, pilot):
        await play_out_by_enter(pilot, app)


async def play_out_by_enter(pilot, app) -> None:
    """Enter always acts on the slot the table points at; pickers take their first option."""
    match = local_match(app)

    async def turn() -> None:
        before = len(match.history)
        await pilot.press("enter")
        await settle(pilot, app)
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("enter")
            await settle(pilot, app)
        assert len(match.history) > before or isinstance(app.screen, GameOverScreen)

    await play_out_by_keys(pilot, app, turn, 3000)
    result = match.game.result(match.state)
    notes = str(app.screen.query_one("#notes").render())
    assert notes.splitlines()[:-1] == list(result.notes[:-1])  # one sentence a line
    console = Console(width=100, record=True)
    console.print(app.screen.query_one("#breakdown").content)
    breakdown = console.export_text()
    assert "Red marker" in breakdown and ("Score" in breakdown or "wins at once" in notes)


@pytest.mark.slow
async def test_hot_seat_needs_no_curtain_and_the_deck_order_never_shows(tmp_path):
    """Every Karakorum card is face up: the next human simply takes the keyboard."""
    match = karakorum_match("Ann,Bob")
    assert not match.game.private_views
    async with start_with(tmp_path, match).run_test(size=(80, 24)) as pilot:
        app = pilot.app
        await settle(pilot, app)
        screen = game_screen(app)
        assert isinstance(app.screen, TableScreen)
        view = screen.table.view
        assert view.observation.player == 0 and view.legal
        # The table is given an observation: the deck only as a count.
        assert isinstance(view.observation, KarakorumObservation)
        assert not hasattr(view.observation, "deck")
        # Ann reveals, stops, takes until it is Bob's decision: his turn at once.
        for _ in range(20):
            if match.to_move == 1:
                break
            await pilot.press("enter")
            await pilot.pause()
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")
                await pilot.pause()
        await settle(pilot, app)
        assert match.to_move == 1
        assert isinstance(app.screen, TableScreen)
        assert screen.table.view.observation.player == 1
        assert "Bob:" in str(screen.query_one("#status").render())


# Slow: by default Karakum's privacy walk looks at the screen, and the engine's checks at
# Karakorum's hidden cards.
@pytest.mark.slow
async def test_two_deals_differing_only_in_the_deck_order_look_the_same(tmp_path):
    """Nothing of the face-down deck reaches the screen."""
    match = karakorum_match(moves=9)
    state = match.state
    other = evolve(state, deck=tuple(reversed(state.deck)))
    shots = []
    for index, start in enumerate((state, other)):
        again = Match(match.game, match.seats, match.seed, initial=start)
        app = start_with(tmp_path / str(index), again)
        app.config.bot_delay = 60.0  # nobody moves: compare the very same position
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(3):
                await pilot.pause(0.05)
            screen = game_screen(app)
            screen.driver.flush()  # the "saved" mark must not depend on the writer's timing
            screen.refresh_status()
            await pilot.pause()
            shots.append(visible_characters(app))
    assert shots[0] == shots[1]


async def test_an_illegal_attempt_is_refused_with_the_engines_reason(tmp_path):
    match = karakorum_match()
    game, state = match.game, match.state
    assert state.step is Step.REVEAL and state.to_move == 0
    card = state.table[0]
    reason = game.why_illegal(state, Take(card))
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        assert app.screen.focused.id == "table-row"
        await pilot.press("right", "enter")  # the revealed card: not to be taken yet
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert [n.message for n in app._notifications] == [reason]
        assert match.history == [] and match.state is state
        # The card is shown as not available now, the deck as available.
        cards = screen_text(app)
        assert "reveal" in cards
        await pilot.press("left", "enter")
        await settle(pilot, app)
        assert match.history[0] == Reveal()


def scoring_match() -> tuple[Match, int]:
    """A game in which Ann, to move, may score one of her expeditions."""
    for seed in range(200):
        match = karakorum_match(seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if match.is_over():
                break
            legal = match.legal_actions()
            scores = [a for a in legal if isinstance(a, Score)]
            if match.to_move == 0 and scores and not state_of(match, KarakorumState).held[0]:
                return match, scores[0].expedition
            places = [a for a in legal if isinstance(a, Place) and a.expedition is not None]
            match.play(rng.choice(places or legal))
    raise AssertionError("no position to score from")


@pytest.mark.slow
async def test_scoring_an_expedition_through_its_picker(tmp_path):
    match, index = scoring_match()
    options = [a for a in match.legal_actions() if getattr(a, "expedition", None) == index]
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        assert app.screen.focused.id == "exp-row"  # the table points where the decision is
        row = screen.table.query_one("#exp-row")
        while row.cursor != index:
            await pilot.press("right")
        before = len(match.history)
        await press_to(pilot, "enter", ChoiceScreen)
        seen = match.view(match.to_move)
        assert app.screen.options == [match.game.preview(seen, a) for a in options]
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before] == options[0]


@pytest.mark.slow
async def test_ascii_mode_and_a_busy_four_player_table_fit_80x24(tmp_path):
    match = climbing_match("Annabelle,bot:random,bot:random,bot:random", moves=380, seed=3)
    async with running(tmp_path, match) as (app, pilot):
        app.set_ascii(True)
        await pilot.pause()
        table = game_screen(app).table
        texts = [str(widget.render()) for widget in table.query("Card, GoalsZone, ClimbersZone")]
        texts += [str(zone.border_title) for zone in table.query(".zone")]
        assert all(text.isascii() for text in texts), [t for t in texts if not t.isascii()]
        assert "@" in str(table.query_one("#climbers").render())  # the first-player marker
        assert table.max_scroll_y == 0  # every zone fits without scrolling


def first_position(seats: str, wanted, *, steps: int = 300, reveal: bool = False):
    """The first position of seeded random games (seed 1 up) where ``wanted(match)`` is true.

    Returns the match and what ``wanted`` returned; with ``reveal``, the active player
    reveals up to three cards before stopping.
    """
    for seed in range(1, 200):
        match = karakorum_match(seats, seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if match.is_over():
                break
            found = wanted(match)
            if found:
                return match, found
            legal = match.legal_actions()
            more = reveal and Reveal() in legal and len(state_of(match, KarakorumState).table) < 3
            match.play(Reveal() if more else rng.choice(legal))
    raise AssertionError("no such position")


def at_step(step: Step) -> Match:
    """A two-player match at Ann's decision of ``step`` (random play, revealing a few cards)."""
    match, _ = first_position(
        "Ann,Bob", lambda m: m.state.step is step and m.to_move == 0, reveal=True
    )
    return match


@pytest.mark.parametrize(
    ("step", "words"),
    [
        pytest.param(Step.REVEAL, "\nstop", marks=pytest.mark.slow),
        pytest.param(Step.TAKE_MORE, "stop\ntaking", marks=pytest.mark.slow),
        (Step.OTHERS, "pass"),  # one step by default, the others with the slow checks
        pytest.param(Step.PLACE, "done", marks=pytest.mark.slow),
    ],
)
async def test_the_last_slot_of_the_table_row_says_what_it_does_in_each_step(tmp_path, step, words):
    async with running(tmp_path, at_step(step)) as (app, pilot):
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")  # the curtain
            await pilot.pause()
        row = game_screen(app).query_one("#table-row", CardRow)
        assert words in str(row.cards[-1].render())


@pytest.mark.slow
async def test_the_last_slot_stays_empty_while_the_first_card_must_be_taken(tmp_path):
    """The active player's first take cannot be skipped: no dimmed "stop taking" is shown,
    and Enter on the slot plays nothing."""
    match = at_step(Step.TAKE)
    async with running(tmp_path, match) as (app, pilot):
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")  # the curtain
            await pilot.pause()
        row = game_screen(app).query_one("#table-row", CardRow)
        last = row.cards[-1]
        assert "stop" not in str(last.render())
        assert last.face is not None and "-empty" in last.face.classes
        moves = len(match.history)
        row.cursor = len(row.cards) - 1
        row.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert len(match.history) == moves and match.state.step is Step.TAKE
        # The arrows pass over empty places: nothing there to act on.
        await pilot.press("home")
        for _ in range(len(row.cards)):
            await pilot.press("right")
            face = row.cards[row.cursor].face
            assert face is not None and "-empty" not in face.classes
        await pilot.press("end")
        assert row.cursor < len(row.cards) - 1


@pytest.mark.slow
async def test_once_the_game_is_over_the_table_offers_no_done_and_scores_are_final(tmp_path):
    """At the end the last slot is empty (it showed a "done" to press), and the scores'
    title drops "if it ended now"."""
    from karavan_tui.screens.replay import Replay

    match = play_to_end(karakorum_match(), seed=2)
    async with running(tmp_path) as (app, pilot):
        app.push_screen(TableScreen(Replay(match, len(match.history), 0)))
        await pilot.pause()
        last = app.screen.query_one("#table-row", CardRow).cards[-1]
        assert last.face is not None and last.face.empty and "done" not in str(last.render())
        scores = app.screen.query_one("#scores")
        assert scores.border_title == "Points" and not scores.border_subtitle
        await pilot.press("left")  # a position of the game in progress
        await pilot.pause()
        assert scores.border_title == "Points if it ended now"
        assert scores.border_subtitle == "all expeditions closed"


async def test_a_player_who_leads_no_peak_is_out_on_the_board_as_at_the_end(tmp_path):
    """Bob leads no peak even once every expedition is closed: the panel and the tracks say
    "out", not 0, in the game's word, as the game over does."""
    match = closing_position(tracks=((20, 20, 20), (0, 0, 0)))
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        lines = str(screen.query_one("#scores").render()).splitlines()
        ann = match.game.result(match.state).scores[0]
        assert [line.split()[-1] for line in lines] == [str(ann), "out"]
        tracks = str(screen.query_one(ClimbersZone).render()).splitlines()
        assert [line.split("=")[-1].strip() for line in tracks[:2]] == [str(ann), "out"]
        assert screen.decide(Done())
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        bob = dict(match.outcome().result.breakdown[1])
        assert bob["Champion of"] == "no peak: out of the fight for victory"


def closing_position(tracks: tuple[tuple[int, ...], ...] = ((0, 0, 9), (2, 3, 30))) -> Match:
    """Ann's turn to end her placing in the last round, the deck spent: her red 5 6 8
    (6 axes) and green 3 5 6 (4 axes) are open, Bob's lone green 2 too.  Every other card
    lies on the discard pile."""
    reds = (Card(Peak.RED, 5, 1), Card(Peak.RED, 6, 2), Card(Peak.RED, 8, 3))
    greens = (Card(Peak.GREEN, 3, 2), Card(Peak.GREEN, 5, 1), Card(Peak.GREEN, 6, 1))
    bob = (Card(Peak.GREEN, 2, 1),)
    match = karakorum_match()
    rest = Counter(ALL_CARDS)
    rest.subtract(reds + greens + bob)
    start = evolve(
        state_of(match, KarakorumState),
        step=Step.PLACE,
        active=0,
        current=0,
        deck=(),
        table=(),
        discard=tuple(rest.elements()),
        held=((), ()),
        expeditions=((Expedition(reds), Expedition(greens)), (Expedition(bob),)),
        tracks=tracks,
    )
    return Match(match.game, match.seats, match.seed, initial=start)


async def test_the_points_shown_close_every_expedition_as_the_end_will(tmp_path):
    """With the markers as they stand Ann leads no peak (0 to Bob's 33); the end closes the
    expeditions first and she wins 15 to 2: the panel and the tracks show 15 and 2, and say
    that they count the closing."""
    match = closing_position()
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        scores = screen.query_one("#scores")
        lines = str(scores.render()).splitlines()
        assert [line.split()[-1] for line in lines] == ["15", "2"]
        assert scores.border_title == "Points if it ended now"
        assert scores.border_subtitle == "all expeditions closed"
        tracks = screen.query_one(ClimbersZone)
        assert tracks.border_title.endswith("= if ended now")
        assert [line.split("=")[-1].strip() for line in str(tracks.render()).splitlines()[:2]] == [
            "15",
            "2",
        ]
        assert screen.decide(Done())
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        assert match.outcome().result.scores == (15, 2)


def titles_cut(app) -> list[str]:
    """The zone titles (top and bottom borders) too long for their zone at its width now."""
    cut = []
    for zone in game_screen(app).table.query(".zone"):
        room = zone.outer_size.width - 6  # "╭─ " and " ─╮" around the words
        for title in (zone.border_title, zone.border_subtitle):
            if zone.display and title and cell_len(str(title)) > room:
                cut.append(str(title))
    return cut


@pytest.mark.slow  # a whole game by keys
async def test_every_zone_title_fits_at_80_columns_with_the_longest_names(tmp_path):
    long = "Annabelle Marie Lovelace"  # as long as a name may be
    assert len(long) == MAX_NAME_LENGTH
    match = karakorum_match(f"{long},bot:random:Bartholomew Q Longfellow", seed=5)
    app = start_with(tmp_path, match)
    async with app.run_test(size=(80, 24)) as pilot:
        steps = set()
        for _ in range(80):  # Ann plays by Enter (and a picker's first choice)
            await settle(pilot, app)
            if match.is_over():
                break
            assert titles_cut(app) == [], match.state.step
            steps.add(match.state.step)
            await pilot.press("enter")
            await settle(pilot, app)
            if isinstance(app.screen, ChoiceScreen):
                await pilot.press("enter")
        assert {Step.REVEAL, Step.PLACE} <= steps


def after_a_removal() -> tuple[Match, Expedition]:
    """Ann to move just after the bot removed an expedition (and scored none)."""

    def removed(match: Match) -> Expedition | None:
        since = match.last_move_of(0)
        news = match.history[since:]
        if match.to_move != 0 or not since or any(isinstance(a, Score) for a in news):
            return None
        seen = match.view(0, since)
        assert isinstance(seen, KarakorumObservation)
        old, now = seen.expeditions[1], state_of(match, KarakorumState).expeditions[1]
        gone = [exp for exp in old if exp not in now]
        return gone[0] if any(isinstance(a, Remove) for a in news) and len(gone) == 1 else None

    return first_position("Ann,bot:random", removed, steps=400)


def test_what_became_of_a_gone_expedition_is_told_from_the_two_views_alone():
    """Three cards or more: scored; fewer, its marker not up: removed; else discarded."""
    red = [Card(Peak.RED, value, 0) for value in (2, 4, 6)]
    small, green = Card(Peak.RED, 5, 2), Card(Peak.GREEN, 3, 1)
    before = evolve(
        karakorum_match().view(0),
        expeditions=((), (Expedition(tuple(red)), Expedition((small,)), Expedition((green,)))),
    )
    now = evolve(before, expeditions=((), ()), tracks=(before.tracks[0], (5, 0, 0)))
    assert gone_since(now, before, 1) == [
        (Expedition(tuple(red)), "scored"),
        (Expedition((small,)), "discarded"),  # a red one was scored meanwhile: either way
        (Expedition((green,)), "removed"),
    ]
    assert gone_since(now, None, 1) == []  # nothing to compare with: nothing is news
    grown = evolve(before, expeditions=((), (Expedition((*red, Card(Peak.RED, 7, 0))),)))
    assert [exp for exp, _ in gone_since(grown, before, 1)] == [
        Expedition((small,)),
        Expedition((green,)),
    ]  # the red one that grew is still there


@pytest.mark.parametrize("width", [80, pytest.param(120, marks=pytest.mark.slow)])
async def test_an_expedition_removed_since_your_last_decision_is_shown_where_it_was(
    tmp_path, width
):
    match, gone = after_a_removal()
    app = start_with(tmp_path, match)
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(pilot, app)
        table = game_screen(app).table
        zone = table.query_one("#opponents" if width >= 120 else "#climbers")
        shown = str(zone.render())
        bob = shown[shown.index(match.seats[1].name) :]  # the bot's part of the zone
        values = " ".join(str(card.value) for card in gone.cards)
        changed = game_screen(app).glyphs.changed
        assert f"{changed}{gone.color.letter}[{values}] removed" in bob
        # Once Ann has decided, it is old news: the mark goes.
        await pilot.press("enter")
        await settle(pilot, app)
        if match.to_move == 0 and not any(
            isinstance(a, Remove) for a in match.history[match.last_move_of(0) :]
        ):
            assert "removed" not in str(zone.render())


def after_a_placing_turn() -> Match:
    """Ann to move after a bot's placing turn that placed or removed, then ended.

    Told in full, the bots' decisions since Ann's last one do not fit in 80 columns.
    """

    def told_long(match: Match) -> bool:
        since = match.last_move_of(0)
        news = match.history[since:]
        told = " ".join(first_sentence(line) for line in match.log()[since + 1 :])
        return (
            match.to_move == 0
            and since > 0
            and news[-1:] == [Done()]
            and any(isinstance(a, Place | Remove) for a in news)
            and len(told) > 80
        )

    match, _ = first_position("Ann,bot:random,bot:random", told_long)
    return match


@pytest.mark.slow  # by default the news line is checked at 80x24 in tests/tui/test_words.py
@pytest.mark.parametrize("width", [80, 200])
async def test_the_news_line_tells_the_most_telling_of_the_bots_moves(tmp_path, width):
    match = after_a_placing_turn()
    since = match.last_move_of(0)
    said = [first_sentence(line).rstrip(".") for line in match.log()[since + 1 :]]
    app = start_with(tmp_path, match)
    async with app.run_test(size=(width, 40)) as pilot:
        await settle(pilot, app)
        banner = str(game_screen(app).query_one("#banner").render())
        names = [seat.name for seat in match.seats]
        # What each decision did, without its player's name (a player's run shares it).
        deeds = [
            next(text[len(n) + 1 :] for n in names if text.startswith(n + " ")) for text in said
        ]
        ends = [d for d, a in zip(deeds, match.history[since:], strict=True) if a == Done()]
        telling = [d for d, a in zip(deeds, match.history[since:], strict=True) if a != Done()]
        if width == 80:  # room for one or two: a placing or removal, not the end of the turn
            assert any(deed[:30] in banner for deed in telling)
            assert not any(deed in banner for deed in ends)
        else:  # room for every one of them
            assert all(deed in banner for deed in deeds), (banner, deeds)
            assert "earlier" not in banner and "more" not in banner


# Every width with the slow checks (the zones' layout at 80 columns is checked by default).
@pytest.mark.slow
@pytest.mark.parametrize("width", [120, 179, 180, 200])
async def test_from_120_columns_the_others_expeditions_have_their_own_zone(tmp_path, width):
    match = climbing_match("Ann,bot:random,bot:random", moves=120)
    app = start_with(tmp_path, match)
    async with app.run_test(size=(width, 50)) as pilot:
        await settle(pilot, app)
        table = game_screen(app).table
        opponents = table.query_one("#opponents")
        assert opponents.display and opponents.region.height > 2
        shown = str(opponents.render())
        assert all(seat.name in shown for seat in match.seats[1:])
        # Listed once: the tracks zone leaves them out (an expedition reads "G[3 6 8] 7▲").
        assert "[" not in str(table.query_one("#climbers").render())


@pytest.mark.slow  # the other tables' resize tests run by default
async def test_a_resize_lays_the_zones_out_again_for_the_new_size(tmp_path):
    """The zones draw from what the table gave them: a resize alone switches the goals to a
    line per peak and the others' expeditions to their own zone, and back again."""
    match = climbing_match("Ann,bot:random,bot:random", moves=120)
    async with running(tmp_path, match) as (app, pilot):
        table = game_screen(app).table
        goals, climbers = table.query_one("#goals"), table.query_one("#climbers")
        narrow = (str(goals.render()), str(climbers.render()))
        assert len(narrow[0].splitlines()) == 1 and "[" in narrow[1]
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        assert len(str(goals.render()).splitlines()) == 3  # one line per peak
        assert "[" not in str(climbers.render())  # the others have their own zone
        assert table.query_one("#opponents").display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert (str(goals.render()), str(climbers.render())) == narrow


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_karakorum_table_start(snap_compare, tmp_path, size):
    assert snap_table(snap_compare, tmp_path, karakorum_match(), size)


@pytest.mark.slow
async def test_at_200x50_the_cards_are_large_and_no_zone_keeps_blank_rows(tmp_path):
    match = climbing_match("Ann,bot:random,bot:random,bot:random", moves=300)
    async with running(tmp_path, match, size=(200, 50)) as (app, _pilot):
        zones = table_zones(app)
        assert [zone.id for zone in zones] == [
            "round",
            "goals",
            "expeditions",
            "opponents",
            "climbers",
        ]
        assert all(blank_rows(app, zone) <= 1 for zone in zones), [
            (zone.id, blank_rows(app, zone)) for zone in zones
        ]
        for row in game_screen(app).query(CardRow):
            summits = [c for c in row.cards if c.display and c.face and c.face.large]
            assert summits
            for card in summits:
                assert card.face is not None and str(card.render()) == str(card.face.large)
                assert "axe" in str(card.render())  # the ice axes counted in words


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_karakorum_table_mid_game(snap_compare, tmp_path, size):
    match = climbing_match("Ann,bot:random,bot:random,bot:random", moves=300)
    assert snap_table(snap_compare, tmp_path, match, size)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_karakorum_after_a_removal(snap_compare, tmp_path, size):
    match, _ = after_a_removal()
    assert snap_table(snap_compare, tmp_path, match, size)


@pytest.mark.slow
def test_karakorum_taking_more_with_the_longest_name(snap_compare, tmp_path):
    long = "Annabelle Marie Lovelace"

    def taking_more(match: Match) -> bool:
        return state_of(match, KarakorumState).step is Step.TAKE_MORE and match.to_move == 0

    match, _ = first_position(f"{long},bot:random", taking_more, reveal=True)
    assert snap_table(snap_compare, tmp_path, match)


async def test_the_tracks_zone_takes_the_rows_of_its_lines_as_they_change():
    """Where the zone takes its own height, a view with fewer lines gives rows back."""

    def climbers(seats: str) -> Climbers:
        match = karakorum_match(seats, moves=30)
        obs = match.game.observe(match.state, 0)
        scores = match.game.score_words(obs, match.game.result(match.state).scores)
        return Climbers(obs=obs, before=None, me=0, scores=scores, glyphs=UNICODE)

    class Holder(App[None]):
        CSS = "ClimbersZone { height: auto; }"

        def compose(self):
            yield ClimbersZone()

    app = Holder()
    async with app.run_test(size=(120, 40)) as pilot:
        zone = app.query_one(ClimbersZone)
        for seats in ("Ann,Bob,Cyd,Dee", "Ann,Bob"):
            zone.climbers = climbers(seats)
            await pilot.pause()
            assert zone.size.height == len(str(zone.render()).splitlines())
        zone.with_others = False
        await pilot.pause()
        assert zone.size.height == len(str(zone.render()).splitlines())
