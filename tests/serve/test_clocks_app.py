"""The clocks of a live table in the app (Pilot), at a `karavan serve` table on loopback:
Ann in the app, Bob a client whose updates are heard.  The clocks are read off the screen:
the one to move ticks; Ann's last seconds ring the bell once; a time-out is said in the
log and in a notice titled for what it is; a dropped connection pauses the clock."""

from __future__ import annotations

import asyncio
import re

from karavan_net.clocks import Clock, ClockKind
from karavan_tui.widgets.clocks import ClockBoard
from karavan_tui.widgets.side import GameLog

from ..tui.helpers import make_app, noted, waiting
from .at_table import Heard, quick_table
from .test_play_online import account, seat_client, serving
from .test_served_table_app import seated_in_app

LIVE_CLOCK = re.compile(r"\d:\d\d \+ \d:\d\d")


def clock_lines(app) -> list[str]:
    """The clock board's lines as drawn now (none before the table is composed)."""
    boards = app.screen.query("#clocks").results(ClockBoard)
    return [line for board in boards for line in board.render().plain.split("\n")]


def running(app) -> str:
    """The running clock's line (marked as the one to move), "" if none."""
    turn = app.glyphs.turn
    return next((line for line in clock_lines(app) if line.startswith(turn)), "")


def log_text(app) -> str:
    return str(app.screen.query_one(GameLog).query_one("#log-text").render())


async def test_the_clock_ticks_rings_once_and_a_time_out_is_told(tmp_path, database):
    async with serving(database) as server:
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        # A clock quicker than the lobby offers: 3 s a move + 3 s.
        table = quick_table(server, Clock(kind=ClockKind.LIVE, move_seconds=3, bank_seconds=3))
        bobs = seat_client(port, table, "Bob")
        await bobs.join()
        heard = Heard()
        reading = asyncio.get_running_loop().create_task(bobs.run(heard))
        app = make_app(tmp_path)
        told = noted(app)  # every toast, though a busy machine may outlast its few seconds
        rung: list[str | None] = []
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                driver = await seated_in_app(pilot, app, ann, table)

                def ring() -> None:  # which of Ann's deadlines the bell rang for
                    clock = driver.latest.clock if driver.latest else None
                    mine = [t.deadline for t in clock.seats if t.seat == 0] if clock else []
                    rung.append(mine[0] if mine else None)

                await waiting(pilot, lambda: bool(LIVE_CLOCK.search(running(app))))
                app.screen.query_one("#clocks", ClockBoard).ring = ring  # counted, not sounded
                assert len(clock_lines(app)) == 2  # both people's clocks, always
                first = running(app)
                await waiting(pilot, lambda: running(app) not in ("", first), 5)  # it ticks
                assert LIVE_CLOCK.search(running(app))
                # Nobody decides: a bot decides for the one to move, and everyone's log says so.
                said = re.compile(r"\(A bot decided for (Ann|Bob): their time ran out\.\)")
                await waiting(pilot, lambda: bool(said.search(log_text(app))), 30)
                assert any(said.search(line) for u in heard.updates for line in u.log)  # Bob's
                assert any(t == "Time out" and "time ran out" in m for t, m in told), told
                assert not any(t == "Take-back" for t, _ in told)
                # Ann's clock ran in its last seconds (6 s in all): the bell rang once a turn.
                await waiting(pilot, lambda: bool(rung), 30)
                assert len(rung) == len(set(rung))
                # The bell as the settings want it: on by default, and off when turned off.
                rang: list[int] = []
                app.bell = lambda: rang.append(1)  # counted, not sounded
                assert app.settings.clock_bell
                app.screen.ring_for_time()
                app.settings.clock_bell = False
                app.screen.ring_for_time()
                assert rang == [1]
                # The connection drops: the clock says it is paused, not a count.
                driver.connection_changed(False)
                await pilot.pause(0.6)
                assert clock_lines(app)[-1] == "Paused: reconnecting"
        finally:
            reading.cancel()
            await bobs.close()
            await ann.close()
            await bob.close()
