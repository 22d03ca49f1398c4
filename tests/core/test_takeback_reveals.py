"""Which reveals make a take-back cost consent (or count): only what the asker or the whole
table saw, never a card a bot alone drew; and another person's decision, never a bot's."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from karavan_core import Match, Seat, get_game
from karavan_core.engine import Action
from karavan_core.referee import Referee


def referee_for(game: str, seats: str, seed: int) -> Referee:
    parsed = [Seat.parse(text, i) for i, text in enumerate(seats.split(","))]
    return Referee(Match(get_game(game), parsed, seed, {"first_player": 0}))


def kind(action: Action) -> str:
    return type(action).__name__


def decide(referee: Referee, pick: Callable[[Sequence[Action]], Action]) -> Action:
    """The player to move (a bot through its turn) takes ``pick``'s choice of the legal."""
    legal = referee.legal()
    action = pick(legal)
    turn = referee.bot_turn()
    if turn is not None:
        assert referee.play_bot(turn, action)
    else:
        seat = referee.to_move
        assert seat is not None
        referee.play(seat, [action])
    return action


def preferring(*kinds: str) -> Callable[[Sequence[Action]], Action]:
    """A choice of the first legal decision of the first of ``kinds`` there is (else any)."""

    def pick(legal: Sequence[Action]) -> Action:
        for wanted in kinds:
            for action in legal:
                if kind(action) == wanted:
                    return action
        return legal[0]

    return pick


def quiet_or_bot_revealing(
    referee: Referee, bot_reveals: bool, tries: int = 2000
) -> tuple[int, ...]:
    """Random play at Ann, a bot and Bob's table until Ann is to move again and everything
    since her last gesture began is hers or the bot's and showed its decider nothing new,
    but for a card the bot turned up if ``bot_reveals``; the deciders of those decisions."""
    rng, match = random.Random(7), referee.match
    for _ in range(tries):
        assert not match.is_over()
        decide(referee, lambda legal: legal[rng.randrange(len(legal))])
        if referee.to_move != 0 or not match.last_move_of(0):
            continue
        taken = range(match.undo_target(0), len(match.history))
        whose = tuple(match.actor(i) for i in taken)
        bots = [match.revealed(i) for i in taken if match.actor(i) == 1]
        mine = [match.revealed(i) for i in taken if match.actor(i) == 0]
        if 2 not in whose and bots and not any(mine) and any(bots) == bot_reveals:
            return whose
    raise AssertionError("no such turn")


def test_in_karakorum_a_bots_quiet_turn_after_yours_is_taken_back_without_asking():
    """Ann, a bot and Bob: Ann's quiet gesture and the bot's quiet decisions after it come
    back without Bob's consent (only the bot has decided since, and nothing came up)."""
    referee = referee_for("karakorum", "Ann,bot:random,Bob", seed=3)
    whose = quiet_or_bot_revealing(referee, bot_reveals=False)
    wanted = referee.takeback(0)
    assert wanted.whose == whose and wanted.after > 0
    assert not wanted.revealed and wanted.needs == ()
    assert referee.undo(0) is True
    assert len(referee.match.history) == wanted.keep and referee.to_move == 0


def test_in_karakorum_a_card_a_bot_turns_up_is_seen_by_all_so_bob_is_asked():
    referee = referee_for("karakorum", "Ann,bot:random,Bob", seed=3)
    quiet_or_bot_revealing(referee, bot_reveals=True)
    wanted = referee.takeback(0)
    assert wanted.revealed and wanted.needs == (2,)


def test_in_karakum_a_card_a_bot_draws_is_unseen_a_card_it_takes_from_the_row_is_seen():
    """The bot's card from the deck shows Ann nothing; the row refilled after a card taken
    from it shows everyone a new card."""
    referee = referee_for("karakum", "Ann,bot:random,Bob", seed=9)
    decide(referee, preferring("DrawCard"))
    decide(referee, preferring("DrawCard"))
    match = referee.match
    assert match.actor(len(match.history) - 1) == 0 and referee.to_move == 1
    drawn = len(match.history)
    decide(referee, preferring("DrawCard"))
    assert match.showed(drawn, 1) and not match.showed(drawn, 0) and not match.showed(drawn, 2)
    taken = len(match.history)
    assert kind(decide(referee, preferring("TakeCard"))) == "TakeCard"
    assert match.showed(taken, 0) and match.showed(taken, 2)


def test_in_karawane_a_card_a_bot_draws_is_unseen_a_sandstorm_shows_every_hand():
    referee = referee_for("karawane", "Ann,bot:random,Bob", seed=2)
    rng = random.Random(5)
    match = referee.match
    plain = storm = None
    for _ in range(400):
        if referee.to_move == 1:
            legal = referee.legal()
            if storm is None and any(kind(a) == "PlaySandstorm" for a in legal):
                storm = len(match.history)
                decide(referee, preferring("PlaySandstorm"))
                continue
            if plain is None:
                plain = len(match.history)
                decide(referee, preferring("Play"))
                continue
        if (storm is not None and plain is not None) or match.is_over():
            break
        decide(referee, lambda legal: legal[rng.randrange(len(legal))])
    assert plain is not None and storm is not None
    assert match.showed(plain, 1) and not match.showed(plain, 0)
    assert match.showed(storm, 0) and match.showed(storm, 2)


def bonus_sale(referee: Referee) -> Action | None:
    """A sale of the bot's now that wins a bonus token and does not end the round."""
    game, observation = referee.game, referee.view(1).observation
    for action in referee.legal():
        public = game.reveals_to_all(observation, action)
        if kind(action) == "Sell" and game.reveals(observation, action) and not public:
            return action
    return None


def test_in_jaipur_a_bonus_token_the_bot_won_is_not_counted_against_your_take_back():
    """Against a bot, a take-back is counted when it goes back past something that showed
    you a card; the value of a bonus token the bot alone saw does not count."""
    referee = referee_for("jaipur", "Ann,bot:random", seed=1)
    rng = random.Random(1)
    match = referee.match
    for _ in range(600):
        assert not match.is_over(), "no quiet exchange followed by a bot's bonus sale"
        if referee.to_move == 0 and any(kind(a) == "Exchange" for a in referee.legal()):
            decide(referee, preferring("Exchange"))
            sale = bonus_sale(referee) if referee.to_move == 1 else None
            if sale is not None:
                decide(referee, lambda legal, sale=sale: sale)
                break
            assert referee.undo(0) is True  # not this time (free: it showed nothing)
        decide(referee, lambda legal: legal[rng.randrange(len(legal))])
    wanted = referee.takeback(0)
    assert wanted.after == 1 and not wanted.revealed and wanted.needs == ()
    assert referee.undo(0) is True
    assert match.takebacks == [0, 0]
