"""The Jaipur table: a whole match by keys and mouse, privacy, refusals, pickers, snapshots."""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from karavan_core.games.jaipur.components import GOODS, Card
from karavan_core.games.jaipur.state import Exchange, JaipurState, Sell, TakeCamels, TakeGood
from karavan_core.match import Match, Seat
from karavan_core.registry import get_game
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.modals.round_summary import RoundSummaryScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.tables.jaipur.layout import arrivals, new_places, stable_layout
from karavan_tui.tables.jaipur.zones import MarketZone
from karavan_tui.widgets.cards import Card as CardWidget

from .helpers import (
    SEED,
    against_random_bot,
    curtain_text,
    game_screen,
    local_match,
    make_app,
    near_the_end,
    play_out_by_keys,
    play_to_end,
    press_to,
    rules_shown,
    running,
    settle,
    start_with,
    state_of,
    visible_characters,
)
from .test_snapshots import SIZES, TABLE_SIZES, snap_table, steady


def jaipur_match(
    seats: str = "Ann,bot:random", seed: int = SEED, moves: int = 0, until=None
) -> Match:
    """A match with Ann starting and ``moves`` random decisions played (or until ``until``)."""
    parsed = [Seat.parse(text, i) for i, text in enumerate(seats.split(","))]
    match = Match(get_game("jaipur"), parsed, seed, {"first_player": 0})
    rng = random.Random(seed)
    for _ in range(moves):
        if until is not None and until(match):
            break
        match.play(rng.choice(match.legal_actions()))
    return match


def screen_text(app) -> str:
    """The rendered screen as plain text (what a player could read)."""
    return app.export_screenshot().replace("&#160;", " ")


async def focus_row(pilot, row_id: str) -> None:
    """Move the focus to the card row ``row_id`` with Tab."""
    for _ in range(6):
        focused = pilot.app.screen.focused
        if focused is not None and focused.id == row_id:
            return
        await pilot.press("tab")
    raise AssertionError(f"could not reach {row_id}")


async def press_card(pilot, row_id: str, index: int) -> None:
    """Choose card ``index`` of ``row_id`` with the arrows and Enter."""
    await focus_row(pilot, row_id)
    row = pilot.app.screen.focused
    step = "right" if index > row.cursor else "left"
    for _ in range(abs(index - row.cursor)):  # fewer presses where it passes over empty piles
        if row.cursor == index:
            break
        await pilot.press(step)
    assert row.cursor == index
    await pilot.press("enter")
    await pilot.pause()


async def play_turn_by_keys(pilot, match: Match) -> None:
    """Sell the largest sale of the first good that can be sold, else take from the market."""
    legal = match.legal_actions()
    sales = [a for a in legal if isinstance(a, Sell)]
    if sales:
        good = sales[0].good
        await press_card(pilot, "hand-row", GOODS.index(good))
        assert isinstance(pilot.app.screen, ChoiceScreen)  # how many, even where one count is
        await pilot.press("end", "enter")  # the biggest sale is listed last
        return
    market = game_screen(pilot.app).table.query_one(MarketZone)
    wanted = [
        i
        for i, card in enumerate(market.shown)
        if card is not None and (TakeGood(card) in legal or card is Card.CAMEL)
    ]
    await press_card(pilot, "market", wanted[0])


@pytest.mark.slow
async def test_whole_match_human_against_random_bot(tmp_path):
    """New-game dialog → Jaipur → a whole seeded match by keys (and a click) → game over."""
    async with against_random_bot(tmp_path, "jaipur") as (app, pilot):
        screen = game_screen(app)
        match = screen.driver.link.match
        assert match.game.name == "jaipur" and match.seats[1].is_bot
        # The first decision by mouse: a click on the first market card takes it.
        while match.to_move != 0:
            await settle(pilot, app)
        first = screen.table.query_one(MarketZone).shown[0]
        before = len(match.history)
        await pilot.click(screen.table.query_one(MarketZone).cards[0])
        await settle(pilot, app)
        expected = TakeCamels() if first is Card.CAMEL else TakeGood(first)
        assert match.history[before] == expected
        await play_out_reading_summaries(pilot, app)


@pytest.mark.slow  # the end of a game by keys
async def test_the_last_stretch_of_a_match_by_keys_ends_at_the_game_over_screen(tmp_path):
    async with running(tmp_path, near_the_end("jaipur", "Ann,bot:random", left=10)) as (app, pilot):
        await play_out_reading_summaries(pilot, app)


async def play_out_reading_summaries(pilot, app) -> None:
    """Play the human's turns by keys, reading each round summary, until the match is over."""
    match = local_match(app)
    rounds_before = len(state_of(match, JaipurState).rounds)
    summaries = 0

    async def turn() -> None:
        nonlocal summaries
        if isinstance(app.screen, RoundSummaryScreen):
            summaries += 1
            await pilot.press("enter")
            return
        assert isinstance(app.screen, TableScreen) and match.to_move == 0
        before = len(match.history)
        await play_turn_by_keys(pilot, match)
        await settle(pilot, app)
        assert len(match.history) > before

    await play_out_by_keys(pilot, app, turn, 1500)
    state = state_of(match, JaipurState)
    assert summaries == len(state.rounds) - 1 - rounds_before
    assert max(state.seals) == 2


@pytest.mark.slow
async def test_curtain_hides_hands_and_bonus_values(tmp_path):
    def both_have_bonus(match: Match) -> bool:
        counts = [sum(len(v) for v in held) for held in state_of(match, JaipurState).bonus_won]
        state = state_of(match, JaipurState)
        return min(counts) > 0 and match.to_move == 0 and not state.rounds

    match = jaipur_match("Ann,Bob", moves=300, until=both_have_bonus)
    assert both_have_bonus(match)
    state = match.state
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Ann"
        # Under the curtain the table was drawn without a viewer: no hand, no bonus value.
        assert screen.table.view.observation.player is None
        assert not screen.query_one("#hand-row").display
        players = str(screen.query_one("#players").render())
        assert players.count("hidden") == 2 and "so far" not in players
        text = curtain_text(app)
        assert "Pass to Ann" in text and "diamond" not in text and "hidden" not in text
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.view.observation.player == 0 and screen.query_one("#hand-row").display
        hand = state.hands[0]
        faces = [str(card.render()) for card in screen.query_one("#hand-row").cards]
        assert faces[0].startswith(f"D ×{hand[0]}")
        players = str(screen.query_one("#players").render())
        mine = sum(sum(v) for v in state.bonus_won[0])
        assert players.count("hidden") == 1
        assert f"worth {mine} " in players or f"= {mine} {screen.glyphs.sep} " in players
        # Ann plays; the curtain comes down for Bob before his hand is drawn.
        await pilot.press("a", "enter")
        await pilot.pause()
        assert isinstance(app.screen, CurtainScreen) and app.screen.player_name == "Bob"
        assert (
            screen.table.view.observation.player is None
            and not screen.query_one("#hand-row").display
        )
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.view.observation.player == 1


async def test_an_illegal_sale_is_refused_with_a_notification(tmp_path):
    match = jaipur_match()
    game, state = match.game, match.state
    good = next(g for g in GOODS if state.hands[0][g.index] == 1 and g in (Card.GOLD, Card.SILVER))
    reason = game.why_illegal(state, Sell(good, 1))
    assert reason
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        await press_card(pilot, "hand-row", GOODS.index(good))
        assert isinstance(app.screen, TableScreen)
        assert [n.message for n in app._notifications] == [reason]
        assert match.history == [] and match.state is state


def one_sale(match: Match) -> Sell | None:
    """The sale of a good that only one count of may be sold now, if Ann is to move."""
    sales = [a for a in match.legal_actions() if isinstance(a, Sell)] if match.to_move == 0 else []
    return next((a for a in sales if [b.good for b in sales].count(a.good) == 1), None)


@pytest.mark.slow
async def test_a_stray_enter_on_a_hand_card_sells_nothing(tmp_path):
    """One count of the good may be sold: Enter on it still asks, and only the answer
    sells (a second Enter, deliberately, on the question); Esc leaves the hand as it was."""
    match = jaipur_match(moves=60, until=lambda m: one_sale(m) is not None)
    sale = one_sale(match)
    assert sale is not None
    played = len(match.history)
    async with running(tmp_path, match) as (app, pilot):
        await press_card(pilot, "hand-row", GOODS.index(sale.good))
        assert isinstance(app.screen, ChoiceScreen) and len(match.history) == played
        assert app.screen.options == [match.game.preview(match.view(0), sale)]
        await pilot.press("escape")
        await settle(pilot, app)
        assert isinstance(app.screen, TableScreen)
        assert len(match.history) == played
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        assert len(match.history) == played
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[played] == sale


@pytest.mark.slow
async def test_exchange_picker_offers_only_legal_exchanges(tmp_path):
    match = jaipur_match()
    offers = [a for a in match.legal_actions() if isinstance(a, Exchange)]
    takes = list(dict.fromkeys(a.take for a in offers))
    async with running(tmp_path, match) as (app, pilot):
        await press_card(pilot, "market", 5)  # the exchange card
        assert isinstance(app.screen, ChoiceScreen)
        assert len(app.screen.options) == len(takes)
        await press_to(pilot, "enter", ChoiceScreen)
        ways = [a for a in offers if a.take == takes[0]]
        assert len(app.screen.options) == len(ways)
        await pilot.press("end", "enter")
        await settle(pilot, app)
        played = match.history[0]
        assert isinstance(played, Exchange) and played in ways


@pytest.mark.slow
async def test_round_summary_between_rounds_and_again_on_o(tmp_path):
    game = get_game("jaipur")

    def last_move(match: Match) -> bool:
        state = match.state
        return any(game.apply(state, a).rounds for a in match.legal_actions())

    match = jaipur_match("Ann,Bob", moves=400, until=last_move)
    ending = next(a for a in match.legal_actions() if game.apply(match.state, a).rounds)
    async with running(tmp_path, match) as (app, pilot):
        await pilot.press("enter")  # lift the curtain
        await pilot.pause()
        screen = game_screen(app)
        assert screen.decide(ending)
        await pilot.pause()
        await pilot.pause()
        # The summary comes over the curtain: both players read it before the hand is passed.
        assert isinstance(app.screen, RoundSummaryScreen)
        assert isinstance(app.screen_stack[-2], CurtainScreen)
        text = screen_text(app)
        reason = match.state.rounds[0].reason
        assert reason.split(".")[0] in text and "Camel token" in text
        await press_to(pilot, "enter", CurtainScreen)
        await pilot.press("enter")
        await pilot.pause()
        await press_to(pilot, "o", RoundSummaryScreen)
        await press_to(pilot, "escape", TableScreen)
        await press_to(pilot, "o", RoundSummaryScreen)
        await press_to(pilot, "n", TableScreen)  # as a lesson's "n goes on" says


@pytest.mark.slow
async def test_a_bot_waits_while_the_round_summary_is_open(tmp_path):
    game = get_game("jaipur")

    def hands_round_to_bot(match: Match, action) -> bool:
        after = game.apply(match.state, action)
        return len(after.rounds) > len(state_of(match, JaipurState).rounds) and after.to_move == 1

    def last_move(match: Match) -> bool:
        return match.to_move == 0 and any(
            hands_round_to_bot(match, a) for a in match.legal_actions()
        )

    match = jaipur_match("Ann,bot:random", moves=600, until=last_move)
    assert last_move(match), "no round ending that hands the next round to the bot"
    ending = next(a for a in match.legal_actions() if hands_round_to_bot(match, a))
    async with running(tmp_path, match) as (app, pilot):
        screen = game_screen(app)
        assert screen.decide(ending)
        decided = len(match.history)
        for _ in range(5):
            await pilot.pause(0.05)
        assert isinstance(app.screen, RoundSummaryScreen)
        assert len(match.history) == decided and not screen.driver.thinking
        await pilot.press("enter")
        await settle(pilot, app)
        assert len(match.history) > decided  # the bot plays once the summary is closed


# -- snapshots ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_jaipur_table_start(snap_compare, tmp_path, size):
    assert snap_table(snap_compare, tmp_path, jaipur_match(), size)


def mid_game() -> Match:
    """Ann to move some forty decisions into the first round."""
    return jaipur_match(moves=100, until=lambda m: len(m.history) >= 40 and m.to_move == 0)


@pytest.mark.parametrize("size", TABLE_SIZES)
def test_jaipur_table_mid_game(snap_compare, tmp_path, size):
    assert snap_table(snap_compare, tmp_path, mid_game(), size)


async def open_exchange_picker(pilot) -> None:
    """Mark the first goods to take in an exchange: the picker asks what to give."""
    await steady(pilot)
    await pilot.press("x", "enter")
    await steady(pilot)


@pytest.mark.parametrize("size", SIZES)
def test_jaipur_exchange_picker(snap_compare, tmp_path, size):
    app = start_with(tmp_path, mid_game())
    assert snap_compare(app, terminal_size=size, run_before=open_exchange_picker)


@pytest.mark.parametrize("size", SIZES)
def test_jaipur_round_summary(snap_compare, tmp_path, size):
    game = get_game("jaipur")
    match = jaipur_match(moves=400, until=lambda m: bool(m.state.rounds))

    async def open_summary(pilot):
        await steady(pilot)
        await pilot.press("o")
        await steady(pilot)

    assert match.state.rounds and not game.is_over(match.state)
    app = start_with(tmp_path, match)
    assert snap_compare(app, terminal_size=size, run_before=open_summary)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(120, 40), (200, 50)])
async def test_no_card_wraps_and_each_pile_is_said_on_one_line(tmp_path, size):
    """Leather's nine tokens too: every line a card shows fits its width, and a good's
    tokens left take the one line under "tokens left" (counted where they would not fit)."""
    async with running(tmp_path, jaipur_match(), size) as (app, _pilot):
        for card in app.screen.query(CardWidget):
            face = card.face
            if not card.display or face is None:
                continue
            room = card.content_size
            lines = str(face.text_for(room.height, room.width)).splitlines()
            assert len(lines) <= room.height and all(cell_len(line) <= room.width for line in lines)
            if "tokens left" in lines:
                below = lines[lines.index("tokens left") + 1 :]
                assert len([line for line in below if line.strip()]) == 1, lines
        drawn = visible_characters(app)
        if size == (200, 50):  # the cards are large: leather's pile is on its card
            assert "4 3 2 1×6" in drawn


@pytest.mark.slow
def test_jaipur_game_over(snap_compare, tmp_path):
    """The results: each round's rupees charted in lines of their own, at 200x50."""
    assert snap_table(snap_compare, tmp_path, play_to_end(jaipur_match()), (200, 50))


@given(
    st.lists(st.sampled_from(list(Card)), min_size=5, max_size=5),
    st.lists(st.sampled_from(list(Card)), min_size=0, max_size=5),
)
def test_the_market_keeps_its_cards_in_place_whatever_arrives_or_runs_out(shown, cards):
    """Every card shown once; with the market full, a card still there keeps its place."""
    laid = stable_layout(shown, cards)
    assert sorted(laid) == sorted(cards)
    if len(cards) == len(shown):
        left = Counter(cards)
        for place, card in enumerate(shown):
            if left[card]:
                left[card] -= 1
                assert laid[place] == card


def test_the_market_shrinks_from_its_emptied_places_when_the_deck_runs_dry():
    shown = [Card.GOLD, Card.SILVER, Card.CLOTH, Card.SPICE, Card.LEATHER]
    laid = stable_layout(shown, [Card.GOLD, Card.SILVER, Card.LEATHER, Card.CAMEL])
    assert laid == [Card.GOLD, Card.SILVER, Card.CAMEL, Card.LEATHER]


def _with_market(obs, *cards: Card):
    counts = Counter(cards)
    return attrs.evolve(obs, market=tuple(counts[card] for card in Card))


def test_a_card_that_replaces_one_of_its_own_kind_is_marked_new():
    """Counting kinds alone saw no change when a camel was drawn where the camels were taken."""
    game = get_game("jaipur")
    obs = game.observe(game.new_game(["Ann", "Bob"], 1), 0)
    G, S, L, C = Card.GOLD, Card.SILVER, Card.LEATHER, Card.CAMEL
    before = _with_market(obs, G, S, L, C, C)
    # Both camels taken; a camel and a leather were drawn.
    after = _with_market(obs, G, S, L, L, C)
    assert arrivals(before, (TakeCamels(),), after) == Counter({C: 1, L: 1})
    # The silver taken, a silver drawn.
    after = _with_market(obs, G, S, L, C, C)
    assert arrivals(before, (TakeGood(S),), after) == Counter({S: 1})
    # An exchange: gold and silver taken, two camels given; the camels are new to the market.
    take = tuple(int(good in (G, S)) for good in GOODS)
    exchange = Exchange(take, (0,) * len(GOODS), 2)
    after = _with_market(obs, L, C, C, C, C)
    assert arrivals(before, (exchange,), after) == Counter({C: 2})
    # A sale leaves the market as it was.
    assert arrivals(before, (Sell(L, 1),), before) == Counter()


def test_the_new_mark_goes_on_the_place_that_changed():
    """A rival's exchange gave a camel to the market, which held one already: the mark went on
    the camel that had not moved (the first camel), not on the place the new one filled."""
    G, K, S, L, P = Card.GOLD, Card.CAMEL, Card.SILVER, Card.LEATHER, Card.SPICE
    previous = [P, K, S, S, P]
    places = [G, K, S, L, K]  # a silver and both spices taken; a camel, gold and leather given
    arrived = Counter({G: 1, L: 1, K: 1})
    assert new_places(places, previous, arrived) == {0, 3, 4}
    # A camel drawn where the camel was taken: the same place, and still marked.
    assert new_places([G, K, S, L, P], [G, K, S, L, P], Counter({K: 1})) == {1}
    # Without the places before (a hosted table's first view), the first of each kind.
    assert new_places(places, None, arrived) == {0, 1, 3}


@pytest.mark.slow
async def test_the_round_zone_shows_every_line_of_both_players_at_80x24(tmp_path):
    """Ann's takings make a long line: it is said shorter rather than wrapped, so the lines
    under her rival (his tokens, the goods seen in his hand) stay in sight."""
    from tests.core.test_analysis import decisive_jaipur

    seats = [Seat("Ann"), Seat("Bob", "bot", "hard")]
    match = Match(get_game("jaipur"), seats, 7, initial=decisive_jaipur())
    async with running(tmp_path, match) as (app, pilot):
        players = game_screen(app).query_one("#players")
        lines = str(players.render()).splitlines()
        room = players.content_region
        assert len(lines) == 5 and len(lines) <= room.height
        assert all(cell_len(line) <= room.width for line in lines), lines
        assert "30 so far" in lines[1] and lines[4].strip() == "seen in hand: S2"
        drawn = visible_characters(app)
        assert "seen in hand: S2" in drawn and "so far" in drawn
        # A prompt of two rows takes a row from the zone: the goods seen in the rival's
        # hand join the line of his tokens instead of falling off the bottom.
        screen = game_screen(app)
        screen.query_one("#status").show("Ann: " + "a long prompt " * 8, False, "", screen.glyphs)
        await pilot.pause()
        assert screen.query_one("#status").size.height == 2
        lines = str(players.render()).splitlines()
        assert len(lines) == 4 and len(lines) <= players.content_region.height
        assert lines[3].endswith(f"{screen.glyphs.sep} seen: S2"), lines
        assert all(cell_len(line) <= room.width for line in lines), lines


@pytest.mark.slow
async def test_the_market_keeps_its_places_through_undo_and_resume(tmp_path):
    """The market's order comes from the game's history, not from what the screen drew
    last: undo and resume show each card where it was."""
    match = jaipur_match(moves=0)
    async with running(tmp_path, match) as (app, pilot):
        market = game_screen(app).table.query_one(MarketZone)
        seen = [list(market.shown)]
        for _ in range(3):  # Ann takes a good (the last one offered) or else the camels
            legal = match.legal_actions()
            shown = market.shown
            takes = [i for i, card in enumerate(shown) if card and TakeGood(card) in legal]
            camels = [i for i, card in enumerate(shown) if card is Card.CAMEL]
            await press_card(pilot, "market", takes[-1] if takes else camels[0])
            await settle(pilot, app)
            seen.append(list(market.shown))
        assert len(match.history) == 6
        await pilot.press("u")  # back to Ann's third decision: the market as she saw it
        await settle(pilot, app)
        assert market.shown == seen[2]
        await pilot.press("u")
        await settle(pilot, app)
        assert market.shown == seen[1]
        await pilot.press("r", "r")
        await settle(pilot, app)
        assert market.shown == seen[3]
        game_screen(app).driver.flush()
        path = game_screen(app).driver.save_path
    again = make_app(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        again.open_file(path)
        await settle(pilot, again)
        assert game_screen(again).table.query_one(MarketZone).shown == seen[3]


async def test_the_replay_offers_no_move(tmp_path):
    """A replay plays nothing: the table says nothing of Enter selling, x exchanging or
    Space marking."""
    from karavan_tui.screens.replay import Replay

    match = jaipur_match(moves=6)
    async with running(tmp_path) as (app, pilot):
        app.push_screen(TableScreen(Replay(match, 6, 0)))  # at Ann's decision, as she saw it
        await pilot.pause()
        text = visible_characters(app)
        assert "Ann's hand" in text
        for words in ("Enter sells", "x exchanges", "Space marks"):
            assert words not in text


@pytest.mark.slow
async def test_at_the_end_of_the_match_every_bonus_token_is_valued(tmp_path):
    """Bonus values stay hidden only until the round ends: once the match is over (and in
    the face-up replay) the table values everyone's."""
    from karavan_tui.screens.replay import Replay

    match = jaipur_match("Ann,bot:random", seed=4243, moves=2000, until=lambda m: m.is_over())
    assert match.is_over() and all(s.bonus_tokens for s in match.state.rounds[-1].scores)
    async with running(tmp_path) as (app, pilot):
        app.push_screen(TableScreen(Replay(match, len(match.history), 0)))
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        assert "every card face up" in visible_characters(app)
        players = str(app.screen.query_one("#players").render())
        assert "hidden" not in players
        counts = [sum(score.bonus_tokens) for score in match.state.rounds[-1].scores]
        assert all(f"{total}" in players for total in counts)


def test_at_the_end_of_the_match_the_total_in_all_counts_the_camel_token():
    """The round box's "in all" is the last round's whole score: goods, bonus and the camel
    token, which is given only as the round ends (it used to be left out)."""
    from karavan_tui.glyphs import glyphs
    from karavan_tui.tables.jaipur.players import takings

    match = jaipur_match("Ann,bot:random", seed=4243, moves=2000, until=lambda m: m.is_over())
    scores = match.state.rounds[-1].scores
    assert any(score.camel_token for score in scores)
    obs = match.game.observe(match.state, 0)
    for seat, score in enumerate(scores):
        line = takings(obs, seat, seat == 0, 200, glyphs(False)).plain
        assert line.endswith(f"{score.total} in all"), line
        assert ("camel token" in line) == bool(score.camel_token), line


def test_the_market_is_laid_out_afresh_at_each_deal_and_kept_in_place_after():
    from karavan_core.games.jaipur.rules import cards_of
    from karavan_tui.tables.jaipur.layout import market_places

    match = jaipur_match(moves=400, until=lambda m: len(m.state.rounds) == 1)
    views = match.public_views()
    assert views[-1].turn == 0 and len(views[-1].rounds) == 1  # round 2 just dealt
    assert market_places(views) == cards_of(views[-1].market)  # goods, then camels
    assert market_places(views[:1]) == cards_of(views[0].market)
    for end in range(2, 12):  # within the first round each card keeps its place
        before, after = market_places(views[: end - 1]), market_places(views[:end])
        assert after == stable_layout(before, cards_of(views[end - 1].market)[:5])


@pytest.mark.slow
async def test_the_rules_explain_what_the_table_abbreviates(tmp_path):
    """F1 at the table: the rules say what K, "sold D3 G2 L2" and "seen in hand" mean."""
    from karavan_tui.screens.rules import RulesScreen

    async with running(tmp_path, jaipur_match(moves=6)) as (_, pilot):
        await press_to(pilot, "f1", RulesScreen)
        text = await rules_shown(pilot, "jaipur")
        assert "**K**" in text and "herd K3" in text
        assert "sold D3 G2 L2" in text and "seen in hand" in text


@pytest.mark.slow
async def test_the_cursor_passes_over_the_piles_of_none_in_the_hand(tmp_path):
    """The hand shows every good, "C ×0" included: the arrows pass over those, as over
    empty places elsewhere, and the cursor does not start on one."""
    match = jaipur_match("Ann,bot:random")
    hand = match.view(0).hand
    assert hand is not None and 0 in hand
    async with running(tmp_path, match) as (_app, pilot):
        await focus_row(pilot, "hand-row")
        row = pilot.app.screen.focused
        held = [i for i, count in enumerate(hand) if count] + [len(hand)]  # and the herd
        if match.view(0).herds[0] == 0:
            held.pop()
        await pilot.press("home")
        visited = [row.cursor]
        for _ in range(len(hand) + 1):
            await pilot.press("right")
            visited.append(row.cursor)
        assert sorted(set(visited)) == held
