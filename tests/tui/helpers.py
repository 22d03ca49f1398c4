"""Building the app for tests and waiting for it to settle."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Footer, Label, Select, TabbedContent
from textual.worker import WorkerCancelled, WorkerFailed

from karavan_core.engine import State
from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_core.saves import new_save_path
from karavan_tui.app import KaravanApp, create_app
from karavan_tui.config import AppConfig
from karavan_tui.modals.curtain import CurtainScreen, TurnOverScreen
from karavan_tui.modals.new_game import NewGameScreen
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.play import LocalPlay
from karavan_tui.screens.table import TableScreen

SEED = 4242


def make_app(tmp_path: Path, start: tuple[Match, Path] | None = None) -> KaravanApp:
    """The app with saves and settings inside ``tmp_path``, bots without delay, a fixed seed."""
    config = AppConfig(
        saves_dir=tmp_path / "saves",
        settings_path=tmp_path / "settings.json",
        bot_delay=0.0,
        seed_factory=lambda: SEED,
        animations=False,
        review_jobs=1,  # reviews in the test process, with small searches: quick and the same
        review_budget=(60, 40),
    )
    return create_app(config, start)


def seeded_match(
    game: str, seats: str, seed: int = SEED, first: int | None = 0, moves: int = 0
) -> Match:
    """A ``game`` match between ``seats`` ("Ann,bot:random") after ``moves`` random decisions."""
    parsed = [Seat.parse(text, i) for i, text in enumerate(seats.split(","))]
    options = {} if first is None else {"first_player": first}
    match = Match(get_game(game), parsed, seed, options)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.is_over():
            break
        match.play(rng.choice(match.legal_actions()))
    return match


def near_the_end(game: str, seats: str, seed: int = SEED, left: int = 12) -> Match:
    """A ``game`` match at seat 0's turn, ``left`` of its decisions before the end.

    The end is found by playing the same deal to its end at random first (the
    game may of course end a little sooner or later once the table plays on).
    """
    full = seeded_match(game, seats, seed)
    rng = random.Random(seed)
    while not full.is_over():
        full.play(rng.choice(full.legal_actions()))
    mine = [i for i in range(len(full.history)) if full.actor(i) == 0]
    cut = mine[max(0, len(mine) - left)]
    match = seeded_match(game, seats, seed)
    for action in full.history[:cut]:
        match.play(action)
    return match


def karakum_match(
    seats: str = "Ann,bot:random", seed: int = SEED, first: int | None = 0, moves: int = 0
) -> Match:
    """A Karakum match with ``moves`` decisions already played by a seeded random policy."""
    return seeded_match("karakum", seats, seed, first, moves)


def play_to_end(match: Match, seed: int = 1) -> Match:
    """Finish ``match`` with a policy that buys when it can (so the game ends soon)."""
    rng = random.Random(seed)
    while not match.is_over():
        legal = match.legal_actions()
        buys = [a for a in legal if type(a).__name__ in ("Buy", "Pay")]
        match.play(rng.choice(buys) if buys else rng.choice(legal))
    return match


def start_with(tmp_path: Path, match: Match) -> KaravanApp:
    """The app opening ``match`` straight away."""
    folder = tmp_path / "saves"
    return make_app(tmp_path, (match, new_save_path(folder, match.game.name)))


@contextlib.asynccontextmanager
async def running(
    tmp_path: Path,
    match: Match | None = None,
    size: tuple[int, int] = (80, 24),
    notifications: bool = False,
) -> AsyncIterator[tuple[KaravanApp, Pilot[Any]]]:
    """Run the app (opening ``match``, if given) at ``size``; yield it and its pilot, settled."""
    app = make_app(tmp_path) if match is None else start_with(tmp_path, match)
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await settle(pilot, app)
        yield app, pilot


async def play_until_game_over(
    pilot: Pilot[Any], app: KaravanApp, turn: Callable[[], Awaitable[object]], most: int
) -> None:
    """Settle, then ``await turn()``, again and again until the game-over screen shows.

    ``most`` turns at the most: a game that does not end by then fails the test.
    """
    for _ in range(most):
        await settle(pilot, app)
        if isinstance(app.screen, GameOverScreen):
            break
        await turn()
    assert isinstance(app.screen, GameOverScreen) and local_match(app).is_over()


async def play_out_by_keys(
    pilot: Pilot[object], app: KaravanApp, turn: Callable[[], Awaitable[object]], most: int
) -> Match:
    """Play the game to its end, the player's turns by ``turn`` (at most ``most``), and check
    that the game-over screen names the winners the rules give; return the finished match."""
    await play_until_game_over(pilot, app, turn, most)
    match = local_match(app)
    result = match.game.result(match.state)
    winners = " and ".join(match.seats[s].name for s in result.winners)
    assert str(app.screen.query_one("#winners").render()).startswith(f"★ {winners}")
    return match


async def waiting(
    pilot: Pilot[Any], condition: Callable[[], object], seconds: float = 20.0
) -> None:
    """Let the app run until ``condition()`` holds, for at most ``seconds``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        assert loop.time() < end, "timed out waiting"
        await pilot.pause(0.02)


async def press_to(pilot: Pilot[Any], key: str, screen: type[Screen[Any]]) -> None:
    """Press ``key`` and check that the app then shows a ``screen``."""
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, screen), pilot.app.screen


def local_tables(app: KaravanApp) -> list[TableScreen]:
    """The table screens of games played here (not replays, not hosted tables)."""
    return [s for s in app.screen_stack if isinstance(s, TableScreen) and s.driver.KIND == "play"]


S = TypeVar("S", bound=State)


def state_of(match: Match, kind: type[S]) -> S:
    """``match``'s state, checked to be a ``kind`` (the game a test plays)."""
    state = match.state
    assert isinstance(state, kind), state
    return state


def local_play(app: KaravanApp) -> LocalPlay:
    """The driver of the open game screen (a game played here)."""
    driver = game_screen(app).driver
    assert isinstance(driver, LocalPlay), driver
    return driver


def local_match(app: KaravanApp) -> Match:
    """The match of the game played here in the open game screen."""
    return local_play(app).link.match


def game_screen(app: KaravanApp) -> TableScreen:
    """The open game screen."""
    screens = local_tables(app)
    assert screens, f"no game screen in {app.screen_stack}"
    return screens[-1]


async def settle(pilot, app: KaravanApp, rounds: int = 2000) -> None:
    """Wait until no bot is thinking and the app has processed its messages.

    Waits on the workers themselves (a bot's answer reaches the app before its
    worker completes) rather than polling the clock.
    """
    for _ in range(rounds):
        for worker in list(app.workers):
            if not worker.is_finished:
                # Undo or leaving the table cancels a thinking bot.
                with contextlib.suppress(WorkerCancelled, WorkerFailed):
                    await worker.wait()
        await pilot.pause()
        games = local_tables(app)
        if not games or not getattr(games[-1].driver, "thinking", False):
            return
    raise AssertionError("the bot never finished thinking")


async def read_turn_over(pilot, app: KaravanApp) -> bool:
    """Hot-seat: the player whose turn just ended reads, with Enter, what only they saw
    happen in it (a card drawn blind), if they are told anything; say whether they were."""
    if not isinstance(app.screen, TurnOverScreen):
        return False
    await pilot.press("enter")
    await settle(pilot, app)
    return True


async def rules_shown(pilot, game_name: str) -> str:
    """The rules screen's text of ``game_name`` (its tab shown), once it is all laid out."""
    screen = pilot.app.screen
    screen.query_one(TabbedContent).active = game_name
    await pilot.pause()
    while screen.pending:  # a section at a time
        await pilot.pause()
    return screen.text_of(game_name)


def visible_characters(app) -> str:
    """Every character the screen shows now, line by line, without styles."""
    lines = app.screen._compositor.render_update(full=True).render_segments(app.console)
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", lines)


def curtain_text(app: KaravanApp) -> str:
    """What the curtain on top says besides its news, which must be the public log's lines
    since the next player's last decision (checked here)."""
    curtain = app.screen
    assert isinstance(curtain, CurtainScreen)
    match = local_match(app)
    seat = next(i for i, seat in enumerate(match.seats) if seat.name == curtain.player_name)
    assert curtain.news == tuple(match.log()[match.last_move_of(seat) + 1 :])
    shown = [str(label.render()) for label in curtain.query(Label)]
    return "\n".join([*shown, str(curtain.query_one(Footer).render())])


async def open_new_game_dialog(pilot, app: KaravanApp) -> NewGameScreen:
    """From the title: press n and return the new game dialog."""
    await pilot.press("n")
    await pilot.pause()
    assert isinstance(app.screen, NewGameScreen)
    return app.screen


@contextlib.asynccontextmanager
async def against_random_bot(
    tmp_path: Path, game: str | None = None
) -> AsyncIterator[tuple[KaravanApp, Pilot[Any]]]:
    """Run the app, start ``game`` against a random bot from its title; yield app and pilot."""
    async with running(tmp_path) as (app, pilot):
        await start_against_random_bot(pilot, app, game)
        yield app, pilot


async def start_against_random_bot(pilot, app: KaravanApp, game: str | None = None) -> None:
    """From the title: open the dialog, pick ``game`` (default: the first), make seat 2 a
    random bot, start, and wait for the table."""
    dialog = await open_new_game_dialog(pilot, app)
    if game is not None:
        dialog.query_one("#game", Select).value = game
        await pilot.pause()
    dialog.query_one("#kind-1", Select).value = "bot:random"
    await pilot.pause()
    await pilot.press("ctrl+s")
    await settle(pilot, app)


def noted(app: KaravanApp) -> list[tuple[str, str]]:
    """Every notification ``app`` gives from now on, as (title, message).

    Kept whether or not the note has gone from the screen by the time a test looks: on a
    busy machine a note may have outlived its few seconds before the test reads it.
    """
    told: list[tuple[str, str]] = []
    notify = app.notify

    def recording(message: str, *args: Any, title: str = "", **options: Any) -> None:
        told.append((title, str(message)))
        notify(message, *args, title=title, **options)

    app.notify = recording  # type: ignore[method-assign]
    return told
