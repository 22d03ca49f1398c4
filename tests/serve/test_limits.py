"""The lobby's gate: what one account or one address may take of a server."""

from __future__ import annotations

import pytest

from karavan_net.guard import Allowance
from karavan_net.serve.limits import ADDRESS_FULL, Limits, LobbyGate


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_accounts_oldest_lobby_connection_gives_way_to_its_newest():
    gate: LobbyGate[str] = LobbyGate(Limits(lobby_per_account=2))
    assert gate.admit("phone", 1, "10.0.0.1") == []
    assert gate.admit("laptop", 1, "10.0.0.2") == []
    assert gate.admit("back after a drop", 1, "10.0.0.1") == ["phone"]
    assert gate.of_account(1) == ("laptop", "back after a drop")
    assert gate.from_address("10.0.0.1") == 1
    gate.left("phone")  # the one that gave way closes later: counted once only
    assert gate.from_address("10.0.0.1") == 1


def test_an_address_past_its_share_is_refused_and_sends_nobody_away():
    gate: LobbyGate[str] = LobbyGate(Limits(lobby_per_address=3))
    for index in range(3):
        gate.admit(f"c{index}", index, "10.0.0.9")
    with pytest.raises(PermissionError, match=ADDRESS_FULL):
        gate.admit("c3", 3, "10.0.0.9")
    assert gate.admit("elsewhere", 3, "10.0.0.10") == []
    gate.left("c0")
    assert gate.admit("c3", 3, "10.0.0.9") == []
    assert gate.of_account(0) == ()


def test_new_accounts_per_address_and_new_tables_per_account_come_at_a_bounded_rate():
    clock = Clock()
    limits = Limits(
        new_accounts=Allowance(rate=1 / 60, burst=3), new_tables=Allowance(rate=1, burst=2)
    )
    gate: LobbyGate[str] = LobbyGate(limits, clock)
    assert [gate.may_make_account("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert gate.may_make_account("10.0.0.2")  # another address has its own allowance
    clock.now += 60
    assert gate.may_make_account("10.0.0.1") and not gate.may_make_account("10.0.0.1")
    assert [gate.may_open_table(7) for _ in range(3)] == [True, True, False]
    assert gate.may_open_table(8)
    clock.now += 1
    assert gate.may_open_table(7)
