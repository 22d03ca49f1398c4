"""Karawane's gestures without the app: real deals from the engine, stepped to a position."""

from __future__ import annotations

from collections.abc import Callable

from karavan_core.games.karawane import GAME
from karavan_core.games.karawane.components import CITY, Card, Kind
from karavan_core.games.karawane.state import (
    KarawaneState,
    Play,
    PlaySandstorm,
    PlayWithoutEffect,
)
from karavan_tui.tables.karawane.gestures import (
    card_of,
    choose_camel,
    choose_card,
    hint_places,
    hinted_camel,
)
from karavan_tui.tables.outcome import Ask, play

from .deals import first_position


def position(wanted: Callable[[KarawaneState], bool]) -> KarawaneState:
    """The first state of seeded random play where Ann is to move and ``wanted`` holds."""
    state: KarawaneState = first_position(GAME, wanted, steps=80)
    return state


def ann(state: KarawaneState):
    """Ann's observation and her legal decisions."""
    return GAME.observe(state, 0), tuple(GAME.legal_actions(state))


def holds(kind: Kind) -> Callable[[KarawaneState], bool]:
    """Ann holds a card of ``kind``."""
    return lambda state: any(card.kind is kind for card in state.hands[0])


def several_targets(state: KarawaneState) -> bool:
    """An oasis card in Ann's hand could move more than one camel."""
    cards = [a.card for a in GAME.legal_actions(state) if isinstance(a, Play)]
    return any(card.kind is Kind.OASIS and cards.count(card) > 1 for card in cards)


def test_a_card_with_targets_asks_on_which_camel_among_the_engines_plays():
    state = position(several_targets)
    obs, legal = ann(state)
    cards = [a.card for a in legal if isinstance(a, Play)]
    card = next(c for c in cards if c.kind is Kind.OASIS and cards.count(c) > 1)
    slot = obs.hand.index(card)
    gesture = choose_card(obs, legal, slot)
    assert isinstance(gesture, Ask)
    assert gesture.options == tuple(a for a in legal if card_of(a) == card)
    assert all(isinstance(a, Play) and a.card == card for a in gesture.options)
    assert gesture.title == f"{card.label}: on which camel?"


def test_a_card_that_can_move_only_one_camel_is_played_on_it_at_once():
    def one_target(state: KarawaneState) -> bool:
        plays = [a for a in GAME.legal_actions(state) if isinstance(a, Play)]
        return any(sum(p.card == q.card for q in plays) == 1 for p in plays)

    state = position(one_target)
    obs, legal = ann(state)
    plays = [a for a in legal if isinstance(a, Play)]
    only = next(p for p in plays if sum(p.card == q.card for q in plays) == 1)
    gesture = choose_card(obs, legal, obs.hand.index(only.card))
    assert gesture == play(only)


def test_the_sandstorm_is_played_at_once():
    state = position(holds(Kind.SANDSTORM))
    obs, legal = ann(state)
    gesture = choose_card(obs, legal, obs.hand.index(Card.SANDSTORM))
    assert gesture == play(PlaySandstorm())


def test_a_card_with_no_use_is_sent_for_the_engine_to_refuse_in_its_words():
    def stuck(state: KarawaneState) -> bool:
        usable = {card_of(action) for action in GAME.legal_actions(state)}
        return any(card not in usable for card in state.hands[0])

    state = position(stuck)
    obs, legal = ann(state)
    usable = {card_of(action) for action in legal}
    slot = next(i for i, card in enumerate(obs.hand) if card not in usable)
    gesture = choose_card(obs, legal, slot)
    assert gesture == play(PlayWithoutEffect(obs.hand[slot]))
    assert "without effect only when no card" in GAME.refusal(state, gesture.actions[0])


def test_when_no_card_has_a_use_the_chosen_one_is_played_without_effect():
    def all_stuck(state: KarawaneState) -> bool:
        return all(isinstance(a, PlayWithoutEffect) for a in GAME.legal_actions(state))

    state = position(all_stuck)
    obs, legal = ann(state)
    gesture = choose_card(obs, legal, 0)
    assert gesture == play(PlayWithoutEffect(obs.hand[0]))
    assert gesture.actions[0] in legal


def test_an_empty_slot_and_the_public_view_choose_nothing():
    state = GAME.new_game(["Ann", "Bob"], 1, {"first_player": 0})
    obs, legal = ann(state)
    assert choose_card(obs, legal, len(obs.hand)) is None
    assert choose_card(GAME.observe(state, None), (), 0) is None


def test_a_camel_clicked_out_of_turn_sends_nothing_for_the_host_to_say_whose_turn():
    state = GAME.new_game(["Ann", "Bob"], 1, {"first_player": 0})
    bob = GAME.observe(state, 1)
    assert choose_camel(bob, (), 0, 0) == play()


def test_any_camel_of_a_player_in_the_city_offers_the_plays_for_the_group():
    state = position(holds(Kind.OASIS))
    obs, legal = ann(state)
    city = [camel for camel, square in enumerate(obs.camels[0]) if square == CITY]
    assert len(city) >= 2
    first = choose_camel(obs, legal, 0, city[0])
    last = choose_camel(obs, legal, 0, city[-1])
    assert first == last and isinstance(first, Ask) and first.options
    assert all(isinstance(a, Play) and a.owner == 0 for a in first.options)
    assert first.title == "Which card, to move a camel of A out of the city?"


def test_a_camel_in_the_desert_names_it_in_the_picker():
    def rival_in_desert_and_a_mirage(state: KarawaneState) -> bool:
        return any(
            isinstance(a, Play) and a.owner == 1 and a.card.kind is Kind.MIRAGE
            for a in GAME.legal_actions(state)
        )

    state = position(rival_in_desert_and_a_mirage)
    obs, legal = ann(state)
    bobs = next(a for a in legal if isinstance(a, Play) and a.owner == 1)
    gesture = choose_camel(obs, legal, 1, bobs.camel)
    assert isinstance(gesture, Ask) and bobs in gesture.options
    assert gesture.title == f"Which card, to move B{bobs.camel + 1}?"


def test_a_camel_no_card_can_move_is_refused_by_the_engine_for_the_likeliest_card():
    # At the deal every camel is in the city, and a Mirage moves only desert camels.
    state = position(lambda s: s.turn == 0 and holds(Kind.MIRAGE)(s))
    obs, legal = ann(state)
    gesture = choose_camel(obs, legal, 1, 2)
    assert not isinstance(gesture, Ask) and len(gesture.actions) == 1
    sent = gesture.actions[0]
    assert isinstance(sent, Play) and sent.card.kind is Kind.MIRAGE
    assert (sent.owner, sent.camel) == (1, 0)  # the first of Bob's camels in the city
    assert GAME.refusal(state, sent) == (
        "That camel is in the city: a Mirage only moves a camel on a desert square."
    )


def test_an_own_camel_no_card_can_move_is_refused_for_an_oasis_or_driver_card():
    def own_camel_stuck(state: KarawaneState) -> bool:
        own = {a.camel for a in GAME.legal_actions(state) if isinstance(a, Play) and a.owner == 0}
        movable = any(card.kind in (Kind.OASIS, Kind.DRIVER) for card in state.hands[0])
        return movable and any(
            square != CITY and camel not in own for camel, square in enumerate(state.camels[0])
        )

    state = position(own_camel_stuck)
    obs, legal = ann(state)
    own = {a.camel for a in legal if isinstance(a, Play) and a.owner == 0}
    camel = next(c for c, square in enumerate(obs.camels[0]) if square != CITY and c not in own)
    gesture = choose_camel(obs, legal, 0, camel)
    assert not isinstance(gesture, Ask)
    (sent,) = gesture.actions
    assert isinstance(sent, Play) and sent.card.kind in (Kind.OASIS, Kind.DRIVER)
    assert (sent.owner, sent.camel) == (0, camel)
    assert sent not in legal and GAME.why_illegal(state, sent)


def test_a_hint_points_at_its_hand_card_and_the_camel_it_moves():
    state = position(holds(Kind.OASIS))
    obs, legal = ann(state)
    hinted = next(a for a in legal if isinstance(a, Play))
    assert hint_places(obs, hinted) == [("hand-row", obs.hand.index(hinted.card))]
    assert hinted_camel(hinted) == (hinted.owner, hinted.camel)
    assert hinted_camel(PlaySandstorm()) is None and hinted_camel(None) is None
    assert hint_places(GAME.observe(state, None), hinted) == []
