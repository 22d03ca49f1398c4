"""A rated untimed game whose player leaves it waiting ends by abandonment, and is rated."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import update

from karavan_net.clocks import ABANDON_AFTER, Clock
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.protocol import Update
from karavan_net.serve.lobby_service import LobbyService
from karavan_net.serve.schema import TableSeat
from karavan_net.serve.seat_clocks import SeatClocks
from karavan_net.serve.store import Status

from .test_play_online import account, seat_client, serving


class Listener:
    """What a seat's client hears, until the table closes for it."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.closed_with: str | None = None

    def table_updated(self, update: Update) -> None:
        self.updates.append(update)

    def declined(self, reason: str) -> None:
        pass

    def connection_changed(self, connected: bool) -> None:
        pass

    def closed(self, reason: str) -> None:
        self.closed_with = reason


def test_the_person_to_move_at_a_rated_untimed_table_has_days_and_at_an_unrated_one_for_ever():
    now = datetime(2026, 12, 7, tzinfo=UTC)
    assert Clock().deadline(now, 0.0) is None
    assert Clock().deadline(now, 0.0, rated=True) == now + timedelta(seconds=ABANDON_AFTER)


async def test_a_rated_untimed_game_left_waiting_ends_by_abandonment_and_is_rated(database):
    async with serving(database) as server:
        port = server.port
        ann, bob = await account(port, "Ann"), await account(port, "Bob")
        seats = [SeatAsk("open"), SeatAsk("player", name="Bob")]
        made = await ann.create(CreateTable("jaipur", seats, rated=True))
        await bob.take(made.table)
        stored = server.store.tables.get(made.table)
        assert stored is not None and stored.to_move is not None
        late = stored.to_move
        deadline = stored.seats[late].deadline
        assert deadline is not None
        assert abs((deadline - stored.updated_at).total_seconds() - ABANDON_AFTER) < 60
        # Three days pass with nobody deciding: the stored deadline is put in the past.
        with server.store.sessions.begin() as session:
            session.execute(
                update(TableSeat)
                .where(TableSeat.table_id == made.table, TableSeat.seat == late)
                .values(deadline=deadline - timedelta(seconds=ABANDON_AFTER + 60))
            )
        names = ("Ann", "Bob")
        here = seat_client(port, made.table, names[1 - late])  # the other player comes back
        await here.join()
        heard = Listener()
        reading = asyncio.get_running_loop().create_task(here.run(heard))
        until = time.monotonic() + 30
        while not heard.updates or heard.updates[-1].outcome is None:
            assert time.monotonic() < until, "the game did not end"
            await asyncio.sleep(0.05)
        said = (
            f"{names[late]} left the game waiting 3 days: it ends, and {names[1 - late]} wins "
            "by abandonment."
        )
        # The one who stayed is shown the end as any game's (a rematch may follow).
        ending = heard.updates[-1]
        assert ending.notice == said and ending.outcome.result.notes == (said,)
        assert ending.outcome.result.winners == (1 - late,) and not ending.legal
        assert heard.closed_with is None
        reading.cancel()
        await here.close()
        ended = server.store.tables.get(made.table)
        assert ended is not None and ended.status is Status.OVER and ended.to_move is None
        assert ended.result is not None and ended.result["winners"] == [1 - late]
        assert ended.result["abandoned"] == late and ended.result["sentence"] == said
        changes = server.store.ratings.changes({made.table})
        winner = changes[(made.table, stored.seats[1 - late].account_id)]
        loser = changes[(made.table, stored.seats[late].account_id)]
        assert winner[1] > winner[0] and loser[1] < loser[0]
        over = await (ann if late == 1 else bob).mine(over=True)
        assert [line.result for line in over.tables] == [said]
        # The table opens again as it ended: nobody may decide there.
        again = seat_client(port, made.table, names[late])
        await again.join()
        assert again.update is not None and not again.update.legal
        await again.close()
        await ann.close()
        await bob.close()


def test_an_unrated_untimed_table_never_ends_by_itself(database):
    from karavan_net.serve.store import Store

    from .stored import account as stored_account

    store = Store.open(database)
    try:
        ann, bob = stored_account(store, "Ann"), stored_account(store, "Bob")
        lobby = LobbyService(store)
        made = lobby.create(ann, CreateTable("jaipur", [SeatAsk("open"), SeatAsk("open")]))
        table = lobby.take(bob, made.id, None)
        assert all(seat.deadline is None for seat in table.seats)
        clocks = SeatClocks(table)
        clocks.changed(1 - (table.to_move or 0), datetime.now(UTC), stood_in=False)
        assert clocks.deadline() is None
    finally:
        store.close()
