"""Nothing a player may not know reaches the screen.

Each check is differential: the screen is read, then the hidden parts of the
true state are dealt afresh (consistently with what the viewer sees) and the
screen read again.  Had any hidden card reached the screen — through the table,
the log, the status line, the move list or a picker — the two would differ.
"""

from __future__ import annotations

import random

import pytest

from karavan_core.games.jaipur.state import Exchange, Sell
from karavan_core.games.karakorum.state import Reveal
from karavan_core.games.karakum.state import Buy
from karavan_core.match import Match
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.tables.jaipur.table import JaipurTable
from karavan_tui.tables.karakum.table import KarakumTable
from tests.staging import set_state

from .helpers import (
    game_screen,
    press_to,
    read_turn_over,
    running,
    seeded_match,
    settle,
    start_with,
)

# Per game: decisions played before the check, chosen so that pickers have something to offer.
POSITIONS = {"karakum": 24, "karawane": 9, "karakorum": 14, "jaipur": 12}


def screen_characters(screen, app) -> str:
    """Every character ``screen`` shows (even under a modal), without styles."""
    return screen._compositor.render_update(full=True).render_segments(app.console)


def hot_seat(game: str, moves: int, seed: int = 5) -> Match:
    """A two-human match after ``moves`` seeded random decisions."""
    return seeded_match(game, "Ann,Bob", seed=seed, first=0, moves=moves)


def redeal(match: Match, seen_by: int | None, seed: int) -> None:
    """Replace the current state by one dealt afresh from what ``seen_by`` sees.

    With ``seen_by=None`` every player's hidden cards are dealt afresh in turn,
    so only the public view is kept.
    """
    game = match.game
    state = match.state
    seats = range(len(state.players)) if seen_by is None else [seen_by]
    for offset, seat in enumerate(seats):
        state = game.sample_state(game.observe(state, seat), random.Random(seed + offset))
    set_state(match, -1, state)


async def read_pickers(pilot, app, match: Match) -> list[str]:
    """The screen, then the move list and each of the game's pickers as the viewer sees them."""
    screen = game_screen(app)
    if screen.table.FIRST_FOCUS:  # the same focus for every reading
        screen.query_one(screen.table.FIRST_FOCUS).focus()
        await pilot.pause()
    pages = [screen_characters(screen, app)]

    async def picker(*keys: str, opener=None) -> None:
        if opener is not None:
            opener()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        if isinstance(app.screen, ChoiceScreen):
            pages.append("\n".join([app.screen.choice_title, *app.screen.options]))
            pages.append(screen_characters(app.screen, app))
            await pilot.press("escape")
            await pilot.pause()

    await picker("a")
    legal = match.legal_actions()
    table = screen.table
    name = match.game.name
    if name == "jaipur":
        await picker("x")
        sales = [a for a in legal if isinstance(a, Sell)]
        if sales:
            assert isinstance(table, JaipurTable)
            await picker(opener=lambda: table.sell(sales[0].good))
        assert any(isinstance(a, Exchange) for a in legal)
    elif name == "karakum":
        buys = [a for a in legal if isinstance(a, Buy)]
        if buys:  # paying by marking the hand, then the list of every way to pay
            assert isinstance(table, KarakumTable)
            table.buy(buys[0].slot)
            await pilot.pause()
            pages.append(screen_characters(screen, app))
            await picker("p")
    return pages


async def same_after_redeals(pilot, app, match: Match, seen_by: int | None, read) -> None:
    """``read()`` gives the same pages after the cards ``seen_by`` cannot see are dealt afresh."""
    screen = game_screen(app)

    async def steady() -> list[str]:
        # On a busy machine the screen may still be settling (a toast, the saved mark):
        # what counts is what it shows once it stands still.
        pages = await read()
        for _ in range(40):
            await pilot.pause(0.05)
            again = await read()
            if again == pages:
                return pages
            pages = again
        return pages

    before = await steady()
    redeal(match, seen_by, len(match.history))
    screen.redraw()
    await pilot.pause()
    assert await steady() == before


@pytest.mark.parametrize("turns", [1, pytest.param(4, marks=pytest.mark.slow)])
@pytest.mark.parametrize(  # one game in the default run, every game with the slow checks
    "game", [pytest.param(g, marks=() if g == "karakum" else pytest.mark.slow) for g in POSITIONS]
)
async def test_a_hot_seat_game_through_the_curtain_shows_nobody_a_hidden_card(
    tmp_path, game, turns
):
    """Turn after turn: behind the curtain only the public table, then only the viewer's own.

    A game where nobody sees more than the public table (Karakorum) draws no curtain.
    """
    match = hot_seat(game, POSITIONS[game])
    async with running(tmp_path, match, (100, 30)) as (app, pilot):
        screen = game_screen(app)
        for _ in range(turns):
            if match.game.private_views:
                assert isinstance(app.screen, CurtainScreen)
                assert screen.table.view.observation.player is None

                async def table_only() -> list[str]:
                    return [screen_characters(screen, app)]

                await same_after_redeals(pilot, app, match, None, table_only)
                await pilot.press("enter")
                await pilot.pause()
            assert not isinstance(app.screen, CurtainScreen)
            viewer = match.to_move
            assert screen.table.view.observation.player == viewer
            await same_after_redeals(
                pilot, app, match, viewer, lambda: read_pickers(pilot, app, match)
            )
            for _ in range(6):  # play from the move list (a turn may take two)
                if match.to_move != viewer:
                    break
                await pilot.press("a", "enter")
                await settle(pilot, app)
                if isinstance(app.screen, ChoiceScreen):  # a picker the decision needs
                    await pilot.press("enter")
                    await settle(pilot, app)
            else:
                raise AssertionError(f"the turn did not pass: {screen_characters(app.screen, app)}")
            await read_turn_over(pilot, app)  # a card drawn blind: named to its drawer alone


async def test_karakorum_move_list_never_names_the_face_down_card(tmp_path):
    match = seeded_match("karakorum", "Ann,bot:hard", seed=1, first=0)
    assert Reveal() in match.legal_actions()
    hidden = str(match.state.deck[0])
    async with running(tmp_path, match) as (app, pilot):
        await press_to(pilot, "a", ChoiceScreen)
        assert app.screen.options[0] == "Ann reveals the next card of the deck."
        assert not any(hidden in option for option in app.screen.options)


@pytest.mark.slow
async def test_while_a_bot_moves_at_a_hot_seat_table_only_the_public_table_shows(tmp_path):
    match = seeded_match("karakum", "Ann,bot:random,Bob", seed=8, first=0)
    app = start_with(tmp_path, match)
    app.config.bot_delay = 30.0  # the bot waits long enough to look at the table
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # Ann lifts the curtain and sees her hand
        await pilot.pause()
        screen = game_screen(app)
        assert screen.query_one("#hand-row").display
        while match.to_move == 0:  # Ann plays from the move list (one or two decisions)
            await pilot.press("a", "enter")
            await pilot.pause()
        assert screen.driver.thinking and match.to_move == 1
        assert screen.table.view.observation.player is None
        assert not screen.query_one("#hand-row").display
        screen.driver.cancel_bot()
