"""Karawane's rules, one test per rule: the rulebook and the Karawane section of docs/rulings.md.

Scenario states are built from a real deal with only the relevant fields changed.
Squares: 0 is the city, 1-20 the desert, 21-26 the oasis (worth 1 to 6 points).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from attrs import evolve

from karavan_core import get_game
from karavan_core.games.karawane import components as C
from karavan_core.games.karawane.components import Card
from karavan_core.games.karawane.rules import backward, forward, occupied
from karavan_core.games.karawane.state import Play, PlaySandstorm, PlayWithoutEffect
from tests.core.rules_helpers import log_line, prompt
from tests.core.rules_helpers import refuse as refuse_in

GAME = get_game("karawane")
O1, O2, O3, O4 = Card.OASIS_1, Card.OASIS_2, Card.OASIS_3, Card.OASIS_4
M1, M2, M3 = Card.MIRAGE_1, Card.MIRAGE_2, Card.MIRAGE_3
DRIVER, STORM = Card.DRIVER, Card.SANDSTORM
ANN, BOB, CID, DEE = 0, 1, 2, 3


def hand(*cards: Card) -> tuple[Card, ...]:
    """A hand in the order the engine keeps hands."""
    return tuple(sorted(cards, key=C.CARD_RANK.__getitem__))


def table(players: int = 2, ann: tuple[Card, ...] | None = None, seed: int = 11, **changes):
    """A fresh deal with Ann (seat 0) to move, her hand set to ``ann``, then ``changes``."""
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    state = GAME.new_game(names, seed=seed, options={"first_player": 0})
    if ann is not None:
        changes["hands"] = (hand(*ann),) + changes.get("hands", state.hands)[1:]
    return evolve(state, **changes)


def refuse(state, action) -> str:
    return refuse_in(GAME, state, action)


# -- components and setup ------------------------------------------------------------------


def test_components_follow_the_rulings():
    """12 cards each: 7 oasis (assumed palms 1,1,2,2,3,3,4), mirages 1-3, driver, sandstorm."""
    deck = Counter(C.DECK)
    assert len(C.DECK) == 12
    assert sorted(card.palms for card in C.DECK if card.kind is C.Kind.OASIS) == [
        1,
        1,
        2,
        2,
        3,
        3,
        4,
    ]
    assert deck[M1] == deck[M2] == deck[M3] == deck[DRIVER] == deck[STORM] == 1
    assert C.DESERT_SQUARES == 20 and C.OASIS_POINTS == (1, 2, 3, 4, 5, 6)
    assert (C.FIRST_OASIS, C.LAST_SQUARE) == (21, 26)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_puts_camels_in_the_city_and_deals_three_from_own_deck(players):
    state = GAME.new_game(["A", "B", "C", "D"][:players], seed=5)
    assert state.camels == ((0, 0, 0),) * players
    assert [len(h) for h in state.hands] == [3] * players
    assert [len(d) for d in state.decks] == [9] * players
    assert state.played == ((),) * players
    for seat in range(players):  # each player's own identical deck, nothing else
        assert Counter(state.hands[seat] + state.decks[seat]) == Counter(C.DECK)
    assert not state.over and state.to_move == state.first_player


def test_first_player_named_or_drawn_with_the_seed():
    named = GAME.new_game(["A", "B", "C"], seed=5, options={"first_player": 2})
    assert named.to_move == 2 and named.first_player == 2
    drawn = {GAME.new_game(["A", "B", "C"], seed=s).first_player for s in range(40)}
    assert drawn == {0, 1, 2}
    again = GAME.new_game(["A", "B", "C"], seed=9)
    assert again == GAME.new_game(["A", "B", "C"], seed=9)
    with pytest.raises(ValueError):
        GAME.new_game(["A", "B"], seed=5, options={"first_player": 2})


def test_camels_in_the_city_are_alike_so_only_the_first_is_offered():
    state = table(ann=(O2, O3, M1))
    legal = GAME.legal_actions(state)
    assert set(legal) == {Play(O2, ANN, 0), Play(O3, ANN, 0)}  # no mirage: Bob is in the city
    message = refuse(state, Play(O2, ANN, 2))
    assert "camel 1" in message


# -- movement ------------------------------------------------------------------------------


def test_forward_counts_only_free_squares():
    """Oasis 2 from square 3 with 4 and 5 occupied lands on 7."""
    state = table(ann=(O2, M1, M2), camels=((3, 0, 0), (4, 5, 0)))
    after = GAME.apply(state, Play(O2, ANN, 0))
    assert after.camels == ((7, 0, 0), (4, 5, 0))
    assert log_line(GAME, state, Play(O2, ANN, 0)) == (
        "Ann plays Oasis 2 on their camel 1: square 3 → 7."
    )


def test_backward_counts_only_free_squares():
    """Mirage 2 on Bob's camel on 9 with 8 and 7 occupied lands on 5."""
    state = table(ann=(M2, O1, O1), camels=((8, 7, 0), (9, 0, 0)))
    after = GAME.apply(state, Play(M2, BOB, 0))
    assert after.camels[BOB] == (5, 0, 0)
    assert after.camels[ANN] == (8, 7, 0)
    assert log_line(GAME, state, Play(M2, BOB, 0)) == (
        "Ann plays Mirage 2 on Bob's camel 1: square 9 → 5."
    )


def test_pushed_back_past_the_first_square_returns_to_the_city():
    """Mirage 3 on a camel on 2 with square 1 taken: one free square, then the city."""
    state = table(ann=(M3, O1, O1), camels=((1, 0, 0), (2, 0, 0)))
    after = GAME.apply(state, Play(M3, BOB, 0))
    assert after.camels[BOB][0] == 0
    assert "square 2 → the city" in log_line(GAME, state, Play(M3, BOB, 0))
    assert backward({1, 2}, 2, 1) == 0  # even a single step back can reach the city


def test_oasis_is_reached_by_exact_count_and_never_passed():
    """From 20 with oasis squares 22-24 taken, free squares ahead are 21, 25, 26 only."""
    state = table(ann=(O3, O4, O1), camels=((20, 0, 0), (22, 23, 24)))
    legal = GAME.legal_actions(state)
    assert Play(O3, ANN, 0) in legal and Play(O4, ANN, 0) not in legal
    assert "exact count" in refuse(state, Play(O4, ANN, 0))
    after = GAME.apply(state, Play(O3, ANN, 0))
    assert after.camels[ANN][0] == 26  # the deepest square, skipping the taken ones
    assert forward(occupied(state.camels), 20, 1) == 21


def test_a_camel_in_the_oasis_goes_deeper_with_its_owners_oasis_card():
    """RULINGS.md (revised): the rulebook forbids only the move back; an oasis card takes an
    oasis camel deeper, counting free squares (22 is taken, so Oasis 2 from 21 lands on 24)."""
    state = table(ann=(O2, M1, M2), camels=((21, 5, 0), (22, 0, 6)))
    assert Play(O2, ANN, 0) in GAME.legal_actions(state)
    after = GAME.apply(state, Play(O2, ANN, 0))
    assert after.camels[ANN] == (24, 5, 0) and not after.over
    assert "oasis square 1 (1 point) → oasis square 4 (4 points)" in log_line(
        GAME, state, Play(O2, ANN, 0)
    )


def test_an_oasis_camel_goes_deeper_only_by_exact_count_never_past_the_last_square():
    """From 24 with 25 taken only 26 is free ahead: Oasis 1 reaches it, Oasis 2 would pass it."""
    state = table(ann=(O1, O2, O4), camels=((24, 5, 0), (25, 0, 6)))
    legal = GAME.legal_actions(state)
    assert Play(O1, ANN, 0) in legal
    assert Play(O2, ANN, 0) not in legal and Play(O4, ANN, 0) not in legal
    assert "exact count" in refuse(state, Play(O2, ANN, 0))
    assert GAME.apply(state, Play(O1, ANN, 0)).camels[ANN] == (26, 5, 0)
    deepest = table(ann=(O1, O2, O4), camels=((26, 5, 0), (25, 0, 6)))
    assert "exact count" in refuse(deepest, Play(O1, ANN, 0))  # nothing lies past the last


def test_no_card_moves_a_camel_in_the_oasis_back():
    """A Mirage never moves an oasis camel back, nor the camel driver (its square is
    always before the oasis)."""
    state = table(ann=(M1, DRIVER, M2), camels=((21, 5, 0), (22, 0, 6)))
    legal = GAME.legal_actions(state)
    assert Play(M1, BOB, 0) not in legal and Play(DRIVER, ANN, 0) not in legal
    assert "back out of it" in refuse(state, Play(M1, BOB, 0))
    assert "back out of it" in refuse(state, Play(DRIVER, ANN, 0))


def test_under_the_older_rule_a_camel_in_the_oasis_never_moves_again():
    """A game saved before the ruling's revision keeps its rule (the option says so)."""
    names = ["Ann", "Bob"]
    older = GAME.new_game(names, seed=11, options={"first_player": 0, C.DEEPER_RULE_OPTION: False})
    state = evolve(older, hands=(hand(O2, M1, M2), older.hands[1]), camels=((21, 5, 0), (22, 0, 6)))
    assert Play(O2, ANN, 0) not in GAME.legal_actions(state)
    assert "never moves again" in refuse(state, Play(O2, ANN, 0))
    after = GAME.apply(state, Play(O2, ANN, 1))
    assert not after.deeper_in_oasis  # the rule stays with the game
    with pytest.raises(ValueError, match="true or false"):
        GAME.new_game(names, seed=11, options={C.DEEPER_RULE_OPTION: "yes"})


def test_mirage_moves_only_opponent_camels_on_desert_squares():
    state = table(ann=(M1, M2, O1), camels=((5, 0, 0), (0, 8, 0)))
    legal = GAME.legal_actions(state)
    mirages = {a for a in legal if isinstance(a, Play) and a.card.kind is C.Kind.MIRAGE}
    assert mirages == {Play(M1, BOB, 1), Play(M2, BOB, 1)}
    assert "desert square" in refuse(state, Play(M1, BOB, 0))  # Bob's camel in the city
    assert "never your own" in refuse(state, Play(M1, ANN, 0))
    assert "own camels" in refuse(state, Play(O1, BOB, 1))  # oasis cards move your own


# -- camel driver --------------------------------------------------------------------------


def test_driver_moves_a_camel_just_ahead_of_the_leader_outside_the_oasis():
    """The leader is the frontmost camel not in the oasis; the oasis camel does not count."""
    state = table(ann=(DRIVER, O1, O1), camels=((3, 0, 0), (12, 25, 0)))
    after = GAME.apply(state, Play(DRIVER, ANN, 0))
    assert after.camels[ANN] == (13, 0, 0)
    city = GAME.apply(state, Play(DRIVER, ANN, 1))  # from the city as well
    assert city.camels[ANN] == (3, 13, 0)


def test_driver_may_move_your_own_leader_one_square():
    state = table(ann=(DRIVER, O1, O1), camels=((12, 0, 0), (7, 0, 0)))
    after = GAME.apply(state, Play(DRIVER, ANN, 0))
    assert after.camels[ANN][0] == 13


def test_driver_with_everybody_in_the_city_goes_to_square_one():
    state = table(ann=(DRIVER, O1, O1))
    assert GAME.apply(state, Play(DRIVER, ANN, 0)).camels[ANN] == (1, 0, 0)


def test_driver_is_refused_when_the_square_ahead_is_in_the_oasis():
    state = table(ann=(DRIVER, O1, O1), camels=((5, 0, 0), (20, 0, 0)))
    legal = GAME.legal_actions(state)
    assert not any(isinstance(a, Play) and a.card is DRIVER for a in legal)
    assert "into the oasis" in refuse(state, Play(DRIVER, ANN, 0))


# -- sandstorm -----------------------------------------------------------------------------


def test_sandstorm_reshuffles_hand_deck_and_played_pile_of_everyone():
    base = table(3)
    # Ann holds the sandstorm; everyone has played some cards already.
    ann_hand = hand(STORM, O1, M1)
    ann_played = (O4, DRIVER)
    ann_deck = tuple((Counter(C.DECK) - Counter(ann_hand + ann_played)).elements())
    bob_played = (O1, O2, M3)
    bob_all = list(base.hands[BOB] + base.decks[BOB])
    for card in bob_played:
        bob_all.remove(card)
    state = evolve(
        base,
        hands=(ann_hand, hand(*bob_all[:3]), base.hands[CID]),
        decks=(ann_deck, tuple(bob_all[3:]), base.decks[CID]),
        played=(ann_played, bob_played, ()),
    )
    assert GAME.inventory(state) == GAME.inventory(base)
    legal = GAME.legal_actions(state)
    assert PlaySandstorm() in legal
    after = GAME.apply(state, PlaySandstorm())
    assert after.played == ((), (), ())
    assert [len(h) for h in after.hands] == [3, 3, 3]
    assert [len(d) for d in after.decks] == [9, 9, 9]
    for seat in range(3):
        assert Counter(after.hands[seat] + after.decks[seat]) == Counter(C.DECK)
    assert after.rng != state.rng  # the shuffles used the game's generator
    assert after.camels == state.camels and after.to_move == BOB
    assert GAME.apply(state, PlaySandstorm()) == after  # and replay exactly


def test_sandstorm_needs_the_card_in_hand():
    state = table(ann=(O1, O2, O3))
    assert "no Sandstorm" in refuse(state, PlaySandstorm())


# -- playing and drawing -------------------------------------------------------------------


def test_no_effect_play_only_when_no_card_can_be_used():
    """Oasis 4 overshoots, the driver would enter the oasis, Bob has no desert camel."""
    camels = ((21, 22, 20), (0, 0, 23))
    state = table(ann=(O4, M2, DRIVER), camels=camels)
    legal = GAME.legal_actions(state)
    assert set(legal) == {PlayWithoutEffect(O4), PlayWithoutEffect(M2), PlayWithoutEffect(DRIVER)}
    assert "without effect" in prompt(GAME, state)
    after = GAME.apply(state, PlayWithoutEffect(M2))
    assert after.camels == camels
    assert after.played[ANN] == (M2,)
    assert len(after.hands[ANN]) == 3 and after.to_move == BOB
    assert "without effect" in log_line(GAME, state, PlayWithoutEffect(M2))

    usable = table(ann=(O4, M2, O1), camels=camels)  # Oasis 1 reaches square 24, from anywhere
    legal = GAME.legal_actions(usable)
    assert legal == [Play(O1, ANN, 0), Play(O1, ANN, 1), Play(O1, ANN, 2)]
    assert "its effect" in refuse(usable, PlayWithoutEffect(O4))


def test_card_not_in_hand_is_refused():
    state = table(ann=(O1, O1, M1))
    assert "no Oasis 4" in refuse(state, Play(O4, ANN, 0))
    assert "no Camel driver" in refuse(state, PlayWithoutEffect(DRIVER))


def test_playing_draws_back_to_three_then_plays_on_with_fewer():
    state = table(ann=(O1, O2, O3))
    top = state.decks[ANN][0]
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert sorted(after.hands[ANN]) == sorted((O2, O3, top))
    assert after.decks[ANN] == state.decks[ANN][1:]
    assert after.played[ANN] == (O1,)

    empty = evolve(state, decks=((),) + state.decks[1:])
    after = GAME.apply(empty, Play(O1, ANN, 0))
    assert after.hands[ANN] == hand(O2, O3)


def test_a_player_without_cards_is_skipped():
    base = table(3)
    state = evolve(base, hands=(hand(O1, O2, O3), (), base.hands[CID]), decks=((), (), ()))
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.to_move == CID
    assert "Bob has no cards left and is skipped." in log_line(GAME, state, Play(O1, ANN, 0))
    # Cid plays; Bob is skipped again and Ann comes back.
    cid = GAME.legal_actions(after)[0]
    assert GAME.apply(after, cid).to_move == ANN


def test_the_only_player_with_cards_plays_again():
    state = table(hands=(hand(O1, O2, O3), ()), decks=((), ()))
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.to_move == ANN
    assert log_line(GAME, state, Play(O1, ANN, 0)).endswith("Bob has no cards left and is skipped.")


def test_turns_pass_clockwise():
    state = table(3, ann=(O1, O2, O3))
    after = GAME.apply(state, Play(O2, ANN, 0))
    assert after.to_move == BOB and after.turn == state.turn + 1


# -- end and scoring -----------------------------------------------------------------------


def test_the_game_ends_at_once_when_all_six_oasis_squares_are_taken():
    state = table(ann=(O1, O2, O3), camels=((20, 21, 22), (23, 24, 25)))
    assert not GAME.is_over(state)
    action = Play(O1, ANN, 0)
    after = GAME.apply(state, action)
    assert after.camels[ANN] == (26, 21, 22)
    assert after.over and after.to_move is None and GAME.legal_actions(after) == []
    assert "the game is over" in log_line(GAME, state, action)
    result = GAME.result(after)
    assert result.scores == (6 + 1 + 2, 3 + 4 + 5)
    assert result.winners == (BOB,)
    assert result.breakdown[ANN] == (
        ("Camel 1", "oasis square 6 (6 points)"),
        ("Camel 2", "oasis square 1 (1 point)"),
        ("Camel 3", "oasis square 2 (2 points)"),
        ("Total", "9 points"),
    )
    assert result.notes == ("Bob wins with 12 points.",)
    assert "The game is over." in refuse(after, Play(O2, ANN, 1))


def test_ties_give_several_winners():
    """Ann's last move makes it 6+1 for her, 5+2 for Bob and 4+3 for Cid."""
    state = table(3, ann=(O1, O2, O3), camels=((20, 26, 0), (25, 22, 0), (24, 23, 0)))
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.over
    result = GAME.result(after)
    assert result.scores == (7, 7, 7)
    assert result.winners == (ANN, BOB, CID)
    assert "share the victory" in result.notes[0]


def test_result_mid_game_gives_the_score_so_far():
    state = table(ann=(O1, O2, O3), camels=((24, 3, 0), (26, 0, 9)))
    result = GAME.result(state)
    assert result.scores == (4, 6)
    assert result.winners == (BOB,)
    assert result.breakdown[BOB][2] == ("Camel 3", "square 9")
    assert result.breakdown[BOB][1] == ("Camel 2", "the city")
    assert "so far" in result.notes[0]


# -- hidden information --------------------------------------------------------------------


def test_observation_shows_own_hand_and_public_piles_only():
    state = GAME.new_game(["Ann", "Bob"], seed=3, options={"first_player": 0})
    state = GAME.apply(state, GAME.legal_actions(state)[0])
    seen = GAME.observe(state, BOB)
    assert seen.hand == state.hands[BOB]
    assert seen.played == state.played and seen.hand_sizes == (3, 3)
    assert not hasattr(seen, "rng") and not hasattr(seen, "hands")
    sampled = GAME.sample_state(seen, random.Random(1))
    assert GAME.observe(sampled, BOB) == seen
    assert GAME.inventory(sampled) == GAME.inventory(state)
    # Ann's hand and the deck orders are redrawn, not copied.
    other = GAME.sample_state(seen, random.Random(2))
    assert (other.hands[ANN], other.decks) != (sampled.hands[ANN], sampled.decks)


# == A review of the rules against the rulebook and docs/rulings.md ========================
# These scenarios were written for another deal (seed 23).


def table_23(players: int = 2, ann: tuple[Card, ...] | None = None, **changes):
    """The table on the deal the review's scenarios were written for."""
    return table(players, ann, seed=23, **changes)


def refuse_unlisted(state, action) -> str:
    """Illegal: refused with a sentence, nothing changed, and not listed either."""
    assert action not in GAME.legal_actions(state)
    return refuse(state, action)


# -- components and setup ------------------------------------------------------------------


def test_unused_decks_and_camels_stay_out_of_play():
    """With fewer than four players only the seated players' camels and decks exist."""
    for players in (2, 3):
        state = table_23(players)
        inventory = GAME.inventory(state)
        assert len(state.camels) == len(state.hands) == len(state.decks) == players
        assert sum(n for key, n in inventory.items() if key.endswith(" camel")) == 3 * players
        assert sum(n for key, n in inventory.items() if not key.endswith(" camel")) == 12 * players


# -- movement ------------------------------------------------------------------------------


def test_oasis_card_from_the_city_skips_occupied_desert_squares():
    """Oasis 3 from the city with squares 1, 2 and 4 taken lands on 6 (free: 3, 5, 6)."""
    state = table_23(ann=(O3, O1, O1), camels=((0, 0, 0), (1, 2, 4)))
    after = GAME.apply(state, Play(O3, ANN, 0))
    assert after.camels[ANN] == (6, 0, 0)


def test_entering_the_oasis_skips_occupied_oasis_squares():
    """Oasis 2 from 19 with 20 and 21 taken: free squares 22, 23 -> lands on 23."""
    state = table_23(ann=(O2, O1, O1), camels=((19, 0, 0), (20, 21, 0)))
    after = GAME.apply(state, Play(O2, ANN, 0))
    assert after.camels[ANN][0] == 23


def test_a_move_that_needs_the_taken_last_square_is_refused():
    """From 20 with 22, 23 and 26 taken the free squares ahead are 21, 24, 25: no fourth."""
    state = table_23(ann=(O4, O3, M1), camels=((20, 0, 0), (22, 23, 26)))
    assert "exact count" in refuse_unlisted(state, Play(O4, ANN, 0))
    assert GAME.apply(state, Play(O3, ANN, 0)).camels[ANN][0] == 25


def test_mirage_may_target_any_opponent_and_counts_every_camel_as_an_obstacle():
    """Four players: Ann's Mirage 3 on Dee's camel on 10, with 9 (Ann), 8 (Bob), 6 (Cid) taken."""
    camels = ((9, 0, 0), (8, 0, 0), (6, 0, 0), (10, 0, 0))
    state = table_23(4, ann=(M3, O1, O1), camels=camels)
    mirages = {a for a in GAME.legal_actions(state) if a.card is M3}
    assert mirages == {Play(M3, BOB, 0), Play(M3, CID, 0), Play(M3, DEE, 0)}
    after = GAME.apply(state, Play(M3, DEE, 0))
    assert after.camels[DEE][0] == 4  # free squares back from 10: 7, 5, 4


def test_mirage_on_a_camel_on_the_last_desert_square_is_legal():
    state = table_23(ann=(M1, O1, O1), camels=((0, 0, 0), (20, 21, 0)))
    assert Play(M1, BOB, 0) in GAME.legal_actions(state)
    assert "back out of it" in refuse_unlisted(state, Play(M1, BOB, 1))
    assert GAME.apply(state, Play(M1, BOB, 0)).camels[BOB] == (19, 21, 0)


# -- camel driver --------------------------------------------------------------------------


def test_driver_never_moves_a_camel_already_in_the_oasis():
    state = table_23(ann=(DRIVER, O1, O1), camels=((22, 0, 0), (7, 0, 0)))
    assert "back out of it" in refuse_unlisted(state, Play(DRIVER, ANN, 0))
    assert GAME.apply(state, Play(DRIVER, ANN, 1)).camels[ANN] == (22, 8, 0)


def test_driver_may_reach_the_last_desert_square_but_not_beyond():
    """Leader on 19: the driver sends a camel to 20; leader on 20: the square ahead is oasis."""
    state = table_23(ann=(DRIVER, O1, O1), camels=((2, 0, 0), (19, 0, 0)))
    assert GAME.apply(state, Play(DRIVER, ANN, 0)).camels[ANN] == (20, 0, 0)
    on_twenty = evolve(state, camels=((2, 0, 0), (20, 0, 0)))
    assert "into the oasis" in refuse_unlisted(on_twenty, Play(DRIVER, ANN, 0))


def test_driver_leader_is_the_frontmost_camel_of_anyone_not_just_your_own():
    """Three players: Cid leads on 15; Bob's oasis camel does not count."""
    camels = ((4, 0, 0), (24, 9, 0), (15, 0, 0))
    state = table_23(3, ann=(DRIVER, O1, O1), camels=camels)
    assert GAME.apply(state, Play(DRIVER, ANN, 0)).camels[ANN] == (16, 0, 0)
    assert "own camels" in refuse_unlisted(state, Play(DRIVER, CID, 0))


# -- sandstorm and the duty to use a card --------------------------------------------------


def test_a_sandstorm_in_hand_always_has_an_effect_so_nothing_is_played_for_nothing():
    """Every other card is unusable, but the sandstorm can be played for its effect."""
    camels = ((21, 22, 20), (0, 0, 23))
    state = table_23(ann=(O4, M2, STORM), camels=camels)
    assert GAME.legal_actions(state) == [PlaySandstorm()]
    assert "its effect" in refuse_unlisted(state, PlayWithoutEffect(O4))
    assert "its effect" in refuse_unlisted(state, PlayWithoutEffect(STORM))


def test_sandstorm_reshuffles_everyone_at_four_players_and_with_empty_decks():
    base = table_23(4)
    # Bob has played everything but his hand; Ann holds the sandstorm.
    bob_hand = hand(O1, O2, M1)
    bob_played = tuple((Counter(C.DECK) - Counter(bob_hand)).elements())
    ann_hand = hand(STORM, O3, DRIVER)
    ann_deck = tuple((Counter(C.DECK) - Counter(ann_hand)).elements())
    state = evolve(
        base,
        hands=(ann_hand, bob_hand, *base.hands[2:]),
        decks=(ann_deck, (), *base.decks[2:]),
        played=((), bob_played, (), ()),
    )
    assert GAME.inventory(state) == GAME.inventory(base)
    after = GAME.apply(state, PlaySandstorm())
    for seat in range(4):
        assert len(after.hands[seat]) == 3 and len(after.decks[seat]) == 9
        assert Counter(after.hands[seat] + after.decks[seat]) == Counter(C.DECK)
    assert after.played == ((),) * 4 and after.to_move == BOB
    assert after.camels == state.camels


# -- drawing -------------------------------------------------------------------------------


def test_draw_back_to_three_uses_the_deck_top_and_then_runs_dry():
    state = table_23(ann=(O1, O2, O3))
    state = evolve(state, decks=((M1,),) + state.decks[1:])
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.hands[ANN] == hand(O2, O3, M1) and after.decks[ANN] == ()
    state = evolve(after, current=ANN)
    after = GAME.apply(state, Play(O2, ANN, 0))
    assert after.hands[ANN] == hand(O3, M1)  # nothing left to draw: fewer cards


# -- end and scoring -----------------------------------------------------------------------


def test_the_sixth_oasis_square_ends_a_four_player_game_with_camels_still_out():
    """The game stops at once; desert and city camels score nothing; Dee never moves again."""
    camels = ((20, 0, 0), (21, 25, 5), (22, 24, 0), (23, 0, 0))
    state = table_23(4, ann=(O1, O2, O3), camels=camels)
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.camels[ANN] == (26, 0, 0)
    assert after.over and after.to_move is None and GAME.legal_actions(after) == []
    result = GAME.result(after)
    assert result.scores == (6, 1 + 5, 2 + 4, 3)
    assert result.winners == (ANN, BOB, CID)
    assert "share the victory" in result.notes[0]


def test_five_oasis_squares_taken_do_not_end_the_game():
    camels = ((20, 0, 0), (21, 22, 5), (23, 24, 0))
    state = table_23(3, ann=(O1, O2, O3), camels=camels)
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert sum(sq >= C.FIRST_OASIS for line in after.camels for sq in line) == 5
    assert not after.over and after.to_move == BOB


def test_two_players_end_only_with_all_six_camels_in_and_cannot_tie():
    """With two players every camel must be in; the 21 points can never split evenly."""
    camels = ((20, 23, 22), (25, 24, 21))
    state = table_23(ann=(O1, O3, M1), camels=camels)
    assert "exact count" in refuse_unlisted(state, Play(O3, ANN, 0))  # only 26 is free ahead
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.over
    result = GAME.result(after)
    assert result.scores == (6 + 3 + 2, 5 + 4 + 1) and sum(result.scores) == 21
    assert result.winners == (ANN,)
