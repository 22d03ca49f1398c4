"""A challenge from the command line: `karavan online SERVER --challenge NAME --game jaipur
--clock 30s+5m` asks the server for a table kept for the players named.

A clock is written as the lobby's presets are: ``untimed``, a live clock's move time and
bank (``30s+5m``: 30 seconds a move and 5 minutes more to spend), or a turn-based table's
time for each turn (``1d``); the server checks that it is one a table may have.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from karavan_net.clocks import ClockKind
from karavan_net.lobby import CreateTable, SeatAsk

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_SPAN = r"(\d{1,6})([smhd])"


def _seconds(number: str, unit: str) -> int:
    return int(number) * UNITS[unit]


def parse_clock(text: str) -> tuple[ClockKind, int, int]:
    """The clock ``text`` names: its kind, move seconds and bank seconds; ``ValueError`` in
    words if it names none."""
    written = text.strip().lower().replace(" ", "")
    if written in ("untimed", "none", ""):
        return ClockKind.NONE, 0, 0
    live = re.fullmatch(f"{_SPAN}\\+{_SPAN}", written)
    if live is not None:
        move, bank = _seconds(*live.group(1, 2)), _seconds(*live.group(3, 4))
        return ClockKind.LIVE, move, bank
    turn = re.fullmatch(_SPAN, written)
    if turn is not None:
        return ClockKind.TURN, _seconds(*turn.group(1, 2)), 0
    raise ValueError(
        f"{text!r} is not a clock: write untimed, a live move time and bank like 30s+5m, "
        "or a turn-based time for each turn like 1d"
    )


def challenge_request(
    game: str, names: Sequence[str], clock: str, *, rated: bool = False
) -> CreateTable:
    """The table a challenge asks for: my seat, then one kept for each of ``names``."""
    kind, move, bank = parse_clock(clock)
    seats = [SeatAsk("open"), *(SeatAsk("player", name=name) for name in names)]
    return CreateTable(
        game,
        seats,
        clock=kind.value,
        move_seconds=move,
        bank_seconds=bank,
        rated=rated,
        challenge=True,
    )
