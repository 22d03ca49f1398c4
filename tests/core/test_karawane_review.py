"""Karawane review: rules and rulings that test_karawane.py did not pin down yet.

Each test names the rule it checks (the rulebook or the Karawane section of
RULINGS.md).  States are built from a real deal with attrs.evolve.
Squares: 0 is the city, 1-20 the desert, 21-26 the oasis (worth 1 to 6 points).
"""

from __future__ import annotations

from collections import Counter

from attrs import evolve

from karavan_core.games.karawane import components as C
from karavan_core.games.karawane.components import Card
from karavan_core.games.karawane.state import Play, PlaySandstorm, PlayWithoutEffect
from tests.core.test_karawane import (
    ANN,
    BOB,
    CID,
    DEE,
    DRIVER,
    GAME,
    M1,
    M2,
    M3,
    O1,
    O2,
    O3,
    O4,
    STORM,
    hand,
)
from tests.core.test_karawane import refuse as refused_unchanged
from tests.core.test_karawane import table as dealt_table


def table(players: int = 2, ann: tuple[Card, ...] | None = None, **changes):
    """test_karawane's table, on the deal these scenarios were written for."""
    return dealt_table(players, ann, seed=23, **changes)


def refuse(state, action) -> str:
    """Illegal: refused with a sentence, nothing changed, and not listed either."""
    assert action not in GAME.legal_actions(state)
    return refused_unchanged(state, action)


# -- components and setup ---------------------------------------------------------------


def test_unused_decks_and_camels_stay_out_of_play():
    """With fewer than four players only the seated players' camels and decks exist."""
    for players in (2, 3):
        state = table(players)
        inventory = GAME.inventory(state)
        assert len(state.camels) == len(state.hands) == len(state.decks) == players
        assert sum(n for key, n in inventory.items() if key.endswith(" camel")) == 3 * players
        assert sum(n for key, n in inventory.items() if not key.endswith(" camel")) == 12 * players


# -- movement ------------------------------------------------------------------------------


def test_oasis_card_from_the_city_skips_occupied_desert_squares():
    """Oasis 3 from the city with squares 1, 2 and 4 taken lands on 6 (free: 3, 5, 6)."""
    state = table(ann=(O3, O1, O1), camels=((0, 0, 0), (1, 2, 4)))
    after = GAME.apply(state, Play(O3, ANN, 0))
    assert after.camels[ANN] == (6, 0, 0)


def test_entering_the_oasis_skips_occupied_oasis_squares():
    """Oasis 2 from 19 with 20 and 21 taken: free squares 22, 23 -> lands on 23."""
    state = table(ann=(O2, O1, O1), camels=((19, 0, 0), (20, 21, 0)))
    after = GAME.apply(state, Play(O2, ANN, 0))
    assert after.camels[ANN][0] == 23


def test_a_move_that_needs_the_taken_last_square_is_refused():
    """From 20 with 22, 23 and 26 taken the free squares ahead are 21, 24, 25: no fourth."""
    state = table(ann=(O4, O3, M1), camels=((20, 0, 0), (22, 23, 26)))
    assert "exact count" in refuse(state, Play(O4, ANN, 0))
    assert GAME.apply(state, Play(O3, ANN, 0)).camels[ANN][0] == 25


def test_mirage_may_target_any_opponent_and_counts_every_camel_as_an_obstacle():
    """Four players: Ann's Mirage 3 on Dee's camel on 10, with 9 (Ann), 8 (Bob), 6 (Cid) taken."""
    camels = ((9, 0, 0), (8, 0, 0), (6, 0, 0), (10, 0, 0))
    state = table(4, ann=(M3, O1, O1), camels=camels)
    mirages = {a for a in GAME.legal_actions(state) if a.card is M3}
    assert mirages == {Play(M3, BOB, 0), Play(M3, CID, 0), Play(M3, DEE, 0)}
    after = GAME.apply(state, Play(M3, DEE, 0))
    assert after.camels[DEE][0] == 4  # free squares back from 10: 7, 5, 4


def test_mirage_on_a_camel_on_the_last_desert_square_is_legal():
    state = table(ann=(M1, O1, O1), camels=((0, 0, 0), (20, 21, 0)))
    assert Play(M1, BOB, 0) in GAME.legal_actions(state)
    assert "never moves again" in refuse(state, Play(M1, BOB, 1))
    assert GAME.apply(state, Play(M1, BOB, 0)).camels[BOB] == (19, 21, 0)


# -- camel driver --------------------------------------------------------------------------


def test_driver_never_moves_a_camel_already_in_the_oasis():
    state = table(ann=(DRIVER, O1, O1), camels=((22, 0, 0), (7, 0, 0)))
    assert "never moves again" in refuse(state, Play(DRIVER, ANN, 0))
    assert GAME.apply(state, Play(DRIVER, ANN, 1)).camels[ANN] == (22, 8, 0)


def test_driver_may_reach_the_last_desert_square_but_not_beyond():
    """Leader on 19: the driver sends a camel to 20; leader on 20: the square ahead is oasis."""
    state = table(ann=(DRIVER, O1, O1), camels=((2, 0, 0), (19, 0, 0)))
    assert GAME.apply(state, Play(DRIVER, ANN, 0)).camels[ANN] == (20, 0, 0)
    on_twenty = evolve(state, camels=((2, 0, 0), (20, 0, 0)))
    assert "into the oasis" in refuse(on_twenty, Play(DRIVER, ANN, 0))


def test_driver_leader_is_the_frontmost_camel_of_anyone_not_just_your_own():
    """Three players: Cid leads on 15; Bob's oasis camel does not count."""
    camels = ((4, 0, 0), (24, 9, 0), (15, 0, 0))
    state = table(3, ann=(DRIVER, O1, O1), camels=camels)
    assert GAME.apply(state, Play(DRIVER, ANN, 0)).camels[ANN] == (16, 0, 0)
    assert "own camels" in refuse(state, Play(DRIVER, CID, 0))


# -- sandstorm and the duty to use a card ----------------------------------------------------


def test_a_sandstorm_in_hand_always_has_an_effect_so_nothing_is_played_for_nothing():
    """Every other card is unusable, but the sandstorm can be played for its effect."""
    camels = ((21, 22, 20), (0, 0, 23))
    state = table(ann=(O4, M2, STORM), camels=camels)
    assert GAME.legal_actions(state) == [PlaySandstorm()]
    assert "its effect" in refuse(state, PlayWithoutEffect(O4))
    assert "its effect" in refuse(state, PlayWithoutEffect(STORM))


def test_sandstorm_reshuffles_everyone_at_four_players_and_with_empty_decks():
    base = table(4)
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


# -- drawing ---------------------------------------------------------------------------------


def test_draw_back_to_three_uses_the_deck_top_and_then_runs_dry():
    state = table(ann=(O1, O2, O3))
    state = evolve(state, decks=((M1,),) + state.decks[1:])
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.hands[ANN] == hand(O2, O3, M1) and after.decks[ANN] == ()
    state = evolve(after, current=ANN)
    after = GAME.apply(state, Play(O2, ANN, 0))
    assert after.hands[ANN] == hand(O3, M1)  # nothing left to draw: fewer cards


# -- end and scoring ---------------------------------------------------------------------------


def test_the_sixth_oasis_square_ends_a_four_player_game_with_camels_still_out():
    """The game stops at once; desert and city camels score nothing; Dee never moves again."""
    camels = ((20, 0, 0), (21, 25, 5), (22, 24, 0), (23, 0, 0))
    state = table(4, ann=(O1, O2, O3), camels=camels)
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.camels[ANN] == (26, 0, 0)
    assert after.over and after.to_move is None and GAME.legal_actions(after) == []
    result = GAME.result(after)
    assert result.scores == (6, 1 + 5, 2 + 4, 3)
    assert result.winners == (ANN, BOB, CID)
    assert "share the victory" in result.notes[0]


def test_five_oasis_squares_taken_do_not_end_the_game():
    camels = ((20, 0, 0), (21, 22, 5), (23, 24, 0))
    state = table(3, ann=(O1, O2, O3), camels=camels)
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert sum(sq >= C.FIRST_OASIS for line in after.camels for sq in line) == 5
    assert not after.over and after.to_move == BOB


def test_two_players_end_only_with_all_six_camels_in_and_cannot_tie():
    """With two players every camel must be in; the 21 points can never split evenly."""
    camels = ((20, 23, 22), (25, 24, 21))
    state = table(ann=(O1, O3, M1), camels=camels)
    assert "exact count" in refuse(state, Play(O3, ANN, 0))  # only 26 is free ahead
    after = GAME.apply(state, Play(O1, ANN, 0))
    assert after.over
    result = GAME.result(after)
    assert result.scores == (6 + 3 + 2, 5 + 4 + 1) and sum(result.scores) == 21
    assert result.winners == (ANN,)
