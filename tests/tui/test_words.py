"""The words on screen: right, whole where the player must read them, and one word per thing."""

from __future__ import annotations

import pytest

from karavan_core.games.karakum.components import RESOURCES, Res
from karavan_core.games.karakum.rules import price
from karavan_tui.glyphs import glyphs
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.widgets.cards import CardRow
from karavan_tui.widgets.side import News, first_sentence, news_text

from .helpers import (
    game_screen,
    karakum_match,
    make_app,
    running,
    seeded_match,
    settle,
    visible_characters,
)
from .test_lessons import open_lesson, pick_from_moves
from .test_marking import karakum_buying_position, mark


async def test_karakum_names_each_good_by_one_word_on_its_cards(tmp_path):
    # No cut name ("5 jewel", "7 spice") beside a hand of "jewelry" and "spices".
    match = karakum_match(moves=30)
    async with running(tmp_path, match) as (app, _):
        screen = game_screen(app)
        rows = ("#market-row", "#resources", "#hand-row")
        faces = [
            str(card.render()) for row in rows for card in screen.query_one(row, CardRow).cards
        ]
        words = {word for face in faces for word in face.split()}
        names = {res.good for res in RESOURCES}
        assert names & words
        assert not [w for w in words for name in names if w != name and name.startswith(w)]
        market = screen.query_one("#market-row", CardRow).cards
        obs = match.view(0)
        costs = [f"cost {price(obs.market, slot)}" for slot in range(len(obs.market))]
        assert [str(card.render()).splitlines()[1] for card in market] == costs


async def results_text(tmp_path, game: str, seats: str, seed: int) -> str:
    """What the results of ``game`` played at random to its end (``seed``) say at 120x40."""
    match = seeded_match(game, seats, seed=seed, first=0, moves=10_000)
    assert match.is_over()
    async with running(tmp_path, match, size=(120, 40)) as (app, _):
        assert isinstance(app.screen, GameOverScreen)
        return visible_characters(app)


@pytest.mark.slow
async def test_the_results_count_one_point_in_the_singular(tmp_path):
    # A finished Karakum game whose left sides are worth a point each: not "1 points".
    text = await results_text(tmp_path, "karakum", "Ann,Bob", seed=72)
    assert "1 point, half is 0" in text and "1 points" not in text


@pytest.mark.slow
async def test_a_karakorum_removal_at_the_base_camp_is_not_told_as_a_gain(tmp_path):
    # Not "red +0 (removed)", which reads as a gain beside another's "red -3 (removed)".
    text = await results_text(tmp_path, "karakorum", "Ann,Bob", seed=0)
    assert "stays at 0 (removed)" in text and "+0 (removed)" not in text


@pytest.mark.slow
async def test_a_lesson_step_after_a_stretch_played_for_the_learner_tells_it_over_the_table(
    tmp_path,
):
    # The panel tells Greedy's round: the line over the table must too, not "Nothing new
    # since your last move" because the lesson played the learner's pass after it.
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        driver = await open_lesson(pilot, app, "karakorum")
        while "Greedy's round went by" not in str(driver.current.say):
            if driver.expected():
                await pick_from_moves(pilot, app, driver)
            else:
                await pilot.press("n")
            await settle(pilot, app)
        banner = str(app.screen.query_one("#banner").render())
        assert banner.startswith("• ") and "Nothing new" not in banner, banner
        # Right after the learner's own move the line says which it was.
        await pick_from_moves(pilot, app, driver)
        banner = str(app.screen.query_one("#banner").render())
        assert banner.startswith("Your last move: Learner takes"), banner


LONGEST = "Annabelle-Marguerite-Xyz"  # a name as long as a name may be (24 characters)


async def news_at_80x24(tmp_path, match) -> tuple[str, int]:
    """The news line over ``match``'s table at 80x24, and how many rows it takes."""
    async with running(tmp_path, match) as (app, _):
        banner = game_screen(app).query_one("#banner")
        return str(banner.render()), banner.region.height


async def test_at_80x24_a_long_news_line_loses_its_last_clause_rather_than_end_cut(tmp_path):
    # Not "• Random bot 2 removes the red expedition (2); the red marker stays at the ba…"
    match = seeded_match("karakorum", f"{LONGEST},bot:random,bot:random", moves=30)
    told, rows = await news_at_80x24(tmp_path, match)
    assert (told, rows) == ("• Random bot 2 removes the red expedition (2).", 1)


async def test_at_80x24_a_news_line_too_long_for_a_row_takes_a_second(tmp_path):
    # A payment by a player of the longest name: its first clause alone needs two rows.
    match = seeded_match("karakum", f"Ann,bot:random:{LONGEST}", moves=93)
    told, rows = await news_at_80x24(tmp_path, match)
    assert rows == 2 and "…" not in told and "caravan master." in told, told
    payment = next(line for line in match.log()[-2:] if " pays " in line)
    assert first_sentence(payment) in " ".join(told.split("\n")), told


def test_no_news_line_of_a_random_game_is_cut_at_80x24():
    """The first sentence of every log line, the longest names playing, fits the news line's
    two rows at 80x24 (78 cells) whole, however many decisions are told with it."""
    for name in ("karakum", "karawane", "karakorum", "jaipur"):
        seats = ",".join(f"{LONGEST[:-1]}{i}" for i in range(2 if name == "jaipur" else 4))
        match = seeded_match(name, seats, seed=7, moves=10_000)
        log = match.log()
        names = tuple(seat.name for seat in match.seats)
        for end in range(2, len(log)):
            news = News(tuple(log[max(1, end - 3) : end]), names, True, glyphs(False))
            assert "…" not in news_text(news, 78, 2).plain, log[end - 1]
        own = News((), names, True, glyphs(False), own=max(log[1:], key=len))
        assert "…" not in news_text(own, 78, 2).plain


async def test_at_80x24_a_payment_that_does_not_pay_is_told_on_the_status_line_uncut(tmp_path):
    # Not "Buy the … with …. That payment gives 9 units, and the green 5 costs exactly 5 u…"
    match, slot, _ = karakum_buying_position()
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        screen.table.buy(slot)
        await pilot.pause()
        camel = match.state.market[slot]
        held = match.state.hands[0]
        # Every card that makes units (the camel's good, gold, pairs of the others): too much.
        counts = [
            n if res in (camel.color, Res.GOLD) else n - n % 2
            for res, n in zip(RESOURCES, held, strict=True)
        ]
        row = screen.query_one("#hand-row", CardRow)
        for index, count in enumerate(counts):
            while screen.table.paying.counts[index] != count:
                await mark(pilot, row, index)
        status = screen.query_one("#status")
        said = str(status.render())
        assert "That payment makes" in said and "…" not in said and status.region.height == 2, said


@pytest.mark.slow  # by default the wide-name check keeps the points panel in line
@pytest.mark.parametrize("game", ["karakum", "karawane", "karakorum", "jaipur"])
async def test_at_80x24_a_long_name_is_cut_in_the_points_panel_its_score_beside_it(tmp_path, game):
    # Not a 23-character name on two lines, its score under it.
    others = ["Bartholomew-Fitzgerald-Q", "Cid"][: 1 if game == "jaipur" else 2]
    seats = ",".join([LONGEST, *(f"bot:random:{name}" for name in others)])
    async with running(tmp_path, seeded_match(game, seats, moves=20)) as (app, _):
        screen = game_screen(app)
        board = screen.query_one("#scores")
        lines = str(board.render()).splitlines()
        assert board.content_region.height == len(lines) == 1 + len(others), lines
        assert all(line.rstrip()[-1].isdigit() for line in lines), lines
        assert LONGEST[:5] in lines[0] and "…" in lines[0] and others[-1][:5] in lines[-1]
        if game == "karakorum":
            return  # no hand: the expeditions' zone is named in words that fit
        # The hand's title: the name whole where it fits, cut where it leaves no room for what
        # follows it (Jaipur's "Enter sells").
        title = str(screen.query_one("#hand").border_title)
        cut_name = f"{LONGEST[:15]}…'s hand · "
        assert title.startswith(cut_name if game == "jaipur" else f"{LONGEST}'s hand"), title
        assert game != "jaipur" or title.endswith("Enter sells"), title


@pytest.mark.slow
@pytest.mark.parametrize("game", ["karakum", "karakorum"])
async def test_at_200x50_the_results_table_has_a_line_per_row_of_the_breakdown(tmp_path, game):
    # Not cells wrapped within a hundred columns while a hundred more stand empty.
    seats = "Annabelle,bot:random,bot:random,bot:random"
    match = seeded_match(game, seats, moves=10_000)
    async with running(tmp_path, match, size=(200, 50)) as (app, _):
        assert isinstance(app.screen, GameOverScreen)
        table = app.screen.query_one("#breakdown")
        rows = {label for lines in match.game.result(match.state).breakdown for label, _ in lines}
        assert table.region.height == 1 + len(rows), str(table.render())
