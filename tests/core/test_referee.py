"""The referee: whose decision, gestures all or nothing, take-backs, views, listeners, storage."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path

import pytest

from karavan_core import IllegalAction, Match, Seat, get_game
from karavan_core.bots import make_bot
from karavan_core.games.karakorum.state import StopRevealing, Take
from karavan_core.games.karakum.state import Buy, DrawCard, Pay
from karavan_core.referee import Change, Referee, TakeBack, bot_agrees
from karavan_core.saves import load_match
from karavan_core.storage import SaveFile, SaveWriter

from .test_takeback_reveals import decide

KARAKUM = get_game("karakum")
JAIPUR = get_game("jaipur")


def referee_for(seats: str, seed: int = 5, game=KARAKUM, **kwargs) -> Referee:
    parsed = [Seat.parse(text, i) for i, text in enumerate(seats.split(","))]
    return Referee(Match(game, parsed, seed, {"first_player": 0}), **kwargs)


def play_one(referee: Referee, rng: random.Random) -> None:
    """The player to move takes a random legal decision (a bot through its turn)."""
    decide(referee, lambda legal: legal[rng.randrange(len(legal))])


def test_whose_decision_and_whether_a_bot_takes_it():
    referee = referee_for("Ann,bot:random")
    assert referee.humans == (0,)
    assert referee.to_move == 0 and referee.bot_to_move() is None
    assert referee.bot_turn() is None
    referee.play(0, [referee.legal()[0]])
    while referee.to_move == 0:
        referee.play(0, [referee.legal()[0]])
    assert referee.bot_to_move() == 1
    turn = referee.bot_turn()
    assert turn is not None and turn.seat == 1
    assert turn.observation == KARAKUM.observe(referee.match.state, 1)
    assert referee.play_bot(turn, turn.choose())


def test_a_refused_gesture_says_why_and_changes_nothing():
    referee = referee_for("Ann,Bob")
    state, revision = referee.match.state, referee.revision
    other = referee.legal()[0]
    with pytest.raises(IllegalAction, match="not your turn: Ann decides now"):
        referee.play(1, [other])
    assert referee.refusal(1, [other]) == "It is not your turn: Ann decides now."
    with pytest.raises(IllegalAction):
        referee.play(0, [Pay(("nothing",))])
    with pytest.raises(IllegalAction, match="at least one decision"):
        referee.play(0, [])
    assert referee.match.state is state and referee.revision == revision


def test_a_gesture_is_all_or_nothing_and_only_its_deciders_own():
    referee = referee_for("Ann,Bob", seed=11)
    rng = random.Random(2)
    buy = None
    for _ in range(400):
        buy = next((a for a in referee.legal() if isinstance(a, Buy)), None)
        if buy is not None:
            break
        play_one(referee, rng)
    assert buy is not None
    seat = referee.to_move
    assert seat is not None
    after_buy = KARAKUM.apply(referee.match.state, buy)
    pay = KARAKUM.legal_actions(after_buy)[0]
    history = len(referee.match.history)
    # The buy alone and then a payment that does not exist: nothing is played.
    assert referee.refusal(seat, [buy, buy]) is not None
    assert len(referee.match.history) == history
    referee.play(seat, [buy, pay])
    assert referee.match.history[-2:] == [buy, pay]
    # Paying turned up a new camel: the other player agrees to the take-back first.
    assert referee.undo(seat) is False
    referee.answer(1 - seat, True)
    assert len(referee.match.history) == history  # one take-back unit


def test_a_bot_decision_for_a_table_that_moved_on_is_dropped():
    referee = referee_for("Ann,bot:random", seed=3)
    rng = random.Random(1)
    while referee.bot_to_move() is None:
        play_one(referee, rng)
    turn = referee.bot_turn()
    assert turn is not None
    referee.undo(0)
    state = referee.match.state
    assert not referee.play_bot(turn, turn.legal[0])
    assert referee.match.state is state


def test_a_bot_decides_in_a_persons_name_through_the_same_call_and_counts_as_theirs():
    """A served table's player whose time ran out: the bot's decision is the person's own."""
    referee = referee_for("Ann,Bob", seed=3)
    bot = make_bot("random", KARAKUM, seed=1)
    assert referee.bot_turn(instead_of=1, bot=bot) is None  # not Bob's turn
    turn = referee.bot_turn(instead_of=0, bot=bot)
    assert turn is not None and turn.for_person and turn.seat == 0
    assert turn.observation == KARAKUM.observe(referee.match.state, 0)
    assert referee.play_bot(turn, turn.choose())
    assert referee.match.actor(0) == 0
    assert referee.view(1).news  # Bob is told of Ann's decision like any other
    assert not referee.play_bot(turn, turn.legal[0])  # the table moved on: dropped
    referee.hold("Waiting for Ann.")
    assert referee.bot_turn(instead_of=referee.to_move, bot=bot) is None


def test_the_views_follow_every_change_of_hold_and_stand_in_without_being_told():
    referee = referee_for("Ann,Bob")
    assert referee.view(0).legal
    referee.hold("Waiting for Bob to join.")
    assert referee.view(0).legal == ()
    referee.hold(None)
    assert referee.view(0).legal
    referee.stand_in(0, "random")
    assert referee.view(0).legal == () and referee.bot_to_move() == 0
    referee.stand_in(0, None)
    assert referee.view(0).legal


def test_a_bot_pauses_before_its_turn_not_before_each_decision_of_it():
    """Karakorum: the bot's reveals, takes and placings of one turn follow one pause."""
    referee = referee_for("bot:random,Ann,bot:random", seed=6, game=get_game("karakorum"))
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    last = None  # the seat that decided last
    while len(referee.match.history) < 150:
        turn = referee.bot_turn()
        if turn is None:
            last = referee.to_move
            play_one(referee, rng)
            continue
        opens = turn.seat != last
        assert turn.opens is opens
        last = turn.seat
        assert turn.pause(0.6) == (0.6 if opens else 0.0)
        seen[opens] += 1
        assert referee.play_bot(turn, turn.legal[rng.randrange(len(turn.legal))])
    assert seen[True] and seen[False]  # both kinds met: turns of several decisions


def test_bots_are_seeded_the_same_at_every_table():
    a = referee_for("Ann,bot:hard", seed=8)
    b = referee_for("Ann,bot:hard", seed=8)
    assert a.bots[1].seed == b.bots[1].seed
    assert a.bots[1].seed != referee_for("Ann,bot:hard", seed=9).bots[1].seed


def test_against_bots_you_take_back_your_own_gesture_and_the_bots_after_it():
    referee = referee_for("Ann,bot:random,bot:random", seed=4)
    rng = random.Random(1)
    play_one(referee, rng)
    while referee.to_move != 0:
        play_one(referee, rng)
    mine = referee.match.last_move_of(0)
    assert referee.undo(0) is True
    assert len(referee.match.history) < mine
    assert referee.to_move == 0
    assert referee.redo_refusal(0) is None
    referee.redo(0)
    assert referee.to_move == 0


def revealing(referee: Referee, seat: int):
    """A decision of ``seat``'s, now, that reveals something (``None`` if none does)."""
    observation = referee.view(seat).observation
    return next((a for a in referee.legal() if referee.game.reveals(observation, a)), None)


def test_against_bots_a_take_back_past_a_reveal_is_free_but_counted():
    referee = referee_for("Ann,bot:random", seed=5)
    rng = random.Random(2)
    while (draw := revealing(referee, 0)) is None or referee.to_move != 0:
        play_one(referee, rng)
    referee.play(0, [draw])
    assert referee.match.takebacks == [0, 0]
    assert referee.takeback(0).revealed and referee.takeback(0).needs == ()
    assert referee.undo(0) is True
    assert referee.match.takebacks == [1, 0]


def test_with_two_humans_your_quiet_last_gesture_comes_back_freely():
    referee = referee_for("Ann,Bob", seed=6)
    quiet = next(
        a for a in referee.legal() if not referee.game.reveals(referee.view(0).observation, a)
    )
    referee.play(0, [quiet])
    if referee.to_move == 0:  # still Ann's turn: nobody else has decided
        assert referee.takeback(0).needs == ()
        assert referee.undo(0) is True
        assert referee.match.history == []


def two_humans_past_bob(seed: int = 6) -> tuple[Referee, random.Random]:
    """Ann and Bob, each having decided, Ann to move: her take-back goes past Bob's."""
    referee = referee_for("Ann,Bob", seed=seed)
    rng = random.Random(4)
    while referee.to_move == 0:
        play_one(referee, rng)
    assert referee.to_move == 1
    # Bob has not decided yet: nothing of his to take back.
    assert referee.undo_refusal(1) == "Ann decided last: you have made no decision to take back."
    play_one(referee, rng)
    while referee.to_move == 1:
        play_one(referee, rng)
    return referee, rng


def test_with_two_humans_taking_back_past_the_other_needs_their_consent():
    referee, rng = two_humans_past_bob()
    history = list(referee.match.history)
    # Ann asks to take back her last gesture, past Bob's: Bob must agree.
    assert referee.takeback(0).needs == (1,)
    heard: list[Change] = []
    referee.subscribe(heard.append)
    assert referee.undo(0) is False
    assert referee.match.history == history
    assert referee.view(1).to_answer and not referee.view(0).to_answer
    with pytest.raises(IllegalAction, match="Nobody is waiting for your answer"):
        referee.answer(0, True)
    # Bob is asked in a question of his own; the record (the host's console) says it.
    assert referee.view(1).notice is None
    assert referee.notice(None) == "Ann asks to take back their last decision."
    referee.answer(1, False)
    assert referee.request is None and referee.match.history == history
    # Each is told in words what became of it, but never of their own doing.
    assert referee.view(0).notice == "Bob declined: Ann's decision stands."
    assert referee.view(1).notice is None
    assert [c.kind for c in heard] == ["request", "declined"]
    # Declined, it is not asked again before somebody decides.
    refused = "Your take-back request was declined: ask again once somebody has decided."
    assert referee.undo_refusal(0) == refused and not referee.view(0).can_undo
    with pytest.raises(IllegalAction, match=refused):
        referee.undo(0)

    referee, rng = two_humans_past_bob()  # the same table, and this time Bob agrees
    assert referee.undo(0) is False
    wanted = referee.takeback(0)
    bobs = sum(referee.match.actor(i) == 1 for i in range(wanted.keep, len(history)))
    referee.answer(1, True)
    assert referee.request is None
    assert len(referee.match.history) < len(history) and referee.to_move == 0
    # Ann's gesture is her last decision to her; Bob's after it are counted.
    assert wanted.after == bobs > 0
    later = "decision" if bobs == 1 else f"{bobs} decisions"
    taken = f"last decision and the {later} after it"
    assert referee.view(0).notice == f"Bob agreed: you took back your {taken}."
    assert referee.view(1).notice == f"Ann took back their {taken}."
    # The next change, whatever it is, has nothing to tell of a take-back.
    play_one(referee, rng)
    assert referee.view(0).notice is None and referee.view(1).notice is None


def test_a_take_back_is_told_the_same_way_counting_the_players_gesture_as_one_decision():
    """Against bots, the one who took back is told so too (every table, every game), their
    gesture counted as their one last decision and the bots' decisions after it counted."""
    referee = referee_for("Ann,bot:random,bot:random", seed=3, game=get_game("karawane"))
    rng = random.Random(1)
    referee.play(0, [referee.legal()[0]])  # a card played: Ann's turn is over
    while referee.to_move != 0:
        play_one(referee, rng)
    bots = len(referee.match.history) - 1
    assert referee.undo(0) is True and not referee.match.history
    later = "decision" if bots == 1 else f"{bots} decisions"
    assert referee.view(0).notice == f"You took back your last decision and the {later} after it."
    assert referee.notice(None) == f"Ann took back their last decision and the {later} after it."
    assert (
        TakeBack(seat=0, keep=4, decisions=1, revealed=False, needs=()).words("your")
        == "your last decision"
    )
    # A purchase and its payment are one gesture: one decision to the player who made it.
    two = TakeBack(seat=0, keep=4, decisions=3, revealed=False, needs=(), whose=(0, 0, 1))
    assert two.words("your") == "your last decision and the decision after it"


def test_one_request_is_open_at_a_time_and_it_answers_only_to_its_own_number():
    referee, _rng = two_humans_past_bob()
    assert referee.undo(0) is False
    request = referee.request
    assert request is not None and request.number == 1
    assert referee.undo_refusal(0) == (
        "Your take-back request waits for its answers: withdraw it first."
    )
    assert referee.undo_refusal(1) == "Ann's take-back request waits for its answers first."
    assert referee.redo_refusal(0) == "There is nothing to redo."
    with pytest.raises(IllegalAction, match="no longer open"):
        referee.answer(1, True, number=2)
    assert referee.request is request
    with pytest.raises(IllegalAction, match="no take-back request to withdraw"):
        referee.withdraw(1)


def test_a_withdrawn_request_is_told_and_not_asked_again_before_a_decision():
    referee, rng = two_humans_past_bob()
    assert referee.undo(0) is False
    referee.withdraw(0)
    assert referee.request is None
    assert referee.view(1).notice == "Ann no longer asks to take back."
    assert referee.undo_refusal(0) == (
        "Your take-back request was withdrawn: ask again once somebody has decided."
    )
    play_one(referee, rng)  # Ann decides: she may ask again
    assert referee.undo_refusal(0) is None


def test_a_request_lapses_once_its_time_is_up_and_everyone_is_told():
    referee, _rng = two_humans_past_bob()
    referee.takeback_seconds = 30.0
    assert referee.undo(0) is False
    request = referee.request
    assert request is not None
    assert not referee.lapse(request.number + 1)  # another request's time: nothing happens
    assert referee.lapse(request.number) and referee.request is None
    lapsed = "Ann's take-back request lapsed: it was not answered in time."
    assert referee.view(0).notice == referee.view(1).notice == lapsed
    assert not referee.lapse(request.number)
    assert referee.undo_refusal(0) == (
        "Your take-back request was lapsed: ask again once somebody has decided."
    )


def test_a_request_stands_while_the_bots_reply_and_ends_when_a_person_plays():
    referee = referee_for("Ann,Bob,bot:random", seed=8)
    rng = random.Random(5)
    while referee.to_move != 1:
        play_one(referee, rng)
    while referee.to_move == 1:
        play_one(referee, rng)
    assert referee.undo(0) is False and referee.request is not None
    asked = referee.request.takeback
    while referee.to_move == 2:  # the bot waits for nobody: its reply joins the take-back
        assert referee.bot_to_move() == 2
        play_one(referee, rng)
    assert referee.request is not None
    grown = referee.request.takeback
    assert grown.decisions > asked.decisions and grown.whose[-1] == 2
    assert grown.whose[: asked.decisions] == asked.whose
    assert referee.to_move == 0
    play_one(referee, rng)  # Ann plays on: she no longer asks
    assert referee.request is None
    assert referee.view(1).notice == "Ann played on and no longer asks to take back."
    assert referee.view(0).notice is None
    while referee.to_move != 1:
        play_one(referee, rng)
    assert referee.undo(0) is False  # decisions came since: she may ask again
    play_one(referee, rng)  # Bob plays instead of answering
    assert referee.request is None
    assert referee.view(0).notice == "Bob played on instead: Ann's decision stands."


def test_a_request_stands_while_a_stand_in_decides_and_covers_its_decision():
    """Ann's blind draw asks Cid (away: a bot stands in and agrees) and Bob; the stand-in then
    plays Cid's turn, which does not end the request as a person's decision would."""
    referee = referee_for("Ann,Cid,Bob")
    referee.stand_in(1, "random")
    while referee.to_move == 0:
        legal = referee.legal()
        draws = [action for action in legal if isinstance(action, DrawCard)]
        referee.play(0, [draws[0] if draws else legal[0]])
    assert not referee.undo(0)
    assert referee.request is not None and referee.request.waiting == {2}
    turn = referee.bot_turn()
    assert turn is not None and turn.seat == 1
    assert referee.play_bot(turn, turn.choose())
    request = referee.request
    assert request is not None and request.waiting == {2}
    assert request.takeback.whose == (0, 1)  # the stand-in's decision goes back with it


def test_a_bot_agrees_to_take_back_the_askers_decisions_and_bots_but_no_other_players():
    assert bot_agrees(0, (0, 2, 2), bots={2})
    assert bot_agrees(0, (0, 1, 2), bots={1, 2})  # the answering bot's own
    assert not bot_agrees(0, (0, 1, 2), bots={2})  # a person's decision
    assert not bot_agrees(0, (), bots={1, 2})  # nothing known of whose they are


def test_a_finished_game_is_final():
    referee = referee_for("Ann,bot:random", seed=1, game=JAIPUR)
    rng = random.Random(3)
    while not referee.is_over():
        play_one(referee, rng)
    assert referee.undo_refusal(0) == "The game is over: its result stands."
    with pytest.raises(IllegalAction):
        referee.undo(0)


def test_the_revision_counts_every_change_and_is_kept_in_the_match():
    referee = referee_for("Ann,Bob", seed=6)
    rng = random.Random(4)
    for _ in range(5):
        play_one(referee, rng)
    assert referee.revision == referee.match.revision == 5


def test_a_seat_sees_its_own_observation_its_decisions_and_the_news_since_its_last():
    referee = referee_for("Ann,bot:random", seed=12)
    rng = random.Random(5)
    view = referee.view(0)
    assert view.observation == KARAKUM.observe(referee.match.state, 0)
    assert view.legal == referee.legal() and view.news == () and view.before is None
    assert referee.view(1).legal == ()  # a bot's decisions are not offered to anyone
    while referee.to_move == 0:
        play_one(referee, rng)
    mine = len(referee.match.history)
    while referee.to_move != 0:
        play_one(referee, rng)
    view = referee.view(0)
    assert view.since == mine
    assert view.news == tuple(referee.match.history[mine:])
    assert view.before == KARAKUM.observe(referee.match.state_at(mine), 0)
    assert view.log == tuple(referee.match.log())
    public = referee.view(None)
    assert public.observation == KARAKUM.observe(referee.match.state, None)
    assert public.legal == () and len(public.news) == 1


def test_choices_read_from_the_seats_observation():
    referee = referee_for("Ann,Bob", seed=2)
    view = referee.view(0)
    words = [w for _, w in view.choices(distinct=True)]
    assert len(words) == len(set(words))
    assert [a for a, _ in view.choices()] == list(view.legal)
    observation = KARAKUM.observe(referee.match.state, 0)
    assert all(w == KARAKUM.preview(observation, a) for a, w in view.choices())


def test_listeners_hear_every_change():
    referee = referee_for("Ann,bot:random", seed=7)
    heard: list[Change] = []
    stop = referee.subscribe(heard.append)
    referee.play(0, [referee.legal()[0]])
    referee.count_hint(0)
    referee.undo(0)
    referee.redo(0)
    assert [c.kind for c in heard] == ["play", "hint", "undo", "redo"]
    assert [c.revision for c in heard] == [1, 2, 3, 4]
    stop()
    referee.undo(0)
    assert len(heard) == 4


def test_a_held_table_takes_no_decision():
    referee = referee_for("Ann,bot:random")
    referee.hold("Waiting for Bob to join.")
    assert referee.refusal(0, [referee.legal()[0]]) == "Waiting for Bob to join."
    assert referee.view(0).legal == ()
    referee.hold(None)
    assert referee.refusal(0, [referee.legal()[0]]) is None


def test_the_game_over_refuses_decisions():
    referee = referee_for("bot:random,bot:random", seed=1, game=JAIPUR)
    rng = random.Random(3)
    while not referee.is_over():
        play_one(referee, rng)
    assert referee.outcome() is not None
    assert referee.refusal(0, [JAIPUR.legal_actions(referee.match.state_at(-2))[0]]) == (
        "The game is over."
    )
    outcome = referee.outcome()
    # Jaipur's chart follows the rupees of each round, ending at the last round's totals.
    rounds = referee.match.state.rounds
    assert outcome is not None and outcome.result.scores == referee.match.state.seals
    assert [line[-1] for line in outcome.series] == [s.total for s in rounds[-1].scores]
    assert len(outcome.rounds) == len(rounds) - 1
    names = ["Ann", "Bob"]
    scores = outcome.result.scores
    winner = names[outcome.result.winners[0]]
    assert outcome.sentence(names) == f"{winner} wins (Ann {scores[0]}, Bob {scores[1]})."


def test_storage_keeps_the_newest_position(tmp_path: Path):
    path = tmp_path / "game.json"
    referee = referee_for("Ann,bot:random", seed=9, storage=SaveFile(path))
    rng = random.Random(9)
    for _ in range(25):
        play_one(referee, rng)
    referee.flush()
    loaded = load_match(path)
    assert loaded.history == referee.match.history
    moved = tmp_path / "named.json"
    referee.relocate(moved)
    assert not path.exists() and load_match(moved).history == referee.match.history
    play_one(referee, rng)
    referee.flush()
    assert load_match(moved).history == referee.match.history


class SlowStorage:
    """A storage whose writes wait for a gate: shows that writes coalesce."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.written: list[str] = []

    def snapshot(self, match: Match) -> str:
        return json.dumps(len(match.history))

    def write(self, text: str) -> None:
        self.gate.wait(5)
        self.written.append(text)


def test_the_writer_never_blocks_and_writes_only_the_newest_waiting_snapshot():
    storage = SlowStorage()
    writer = SaveWriter(storage)
    match = Match(KARAKUM, [Seat("Ann"), Seat("Bob")], 3)
    rng = random.Random(0)
    for _ in range(6):  # each submit returns at once though the first write is held
        legal = match.legal_actions()
        match.play(legal[rng.randrange(len(legal))])
        writer.submit(match)
    storage.gate.set()
    writer.flush()
    assert storage.written[-1] == "6"
    assert len(storage.written) <= 2  # the first, then only the newest of the rest


def test_the_writer_tells_which_revision_is_on_disk(tmp_path: Path):
    path = tmp_path / "game.json"
    kept: list[int] = []
    referee = referee_for("Ann,Bob", storage=SaveFile(path))
    referee.when_kept(kept.append)
    referee.keep_now()  # before any decision, and waited for
    assert kept == [0] and path.exists()
    referee.play(0, [referee.legal()[0]])
    referee.flush()
    assert kept[-1] == referee.revision == 1
    assert json.loads(path.read_text())["revision"] == 1
    referee.relocate(tmp_path / "moved.json")  # the listener follows the match to its new file
    seat = referee.to_move
    assert seat is not None
    referee.play(seat, [referee.legal()[0]])
    referee.flush()
    assert kept[-1] == referee.revision == 2


def test_keeping_now_raises_when_the_save_cannot_be_written(tmp_path: Path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    referee = referee_for("Ann,Bob", storage=SaveFile(blocked / "game.json"))
    with pytest.raises(OSError):
        referee.keep_now()


def test_a_failed_write_is_reported(tmp_path: Path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    referee = referee_for("Ann,bot:random", storage=SaveFile(blocked / "game.json"))
    referee.play(0, [referee.legal()[0]])
    referee.flush()
    assert isinstance(referee.save_error, OSError)


def decisions_seen(game, seats: int, seed: int, turns: int = 300):
    """(observation of the decider, legal decision) pairs over a seeded random game."""
    state = game.new_game([f"P{i}" for i in range(seats)], seed, {})
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over(state):
            return
        legal = game.legal_actions(state)
        observation = game.observe(state, state.to_move)
        for action in legal:
            yield observation, action
        state = game.apply(state, rng.choice(legal))


@pytest.mark.parametrize(
    ("name", "revealing", "quiet"),
    [
        ("karakum", {"TakeCard", "DrawCard", "Pay"}, {"Buy", "Join", "Pass"}),
        ("karakorum", {"Reveal"}, {"StopRevealing", "Take", "StopTaking"}),
        ("jaipur", {"TakeGood", "TakeCamels"}, {"Exchange"}),
    ],
)
def test_which_decisions_reveal_something(name, revealing, quiet):
    game = get_game(name)
    kinds: dict[str, set[bool]] = {}
    for observation, action in decisions_seen(game, 2, seed=3):
        kinds.setdefault(type(action).__name__, set()).add(game.reveals(observation, action))
    for kind in revealing:
        assert kinds.get(kind) == {True}, kind
    for kind in quiet & set(kinds):
        assert kinds[kind] == {False}, kind


def test_a_gesture_cannot_run_past_a_reveal_and_says_so_whatever_comes_after():
    referee = referee_for("Ann,Bob", seed=4, game=get_game("karakorum"))
    game = referee.game
    reveal = next(a for a in referee.legal() if type(a).__name__ == "Reveal")
    state = referee.match.state
    # Whatever card is named after the reveal, the answer is the same: nothing is tried.
    answers = set()
    for card in set(game.sample_state(referee.view(0).observation, random.Random(1)).deck):
        answers.add(referee.refusal(0, [reveal, StopRevealing(), Take(card), reveal]))
    assert answers == {
        "A gesture cannot go on past a decision that reveals something: "
        "send the rest once you have seen it."
    }
    assert referee.match.state is state


def test_nothing_to_take_back_at_the_start():
    referee = referee_for("Ann,bot:random")
    assert referee.undo_refusal(0) == "There is nothing to take back."
    assert referee.redo_refusal(0) == "There is nothing to redo."


def test_at_a_table_of_people_and_bots_nobody_takes_back_anothers_move_unasked():
    """Ann, a bot and Bob: each may take back only their own gesture (and what followed),
    and once it showed a card or Bob has decided since, only with Bob's consent."""
    referee = referee_for("Ann,bot:random,Bob", seed=9)
    assert referee.undo_refusal(0) == "There is nothing to take back."
    assert referee.redo_refusal(0) == "There is nothing to redo."
    referee.play(0, [DrawCard()])  # a card from the deck: it showed Ann something new
    assert referee.undo_refusal(0) is None
    assert referee.takeback(0).needs == (2,) and referee.takeback(0).revealed
    assert referee.undo_refusal(2) == "Ann decided last: you have made no decision to take back."
    referee.play(0, [DrawCard()])
    rng = random.Random(4)
    while referee.to_move != 2:  # the bot plays: Ann's turn and its replies go back together
        play_one(referee, rng)
    assert referee.takeback(0).decisions == len(referee.match.history) - 1
    assert referee.undo_refusal(2) == "Ann decided last: you have made no decision to take back."
    play_one(referee, rng)  # Bob's first decision
    assert referee.takeback(0).needs == (2,)  # Bob has decided since: his consent first
    assert not referee.undo(0) and referee.request is not None
    assert referee.request.question(referee.match.seats, 2).startswith("Bob: Ann asks to take back")
    referee.answer(2, accept=False)
    assert referee.request is None and referee.match.actor(len(referee.match.history) - 1) == 2


def test_with_bots_only_before_you_there_is_nothing_of_yours_to_take_back():
    referee = referee_for("bot:random,Ann", seed=3)
    rng = random.Random(0)
    while referee.to_move != 1:
        play_one(referee, rng)
    assert referee.undo_refusal(1) == "You have made no decision to take back."
