"""Hints at the table, the review of a game, and its replay, played through keys."""

from __future__ import annotations

import random

import pytest
from textual.widgets._toast import Toast

from karavan_core import Match, Seat, get_game, load_match, save_match
from karavan_core.analysis import Verdict, judge
from karavan_core.engine import Observation
from karavan_core.games.jaipur.components import Card
from karavan_core.games.jaipur.state import Sell, TakeGood
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.modals.saves import SavesScreen
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.review import ReviewScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.widgets.chart import MARKERS, GameChart, plot_columns
from karavan_tui.widgets.side import StatusLine
from tests.core.test_analysis import decisive_jaipur
from tests.staging import set_state

from . import helpers
from .helpers import (
    game_screen,
    running,
    seeded_match,
    settle,
    start_with,
    visible_characters,
)
from .test_privacy import screen_characters
from .test_snapshots import SIZES, TABLE_SIZES

JAIPUR = get_game("jaipur")


def decisive_match() -> Match:
    """Ann against Hard in the deciding Jaipur round, where selling her leather wins."""
    return Match(JAIPUR, [Seat("Ann"), Seat("Bob", "bot", "hard")], 7, initial=decisive_jaipur())


def status(app) -> str:
    return str(game_screen(app).query_one(StatusLine).render())


async def wait_for_review(pilot, app) -> ReviewScreen:
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await settle(pilot, app)
    for _ in range(200):
        if screen.review is not None:
            break
        await pilot.pause(0.05)
    assert screen.review is not None
    await pilot.pause()
    return screen


@pytest.mark.slow
async def test_a_hint_marks_the_decision_says_it_and_is_counted_in_the_save(tmp_path):
    match = decisive_match()
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        await pilot.press("h")
        await settle(pilot, app)
        assert status(app).startswith("Hint (100% to win): Ann sells 1 leather")
        assert "to win" in status(app)
        hinted = screen.query(".-hinted")
        assert len(hinted) == 1 and hinted.first().index == Card.LEATHER.index
        assert match.hints == [1, 0]
        await pilot.press("h")  # asked again: shown again, counted once
        await settle(pilot, app)
        assert match.hints == [1, 0]
        # The move list starts on the hinted decision.
        await helpers.press_to(pilot, "a", ChoiceScreen)
        highlighted = app.screen.query_one("#choices").highlighted
        assert app.screen.options[highlighted].endswith("(hint)")
        await pilot.press("enter")  # plays it: Ann sells and wins the match
        await settle(pilot, app)
        assert match.history[-1] == Sell(Card.LEATHER, 1)
        assert isinstance(app.screen, GameOverScreen)
        assert "Hints asked for: Ann 1." in visible_characters(app)
        game_screen(app).driver.flush()
        assert load_match(game_screen(app).driver.save_path).hints == [1, 0]


@pytest.mark.slow
async def test_a_hint_covers_nothing_of_the_table_and_goes_with_the_move(tmp_path):
    match = seeded_match("jaipur", "Ann,bot:random", seed=5, first=0)
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        await pilot.press("h")
        await settle(pilot, app)
        await pilot.pause()
        assert status(app).startswith("Hint (")
        table = screen.table.region
        for toast in app.screen.query(Toast):
            assert not toast.region.overlaps(table), toast.region
        assert screen.query(".-hinted")
        await pilot.press("a")  # the move list opens on the hint: Enter plays it
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.pause()
        assert len(match.history) >= 1
        assert "Hint (" not in visible_characters(app) and not screen.query(".-hinted")


async def test_the_hint_search_gets_the_players_own_observation_never_the_state(
    tmp_path, monkeypatch
):
    seen: list[object] = []
    real = judge.Analyst.hint

    def spy(self, observation, legal):
        seen.append(observation)
        return real(self, observation, legal)

    monkeypatch.setattr(judge.Analyst, "hint", spy)
    match = seeded_match("karakum", "Ann,bot:random", moves=4)
    async with running(tmp_path, match) as (app, pilot):
        await pilot.press("h")
        await settle(pilot, app)
    assert len(seen) == 1
    assert isinstance(seen[0], Observation) and seen[0] == match.game.observe(match.state, 0)


@pytest.mark.slow
async def test_no_hint_behind_the_curtain_or_for_a_bot(tmp_path):
    match = seeded_match("karakum", "Ann,bot:random,Bob", seed=8)
    app = start_with(tmp_path, match)
    app.config.bot_delay = 30.0  # the bot waits long enough to ask for its hint
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, CurtainScreen)
        await pilot.press("h")  # behind the curtain: nothing
        await pilot.pause()
        screen = game_screen(app)
        assert not screen.driver.hinting and match.hints == [0, 0, 0]
        await pilot.press("enter")  # Ann lifts the curtain and plays
        await pilot.pause()
        while match.to_move == 0:
            await pilot.press("a", "enter")
            await pilot.pause()
        assert screen.driver.thinking and match.to_move == 1
        await pilot.press("h")  # the bot's turn
        await pilot.pause()
        assert not screen.driver.hinting and match.hints == [0, 0, 0]
        assert screen.driver.allows("hint") is False  # not in the Footer while bots move
        screen.driver.cancel_bot()


@pytest.mark.slow
async def test_a_blunder_is_found_in_the_review_from_the_game_over_screen_and_replayed(tmp_path):
    """Ann takes a cloth instead of selling the leather that wins: the review calls it a
    blunder, and Enter on it replays that decision as Ann saw it, the better one marked."""
    app = blundered_app(tmp_path)
    match = app.start[0]
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = game_screen(app)
        screen.decide(TakeGood(Card.CLOTH))
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen) and match.is_over()
        await pilot.press("v")
        review = await wait_for_review(pilot, app)
        assert [d.index for d in review.review.decisions] == [0]
        assert review.review.decisions[0].verdict.value == "blunder"
        text = visible_characters(app)
        assert "Ann: accuracy" in text and "1 ??" in text
        assert "Expert: Ann sells 1 leather" in text
        # The chart ends on the loss, 0% drawn as a point; the blunder is marked, and the
        # cursor stands on it as the list of mistakes does.
        chart = review.query_one(GameChart)
        assert chart.spec is not None and chart.spec.lines[0].points[-1] == (1, 0.0)
        assert [(m.decision, m.verdict.value) for m in chart.spec.marks] == [(0, "blunder")]
        assert chart.spec.cursor == 0 and "X blunder" in visible_characters(app)
        drawn = chart.render().plain
        assert "0%┤" in drawn and "100%┤" in drawn and MARKERS[Verdict.BLUNDER] in drawn
        left, _ = plot_columns(drawn) or (0, 0)
        await pilot.click(GameChart, offset=(left + 1, 2))  # a click at decision 1 (the first)
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.screen.driver.position == 0
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is review
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, TableScreen)
        assert replay.driver.position == 0 and replay.driver.viewer == 0
        text = visible_characters(app)
        assert "Decision 1 of 2" in text and "?? Blunder, chance" in text
        hinted = replay.query(".-hinted")  # the Expert's choice: the leather in Ann's hand
        assert len(hinted) == 1 and hinted.first().index == Card.LEATHER.index
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        # Back on the results, the blunder is marked on Ann's line of the score chart.
        results = app.screen.query_one(GameChart)
        assert results.spec is not None
        assert [(m.decision, m.verdict.value) for m in results.spec.marks] == [(1, "blunder")]


@pytest.mark.slow
async def test_replay_steps_through_a_finished_game_and_turns_every_card_face_up(tmp_path):
    match = seeded_match("karakum", "Ann,bot:random", moves=0)
    rng = random.Random(2)
    while not match.is_over():
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
    async with running(tmp_path) as (app, pilot):
        app.show_replay(match)
        await pilot.pause()
        replay = app.screen
        assert (
            isinstance(replay, TableScreen)
            and replay.driver.position == 0
            and replay.driver.viewer == 0
        )
        await pilot.press("right", "right")
        assert replay.driver.position == 2
        await pilot.press("left")
        assert replay.driver.position == 1
        await pilot.press("end")
        assert replay.driver.position == len(match.history)
        await pilot.press("home")
        assert replay.driver.position == 0
        await pilot.press("v")  # the viewers of a finished game: everyone, then each seat
        assert replay.driver.viewer == 1 and not isinstance(app.screen, CurtainScreen)
        await pilot.press("f")
        await pilot.pause()
        text = visible_characters(app)
        assert "every card face up" in text and "Resource deck" in text
        await pilot.press("enter")  # nothing is played in a replay
        assert len(match.history) == len(replay.driver.match.history)


@pytest.mark.slow
async def test_a_replay_of_a_game_in_progress_shows_each_player_only_their_own_cards(tmp_path):
    match = seeded_match("jaipur", "Ann,Bob", moves=9)
    async with running(tmp_path, size=(100, 30)) as (app, pilot):
        app.show_replay(match)
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, TableScreen)
        assert replay.driver.viewer is None and replay.driver.viewers == [None, 0, 1]
        await pilot.press("f")  # not before the end
        assert not replay.driver.face_up
        keys = " ".join(str(key.render()) for key in replay.query("FooterKey"))
        assert "Face up" not in keys and "Next" in keys  # not offered, rather than greyed
        await pilot.press("right", "right", "right")
        await pilot.press("v")  # to Ann's view: behind the curtain first
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen) and replay.driver.viewer is None
        await pilot.press("escape")  # backing out keeps everyone's view, no hand shown
        await pilot.pause()
        assert app.screen is replay and replay.driver.viewer is None
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
        await pilot.press("enter")
        await pilot.pause()
        assert replay.driver.viewer == 0
        # Dealing Bob's cards afresh changes nothing Ann sees.
        before = screen_characters(replay, app)
        index = replay.driver.position
        plies = list(match.plies)
        set_state(
            match,
            index,
            JAIPUR.sample_state(JAIPUR.observe(match.state_at(index), 0), random.Random(5)),
        )
        replay.redraw()
        await pilot.pause()
        assert screen_characters(replay, app) == before
        match.plies[:] = plies


@pytest.mark.slow
async def test_review_and_replay_open_from_the_load_dialog(tmp_path):
    match = seeded_match("karawane", "Ann,bot:random", moves=6)
    folder = tmp_path / "saves"
    folder.mkdir()
    save_match(match, folder / "karawane-1.json")
    async with running(tmp_path) as (app, pilot):
        await pilot.press("l")
        await settle(pilot, app)
        await pilot.pause(0.2)
        await pilot.press("v")
        await pilot.pause()
        review = await wait_for_review(pilot, app)
        assert review.seats == [0]
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.driver.viewer == 0
        await pilot.press("escape", "escape")  # the replay, then the review: back to the saves
        await settle(pilot, app)
        await pilot.pause(0.2)
        assert isinstance(app.screen, SavesScreen)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.screen.driver.position == 0
        await pilot.press("escape")
        await settle(pilot, app)
        await pilot.pause(0.2)
        assert isinstance(app.screen, SavesScreen)
        assert app.screen.query_one("OptionList").highlighted == 0


@pytest.mark.slow
async def test_a_review_of_a_hot_seat_game_in_progress_is_one_player_behind_the_curtain(tmp_path):
    match = seeded_match("karakum", "Ann,Bob", moves=6)
    async with running(tmp_path) as (app, pilot):
        app.show_review(match)
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("down", "enter")  # Bob
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        await pilot.press("enter")
        review = await wait_for_review(pilot, app)
        assert review.seats == [1]
        assert {d.seat for d in review.review.decisions} == {1}


def blundered_app(tmp_path):
    """The deciding Jaipur round, with enough search for the review to see it lost."""
    match = decisive_match()
    app = start_with(tmp_path, match)
    app.config.review_budget = (400, 300)
    return app


async def blunder_then(pilot, *keys: str) -> None:
    """Ann takes a cloth (the blunder), Bob ends the match; then ``keys`` ("WAIT": the review)."""
    await settle(pilot, pilot.app)
    game_screen(pilot.app).decide(TakeGood(Card.CLOTH))
    await settle(pilot, pilot.app)
    for key in keys:
        if key == "WAIT":
            await wait_for_review(pilot, pilot.app)
        else:
            await pilot.press(key)
            await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_hint(snap_compare, tmp_path, size):
    match = decisive_match()

    async def ask(pilot):
        await settle(pilot, pilot.app)
        await pilot.press("h")
        await settle(pilot, pilot.app)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(start_with(tmp_path, match), terminal_size=size, run_before=ask)


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param(("v", "WAIT"), id="review"),
        # By default the Pilot test above opens the replay of the mistake from the review.
        pytest.param(("v", "WAIT", "enter"), id="replay_of_a_mistake", marks=pytest.mark.slow),
        pytest.param(("p", "end", "f"), id="replay_face_up", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("size", TABLE_SIZES)
def test_snapshot_after_a_blunder(snap_compare, tmp_path, size, keys):
    async def run(pilot):
        await blunder_then(pilot, *keys)

    assert snap_compare(blundered_app(tmp_path), terminal_size=size, run_before=run)


@pytest.mark.slow  # Hard thinks over every move: about 20 seconds
async def test_a_game_against_hard_with_two_hints_then_its_review_and_a_replayed_mistake(
    tmp_path,
):
    """As a new user would: two hints, the end, the review from game over, a mistake replayed."""
    match = helpers.near_the_end("jaipur", "Ann,bot:hard", left=6)
    app = start_with(tmp_path, match)
    app.config.review_budget = (300, 200)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for turn in range(200):
            if isinstance(app.screen, GameOverScreen):
                break
            if turn in (0, 1):
                await pilot.press("h")
                await settle(pilot, app)
                assert status(app).startswith("Hint (")
            # Ann plays the move list's last decision: rarely the best.
            await pilot.press("a", "end", "enter")
            await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen) and match.hints == [2, 0]
        assert "Hints asked for: Ann 2." in visible_characters(app)
        await pilot.press("v")
        review = await wait_for_review(pilot, app)
        judged = review.review.decisions
        assert judged and {d.seat for d in judged} == {0}
        mistakes = [d for d in judged if d.verdict.value != "good"]
        assert mistakes, "the last decision listed lost something somewhere"
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, TableScreen)
        assert replay.driver.position == mistakes[0].index and replay.driver.viewer == 0
        assert f"Decision {mistakes[0].index + 1} of {len(match.history)}" in visible_characters(
            app
        )
