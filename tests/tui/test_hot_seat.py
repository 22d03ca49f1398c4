"""Hot-seat play: several humans at one terminal, the curtain between them, undo among them."""

from __future__ import annotations

from itertools import pairwise

import pytest

from karavan_core.games.karakum.state import DrawCard
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.modals.curtain import CurtainScreen, TurnOverScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.tables.karakum.gestures import drawn_words
from karavan_tui.widgets.cards import CardRow, nearest_open

from .helpers import (
    game_screen,
    karakum_match,
    local_match,
    read_turn_over,
    running,
    seeded_match,
    settle,
    start_with,
    visible_characters,
)
from .test_snapshots import snap_table


async def lift(pilot, app) -> None:
    """Lift the curtain with Enter, as its words say."""
    assert isinstance(app.screen, CurtainScreen)
    await pilot.press("enter")
    await settle(pilot, app)
    assert isinstance(app.screen, TableScreen)


def screen_viewer(app):
    """Whose cards the table under the modal shows (``None``: nobody's)."""
    return game_screen(app).driver.viewer


@pytest.mark.slow
async def test_undo_on_your_first_turn_does_not_take_back_anothers_move(tmp_path):
    async with running(tmp_path, karakum_match("Ann,Bob"), notifications=True) as (app, pilot):
        await lift(pilot, app)
        await pilot.press("enter", "enter")  # Ann draws her two cards
        await settle(pilot, app)
        assert await read_turn_over(pilot, app)  # which she alone is told
        await lift(pilot, app)  # Bob's turn
        match = local_match(app)
        played = list(match.history)
        assert len(played) == 2 and match.to_move == 1
        await pilot.press("u")
        await settle(pilot, app)
        assert match.history == played and isinstance(app.screen, TableScreen)
        messages = [n.message for n in app._notifications]
        assert messages[-1] == "Ann decided last: you have made no decision to take back."
        await pilot.press("enter")  # Bob's own first card: his to take back, if Ann agrees
        await settle(pilot, app)
        assert len(match.history) == 3
        await pilot.press("u")
        await settle(pilot, app)
        # The card he drew showed him something: Ann is asked, behind the public view.
        assert isinstance(app.screen, ConfirmScreen) and screen_viewer(app) is None
        assert "Ann: Bob asks to take back 1 decision" in visible_characters(app)
        await pilot.press("y")  # Ann agrees
        await settle(pilot, app)
        if isinstance(app.screen, CurtainScreen):
            await lift(pilot, app)  # back to Bob
        assert match.history == played and match.to_move == 1
        await pilot.press("r")
        await settle(pilot, app)
        assert len(match.history) == 3
        await pilot.press("u")  # asked again, and this time Ann declines
        await settle(pilot, app)
        await pilot.press("n")
        await settle(pilot, app)
        assert len(match.history) == 3
        assert app._notifications and "Ann declined" in list(app._notifications)[-1].message
        if isinstance(app.screen, CurtainScreen):
            await lift(pilot, app)
        await pilot.press("u")  # a declined request is not asked again until somebody decides
        await settle(pilot, app)
        assert len(match.history) == 3 and isinstance(app.screen, TableScreen)
        assert list(app._notifications)[-1].message == (
            "Your take-back request was declined: ask again once somebody has decided."
        )


@pytest.mark.slow
async def test_while_a_bot_moves_the_last_human_may_take_back_their_move(tmp_path):
    app = start_with(tmp_path, karakum_match("Ann,bot:random,Bob"))
    app.config.bot_delay = 30.0  # the bot waits: the keys reach the table meanwhile
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter", "enter")  # Ann's two cards, named to her
        await pilot.pause()
        assert isinstance(app.screen, TurnOverScreen)
        await pilot.press("enter")  # she has read it: now the bot thinks
        await pilot.pause()
        screen = game_screen(app)
        assert screen.driver.thinking and screen.driver.viewer is None
        await pilot.press("u")
        await pilot.pause()
        # Her card from the deck showed her something: Bob must agree, and the bot waits.
        assert isinstance(app.screen, ConfirmScreen) and not screen.driver.thinking
        await pilot.press("y")
        await pilot.pause()
        assert len(screen.driver.link.match.history) == 1 and screen.driver.link.match.to_move == 0


@pytest.mark.slow
async def test_the_curtain_tells_in_public_words_what_happened_since_your_last_turn(tmp_path):
    async with running(tmp_path, karakum_match("Ann,Bob")) as (app, pilot):
        assert "Ann" in visible_characters(app) and "draws" not in visible_characters(app)
        await lift(pilot, app)
        await pilot.press("enter", "enter")  # Ann draws her two cards
        await settle(pilot, app)
        assert await read_turn_over(pilot, app)
        assert isinstance(app.screen, CurtainScreen)
        match = local_match(app)
        news = match.log()[1:]  # the public lines of Ann's two decisions
        assert len(news) == 2
        drawn = visible_characters(app)
        for line in news:
            assert line in drawn
        await lift(pilot, app)
        await pilot.press("enter", "enter")  # Bob draws too: Ann is told of Bob's cards only
        await settle(pilot, app)
        assert await read_turn_over(pilot, app)
        drawn = visible_characters(app)
        assert match.log()[3] in drawn and match.log()[4] in drawn
        assert match.log()[1] not in drawn


async def test_enter_lifts_the_curtain_and_space_does_not(tmp_path):
    async with running(tmp_path, karakum_match("Ann,Bob")) as (app, pilot):
        assert isinstance(app.screen, CurtainScreen)
        assert "press Enter" in visible_characters(app)
        await pilot.press("space")
        await settle(pilot, app)
        assert isinstance(app.screen, CurtainScreen)
        await lift(pilot, app)


def test_snapshot_of_the_curtain_with_news(snap_compare, tmp_path):
    """Bob's curtain after Ann's turn and a bot's: what happened, in the log's words."""
    assert snap_table(snap_compare, tmp_path, karakum_match("Ann,bot:random,Bob", moves=2))


@pytest.mark.slow
async def test_the_curtain_and_its_news_are_plain_ascii_in_ascii_mode(tmp_path):
    async with running(tmp_path, karakum_match("Ann,bot:random,Bob", moves=2)) as (app, pilot):
        app.set_ascii(True)
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen) and app.screen.news
        drawn = visible_characters(app)
        assert "Since the deal" in drawn  # Bob has not decided yet
        assert sorted({ch for ch in drawn if not ch.isascii()}) == []


@pytest.mark.slow
async def test_at_the_next_players_curtain_the_last_player_may_still_take_back(tmp_path):
    """Ann has played and the curtain asks for Bob: her **u** takes her decision back
    without lifting it, and the curtain that follows names her, so whoever pressed the key
    sees no hand."""
    from .test_jaipur_table import jaipur_match

    async with running(tmp_path, jaipur_match("Ann,Bob"), notifications=True) as (app, pilot):
        match = local_match(app)
        await lift(pilot, app)
        await pilot.press("a", "enter")  # Ann's first listed decision
        await settle(pilot, app)
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
        assert len(match.history) == 1
        assert "Undo" in curtain_footer(app)
        await pilot.press("u")
        await settle(pilot, app)
        if isinstance(app.screen, ConfirmScreen):  # it showed Ann a card: Bob must agree
            assert screen_viewer(app) is None
            await pilot.press("y")
            await settle(pilot, app)
        assert not match.history and match.to_move == 0
        assert isinstance(app.screen, CurtainScreen)
        assert app.screen.player_name == "Ann"
        assert screen_viewer(app) is None
        # Nobody has decided now: the curtain offers no Undo.
        assert "Undo" not in curtain_footer(app)
        await lift(pilot, app)
        assert screen_viewer(app) == 0
        # The news line says what became of her decision, not "nothing new".
        banner = str(app.screen.query_one("#banner").render())
        taken = "took back your last decision."
        assert banner in (f"Bob agreed: you {taken}", f"You {taken}")


@pytest.mark.slow
async def test_the_take_back_question_lists_the_decisions_it_takes_back(tmp_path):
    """Hot-seat asked for a count ("2 decisions"); it lists them as a hosted table does, in
    the public log's words, the one answering marked where a decision is theirs."""
    from .test_jaipur_table import jaipur_match

    async with running(tmp_path, jaipur_match("Ann,Bob")) as (app, pilot):
        match = local_match(app)
        for _ in range(2):  # Ann decides, then Bob
            await lift(pilot, app)
            await pilot.press("a", "enter")
            await settle(pilot, app)
        assert len(match.history) == 2
        await lift(pilot, app)
        await pilot.press("u")  # Ann's take-back goes past Bob's decision: he is asked
        await settle(pilot, app)
        assert isinstance(app.screen, ConfirmScreen)
        assert screen_viewer(app) is None
        log = match.log()
        question = app.screen.question.splitlines()
        assert question[0].startswith("Bob: Ann asks to take back 2 decisions")
        assert question[1:] == [f"- {log[1]}", f"- {log[2]} (yours)"]


def curtain_footer(app) -> str:
    """The keys the curtain on top offers, as its footer shows them."""
    return " ".join(str(key.render()) for key in app.screen.query("FooterKey"))


async def play_listed(pilot, app) -> None:
    """The player to move takes the first decision the move list offers (or a picker's)."""
    if not isinstance(app.screen, ChoiceScreen):
        await pilot.press("a")
        await pilot.pause()
    assert isinstance(app.screen, ChoiceScreen)
    await pilot.press("enter")
    await settle(pilot, app)
    if game_screen(app).table.marking_status():  # a camel chosen: Enter pays as marked
        await pilot.press("enter")
        await settle(pilot, app)


def banner_words(app) -> str:
    """What the news line over the table says."""
    return str(game_screen(app).query_one("#banner").render())


@pytest.mark.parametrize(
    "game",
    [pytest.param(game, marks=pytest.mark.slow) for game in ("karakum", "karawane", "karakorum")]
    + ["jaipur"],  # one game in the default run: the telling is the table's, the same for all
)
async def test_every_game_tells_a_take_back_the_same_way(tmp_path, game):
    """Ann's undo against a bot, on her second turn: the news line says what went (not the
    bot's decisions before it, which are news no more), her gesture as her last decision and
    the bot's after it counted, in every game alike."""
    async with running(tmp_path, seeded_match(game, "Ann,bot:random")) as (app, pilot):
        match = local_match(app)

        def turns_of_ann() -> int:
            actors = [match.actor(i) for i in range(len(match.history))]
            return sum(1 for i, a in enumerate(actors) if a == 0 and (i == 0 or actors[i - 1]))

        # Ann's second turn is over, and the bot's after it: her turn again.
        while not (
            match.to_move == 0
            and turns_of_ann() == 2
            and match.history
            and match.actor(len(match.history) - 1) == 1
        ):
            await play_listed(pilot, app)
        wanted = game_screen(app).driver.referee.takeback(0)
        assert wanted.after > 0 and not wanted.needs
        await pilot.press("u")
        await settle(pilot, app)
        assert len(match.history) == wanted.keep and match.to_move == 0
        assert banner_words(app) == f"You took back {wanted.words('your')}."


@pytest.mark.slow
async def test_in_karakorum_the_player_who_just_moved_may_take_back_until_the_next_decides(
    tmp_path,
):
    """No curtain in Karakorum: Bob has the table at once, but until he decides, **u** takes
    back Ann's last decision, as in the games whose curtain she may still undo behind."""
    async with running(tmp_path, seeded_match("karakorum", "Ann,Bob")) as (app, pilot):
        driver = game_screen(app).driver
        match = driver.link.match
        while match.to_move == 0:
            await play_listed(pilot, app)
        assert match.to_move == 1 and driver.viewer == 1
        played = len(match.history)
        wanted = driver.referee.takeback(0)
        await pilot.press("u")
        await settle(pilot, app)
        if isinstance(app.screen, ConfirmScreen):  # it showed a card, or a bot moved: Bob agrees
            assert "Bob: Ann asks to take back" in visible_characters(app)
            await pilot.press("y")
            await settle(pilot, app)
        assert len(match.history) == wanted.keep < played
        assert match.to_move == 0 and driver.viewer == 0
        taken = f"took back {wanted.words('your')}."
        assert banner_words(app) in (f"You {taken}", f"Bob agreed: you {taken}")
        # Once Bob has decided, Ann's decision is his to keep: u is about his own.
        while match.to_move == 0:
            await play_listed(pilot, app)
        await play_listed(pilot, app)
        assert match.actor(len(match.history) - 1) == 1
        assert driver.taker() == 1


@pytest.mark.slow
async def test_the_cards_drawn_blind_are_named_to_the_drawer_alone_when_the_turn_ends(tmp_path):
    """Ann draws both her cards from the deck: her turn ends with the second, and before
    the curtain falls for Bob she alone is told which cards she drew; Bob, his curtain and
    the log never name them."""
    async with running(tmp_path, karakum_match("Ann,Bob"), notifications=True) as (app, pilot):
        await lift(pilot, app)
        match = local_match(app)
        await pilot.press("enter", "enter")  # the deck is the first card of the row: two blind
        await settle(pilot, app)
        assert match.history == [DrawCard(), DrawCard()] and match.to_move == 1
        hands = [state.hands[0] for state in match.states]
        drawn = [next(i for i, n in enumerate(new) if n > old[i]) for old, new in pairwise(hands)]
        words = drawn_words(drawn)
        assert isinstance(app.screen, TurnOverScreen)
        told = visible_characters(app)
        assert "Ann, your turn is over" in told and words in told
        assert screen_viewer(app) is None  # the table behind it shows no hand any more
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
        assert words not in visible_characters(app)
        await lift(pilot, app)
        assert words not in visible_characters(app)
        assert all("You drew" not in n.message for n in app._notifications)
        assert all("You drew" not in line for line in match.log())


def test_snapshot_of_the_turn_over_screen(snap_compare, tmp_path):
    """Ann's two cards drawn blind, named to her before Bob's curtain."""

    async def draw_two(pilot):
        await settle(pilot, pilot.app)
        await pilot.press("enter", "enter", "enter")  # the curtain lifted, two blind draws
        await settle(pilot, pilot.app)
        assert isinstance(pilot.app.screen, TurnOverScreen)

    app = start_with(tmp_path, karakum_match("Ann,Bob"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=draw_two)


@pytest.mark.slow
async def test_the_next_player_starts_with_the_cursor_where_a_new_table_has_it(tmp_path):
    """Ann leaves the keys on a card of the market and on one of her hand; Bob's Enter must
    not act on whatever lies there: each of his rows starts at its first card he can act
    on, the keys in the market, as when the table opened."""
    from .test_jaipur_table import jaipur_match

    async with running(tmp_path, jaipur_match("Ann,Bob")) as (app, pilot):
        await lift(pilot, app)
        table = game_screen(app).table
        market = table.query_one("#market", CardRow)
        hand = table.query_one("#hand-row", CardRow)
        await pilot.press("end", "left")  # the market's last good, before the exchange card
        await pilot.press("down", "down", "end")  # the last card in Ann's hand
        assert app.focused is hand and hand.cursor > 0
        left = (market.cursor, hand.cursor)
        await pilot.press("a", "enter")  # she plays from the move list: the keys stay put
        await settle(pilot, app)
        await read_turn_over(pilot, app)
        await lift(pilot, app)
        assert game_screen(app).driver.viewer == 1

        def first_open(row: CardRow) -> int:
            return nearest_open([card.face if card.display else None for card in row.cards], 0)

        assert app.focused is market
        assert (market.cursor, hand.cursor) == (first_open(market), first_open(hand)) != left
