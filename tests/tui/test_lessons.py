"""Learn to play: the lessons at the normal table, played by keys."""

from __future__ import annotations

import json

import pytest

from karavan_core.engine import Action
from karavan_core.games.jaipur.state import Sell, TakeCamels, TakeGood
from karavan_core.games.karakum.rules import payments, price
from karavan_core.games.karakum.state import Buy, KarakumObservation, Pay, TakeCard
from karavan_core.lessons import LEARNER, get_lesson, lesson_names
from karavan_tui.config import Settings
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.lesson import LESSON_REFUSAL, LessonPlay
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen
from karavan_tui.widgets.cards import CardRow
from karavan_tui.widgets.lesson import LessonPanel
from karavan_tui.widgets.side import StatusLine

from .helpers import SEED, make_app, noted, settle


def lesson_driver(app) -> LessonPlay:
    """The driver of the lesson at the table."""
    tables = [s for s in app.screen_stack if isinstance(s, TableScreen)]
    assert tables, app.screen_stack
    driver = tables[-1].driver
    assert isinstance(driver, LessonPlay)
    return driver


def panel_text(app) -> str:
    return str(app.screen.query_one(LessonPanel).query_one("#lesson-text").render())


def status_text(app) -> str:
    return str(app.screen.query_one(StatusLine).render())


async def open_lesson(pilot, app, name: str) -> LessonPlay:
    """From the title: t, then the game's entry in the list of lessons."""
    await pilot.press("t")
    await pilot.pause()
    assert isinstance(app.screen, ChoiceScreen)
    for _ in range(lesson_names().index(name)):
        await pilot.press("down")
    await pilot.press("enter")
    await settle(pilot, app)
    assert isinstance(app.screen, TableScreen)
    return lesson_driver(app)


async def past_the_welcome(pilot, app, name: str) -> LessonPlay:
    """The app just started: open ``name``'s lesson and read its welcome (n)."""
    await settle(pilot, app)
    driver = await open_lesson(pilot, app, name)
    await pilot.press("n")
    await settle(pilot, app)
    return driver


async def choose(pilot, index: int) -> None:
    """Choose entry ``index`` of the list on top by keys."""
    assert isinstance(pilot.app.screen, ChoiceScreen)
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")
    await settle(pilot, pilot.app)


async def pick_from_moves(pilot, app, driver: LessonPlay) -> None:
    """Open the list of every move (a) and choose the step's decision in it by keys.

    Karakum's purchase goes on at the table (the camel is bought with its payment):
    the list of every payment (p) then gives the lesson's.
    """
    wanted = driver.expected()
    # The list names each decision once: the lesson's, or one that reads the same.
    choices = driver.referee.view(driver.viewer).choices(distinct=True)
    words = driver.preview(wanted[0])
    index = next(i for i, (_, said) in enumerate(choices) if said == words)
    await pilot.press("a")
    await pilot.pause()
    await choose(pilot, index)
    if isinstance(wanted[0], Buy):
        obs = driver.link.match.view(LEARNER)
        assert isinstance(obs, KarakumObservation) and obs.hand is not None
        camel = obs.market[wanted[0].slot]
        assert camel is not None
        options: list[Action] = [
            Pay(cards)
            for cards in payments(obs.hand, camel.color, price(obs.market, wanted[0].slot))
        ]
        await pilot.press("p")
        await pilot.pause()
        await choose(pilot, options.index(wanted[1]))


async def play_through(pilot, app, name: str) -> None:
    """Every step of ``name``'s lesson by keys, until the lesson offers a real game."""
    lesson = get_lesson(name)
    for _ in range(len(lesson.steps) * 4):
        await settle(pilot, app)
        if isinstance(app.screen, ConfirmScreen):
            return
        if isinstance(app.screen, ChoiceScreen):
            await pilot.press("escape")  # a picker the table opened: the list of moves instead
            continue
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")  # a round's summary: read it and go on
            continue
        driver = lesson_driver(app)
        if driver.expected():
            await pick_from_moves(pilot, app, driver)
        else:
            await pilot.press("n")
    raise AssertionError("the lesson did not end")


async def test_a_refusal_gives_the_reason_for_the_decision_due_not_the_steps_first(tmp_path):
    """Karakum's first gather is the face-up paper, then a card from the deck: a face-up
    card taken second is refused with the reason to draw blind, not the paper's."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        driver = await past_the_welcome(pilot, app, "karakum")
        paper, draw = driver.expected()
        assert isinstance(paper, TakeCard) and driver.decide(paper)
        await settle(pilot, app)
        assert driver.expected() == (draw,)
        other = next(a for a in driver.link.match.legal_actions() if isinstance(a, TakeCard))
        assert not driver.decide(other)
        await pilot.pause()
        text = " ".join(panel_text(app).split())
        assert "draws a card from the deck, because a card from the deck may be any" in text
        assert "paper is the good you hold least of" not in text


async def test_a_lesson_step_waits_for_its_move_and_says_why(tmp_path):
    """Jaipur's first steps: read, then the camels are marked; taking a good instead is
    refused with the reason (nothing changes), taking the camels plays and Greedy answers."""
    app = make_app(tmp_path)
    told = noted(app)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        driver = await open_lesson(pilot, app, "jaipur")
        assert "Welcome to Jaipur" in panel_text(app)
        assert "n goes on" in status_text(app)
        await pilot.press("n")
        await settle(pilot, app)
        assert driver.expected() == (TakeCamels(),)
        assert driver.table.hinted == (TakeCamels(),)  # the camels are marked on the table
        assert app.screen.query(".-hinted")
        assert "Take the camels" in status_text(app)
        # n on a step that waits for a move says which move (it used to do nothing).
        await pilot.press("n")
        await settle(pilot, app)
        assert told[-1][0] == "Your move" and "camels" in told[-1][1]
        assert driver.expected() == (TakeCamels(),)
        # Another legal move is refused, with the lesson's reason; the game is unchanged.
        legal = driver.link.match.legal_actions()
        assert TakeGood(legal[0].good) in legal
        assert not driver.decide(TakeGood(legal[0].good))
        assert driver.link.match.history == []
        await pilot.pause()
        text = panel_text(app)
        # Said as the learner's move to make, not as one the lesson will play.
        move = "Learner takes all 3 camels from the market, because camels"
        assert f"Not this one. Make this move instead: {move}" in text
        assert "camels come all together" in text and "Take the camels" in status_text(app)
        # The note over the table points to the panel instead of saying it all again.
        assert told[-1][1] == LESSON_REFUSAL
        # At 80x24 the panel runs past the screen: Page Down reads on (the arrows are the
        # cards'), Page Up goes back.
        panel = app.screen.query_one(LessonPanel)
        assert panel.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert panel.scroll_y > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert panel.scroll_y == 0
        # An illegal one gets the rules' own refusal (selling one diamond).
        assert not driver.decide(Sell(driver.lesson.moves[2].good, 1))
        assert driver.link.match.history == []
        await pick_from_moves(pilot, app, driver)
        # Taken, Greedy answered (the lesson plays its decision), and the panel says so.
        assert len(driver.link.match.history) == 2
        text = panel_text(app)
        assert "What happened" in text
        for line in driver.link.match.log()[1:]:
            assert line.split(".")[0] in text
        assert "Make this move instead" not in text
        assert driver.step == 2 and "Sell your two diamonds" in status_text(app)


@pytest.mark.slow  # a whole second app run; the progress kept in the settings is checked by default
async def test_leaving_a_lesson_and_coming_back_goes_on_at_the_same_step(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        driver = await past_the_welcome(pilot, app, "jaipur")
        await pick_from_moves(pilot, app, driver)
        assert driver.step == 2
        await pilot.press("q")
        await settle(pilot, app)
        assert isinstance(app.screen, TitleScreen)
        assert json.loads((tmp_path / "settings.json").read_text())["lessons"] == {"jaipur": 2}
        await pilot.press("t")
        await pilot.pause()
        assert "go on at step 3 of" in str(
            app.screen.query_one("OptionList")
            .get_option_at_index(lesson_names().index("jaipur"))
            .prompt
        )
        await pilot.press("escape")
    # Another run of the app: the same step, the same table.
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        again = await open_lesson(pilot, app, "jaipur")
        assert again.step == 2
        assert again.link.match.history == driver.link.match.history
        assert "Sell your two diamonds" in status_text(app)


def test_old_settings_files_load_and_lesson_progress_is_checked(tmp_path):
    """A settings file from before the lessons loads as it did; the progress kept is
    outside data: only known games and whole step numbers come back."""
    path = tmp_path / "settings.json"
    path.write_text(
        json.dumps(
            {
                "theme": "nord",
                "ascii": True,
                "bot_delay": 1.0,
                "last_game": "jaipur",
                "player_name": "Zoe",
            }
        )
    )
    settings = Settings.load(path)
    assert (settings.theme, settings.ascii, settings.player_name) == ("nord", True, "Zoe")
    assert settings.lessons == {}
    settings.lessons["jaipur"] = 4
    settings.save(path)
    assert Settings.load(path).lessons == {"jaipur": 4}
    path.write_text(
        json.dumps(
            {
                "lessons": {
                    "jaipur": 3,
                    "chess": 2,
                    "karakum": "x",
                    "karawane": True,
                    "karakorum": -1,
                }
            }
        )
    )
    assert Settings.load(path).lessons == {"jaipur": 3}
    path.write_text(json.dumps({"lessons": [1, 2]}))
    assert Settings.load(path).lessons == {}


@pytest.mark.slow
async def test_a_lesson_step_starts_with_the_cursor_on_its_card_and_tab_stays_on_cards(
    tmp_path,
):
    """At each step the cursor is on the card the lesson marks, so Enter plays it; Tab
    goes round the rows of cards only (the lesson's panel was a stop where Enter did
    nothing)."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.settings.lessons["jaipur"] = 3
        app.open_lesson("jaipur")
        await settle(pilot, app)
        row = app.screen.focused
        assert isinstance(row, CardRow) and row.cards[row.cursor].has_class("-hinted")
        for _ in range(6):
            await pilot.press("tab")
            assert isinstance(app.screen.focused, CardRow), app.screen.focused
        assert not app.screen.query_one(LessonPanel).can_focus


def test_a_lesson_step_at_80x24(snap_compare, tmp_path):
    """Jaipur's exchange step: the panel beside the table, the cards to use marked."""

    async def to_the_exchange(pilot):
        app = pilot.app
        await settle(pilot, app)
        app.settings.lessons["jaipur"] = 3
        app.open_lesson("jaipur")
        await settle(pilot, app)

    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=to_the_exchange)


@pytest.mark.slow
@pytest.mark.parametrize("name", lesson_names())
async def test_every_lesson_plays_through_by_keys(tmp_path, name):
    """Each lesson from its first step to its end, then the real game it offers."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await open_lesson(pilot, app, name)
        await play_through(pilot, app, name)
        driver = lesson_driver(app)
        assert driver.link.match.is_over()
        assert app.settings.lessons[name] == len(get_lesson(name).steps)
        await pilot.press("y")  # a real game against Greedy
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        match = app.screen.driver.link.match
        assert not isinstance(app.screen.driver, LessonPlay)
        assert [seat.level for seat in match.seats] == [None, "greedy"]
        assert match.seed == SEED  # a new deal (the tests' seed), not the lesson's


@pytest.mark.slow
async def test_a_move_that_reads_the_same_as_the_lessons_plays_the_lessons_own(tmp_path):
    """Karakum, after buying the blue 1: its free card is the face-up paper, and the row
    shows three papers; whichever the learner takes, the lesson's own is played."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        lesson = get_lesson("karakum")
        step = next(i for i, s in enumerate(lesson.steps) if "left-side" in s.teaches)
        app.settings.lessons["karakum"] = step
        app.open_lesson("karakum")
        await settle(pilot, app)
        driver = lesson_driver(app)
        buy, pay, free = driver.expected()
        assert driver.decide(buy, pay)
        await settle(pilot, app)
        assert driver.expected() == (free,) and isinstance(free, TakeCard)
        row = driver.link.match.view(LEARNER).row
        twins = [
            slot for slot, card in enumerate(row) if card is row[free.slot] and slot != free.slot
        ]
        assert twins  # the lesson's paper has a twin in the row
        assert driver.decide(TakeCard(twins[0]))
        await settle(pilot, app)
        assert driver.link.match.history[-1] == free
        assert driver.step == step + 1


@pytest.mark.slow
async def test_the_end_of_a_lesson_offers_a_real_game_against_greedy(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        lesson = get_lesson("karawane")
        app.settings.lessons["karawane"] = len(lesson.steps) - 1  # the last step: the score
        app.open_lesson("karawane")
        await settle(pilot, app)
        driver = lesson_driver(app)
        assert driver.link.match.is_over() and "You win" in status_text(app)
        assert not isinstance(app.screen, GameOverScreen)  # the lesson's words, not results
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert app.settings.lessons["karawane"] == len(lesson.steps)  # finished
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        driver = app.screen.driver
        assert not isinstance(driver, LessonPlay)
        assert driver.game.name == "karawane"
        assert [(s.name, s.level) for s in driver.link.match.seats] == [
            ("Learner", None),
            ("Greedy", "greedy"),
        ]
        assert driver.save_path.parent == tmp_path / "saves"  # a real game, kept as any other


@pytest.mark.parametrize(
    ("remembered", "seated"),
    [("Zoe", "Zoe"), pytest.param("greedy", "Learner", marks=pytest.mark.slow)],
)
async def test_the_learner_plays_under_the_remembered_name(tmp_path, remembered, seated):
    """The name the New game dialog remembers, unless it is the opponent's own."""
    (tmp_path / "settings.json").write_text(json.dumps({"player_name": remembered}))
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.open_lesson("karawane")
        await settle(pilot, app)
        assert [seat.name for seat in lesson_driver(app).link.match.seats] == [seated, "Greedy"]
