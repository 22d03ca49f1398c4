"""Fit and finish: mouse play, themes remembered, ASCII mode, small terminals, the palette."""

from __future__ import annotations

import json
import re

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Button, TabbedContent

from karavan_core import all_games
from karavan_core.games.karakum.state import Buy, DrawCard, TakeCard
from karavan_tui.config import Settings
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.modals.new_game import NewGameScreen
from karavan_tui.modals.saves import SavesScreen
from karavan_tui.modals.settings import SettingsScreen
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.review import ReviewScreen
from karavan_tui.screens.rules import RulesScreen, rules_text
from karavan_tui.screens.table import TableScreen
from karavan_tui.screens.title import TitleScreen
from karavan_tui.screens.too_small import TooSmallScreen
from karavan_tui.widgets.cards import Card, CardRow
from karavan_tui.widgets.side import StatusLine

from .helpers import (
    game_screen,
    karakum_match,
    local_match,
    make_app,
    open_new_game_dialog,
    play_to_end,
    press_to,
    rules_shown,
    running,
    seeded_match,
    settle,
    visible_characters,
    waiting,
)


def card(screen: TableScreen, row: str, index: int) -> Card:
    return screen.query_one(f"#{row}").query(Card)[index]


@pytest.mark.slow
async def test_clicks_take_a_card_draw_and_open_the_payment_picker(tmp_path):
    match = karakum_match(seed=11)
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        slot = next(i for i, res in enumerate(match.state.row) if res.value != "gold")
        await pilot.click(card(screen, "resources", slot + 1))
        await settle(pilot, app)
        assert match.history == [TakeCard(slot)]
        await pilot.click(card(screen, "resources", 0))
        await settle(pilot, app)
        assert match.history[:2] == [TakeCard(slot), DrawCard()]
        # Wait for Ann's next turn, then click a camel she can afford, if any.
        slots = [a.slot for a in match.legal_actions() if isinstance(a, Buy)]
        if slots:
            await pilot.click(card(screen, "market-row", slots[0]))
            await waiting(pilot, lambda: isinstance(app.screen, ChoiceScreen))


@pytest.mark.slow
async def test_all_moves_list_shows_every_legal_decision_in_words(tmp_path):
    match = karakum_match()
    async with running(tmp_path, match) as (app, pilot):
        await press_to(pilot, "a", ChoiceScreen)
        seen = match.view(match.to_move)
        expected = [match.game.preview(seen, a) for a in match.legal_actions()]
        assert app.screen.options == list(dict.fromkeys(expected))  # each different one once
        await pilot.press("escape")
        await pilot.pause()
        assert match.history == []


async def test_theme_is_remembered(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.theme = "nord"
        await pilot.pause()
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["theme"] == "nord"
    again = make_app(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_ascii_mode_draws_plain_symbols_and_is_remembered(tmp_path):
    async with running(tmp_path, karakum_match()) as (app, pilot):
        market = app.screen.query_one("#market")
        assert "✱" in market.border_title
        app.action_toggle_ascii()
        await pilot.pause()
        assert "*" in market.border_title and "✱" not in market.border_title
        assert app.has_class("-ascii")
    assert Settings.load(tmp_path / "settings.json").ascii is True


@pytest.mark.slow
async def test_ascii_mode_reaches_header_footer_and_table(tmp_path):
    """With ASCII mode on, the Karakum table at 80x24 draws no character outside ASCII."""
    async with running(tmp_path, karakum_match(moves=30)) as (app, pilot):
        assert not visible_characters(app).isascii()  # Unicode symbols by default
        app.action_toggle_ascii()
        await pilot.pause()
        await pilot.pause()
        app.clear_notifications()
        await pilot.pause()
        drawn = visible_characters(app)
        assert sorted({ch for ch in drawn if not ch.isascii()}) == []


def non_ascii(app) -> list[str]:
    """The characters outside ASCII on the screen now."""
    return sorted({ch for ch in visible_characters(app) if not ch.isascii()})


@pytest.mark.slow
async def test_ascii_mode_turned_on_at_a_table_reaches_the_title_settings_and_empty_places(
    tmp_path,
):
    """The empty places of the table are dots (not the separator's bar), the title under the
    table loses its rounded box, and the drop-down lists keep an arrow ("v")."""
    async with running(tmp_path, seeded_match("karakorum", "Ann,bot:random")) as (app, pilot):
        app.set_ascii(True)
        await pilot.pause()
        row = game_screen(app).query_one("#table-row", CardRow)
        empty = [card for card in row.cards if card.has_class("-empty")]
        assert empty and {str(card.render()).split("\n")[0] for card in empty} == {"."}
        await press_to(pilot, "q", TitleScreen)
        assert non_ascii(app) == []
        app.push_screen(SettingsScreen())
        await pilot.pause()
        arrows = app.screen.query("SelectCurrent .down-arrow")
        assert arrows and {str(arrow.render()) for arrow in arrows} == {"v"}
        assert all(arrow.display for arrow in arrows) and non_ascii(app) == []


@pytest.mark.slow
@pytest.mark.parametrize("game", [game.name for game in all_games()])
async def test_ascii_mode_reaches_the_engines_words_in_the_news_log_and_move_list(tmp_path, game):
    """The engine writes typography (Karawane's camels move "a -> b" with an arrow): in
    ASCII mode the line over the table, the log, the full log, the move list and the
    toasts show plain stand-ins."""
    seats = "Ann,bot:random" if game == "jaipur" else "Ann,bot:random,bot:random"
    match = seeded_match(game, seats, moves=40)
    while match.to_move != 0:
        match.play(match.legal_actions()[0])
    if game == "karawane":  # the engine's own words do hold typography
        assert "→" in "".join(match.log())
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        app.set_ascii(True)
        await pilot.pause()
        assert non_ascii(app) == [], "table"
        await pilot.press("a")  # the move list
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert non_ascii(app) == [], "move list"
        await pilot.press("escape", "l")  # the whole log
        await pilot.pause()
        assert non_ascii(app) == [], "log"
        await pilot.press("escape")
        await pilot.pause()
        legal = match.legal_actions()
        game_screen(app).notify(game_screen(app).preview(legal[-1]), title="Hint")
        await pilot.pause()
        assert non_ascii(app) == [], "toast"


async def test_a_small_terminal_gets_a_notice(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "60x20" in str(app.screen.query_one("#too-small").render())
        await pilot.resize_terminal(70, 22)
        await pilot.pause()
        assert "70x22" in str(app.screen.query_one("#too-small").render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


@pytest.mark.slow
async def test_palette_offers_the_apps_commands(tmp_path):
    async with running(tmp_path, karakum_match()) as (app, pilot):
        await pilot.press("enter", "enter")
        await settle(pilot, app)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        for title in ("New game", "Save", "Load", "Undo", "Rules", "Theme", "ASCII mode"):
            assert title in titles
        await pilot.press("u")
        await settle(pilot, app)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Redo" in titles


@pytest.mark.slow
async def test_rules_open_with_f1_and_question_mark_on_the_games_tab(tmp_path):
    async with running(tmp_path, karakum_match()) as (app, pilot):
        for key in ("f1", "question_mark"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert "assumes" in await rules_shown(pilot, "karakum")
            await press_to(pilot, "escape", TableScreen)


@pytest.mark.slow
async def test_left_and_right_go_from_one_game_s_rules_to_the_next_at_once(tmp_path):
    # Not only once Tab has put the focus on the tabs: straight away.
    async with running(tmp_path) as (app, pilot):
        await press_to(pilot, "f1", RulesScreen)
        tabs = app.screen.query_one(TabbedContent)
        names = [game.name for game in all_games()]
        assert tabs.active == names[0]
        await pilot.press("right")
        await pilot.pause()
        assert tabs.active == names[1]
        await pilot.press("left", "left")
        await pilot.pause()
        assert tabs.active == names[-1]  # around at the end
        # The text of the game shown has the keys: Down scrolls it.
        shown = tabs.active_pane.query_one(VerticalScroll)
        assert app.screen.focused is shown and "Jaipur" in await rules_shown(pilot, "jaipur")
        await pilot.press("down")
        await pilot.pause()
        assert shown.scroll_y > 0


@pytest.mark.slow
async def test_the_rules_in_ascii_mode_are_plain_ascii_on_every_tab(tmp_path):
    """The table's symbols, the typography, the list bullets and the tabs' bar: all ASCII,
    and a symbol given with its ASCII twin is said once ("M", not "M, or M")."""
    async with running(tmp_path) as (app, pilot):
        app.set_ascii(True)
        await pilot.press("f1")
        await pilot.pause()
        for game in all_games():
            app.screen.query_one(TabbedContent).active = game.name
            await pilot.pause()
            drawn = visible_characters(app)
            assert sorted({ch for ch in drawn if not ch.isascii()}) == [], game.name
        karakum = await rules_shown(pilot, "karakum")
        assert "(**M**)" in karakum and "(\\*)" in karakum and "or **M**" not in karakum


@pytest.mark.slow
async def test_new_game_dialog_offers_only_games_with_a_table_and_their_player_counts(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, app)
        assert list(dialog.games) == [g.name for g in all_games()]
        count = dialog.query_one("#count")
        assert [value for _, value in count._options] == [2, 3, 4]
        count.value = 3
        await pilot.pause()
        shown = [dialog.query_one(f"#seat-{i}").display for i in range(4)]
        assert shown == [True, True, True, False]
        dialog.query_one("#name-1").value = "Player 1"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)  # two players called the same


@pytest.mark.slow
async def test_new_game_dialog_seats_hard_bots_and_says_how_each_seat_plays(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, app)
        human, bot = dialog.query_one("#kind-0"), dialog.query_one("#kind-1")
        assert human.value == "human" and "person" in str(human.tooltip)
        assert bot.value == "bot:hard" and str(bot.tooltip).startswith("Hard bot: searches")
        assert [value for _, value in bot._options] == [
            "human",
            "bot:random",
            "bot:greedy",
            "bot:hard",
            "bot:expert",
        ]
        bot.value = "bot:random"
        await pilot.pause()
        assert str(bot.tooltip) == "Random bot: picks any legal move at random"
        # A lone bot of its level is not numbered by its seat ("Random bot 2" at a table of
        # two reads as if there were another); two of one level are numbered in turn.
        assert dialog.query_one("#name-1").value == "Random bot"
        dialog.query_one("#count").value = 3
        dialog.query_one("#kind-2").value = "bot:random"
        await pilot.pause()
        names = [dialog.query_one(f"#name-{index}").value for index in range(3)]
        assert names == ["Player 1", "Random bot 1", "Random bot 2"]
        dialog.query_one("#kind-1").value = "bot:expert"
        await pilot.pause()
        names = [dialog.query_one(f"#name-{index}").value for index in range(3)]
        assert names == ["Player 1", "Expert bot", "Random bot"]


@pytest.mark.slow
async def test_f1_in_the_new_game_dialog_opens_the_rules_of_the_game_chosen(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, app)
        dialog.query_one("#game").focus()
        await pilot.press("enter", "end", "enter")  # the last game of the list
        await pilot.pause()
        last = all_games()[-1].name
        assert dialog.game.name == last
        await press_to(pilot, "f1", RulesScreen)
        assert app.screen.query_one("TabbedContent").active == last
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is dialog


@pytest.mark.slow
async def test_the_new_game_dialog_remembers_your_name_and_last_game(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, app)
        dialog.query_one("#game").focus()
        await pilot.press("enter", "end", "enter")
        name = dialog.query_one("#name-0")
        name.focus()
        name.value = ""
        await pilot.press(*"Zoe Quinn", "ctrl+s")
        await settle(pilot, app)
        match = local_match(app)
        assert match.seats[0].name == "Zoe Quinn" and match.game.name == all_games()[-1].name
        await pilot.press("q")
        await pilot.pause()
        dialog = await open_new_game_dialog(pilot, app)
        assert dialog.game.name == all_games()[-1].name
        assert dialog.query_one("#name-0").value == "Zoe Quinn"
    again = make_app(tmp_path)  # the next run of the app, from the same settings file
    async with again.run_test(size=(80, 24)) as pilot:
        dialog = await open_new_game_dialog(pilot, again)
        assert dialog.game.name == all_games()[-1].name
        assert dialog.query_one("#name-0").value == "Zoe Quinn"


@pytest.mark.slow
async def test_load_table_opens_and_deletes_after_confirming(tmp_path):
    from karavan_core.saves import save_match
    from karavan_tui.modals.confirm import ConfirmScreen
    from karavan_tui.modals.saves import SavesScreen

    folder = tmp_path / "saves"
    first = save_match(karakum_match(moves=4), folder / "first.json")
    second = save_match(karakum_match("Ann,Bob", moves=6), folder / "second.json")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await settle(pilot, app)  # the saves are read in a worker
        assert isinstance(app.screen, SavesScreen)
        rows = {save.path for save in app.screen.saves}
        assert rows == {first, second}
        target = app.screen.saves[0].path
        await press_to(pilot, "d", ConfirmScreen)
        await pilot.press("n")  # changed my mind: nothing is deleted
        await pilot.pause()
        assert target.exists()
        await pilot.press("d", "y")
        await settle(pilot, app)
        assert not target.exists()
        assert [save.path for save in app.screen.saves] == [({first, second} - {target}).pop()]
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen | CurtainScreen)


@pytest.mark.parametrize(  # opening by default; the review and the replay with the slow checks
    "keys",
    [
        pytest.param(("enter",), id="open"),
        pytest.param(("p",), id="replay", marks=pytest.mark.slow),
        pytest.param(("v",), id="review", marks=pytest.mark.slow),
    ],
)
async def test_looking_at_a_save_leaves_it_as_it_was(tmp_path, keys):
    """Only a change to the match rewrites its save: opening it and leaving, replaying it or
    reviewing it from the Load dialog keeps the file (and its "last played") as it was."""
    from karavan_core.saves import save_match

    match = karakum_match(moves=6)
    while match.to_move != 0:  # Ann's turn: opening the save, no bot moves
        match.play(match.legal_actions()[0])
    path = save_match(match, tmp_path / "saves" / "old.json")
    old = re.sub(r'"saved_at":"[^"]*"', '"saved_at":"2020-01-02T03:04:05+00:00"', path.read_text())
    path.write_text(old)  # played long ago: a rewrite in the same second would show too
    before = path.read_bytes()
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        await settle(pilot, app)
        await pilot.press(*keys)
        await settle(pilot, app)
        assert not isinstance(app.screen, TitleScreen)
        await pilot.press("escape", "q")
        await settle(pilot, app)
        if keys != ("enter",):  # a replay or a review goes back to the saves
            assert isinstance(app.screen, SavesScreen)
            await pilot.press("escape")
            await settle(pilot, app)
        assert isinstance(app.screen, TitleScreen)
    assert path.read_bytes() == before


async def test_a_move_after_opening_a_save_rewrites_it(tmp_path):
    from karavan_core.saves import load_match, save_match

    path = save_match(karakum_match(moves=6), tmp_path / "saves" / "old.json")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_file(path)
        await settle(pilot, app)
        await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("q")
        await settle(pilot, app)
    assert len(load_match(path).history) > 6


def test_no_color_is_respected(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    assert make_app(tmp_path).no_color


@pytest.mark.slow
async def test_log_beside_the_table_keeps_the_latest_and_l_shows_all(tmp_path):
    from karavan_tui.modals.full_log import FullLogScreen
    from karavan_tui.widgets.side import LOG_TAIL

    match = karakum_match(moves=LOG_TAIL + 30)
    async with running(tmp_path, match) as (app, pilot):
        beside = str(app.screen.query_one("#log-text").render())
        total = len(match.history)
        assert f"({total + 1 - LOG_TAIL} earlier: press l)" in beside  # the opening line too
        assert f"{total}. " in beside and "\n1. " not in beside
        await press_to(pilot, "l", FullLogScreen)
        assert app.screen.lines == match.log()
        await press_to(pilot, "escape", TableScreen)


def test_every_registered_game_has_a_table_and_rules_to_read():
    from karavan_tui.screens.rules import rules_text
    from karavan_tui.tables import TableView, table_for

    for game in all_games():
        assert issubclass(table_for(game.name), TableView)
        assert rules_text(game.name).strip()


@pytest.mark.slow
async def test_the_saved_note_stays_in_sight_when_the_status_wraps(tmp_path):
    """The status line holds two lines: a long prompt (a hint naming a whole payment) gives
    way, the indicators do not."""
    async with running(tmp_path, karakum_match()) as (app, pilot):
        screen = game_screen(app)
        words = (
            "Hint (54% to win): Ann pays 2 jewelry + 2 honey; the red 1 joins the caravan. "
            "From the left side, the orange 1 joins the caravan. A new camel is revealed in "
            "the market. A value-1 camel earns a free resource card."
        )
        status = screen.query_one(StatusLine)
        status.show(words, True, screen.glyphs.saved, screen.glyphs)
        await pilot.pause()
        assert status.size.height == 2
        drawn = visible_characters(app).splitlines()
        assert drawn[-3].startswith(" Hint (54% to win): Ann pays 2 jewelry")
        assert drawn[-2].rstrip().endswith("⧗ thinking…  ✓ saved")
        await pilot.resize_terminal(200, 30)  # wider: the whole prompt fits again
        await pilot.pause()
        lines = visible_characters(app).splitlines()[-3:-1]
        assert " ".join(line.strip() for line in lines) == f"{words}  ⧗ thinking…  ✓ saved"


async def test_the_indicators_wrap_whole_after_a_prompt_that_nearly_fills_the_line(tmp_path):
    """Karawane's hint at 80x24 ended its line with "✓" and put "saved" alone on the next."""
    async with running(tmp_path, karakum_match()) as (app, pilot):
        screen = game_screen(app)
        status = screen.query_one(StatusLine)
        words = "Hint (52% to win): Ann plays Oasis 4 on their camel 1: the city → square 4."
        status.show(words, False, screen.glyphs.saved, screen.glyphs)
        await pilot.pause()
        drawn = visible_characters(app).splitlines()
        assert drawn[-3].rstrip() == f" {words}"
        assert drawn[-2].strip() == screen.glyphs.saved  # "✓ saved", together


@pytest.mark.slow
async def test_the_log_stays_on_its_newest_lines_after_the_terminal_shrinks_and_grows(tmp_path):
    """Whatever the resizes (too small for a while, wider, back), the log beside the table
    shows its newest lines: its text wraps anew at each width."""
    match = karakum_match("Ann,bot:random", moves=60)
    while match.to_move != 0:
        match.play(match.legal_actions()[0])
    async with running(tmp_path, match) as (app, pilot):
        log = game_screen(app).query_one("#log")
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        for size in [(70, 20), (200, 50), (70, 20), (80, 24), (120, 40), (80, 24)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            if size != (70, 20):  # too small: the notice covers the game meanwhile
                assert isinstance(app.screen, TableScreen)
                assert log.scroll_y == log.max_scroll_y > 0, size


def test_a_remembered_name_is_outside_data_and_checked_like_any_name(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"player_name": "Zoe\x1b[2J", "last_game": 7}))
    settings = Settings.load(path)
    assert settings.player_name is None and settings.last_game is None
    path.write_text(json.dumps({"player_name": "Zoe", "last_game": "no such game"}))
    settings = Settings.load(path)
    assert settings.player_name == "Zoe" and settings.last_game == "no such game"


@pytest.mark.slow
async def test_the_save_name_box_takes_as_many_characters_as_a_save_name_may_have(tmp_path):
    from karavan_core.saves import MAX_STEM
    from karavan_tui.modals.save_as import SaveAsScreen

    async with running(tmp_path, karakum_match(), notifications=True) as (app, pilot):
        await press_to(pilot, "s", SaveAsScreen)
        box = app.screen.query_one("#save-name")
        box.value = ""
        await pilot.press(*("a" * (MAX_STEM + 5)))
        assert box.value == "a" * MAX_STEM  # the box stops where the name must stop
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        assert game_screen(app).driver.save_path.name == "a" * MAX_STEM + ".json"


@pytest.mark.slow
async def test_an_unticked_checkbox_shows_an_empty_box_in_either_symbol_set(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        box = app.screen.query_one("#ascii")
        assert not box.value
        assert str(box.render()).startswith("▐ ▌")  # empty: no dim X
        box.focus()
        await pilot.press("space")  # ASCII mode on: a ticked box in brackets
        await pilot.pause()
        assert app.ascii_mode and str(box.render()).startswith("[X]")
        assert non_ascii(app) == []
        await pilot.press("space")
        await pilot.pause()
        assert not app.ascii_mode and str(box.render()).startswith("▐ ▌")
        app.ascii_mode = True  # as an unticked box would look in ASCII mode
        assert str(box.render()).startswith("[ ]")


@pytest.mark.parametrize("name", ["karakum", "karawane", "karakorum", "jaipur"])
def test_the_rules_name_only_keys_the_game_over_screen_has(name):
    """The in-app rules list the game-over keys: each must work there (undo does not: the
    result is final)."""
    text = rules_text(name)
    sentence = text[text.index("At game over") :].split("(")[0]
    named = set(re.findall(r"\*\*(\w)\*\*", sentence))
    bound = {key for binding in GameOverScreen.BINDINGS for key in binding.key.split(",")}
    assert named and named <= bound, (named, bound)


async def test_the_game_over_screen_opens_without_the_last_turns_toasts(tmp_path):
    match = play_to_end(seeded_match("jaipur", "Ann,bot:random"))
    async with running(tmp_path, size=(80, 24), notifications=True) as (app, pilot):
        app.notify("You drew 2 paper from the deck.", title="From the deck")
        await pilot.pause()
        assert app._notifications
        await app.push_screen(GameOverScreen(match))
        await pilot.pause()
        assert not app._notifications


async def test_the_keys_scroll_a_game_over_longer_than_the_screen(tmp_path):
    """Four players at 80x24: the chart's key is below the edge; the focus is on the
    buttons, yet PgDn (or Down) scrolls the outcome to it, and Home back to the winners."""
    match = play_to_end(seeded_match("karakum", "Ann,bot:random,bot:random,bot:random"))
    async with running(tmp_path, size=(80, 24)) as (app, pilot):
        await app.push_screen(GameOverScreen(match))
        await pilot.pause()
        assert isinstance(app.screen.focused, Button)
        key = "Random bot 4"  # the chart's key names every player
        assert "wins" in visible_characters(app).splitlines()[1]
        assert not any(line.startswith(" •") for line in visible_characters(app).splitlines())
        await pilot.press("pagedown")
        await pilot.pause()
        shown = visible_characters(app).splitlines()
        assert any(line.startswith(" •") and key in line for line in shown), shown
        await pilot.press("home")
        await pilot.pause()
        assert "wins" in visible_characters(app).splitlines()[1]


@pytest.mark.parametrize(  # one game by default, every game with the slow checks
    "game",
    [
        pytest.param(g, marks=() if g == "karakum" else pytest.mark.slow)
        for g in (game.name for game in all_games())
    ],
)
async def test_the_game_over_buttons_are_in_sight_at_80x24_however_long_the_outcome(tmp_path, game):
    """Karakorum's outcome (a sentence per peak, then the breakdown) is longer than 80x24
    holds: it scrolls, and the buttons stay below it, clickable without scrolling."""
    match = play_to_end(seeded_match(game, "Ann,bot:random"))
    async with running(tmp_path, size=(80, 24)) as (app, pilot):
        await app.push_screen(GameOverScreen(match))
        await pilot.pause()
        screen = app.screen.region
        buttons = list(app.screen.query(Button))
        assert [button.id for button in buttons] == ["rematch", "review", "replay", "new", "title"]
        for button in buttons:  # the footer is row 23
            assert screen.contains_region(button.region) and button.region.bottom <= 23
        await pilot.click("#replay")  # as p does
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.driver.KIND == "replay"


@pytest.mark.parametrize(  # one game by default, every game with the slow checks
    "game",
    [
        pytest.param(g, marks=() if g == "karawane" else pytest.mark.slow)
        for g in (game.name for game in all_games())
    ],
)
async def test_up_and_down_move_between_the_card_rows_and_never_off_them(tmp_path, game):
    """Down on the last row kept going, to the log, where the arrows scrolled and the
    cursor seemed lost; now the first and last rows keep the keyboard."""
    match = seeded_match(game, "Ann,bot:random")
    async with running(tmp_path, match) as (app, pilot):
        rows = [w for w in app.screen.focus_chain if isinstance(w, CardRow)]
        assert rows  # Karawane has one: the hand
        rows[-1].focus()
        await pilot.pause()
        await pilot.press("down", "down")
        assert app.screen.focused is rows[-1]
        for row in reversed(rows[:-1]):
            await pilot.press("up")
            assert app.screen.focused is row
        await pilot.press("up")
        assert app.screen.focused is rows[0]


@pytest.mark.slow
async def test_the_status_line_names_a_bot_whose_turn_it_is_rather_than_prompting_it(tmp_path):
    """The game's prompt speaks to the player who decides ("Random bot 2: take your second
    card"): on a bot's turn the line says whose turn it is, with the busy mark."""
    match = seeded_match("karakum", "Ann,bot:random")
    async with running(tmp_path, match) as (app, _pilot):
        driver = game_screen(app).driver
        assert driver.status().prompt.startswith("Ann")  # the game's own prompt
        match.play(match.legal_actions()[0])  # by hand, so the bot has not answered yet
        while match.to_move == 0:
            match.play(match.legal_actions()[0])
        assert driver.status().prompt == "Random bot 2's turn"


async def test_escape_and_a_stray_enter_at_game_over_leave_the_results_where_they_are(tmp_path):
    """Escape had shut the results for the title, and the focus on Rematch made an Enter typed
    as the game ended ask for a new one: Escape now says the ways on, and Enter opens the
    review, which Escape closes back to the results."""
    match = play_to_end(seeded_match("jaipur", "Ann,bot:random"))
    async with running(tmp_path, size=(80, 24), notifications=True) as (app, pilot):
        over = GameOverScreen(match)
        await app.push_screen(over)
        await pilot.pause()
        assert app.screen.focused is over.query_one("#review", Button)
        await pilot.press("escape")
        await waiting(pilot, lambda: "t goes to the title" in visible_characters(app))
        assert app.screen is over
        await pilot.press("enter")
        await waiting(pilot, lambda: isinstance(app.screen, ReviewScreen))
        await pilot.press("escape")
        await waiting(pilot, lambda: app.screen is over)


async def test_a_game_of_bots_alone_opens_its_results_on_replay(tmp_path):
    match = play_to_end(seeded_match("jaipur", "bot:random,bot:random"))
    async with running(tmp_path, size=(80, 24)) as (app, pilot):
        over = GameOverScreen(match)
        await app.push_screen(over)
        await pilot.pause()
        assert app.screen.focused is over.query_one("#replay", Button)
