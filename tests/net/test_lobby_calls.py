"""What calls a player to the table, from one list of their tables to the next."""

from __future__ import annotations

from attrs import evolve

from karavan_net.lobby import SeatLine, TableLine, Tables
from karavan_net.lobby_calls import Call, Caller

ANN, BOB = SeatLine("human", name="Ann"), SeatLine("human", name="Bob")


def table(number: int, status: str = "open", clock_kind: str = "live", **more) -> TableLine:
    seats = [ANN, BOB if status != "open" else SeatLine("human")]
    return TableLine(number, "jaipur", status, seats, "30 s a move", "consent", True,
                     my_seat=0, clock_kind=clock_kind, **more)  # fmt: skip


def mine(*lines: TableLine) -> Tables:
    return Tables("mine", list(lines), sum(line.my_turn for line in lines))


def test_the_first_list_heard_calls_nobody():
    caller = Caller()
    assert caller.heard(mine(table(1, "playing", my_turn=True))) is None


def test_a_live_table_that_starts_is_opened_and_a_turn_based_one_is_said():
    caller = Caller()
    caller.heard(mine(table(1), table(2, clock_kind="turn")))
    live = caller.heard(mine(table(1, "playing", my_turn=True), table(2, clock_kind="turn")))
    assert live == Call("Table 1 starts: your turn", 1)
    turn = caller.heard(
        mine(table(1, "playing", my_turn=True), table(2, "playing", clock_kind="turn"))
    )
    assert turn == Call("Table 2 starts")  # nothing to open: a day to decide


def test_a_table_that_comes_to_wait_for_me_calls_me_once():
    caller = Caller()
    waits = [table(n, "playing", clock_kind="turn") for n in (4, 5, 6)]
    caller.heard(mine(*waits))
    mine_now = [evolve(waits[0], my_turn=True), *waits[1:]]
    assert caller.heard(mine(*mine_now)) == Call("Your turn at table 4")
    assert caller.heard(mine(*mine_now)) is None  # said already
    all_mine = [evolve(line, my_turn=True) for line in waits]
    assert caller.heard(mine(*all_mine)) == Call("Your turn at 2 tables")


def test_a_table_i_have_just_sat_at_is_no_news():
    caller = Caller()
    caller.heard(mine())
    assert caller.heard(mine(table(7, "playing", my_turn=True))) is None
