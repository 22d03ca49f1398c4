"""Pilot tests: real games played through the keys."""

from __future__ import annotations

import pytest

from karavan_core.games.karakum.state import Buy, DrawCard, Step, TakeCard
from karavan_core.match import Match
from karavan_core.saves import load_match
from karavan_core.storage import SaveFile
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.modals.curtain import CurtainScreen, TurnOverScreen
from karavan_tui.modals.save_as import SaveAsScreen
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.play import LocalPlay
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen
from karavan_tui.tables.outcome import Refuse
from karavan_tui.widgets.cards import CardRow

from . import helpers
from .helpers import (
    against_random_bot,
    game_screen,
    karakum_match,
    local_match,
    local_play,
    make_app,
    noted,
    play_out_by_keys,
    play_to_end,
    press_to,
    running,
    settle,
    start_with,
    visible_characters,
    waiting,
)


async def play_out_from_the_list(pilot, app) -> None:
    """Play the human's decisions from the move list (buys come last) until the game is over."""
    screen = game_screen(app)

    async def turn() -> None:
        if not isinstance(app.screen, ChoiceScreen):
            await pilot.press("a")  # every legal move; buys are listed last
            await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("end", "enter")
        await pilot.pause()
        if screen.table.marking_status():  # a camel chosen: its payment is marked, Enter buys
            await pilot.press("enter")

    await play_out_by_keys(pilot, app, turn, 3000)
    # The autosave holds the finished game.
    driver = local_play(app)
    driver.flush()
    assert load_match(driver.save_path).is_over()
    await press_to(pilot, "t", TitleScreen)


@pytest.mark.slow
async def test_whole_game_human_against_random_bot_through_keys(tmp_path):
    """Title → new game dialog → a whole seeded game, human moves by keys → game over."""
    async with against_random_bot(tmp_path) as (app, pilot):  # Karakum, Player 1 against a bot
        screen = game_screen(app)
        assert [seat.name for seat in screen.driver.link.match.seats] == ["Player 1", "Random bot"]
        assert screen.driver.link.match.seed == 4242
        await play_out_from_the_list(pilot, app)


@pytest.mark.slow  # the end of a game by keys
async def test_the_last_stretch_of_a_game_by_keys_ends_at_the_game_over_screen(tmp_path):
    """From a seeded position near the end, the human plays by keys to the game-over screen."""
    app = start_with(tmp_path, helpers.near_the_end("karakum", "Ann,bot:random"))
    async with app.run_test(size=(80, 24)) as pilot:
        await play_out_from_the_list(pilot, app)


@pytest.mark.slow
async def test_table_keys_take_cards_and_buy_with_the_payment_picker(tmp_path):
    match = karakum_match(seed=11, moves=0)
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        assert app.screen.focused.id == "resources"
        await pilot.press("right", "enter")  # first face-up card
        await settle(pilot, app)
        assert screen.driver.link.match.history[0] == TakeCard(0)
        await pilot.press("enter")  # the second card: the new card in the same place
        await settle(pilot, app)
        assert screen.driver.link.match.history[1] == TakeCard(0)
        # Gather until a camel can be bought, then buy through the market and the picker.
        for _ in range(40):
            state = match.state
            slots = [a.slot for a in match.legal_actions() if isinstance(a, Buy)]
            if slots:
                break
            await pilot.press("left", "enter")  # draw from the deck twice
            await settle(pilot, app)
            await pilot.press("enter")
            await settle(pilot, app)
        slot = slots[0]
        before = len(match.history)
        await pilot.press("up", "home")  # to the market's first camel
        assert app.screen.focused.id == "market-row"
        for _ in range(slot):
            await pilot.press("right")
        await pilot.press("enter")  # the camel: the cheapest payment is marked in the hand
        await pilot.pause()
        assert screen.table.paying is not None and screen.table.paying.slot == slot
        await pilot.press("p")  # every way to pay, as a list
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        payments = match.game.legal_actions(match.game.apply(state, Buy(slot)))
        assert len(app.screen.options) == len(payments)
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before : before + 2] == [Buy(slot), payments[0]]
        # Buying took one gesture, so one undo takes back both decisions, and one redo replays them.
        bought = match.state_at(before + 2)
        await pilot.press("u")
        await settle(pilot, app)
        assert len(match.history) == before and match.state == state
        assert not isinstance(app.screen, ChoiceScreen)
        await pilot.press("r")
        await settle(pilot, app)
        assert match.history[before : before + 2] == [Buy(slot), payments[0]]
        assert match.state_at(before + 2) == bought


async def test_undo_and_redo_by_key(tmp_path):
    async with running(tmp_path, karakum_match()) as (app, pilot):
        screen = game_screen(app)
        match = screen.driver.link.match
        assert screen.driver.allows("undo") is None
        assert screen.driver.allows("redo") is None
        await pilot.press("enter", "enter")  # Ann draws twice; the bot answers
        await settle(pilot, app)
        assert match.to_move == 0 and len(match.history) >= 3
        played = list(match.history)
        assert screen.driver.allows("undo") is True
        await pilot.press("u")  # back to before Ann's second card (bot moves go too)
        await settle(pilot, app)
        assert match.history == played[:1]
        bots = len(played) - 2  # her second card is her last decision; the bot's followed it
        later = "decision" if bots == 1 else f"{bots} decisions"
        taken = f"You took back your last decision and the {later} after it."
        assert str(screen.query_one("#banner").render()) == taken
        await pilot.press("u")
        await settle(pilot, app)
        assert match.history == []
        assert screen.driver.allows("undo") is None
        assert screen.driver.allows("redo") is True
        await pilot.press("r", "r")
        await settle(pilot, app)
        assert match.history == played
        screen.driver.flush()
        assert load_match(game_screen(app).driver.save_path).history == played


@pytest.mark.slow  # by default the installed karavan does it in a terminal (tests/e2e)
async def test_save_quit_resume_from_title_and_continue(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_match(karakum_match())
        await settle(pilot, app)
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        played = list(local_match(app).history)
        await press_to(pilot, "s", SaveAsScreen)
        field = app.screen.query_one("#save-name")
        field.value = "my game"
        await pilot.press("enter")
        await pilot.pause()
        saved = tmp_path / "saves" / "my game.json"
        assert load_match(saved).history == played
        await press_to(pilot, "q", TitleScreen)
        assert app.screen.latest is not None and app.screen.latest.path == saved
        await pilot.press("c")  # resume
        await settle(pilot, app)
        screen = game_screen(app)
        assert screen.driver.link.match.history == played
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        assert len(screen.driver.link.match.history) > len(played)
        screen.driver.flush()
        assert load_match(saved).history == screen.driver.link.match.history


@pytest.mark.slow
async def test_a_game_left_before_any_decision_leaves_no_save_to_resume(tmp_path):
    """Opened and left at once, a game is no game to resume; one decision, and it is."""
    saves = tmp_path / "saves"
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for decisions in (0, 1):
            app.open_match(karakum_match(first=0))  # Ann decides first
            await settle(pilot, app)
            if decisions:
                await pilot.press("enter", "enter")  # draws two cards: one decision each
                await settle(pilot, app)
            await press_to(pilot, "q", TitleScreen)
            await settle(pilot, app)
            for _ in range(50):  # the title reads the saves in a worker
                if not app.screen.looking:
                    break
                await pilot.pause(0.02)
            resume = str(app.screen.query_one("#menu").get_option("resume").prompt)
            if decisions:
                assert resume.startswith("Resume Karakum") and len(list(saves.iterdir())) == 1
            else:
                assert resume == "Resume (no game in progress)" and not list(saves.iterdir())


def hand_shown(screen: TableScreen) -> bool:
    return bool(screen.query_one("#hand-row").display)


@pytest.mark.slow
async def test_curtain_between_two_humans_hides_every_private_card(tmp_path):
    async with running(tmp_path, karakum_match("Ann,Bob", first=0)) as (app, pilot):
        screen = game_screen(app)
        assert isinstance(app.screen, CurtainScreen)
        assert app.screen.player_name == "Ann"
        # Under the curtain the table was drawn without a viewer: no hand at all.
        assert screen.table.view.observation.player is None
        assert not hand_shown(screen)
        assert "×" not in str(screen.query_one("#hand").render())
        await press_to(pilot, "enter", TableScreen)
        assert hand_shown(screen) and screen.table.view.observation.player == 0
        hand = screen.driver.link.match.state.hands[0]
        first = screen.query_one("#hand-row", CardRow).cards[0]
        assert str(first.render()) == f"B ×{hand[0]}\njewelry"
        await pilot.press("enter", "enter")  # Ann's whole turn: two cards drawn blind
        await pilot.pause()
        # Named to her on a screen of their own, the table behind it already public.
        assert isinstance(app.screen, TurnOverScreen)
        assert screen.table.view.observation.player is None and not hand_shown(screen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen)
        assert app.screen.player_name == "Bob"
        assert screen.table.view.observation.player is None and not hand_shown(screen)
        # The curtain is opaque: the rendered screen shows nothing of the table.
        text = app.export_screenshot().replace("&#160;", " ")
        assert "Pass to Bob" in text and "jewelry" not in text
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.view.observation.player == 1 and hand_shown(screen)


async def test_illegal_action_is_refused_with_a_notification(tmp_path):
    match = karakum_match(first=0)
    game, state = match.game, match.state
    slot = next(s for s in range(5) if game.why_illegal(state, Buy(s)))
    reason = game.why_illegal(state, Buy(slot))
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        await pilot.press("up")
        for _ in range(slot):
            await pilot.press("right")
        await press_to(pilot, "enter", TableScreen)
        assert [n.message for n in app._notifications] == [reason]
        assert match.history == [] and match.state is state


async def test_bot_thinking_is_cancelled_by_undo(tmp_path):
    app = start_with(tmp_path, karakum_match())
    app.config.bot_delay = 30.0  # the bot would wait long: undo must not wait for it
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        await pilot.press("enter", "enter")  # draw twice; now the bot thinks
        await pilot.pause()
        assert screen.driver.thinking and match_len(screen) == 2
        await pilot.press("u")
        await pilot.pause()
        assert not screen.driver.thinking and match_len(screen) == 1
        assert screen.driver.link.match.history == [DrawCard()]
        assert screen.driver.link.match.state.step is Step.SECOND_CARD


def match_len(screen: TableScreen) -> int:
    driver = screen.driver
    assert isinstance(driver, LocalPlay)
    return len(driver.link.match.history)


@pytest.mark.slow
async def test_choosing_which_left_side_camel_joins(tmp_path):
    from attrs import evolve

    from karavan_core.games.karakum.components import Res
    from karavan_core.games.karakum.state import Camel, Join

    base = karakum_match().state
    waiting = (Camel(Res.RED, 5), Camel(Res.BLUE, 3))
    state = evolve(
        base,
        step=Step.JOIN,
        caravans=((Camel(Res.RED, 3),), ()),
        lefts=(waiting, ()),
    )
    match = Match(base_game(), karakum_match().seats, 4242, initial=state)
    async with running(tmp_path, match) as (app, pilot):
        assert isinstance(app.screen, ChoiceScreen)
        assert len(app.screen.options) == 2
        await pilot.press("down", "enter")
        await settle(pilot, app)
        assert match.history[0] == Join(1)


@pytest.mark.slow
async def test_rematch_keeps_the_seats_and_starts_afresh(tmp_path):
    from .helpers import play_to_end

    async with running(tmp_path, play_to_end(karakum_match(moves=10))) as (app, pilot):
        assert isinstance(app.screen, GameOverScreen)
        old = local_match(app)
        await pilot.press("r", "r")  # r is redo at the table: at game over it does nothing
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        assert local_match(app) is old
        await pilot.press("m")  # Rematch asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await press_to(pilot, "n", GameOverScreen)
        await pilot.press("m", "y")
        await settle(pilot, app)
        new = local_match(app)
        assert new is not old and new.seats == old.seats and new.history == []
        assert not new.is_over() and isinstance(app.screen, TableScreen)


def base_game():
    from karavan_core.registry import get_game

    return get_game("karakum")


@pytest.mark.slow  # a size sweep; the 80x24 layout is checked by default (the snapshots)
@pytest.mark.parametrize("game", ["karakum", "karawane", "karakorum", "jaipur"])
async def test_the_side_column_grows_with_the_screen_past_180_columns(tmp_path, game):
    """From 180 columns the screen is "huge": still wide, never laid out narrower."""
    match = helpers.seeded_match(game, "Ann,bot:random")
    async with running(tmp_path, match, (150, 40)) as (app, pilot):
        side = game_screen(app).query_one("#side")
        at_150 = side.size.width
        await pilot.resize_terminal(200, 50)
        await settle(pilot, app)
        assert side.size.width >= at_150


@pytest.mark.slow  # by default the referee's tests count such take-backs (tests/core)
async def test_a_take_back_after_seeing_a_card_is_counted_and_shown_at_the_end(tmp_path):
    """Against a bot a take-back is free, but one past a drawn card counts: the results
    and the review say so, and the save keeps it."""
    async with running(tmp_path, helpers.near_the_end("karakum", "Ann,bot:random")) as (app, pilot):
        screen = game_screen(app)
        match = screen.driver.link.match
        game, seen = match.game, match.view(0)
        shows = next(a for a in match.legal_actions() if game.reveals(seen, a))
        assert screen.decide(shows)  # a card from the deck (or a new face-up one): Ann saw it
        await settle(pilot, app)
        await pilot.press("u")
        await settle(pilot, app)
        assert match.takebacks == [1, 0] and isinstance(app.screen, TableScreen)
        await play_out_from_the_list(pilot, app)
        assert load_match(screen.driver.save_path).takebacks == [1, 0]


@pytest.mark.slow  # by default the referee's tests count such take-backs (tests/core)
async def test_the_results_and_the_review_name_who_took_back_after_seeing_a_card(tmp_path):
    match = play_to_end(karakum_match())
    match.takebacks = [2, 0]
    async with running(tmp_path, match) as (app, pilot):
        assert isinstance(app.screen, GameOverScreen)
        assert "Taken back after seeing a card: Ann 2." in visible_characters(app)
        await pilot.press("u")  # the result is final: no undo after the end
        await settle(pilot, app)
        assert isinstance(app.screen, GameOverScreen)
        assert app.screen.match.is_over()
        assert " u " not in visible_characters(app).splitlines()[-1]
        await pilot.press("v")
        await settle(pilot, app)
        for _ in range(400):
            if "take-backs after seeing a card" in visible_characters(app):
                break
            await pilot.pause(0.05)
        assert "2 take-backs after seeing a card" in visible_characters(app)


async def test_saving_under_the_name_offered_keeps_the_file_and_its_name(tmp_path):
    """The dialog offers the game's own file name: accepted, the save stays where it is
    (it was moved to the same name with '-2' added, as if another game held it)."""
    match = karakum_match(moves=4)
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        path = screen.driver.save_path
        await press_to(pilot, "s", SaveAsScreen)
        assert app.screen.query_one("#save-name").value == path.stem
        await pilot.press("enter")
        await pilot.pause()
        assert screen.driver.save_path == path and path.exists()
        saves = sorted(p.name for p in path.parent.iterdir() if not p.name.startswith("."))
        assert saves == [path.name]  # (beside it only the window's hidden lock)
        assert list(app._notifications)[-1].message == f"Saved as {path.name}."


@pytest.mark.slow
async def test_a_bad_save_name_typed_again_is_refused_in_one_toast(tmp_path):
    # Not the first refusal's toast left on the table under the dialog beside the new one.
    async with running(tmp_path, karakum_match(), notifications=True) as (app, pilot):
        for _ in range(2):
            await press_to(pilot, "s", SaveAsScreen)
            await pilot.press("/", "enter")  # a name may not hold a slash
            await pilot.pause(0.3)
            assert visible_characters(app).count("Not a save name") == 1
            await press_to(pilot, "escape", TableScreen)


async def test_a_refusal_plays_nothing_even_where_the_engine_would_accept(tmp_path):
    """A gesture the table refuses is said no to, never played behind the player's back."""
    async with running(tmp_path, karakum_match()) as (app, pilot):
        screen = game_screen(app)
        match = screen.driver.link.match
        legal = match.legal_actions()[0]
        screen.table.perform(Refuse((legal,), "Try another way."))
        await settle(pilot, app)
        assert match.history == []
        assert [n.message for n in app._notifications] == ["Try another way."]


async def test_a_failed_autosave_is_told_once_when_written_not_when_drawn(tmp_path, monkeypatch):
    """Drawing the status line tells nothing and changes nothing; a save that fails is told
    once, when the writer has tried, and the status line says NOT SAVED until one works."""

    def full(self, data) -> None:
        raise OSError(28, "No space left on device")

    async with running(tmp_path, karakum_match()) as (app, pilot):
        screen = game_screen(app)
        driver = screen.driver
        await pilot.pause()
        # Every toast from now on, kept even after it has gone from the screen (a toast
        # lasts seconds, which a busy machine can outlast before the test looks).
        told = noted(app)
        monkeypatch.setattr(SaveFile, "write", full)
        driver.referee.writer.error = OSError(28, "No space left on device")
        state = dict(vars(driver))
        driver.status()
        driver.status()
        await pilot.pause()
        assert told == [] and vars(driver) == state
        await pilot.press("enter", "enter")  # Ann draws: the save of it fails
        await settle(pilot, app)
        driver.flush()

        def failed() -> list[str]:
            return [message for _title, message in told if message.startswith("Autosave")]

        # The writer's word comes through the event loop.
        await waiting(pilot, lambda: failed() and "NOT SAVED" in driver.status().note)
        assert len(failed()) == 1 and "NOT SAVED" in driver.status().note
