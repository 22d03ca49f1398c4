"""Hints you can play: a hint is marked on the table as it is played, Enter plays it, a
picker opened while it is worked out flags it when it comes, and the review never faults
a decision the hint chose."""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from karavan_core.analysis import Verdict, judge, review_match
from karavan_core.analysis.judge import Hint
from karavan_core.engine import Action
from karavan_core.games.jaipur.components import GOODS
from karavan_core.games.jaipur.state import Exchange
from karavan_core.games.karakorum.state import KarakorumState, Place, Step
from karavan_core.games.karakum.state import Buy, KarakumState, Pay
from karavan_core.games.karakum.state import Step as KarakumStep
from karavan_core.match import Match
from karavan_tui.app import KaravanApp
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.play import LocalPlay
from karavan_tui.widgets.cards import CardRow

from .helpers import (
    game_screen,
    running,
    seeded_match,
    settle,
    start_with,
    state_of,
    visible_characters,
    waiting,
)

GAMES = ("karakum", "karawane", "karakorum", "jaipur")


def driver(app) -> LocalPlay:
    """The open game's driver."""
    play = game_screen(app).driver
    assert isinstance(play, LocalPlay)
    return play


def status_text(app) -> str:
    """The status line's words."""
    return str(game_screen(app).query_one("#status").render())


def hinted_cards(app) -> dict[str, list[int]]:
    """The cards marked as the hint's, by row."""
    marked = {}
    for row in game_screen(app).table.query(CardRow):
        cards = [i for i, card in enumerate(row.cards) if card.has_class("-hinted")]
        if cards:
            marked[row.id or ""] = cards
    return marked


def hint_with(monkeypatch, choose) -> None:
    """The Expert's hint is ``choose(observation, legal)`` (the search is tested elsewhere)."""

    def hint(self, observation, legal):
        action = choose(observation, legal)
        assert action in legal
        return Hint(action, self.game.preview(observation, action), 0.5)

    monkeypatch.setattr(judge.Analyst, "hint", hint)


@contextlib.asynccontextmanager
async def hint_asked(
    tmp_path, monkeypatch, match: Match, choose
) -> AsyncIterator[tuple[KaravanApp, Pilot[Any]]]:
    """``match`` open at 80x24, the hint (``choose``, see :func:`hint_with`) asked and shown."""
    hint_with(monkeypatch, choose)
    async with running(tmp_path, match) as (app, pilot):
        await pilot.press("h")
        await settle(pilot, app)
        yield app, pilot


def ann_to_move(game: str, seed: int, wanted) -> tuple[Match, object]:
    """The first position of seeded random games against a bot where Ann is to move and
    ``wanted(match)`` finds something (returned with the match)."""
    for attempt in range(seed, seed + 60):
        match = seeded_match(game, "Ann,bot:random", seed=attempt)
        rng = random.Random(attempt)
        for _ in range(400):
            if match.is_over():
                break
            found = wanted(match) if match.to_move == 0 else None
            if found:
                return match, found
            match.play(rng.choice(match.legal_actions()))
    raise AssertionError("no such position")


# -- a hint of several cards is laid on the table: Enter plays it ------------------------------
def exchange_giving_both(match: Match) -> Exchange | None:
    """An exchange taking two goods for a good of the hand and a camel of the herd."""
    exchanges = [a for a in match.legal_actions() if isinstance(a, Exchange)]
    return next((a for a in exchanges if sum(a.take) == 2 and sum(a.give) == 1 == a.camels), None)


async def test_a_jaipur_exchange_hint_marks_every_card_and_enter_exchanges(tmp_path, monkeypatch):
    match, exchange = ann_to_move("jaipur", 1, exchange_giving_both)
    before = len(match.history)
    async with hint_asked(tmp_path, monkeypatch, match, lambda *_: exchange) as (app, pilot):
        table = game_screen(app).table
        marked = hinted_cards(app)
        # The two goods taken in the market, the good and the herd given from the hand.
        assert len(marked["market"]) == 2
        given = [good.index for good in GOODS if exchange.give[good.index]]
        assert marked["hand-row"] == [*given, len(GOODS)]
        # Marked as the player would mark them: the status line says so, with its keys.
        assert table.marks.exchange(table.places) == exchange
        assert "Enter exchanges" in status_text(app) and "Hint (50% to win)" in status_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before] == exchange


def purchase_with_choice(match: Match) -> tuple[Buy, list[Pay]] | None:
    """A camel Ann may buy in more than one way, and the ways (from her view after buying)."""
    for action in match.legal_actions():
        if isinstance(action, Buy):
            after = match.game.apply(match.state, action)
            ways = match.game.legal_actions(after)
            if len(ways) >= 2:
                return action, ways
    return None


async def test_a_karakum_purchase_hint_marks_its_payment_and_enter_buys(tmp_path, monkeypatch):
    match, (buy, ways) = ann_to_move("karakum", 1, purchase_with_choice)
    paid = ways[-1]  # not the cheapest way, which the table would mark by itself

    def choose(observation, legal):
        return paid if observation.step is KarakumStep.PAY else buy

    before = len(match.history)
    async with hint_asked(tmp_path, monkeypatch, match, choose) as (app, pilot):
        marked = hinted_cards(app)
        assert marked["market-row"] == [buy.slot]
        assert marked["hand-row"] == [i for i, n in enumerate(paid.cards) if n]
        table = game_screen(app).table
        assert table.paying is not None and table.paying.counts == paid.cards
        words = status_text(app)
        assert words.startswith("Hint (50% to win): Buy the") and "Enter buys" in words
        await pilot.press("enter")
        await settle(pilot, app)
        assert tuple(match.history[before : before + 2]) == (buy, paid)


def card_with_places(match: Match) -> list[Place] | None:
    """While Ann places: the places of a taken card that may go more than one way."""
    if state_of(match, KarakorumState).step is not Step.PLACE:
        return None
    by_card: dict[object, list[Place]] = {}
    for action in match.legal_actions():
        if isinstance(action, Place):
            by_card.setdefault(action.card, []).append(action)
    return next((places for places in by_card.values() if len(places) >= 2), None)


@pytest.mark.slow
async def test_a_karakorum_place_hint_marks_the_card_and_enter_places_it(tmp_path, monkeypatch):
    match, places = ann_to_move("karakorum", 1, card_with_places)
    placed = places[-1]
    before = len(match.history)
    async with hint_asked(tmp_path, monkeypatch, match, lambda *_: placed) as (app, pilot):
        table = game_screen(app).table
        assert list(table.marked) == [placed.card]  # marked to place, as Space would
        assert "Enter places it" in status_text(app)
        await pilot.press("enter")  # the cursor is on its expedition
        await settle(pilot, app)
        assert match.history[before] == placed


# -- a picker opened while the hint is worked out flags it when it comes -----------------------
def expedition_with_choices(match: Match) -> tuple[int, list[Action]] | None:
    """An expedition of Ann's with two decisions or more on it (its picker lists them)."""
    if (state := state_of(match, KarakorumState)).step is not Step.PLACE or state.held[0]:
        return None
    on: dict[int, list[Action]] = {}
    for action in match.legal_actions():
        index = getattr(action, "expedition", None)
        if index is not None:
            on.setdefault(index, []).append(action)
    return next(((i, acts) for i, acts in on.items() if len(acts) >= 2), None)


@pytest.mark.slow
async def test_a_picker_opened_while_the_hint_is_worked_out_flags_it_when_it_comes(
    tmp_path, monkeypatch
):
    match, (index, options) = ann_to_move("karakorum", 1, expedition_with_choices)
    hinted = options[-1]
    go_on = threading.Event()

    def slow(observation, legal):
        assert go_on.wait(60)
        return hinted

    hint_with(monkeypatch, slow)
    before = len(match.history)
    async with running(tmp_path, match) as (app, pilot):
        await pilot.press("h")
        await pilot.pause()
        assert driver(app).hinting
        row = game_screen(app).table.query_one("#exp-row", CardRow)
        row.focus()
        row.point_at(index)
        await pilot.press("enter")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ChoiceScreen)
        assert not any(words.endswith("(hint)") for words in picker.options)
        go_on.set()
        await settle(pilot, app)
        assert app.screen is picker and not driver(app).hinting
        flagged = [i for i, words in enumerate(picker.options) if words.endswith("(hint)")]
        assert flagged == [len(options) - 1]
        assert picker.query_one("#choices").highlighted == flagged[0]
        assert "(hint)" in visible_characters(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before] == hinted


@pytest.mark.slow
async def test_a_hint_that_cannot_be_worked_out_says_so_and_stops_thinking(tmp_path, monkeypatch):
    def broken(observation, legal):
        raise RuntimeError("the search broke")

    hint_with(monkeypatch, broken)
    match = seeded_match("karakorum", "Ann,bot:random")
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        await pilot.press("h")
        await settle(pilot, app)
        await pilot.pause()
        assert not driver(app).hinting
        assert "Looking for a hint" not in status_text(app)
        assert "thinking" not in status_text(app)
        notes = [str(note.message) for note in app._notifications]
        assert any("No hint this time" in note and "the search broke" in note for note in notes)


# -- every game: the hint as shown plays it, and the review agrees with it --------------------
def with_a_choice(match: Match) -> bool:
    """Ann has a real choice here, a few decisions into the game."""
    return len(match.history) >= 6 and len(match.legal_actions()) >= 2


async def play_the_hint(pilot, app) -> tuple[int, tuple[Action, ...]]:
    """Ask for a hint and play it as the table shows it: Enter on the card the cursor was put
    on, and Enter again where that opens a picker (on the hinted entry).

    Returns where in the history the hinted decisions went, and the decisions.
    """
    play = driver(app)
    at = len(play.link.match.history)
    await pilot.press("h")
    await settle(pilot, app)
    hint = play.current_hint()
    assert hint is not None
    gesture = tuple(h.action for h in hint)
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(app.screen, ChoiceScreen):
        picker = app.screen
        highlighted = picker.query_one("#choices", OptionList).highlighted
        assert highlighted is not None and picker.options[highlighted].endswith("(hint)")
        await pilot.press("enter")
    await settle(pilot, app)
    assert tuple(play.link.match.history[at : at + len(gesture)]) == gesture
    return at, gesture


@pytest.mark.parametrize(  # one game by default, every game with the slow checks
    "game", [pytest.param(g, marks=() if g == "karakum" else pytest.mark.slow) for g in GAMES]
)
async def test_hints_play_as_shown_and_the_review_agrees_with_them(tmp_path, game):
    match, _ = ann_to_move(game, 3, with_a_choice)
    app = start_with(tmp_path, match)
    hinted: dict[int, Action] = {}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for _ in range(4):  # four of Ann's turns, the bot moving in between
            if match.is_over() or match.to_move != 0:
                break
            at, gesture = await play_the_hint(pilot, app)
            hinted.update((at + i, action) for i, action in enumerate(gesture))
        budget = app.config.review_budget
    review = review_match(match, seats=[0], budget=budget)
    assert review is not None
    rated = [d for d in review.decisions if d.index in hinted]
    assert len(rated) >= 2  # hinted decisions that had a choice
    for decision in rated:
        assert decision.judgement.played == hinted[decision.index]
        assert decision.judgement.best == decision.judgement.played
        assert decision.verdict is Verdict.GOOD and decision.judgement.lost == 0


def joining(match: Match) -> bool:
    """Ann chooses which of her left-side camels joins her caravan first."""
    return state_of(match, KarakumState).step is KarakumStep.JOIN


@pytest.mark.slow
async def test_a_hint_chosen_in_a_steps_own_picker_opens_that_picker_on_it(tmp_path, monkeypatch):
    match, _ = ann_to_move("karakum", 1, joining)
    joins = match.legal_actions()
    hinted = joins[-1]
    before = len(match.history)
    hint_with(monkeypatch, lambda *_: hinted)
    async with running(tmp_path, match) as (app, pilot):
        assert isinstance(app.screen, ChoiceScreen)  # the step opens its picker at once
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("h")
        await settle(pilot, app)
        picker = app.screen
        assert isinstance(picker, ChoiceScreen)
        flagged = [i for i, words in enumerate(picker.options) if words.endswith("(hint)")]
        assert flagged == [len(joins) - 1] == [picker.query_one("#choices").highlighted]
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before] == hinted


@pytest.mark.parametrize("game", ["karawane", "jaipur"])
async def test_a_hint_asked_as_the_bot_ends_its_turn_comes_once_the_turn_is_back(
    tmp_path, monkeypatch, game
):
    """h pressed a moment before the turn comes back (the bot still moving) used to be
    dropped: no hint ever came. It is looked for as soon as the turn is back."""
    hint_with(monkeypatch, lambda observation, legal: legal[0])
    app = start_with(tmp_path, seeded_match(game, "Ann,bot:random"))
    app.config.bot_delay = 30.0  # the bot's pause holds until Skip: h lands inside it
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        play = driver(app)
        await pilot.press("a", "enter")  # Ann's first listed decision
        await pilot.pause()
        assert play.thinking and play.link.match.to_move == 1
        await pilot.press("h")
        await pilot.pause()
        assert play.current_hint() is None and "your hint" in status_text(app)
        await pilot.press("n")  # Skip: the bot moves at once and the turn comes back
        await waiting(pilot, lambda: play.current_hint() is not None, seconds=30)
        assert play.link.match.to_move == 0 and not play.thinking
        assert hinted_cards(app) or play.table.hinted
