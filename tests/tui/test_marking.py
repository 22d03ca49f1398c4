"""Choosing with the cards: decisions of several cards made by marking them on the table."""

from __future__ import annotations

import pytest
from attrs import evolve
from textual.widgets import OptionList
from textual.widgets._toast import Toast

from karavan_core.games.jaipur.components import GOODS, Card
from karavan_core.games.jaipur.state import Exchange
from karavan_core.games.karakorum.state import Place, Reveal, Step, Take
from karavan_core.games.karakum.components import RESOURCES
from karavan_core.games.karakum.rules import payments, price
from karavan_core.games.karakum.state import Buy, DrawCard, Pay, TakeCard
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.table import TableScreen
from karavan_tui.tables.marking import Marks
from karavan_tui.widgets.cards import CardRow

from .helpers import (
    game_screen,
    noted,
    running,
    seeded_match,
    settle,
    start_with,
    visible_characters,
)
from .test_snapshots import SIZES, snap_table, steady


def jaipur_exchange_position():
    """A Jaipur match at Ann's turn where an exchange of two goods for two cards is legal."""
    for seed in range(1, 200):
        match = seeded_match("jaipur", "Ann,bot:random", seed=seed, first=0)
        for exchange in match.legal_actions():
            if isinstance(exchange, Exchange) and sum(exchange.take) == 2 and not exchange.camels:
                return match, exchange
    raise AssertionError("no such deal")


async def mark(pilot, row: CardRow, index: int) -> None:
    """Put the cursor on card ``index`` of ``row`` and press Space."""
    row.focus()
    row.point_at(index)
    await pilot.pause()
    await pilot.press("space")
    await pilot.pause()


def last_note(app):
    """The newest notification."""
    return list(app._notifications)[-1]


async def test_a_jaipur_exchange_is_made_by_marking_cards_refused_until_it_is_whole(tmp_path):
    match, exchange = jaipur_exchange_position()
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        table = screen.table
        market = screen.query_one("#market", CardRow)
        hand = screen.query_one("#hand-row", CardRow)
        shown = table.query_one("MarketZone").shown
        wanted = [good for good in GOODS for _ in range(exchange.take[good.index])]
        for good in wanted:  # the goods to take, by their places in the market
            place = next(
                i for i, card in enumerate(shown) if card is good and i not in table.marks.taking
            )
            await mark(pilot, market, place)
        status = str(screen.query_one("#status").render())
        assert "Exchange: take 2, give 0" in status and "gives back exactly" in status
        await pilot.press("enter")  # refused: nothing given yet, nothing changes
        await pilot.pause()
        assert match.history == [] and "gives back exactly" in last_note(app).message
        for good in GOODS:  # the cards to give, one Space per card
            for _ in range(exchange.give[good.index]):
                await mark(pilot, hand, good.index)
        assert "Enter exchanges" in str(screen.query_one("#status").render())
        # Each card marked to give says so in the card's full width: side by side without a
        # gap at 80x24, a shorter label touched the name on the card before ("leathergive 2").
        marked = [card for card in hand.cards if card.has_class("-marked")]
        assert marked
        for card in marked:
            label = str(card.render()).splitlines()[1]
            assert label.strip() == f"give {card.face.text[-1]}" and len(label) == 7
        assert_labels_apart(app, hand)
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[0] == exchange
        assert not table.marking


def assert_labels_apart(app, hand) -> None:
    """The hand's second lines, read across the screen, keep a blank between the cards' words."""
    region = hand.content_region
    row = visible_characters(app).splitlines()[region.y + 1][region.x : region.right]
    words = [word for card in hand.cards for word in card.face.text.splitlines()[1].split()]
    assert row.split() == words, row


def test_a_pile_marked_to_give_leaves_a_blank_before_a_name_that_fills_its_card():
    """Spice marked, leather not: "give 1 leather", not "give 1leather"; and the herd's
    label after the leather keeps its blank in front ("leather give 2")."""
    from karavan_tui.glyphs import glyphs
    from karavan_tui.tables.jaipur.zones import HandData, HandZone

    match = seeded_match("jaipur", "Ann,bot:random", seed=5, first=0)
    obs = match.view(0)
    giving = tuple(1 if good is Card.SPICE else 0 for good in GOODS)
    data = HandData(obs=obs, legal=frozenset(), g=glyphs(False), giving=giving, giving_camels=2)
    seconds = [face.text.splitlines()[1] for face in HandZone._goods(data, obs.hand)]
    seconds.append(HandZone._herd(data, 3).text.splitlines()[1])
    assert seconds[GOODS.index(Card.SPICE)] == "give 1 "
    assert "".join(seconds[-3:]) == "give 1 leather give 2"


@pytest.mark.slow
async def test_escape_clears_the_marks_and_a_camel_cannot_be_marked_to_take(tmp_path):
    match = seeded_match("jaipur", "Ann,bot:random", seed=5, first=0)
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        table = screen.table
        market = screen.query_one("#market", CardRow)
        shown = table.query_one("MarketZone").shown
        camel = shown.index(Card.CAMEL)
        await mark(pilot, market, camel)
        # The rule that refuses the mark is the exchange's, not the one of taking a good.
        note = last_note(app).message
        assert not table.marking and "cannot be taken in an exchange" in note, note
        good = next(i for i, card in enumerate(shown) if card not in (None, Card.CAMEL))
        await mark(pilot, market, good)
        assert table.marking
        await pilot.press("escape")
        await pilot.pause()
        assert not table.marking and match.history == []


def karakum_buying_position():
    """A Karakum match where Ann can buy a camel in two or more ways."""
    for moves in range(10, 120):
        match = seeded_match("karakum", "Ann,bot:random", moves=moves)
        if match.to_move != 0:
            continue
        state = match.state
        for action in match.legal_actions():
            if isinstance(action, Buy):
                camel = state.market[action.slot]
                ways = payments(state.hands[0], camel.color, price(state.market, action.slot))
                if len(ways) >= 2:
                    return match, action.slot, ways
    raise AssertionError("no such deal")


@pytest.mark.slow
async def test_a_digit_puts_the_cursor_on_that_entry_of_the_payment_list(tmp_path):
    """The payment picker numbers its entries too; a digit beyond them is ignored."""
    match, slot, ways = karakum_buying_position()
    async with running(tmp_path, match) as (app, pilot):
        game_screen(app).table.buy(slot)
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ChoiceScreen) and not picker.searchable
        choices = picker.query_one("#choices", OptionList)
        count = len(picker.options)
        assert count == len(ways) >= 2
        await pilot.press(str(count))
        await pilot.pause()
        assert choices.highlighted == count - 1
        await pilot.press("1")
        await pilot.pause()
        assert choices.highlighted == 0
        if count < 9:
            await pilot.press(str(count + 1), "0")
            await pilot.pause()
            assert choices.highlighted == 0 and app.screen is picker
        await pilot.press(str(count), "enter")
        await settle(pilot, app)
        assert match.history[-2:] == [Buy(slot), Pay(ways[count - 1])]


@pytest.mark.slow
async def test_a_karakum_purchase_is_paid_by_marking_the_cheapest_first(tmp_path):
    match, slot, ways = karakum_buying_position()
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        table = screen.table
        table.buy(slot)
        await pilot.pause()
        assert table.paying is not None and table.paying.counts == ways[0]  # the cheapest
        hand = screen.query_one("#hand-row", CardRow)
        # Mark another legal payment instead: unmark everything, then mark ways[1].
        for index in range(len(ways[0])):
            while table.paying.counts[index] != ways[1][index]:
                await mark(pilot, hand, index)
        assert table.paying.counts == ways[1]
        assert "Enter buys" in str(screen.query_one("#status").render())
        before = len(match.history)
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before : before + 2] == [Buy(slot), Pay(ways[1])]
        # One gesture: one undo takes the purchase back.
        await pilot.press("u")
        await settle(pilot, app)
        assert len(match.history) == before
        # Enter buys from any row while paying, as the status line says: the
        # arrows may have taken the focus to the resources.
        table.buy(slot)
        screen.query_one("#resources").focus()
        await pilot.pause()
        assert "Enter buys" in str(screen.query_one("#status").render())
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before : before + 2] == [Buy(slot), Pay(ways[0])]


@pytest.mark.slow
async def test_a_karakum_payment_that_does_not_pay_is_refused_with_the_engines_reason(tmp_path):
    match, slot, _ = karakum_buying_position()
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        table = screen.table
        table.buy(slot)
        await pilot.pause()
        assert table.paying is not None
        table.paying = evolve(table.paying, cards=Marks())  # nothing marked
        table.show(table.view)
        await pilot.press("enter")
        await pilot.pause()
        assert not any(isinstance(a, Buy) for a in match.history[-1:])
        assert "payment" in last_note(app).message


def status_text(screen) -> str:
    """The status line's words."""
    return str(screen.query_one("#status").render())


async def buy_from_the_move_list(pilot, camel) -> None:
    """Open the move list, narrow it down to buying ``camel`` and choose that."""
    await pilot.press("a")
    await pilot.pause()
    await pilot.press(*f"buys the {camel}", "enter")
    await pilot.pause()


@pytest.mark.slow
async def test_a_camel_chosen_in_the_move_list_is_paid_for_and_esc_buys_nothing(tmp_path):
    match, slot, ways = karakum_buying_position()
    camel = match.state.market[slot]
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        table = screen.table
        before = len(match.history)
        log = match.log()
        await buy_from_the_move_list(pilot, camel)
        # The purchase is being marked, as if the camel had been chosen in the market:
        # nothing is played yet, so the log does not say it was bought.
        assert len(match.history) == before and match.log() == log
        assert table.paying is not None and table.paying.slot == slot
        assert table.paying.counts == ways[0]
        assert "Enter buys, Esc cancels" in status_text(screen)
        await pilot.press("escape")
        await pilot.pause()
        # Esc bought nothing: the turn is as it was, and the status line says so.
        assert table.paying is None and len(match.history) == before
        assert status_text(screen).startswith("Ann: gather resources or buy a camel")
        hand = screen.query_one("#hand-row", CardRow)
        await mark(pilot, hand, ways[0].index(1))
        assert "Choose a camel in the market first" in last_note(app).message
        # Chosen again and paid: Buy and Pay are one gesture, taken back by one undo.
        await buy_from_the_move_list(pilot, camel)
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before : before + 2] == [Buy(slot), Pay(ways[0])]
        await pilot.press("u")
        await settle(pilot, app)
        assert len(match.history) == before


@pytest.mark.slow
async def test_a_camel_bought_without_its_payment_stays_to_be_paid_after_esc(tmp_path):
    """A save may end between Buy and Pay (the move list once played Buy alone)."""
    match, slot, ways = karakum_buying_position()
    match.play(Buy(slot))
    paid = len(match.history)
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        table = screen.table
        assert table.paying is not None and table.paying.slot == slot
        await pilot.press("escape")
        await pilot.pause()
        # The camel is bought: Esc cannot take that back, so the payment stays to be
        # marked, and the status line and the toast say what to do.
        assert table.paying is not None and table.paying.slot == slot
        assert "bought already" in last_note(app).message
        assert "Enter pays" in status_text(screen)
        hand = screen.query_one("#hand-row", CardRow)
        for index in range(len(ways[1])):  # mark the other way to pay, card by card
            while table.paying.counts[index] != ways[1][index]:
                await mark(pilot, hand, index)
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[paid - 1 : paid + 1] == [Buy(slot), Pay(ways[1])]


@pytest.mark.slow
def test_snapshot_of_a_camel_bought_already_being_paid_for(snap_compare, tmp_path):
    match, slot, _ = karakum_buying_position()
    match.play(Buy(slot))
    assert snap_table(snap_compare, tmp_path, match)


def karakorum_placing_position():
    """A Karakorum match where Ann places a taken card that could go to two places."""
    for seed in range(1, 300):
        match = seeded_match("karakorum", "Ann,Bob", seed=seed, first=0, moves=0)
        for _ in range(120):
            if match.is_over():
                break
            state = match.state
            if state.step is Step.PLACE and state.current == 0:
                places = [a for a in match.legal_actions() if isinstance(a, Place)]
                if len({a.expedition for a in places}) >= 2:
                    return match, places
            match.play(match.legal_actions()[0])
    raise AssertionError("no such position")


async def test_a_karakorum_card_is_placed_by_marking_it_then_choosing_its_expedition(tmp_path):
    match, places = karakorum_placing_position()
    async with running(tmp_path, match, (100, 30), notifications=True) as (app, pilot):
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")  # the curtain
            await pilot.pause()
        screen = game_screen(app)
        table = screen.table
        place = places[-1]
        held = list(match.state.held[0])
        row = screen.query_one("#table-row", CardRow)
        await mark(pilot, row, 1 + held.index(place.card))
        assert list(table.marked) == [place.card]
        assert "choose its expedition" in str(screen.query_one("#status").render())
        expeditions = screen.query_one("#exp-row", CardRow)
        target = 4 if place.expedition is None else place.expedition  # the last slot: a new one
        expeditions.focus()
        await pilot.pause()
        await pilot.press("home", *["right"] * target, "enter")
        await settle(pilot, app)
        assert place in match.history


def karakorum_taking_position():
    """Ann may take two cards of one peak from the table."""
    for seed in range(1, 400):
        match = seeded_match("karakorum", "Ann,Bob", seed=seed, first=0)
        for _ in range(200):
            if match.is_over():
                break
            state = match.state
            if state.step is Step.TAKE and state.current == 0:
                takes = [a.card for a in match.legal_actions() if isinstance(a, Take)]
                for card in takes:
                    same = [c for c in takes if c.color is card.color and c != card]
                    if same:
                        return (
                            match,
                            [card, same[0]],
                            next((c for c in takes if c.color is not card.color), None),
                        )
            legal = match.legal_actions()
            reveal = next((a for a in legal if isinstance(a, Reveal)), None)
            match.play(reveal if reveal is not None and len(state.table) < 3 else legal[0])
    raise AssertionError("no such position")


@pytest.mark.slow
async def test_several_karakorum_cards_of_one_peak_are_taken_together(tmp_path):
    match, pair, other = karakorum_taking_position()
    async with running(tmp_path, match, (100, 30), notifications=True) as (app, pilot):
        if not isinstance(app.screen, TableScreen):
            await pilot.press("enter")
            await pilot.pause()
        screen = game_screen(app)
        row = screen.query_one("#table-row", CardRow)
        cards = list(match.state.table)
        before = len(match.history)
        if other is not None:  # a card of another peak: refused with the engine's reason
            await mark(pilot, row, 1 + cards.index(pair[0]))
            await mark(pilot, row, 1 + cards.index(other))
            await pilot.press("enter")
            await pilot.pause()
            assert len(match.history) == before
            await pilot.press("escape")
            await pilot.pause()
        for card in pair:
            await mark(pilot, row, 1 + cards.index(card))
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history[before : before + 2] == [Take(pair[0]), Take(pair[1])]


@pytest.mark.slow
async def test_typing_in_the_move_list_narrows_it_and_enter_plays_the_entry_found(tmp_path):
    match = seeded_match("jaipur", "Ann,bot:random", seed=4, first=0)
    async with running(tmp_path, match) as (app, pilot):
        listing = await open_move_list(pilot)
        total = len(listing.options)
        await pilot.press(*"camel")
        await pilot.pause()
        found = [listing.options[i] for i in listing.matching()]
        assert found and all("camel" in entry for entry in found) and len(found) < total
        assert f"{len(found)} of {total}" in str(listing.query_one("#choice-search").render())
        await pilot.press("enter")
        await settle(pilot, app)
        assert_first_played(match, found[0])


async def open_move_list(pilot) -> ChoiceScreen:
    """The list of every move (a), open."""
    await pilot.press("a")
    await pilot.pause()
    listing = pilot.app.screen
    assert isinstance(listing, ChoiceScreen) and listing.searchable
    return listing


def assert_first_played(match, entry: str) -> None:
    """The match's first decision is the one the move list called ``entry``."""
    played = match.log()[1]
    assert played == entry or played.startswith(entry.rstrip("."))


@pytest.mark.slow
async def test_typing_a_number_shown_in_the_move_list_plays_that_entry(tmp_path):
    """The list numbers its entries: a player who reads 3 and types it gets the third."""
    match = seeded_match("jaipur", "Ann,bot:random", seed=4, first=0)
    async with running(tmp_path, match) as (app, pilot):
        listing = await open_move_list(pilot)
        assert len(listing.options) >= 3
        await pilot.press("3")
        await pilot.pause()
        assert 2 in listing.matching() and listing.numbered() == 2
        cursor = listing.query_one("#choices", OptionList).highlighted_option
        assert cursor is not None and cursor.id == "2"
        await pilot.press("enter")
        await settle(pilot, app)
        assert_first_played(match, listing.options[2])


@pytest.mark.slow
async def test_one_escape_closes_a_narrowed_move_list(tmp_path):
    match = seeded_match("jaipur", "Ann,bot:random", seed=4, first=0)
    async with running(tmp_path, match) as (app, pilot):
        await pilot.press("a", *"camel")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen) and app.screen.query_text == "camel"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and match.history == []


@pytest.mark.slow
async def test_a_right_click_marks_a_card_and_a_click_on_the_exchange_card_acts(tmp_path):
    match, _ = jaipur_exchange_position()
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        screen = game_screen(app)
        table = screen.table
        market = screen.query_one("#market", CardRow)
        shown = table.query_one("MarketZone").shown
        good = next(i for i, card in enumerate(shown) if card not in (None, Card.CAMEL))
        await pilot.click(market.cards[good], button=3)
        await pilot.pause()
        assert list(table.marks.taking) == [good]
        await pilot.click(market.cards[-1])  # the exchange card: the marks are refused
        await pilot.pause()
        assert match.history == [] and "Not allowed" in last_note(app).title


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_of_an_exchange_being_marked(snap_compare, tmp_path, size):
    match, _ = jaipur_exchange_position()

    async def mark_two(pilot):
        await steady(pilot)
        table = game_screen(pilot.app).table
        shown = table.query_one("MarketZone").shown
        goods = [i for i, card in enumerate(shown) if card not in (None, Card.CAMEL)][:2]
        market = table.query_one("#market", CardRow)
        for index in goods:
            await mark(pilot, market, index)
        await steady(pilot)

    app = start_with(tmp_path, match)
    assert snap_compare(app, terminal_size=size, run_before=mark_two)


@pytest.mark.slow
async def test_a_karakum_card_drawn_from_the_deck_is_named_to_the_drawer(tmp_path):
    """Enter on the resource deck draws: the log says 'draws a card', a note says which."""
    match = seeded_match("karakum", "Ann,bot:random", first=0)
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        told = noted(app)  # a note may have gone from a busy machine's screen before we look
        before = match.state.hands[0]
        await pilot.press("home", "enter")  # the deck is the first card of the resources row
        await settle(pilot, app)
        assert match.history[0] == DrawCard()
        after = match.view(0).hand
        drawn = next(r for r in RESOURCES if after[r.index] == before[r.index] + 1)
        assert told[-1] == ("From the deck", f"You drew {drawn.counted(1)} from the deck.")
        assert "draws a card from the deck" in match.log()[1]
        # A second blind draw: one note names both cards (two alike were shown as one before,
        # the second note replacing its twin).
        await pilot.press("home", "enter")
        await settle(pilot, app)
        assert match.history[1] == DrawCard()
        second = next(r for r in RESOURCES if match.view(0).hand[r.index] == after[r.index] + 1)
        named = (
            drawn.counted(2) if second is drawn else f"{drawn.counted(1)} and {second.counted(1)}"
        )
        assert told[-1] == ("From the deck", f"You drew {named} from the deck.")
        notes = [note for note in app._notifications if note.title == "From the deck"]
        assert len(notes) <= 1  # the first note was replaced, not joined by a twin


@pytest.mark.slow
async def test_a_karakum_face_up_card_replaced_by_its_twin_is_not_called_a_blind_draw(tmp_path):
    """Seed 1: the card that refills the first face-up place is the same resource as the one
    taken, so the row looks unchanged, as after a blind draw; no note says one was drawn."""
    match = seeded_match("karakum", "Ann,bot:random", seed=1, first=0)
    assert match.game.apply(match.state, TakeCard(0)).row == match.state.row
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        await pilot.press("home", "right", "enter")  # the first face-up card, after the deck
        await settle(pilot, app)
        assert match.history[0] == TakeCard(0)
        assert not [note for note in app._notifications if note.title == "From the deck"]


def unaffordable_camel():
    """A Karakum match at Ann's first turn, and a market camel she cannot buy."""
    match = seeded_match("karakum", "Ann,bot:random", first=0)
    legal = match.legal_actions()
    return match, next(s for s in range(len(match.state.market)) if Buy(s) not in legal)


@pytest.mark.slow
async def test_a_refusal_said_again_replaces_the_toast_instead_of_stacking_copies(tmp_path):
    match, slot = unaffordable_camel()
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        await pilot.press("up", "home", *["right"] * slot)
        for _ in range(3):
            await pilot.press("enter")
            await pilot.pause()
        refusals = [note for note in app._notifications if note.title == "Not allowed"]
        assert len(refusals) == 1 and match.history == []
        app.notify("Something else.")
        await pilot.pause()
        assert len(list(app._notifications)) == 2


@pytest.mark.slow
async def test_at_the_table_a_note_leaves_the_status_line_in_sight(tmp_path):
    match, slot = unaffordable_camel()
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        await pilot.press("up", "home", *["right"] * slot, "enter")  # refused: a note
        await pilot.pause(0.3)
        status = game_screen(app).query_one("#status").region
        toasts = [toast.region for toast in app.screen.query(Toast)]
        assert toasts and not any(region.overlaps(status) for region in toasts), (toasts, status)


@pytest.mark.slow
async def test_a_short_note_is_only_as_wide_as_its_words(tmp_path):
    # At 80x24 a note of a fixed 60 columns hid the caravans and the newest lines of the log.
    match, _ = unaffordable_camel()
    async with running(tmp_path, match, notifications=True) as (app, pilot):
        app.notify("You drew 1 gold from the deck.", title="From the deck")
        await pilot.pause(0.3)
        (toast,) = app.screen.query(Toast)
        words = len("You drew 1 gold from the deck.")
        assert words < toast.region.width <= words + 6, toast.region
