"""Players seated at a started table of a server on loopback, each with a lobby connection
and a table connection whose updates are heard."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from functools import partial

from attrs import define, field

from karavan_net.client import TableClient
from karavan_net.clocks import Clock
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_net.lobby_client import LobbyClient
from karavan_net.protocol import Update
from karavan_net.serve.server import KaravanServer
from tests.net.helpers import until

from .test_play_online import account, seat_client


@define
class Heard:
    """What a seat's client hears."""

    updates: list[Update] = field(factory=list)
    declined_with: list[str] = field(factory=list)
    closed_with: str | None = None

    def table_updated(self, update: Update) -> None:
        self.updates.append(update)

    def declined(self, reason: str) -> None:
        self.declined_with.append(reason)

    def connection_changed(self, connected: bool) -> None:
        pass

    def closed(self, reason: str) -> None:
        self.closed_with = reason

    @property
    def last(self) -> Update:
        return self.updates[-1]


@define
class Player:
    name: str
    seat: int
    lobby: LobbyClient
    client: TableClient
    heard: Heard
    reading: asyncio.Task[None] | None = None


@define
class Seated:
    table: int
    players: list[Player]

    def __getitem__(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)


def quick_table(server: KaravanServer, clock: Clock) -> int:
    """A started Jaipur table of Ann and Bob (their accounts made) with ``clock``, which may be
    quicker than the lobby offers: it goes straight into the store."""
    from karavan_net.serve.lobby_service import LobbyService
    from karavan_net.serve.store import SeatSpec, TableSpec

    store = server.store
    ann, bob = store.accounts.named("Ann"), store.accounts.named("Bob")
    assert ann is not None and bob is not None
    spec = TableSpec(game="jaipur", seats=(SeatSpec(), SeatSpec()), clock=clock)
    table = store.tables.create(spec, ann, 3, start=LobbyService.start)
    LobbyService(store).take(bob, table.id, None)
    return table.id


@contextlib.asynccontextmanager
async def at_table(
    server: KaravanServer, game: str, names: list[str], **settings: object
) -> AsyncIterator[Seated]:
    """``names`` at a new started table of ``game`` (``settings`` as CreateTable's), each
    reading their table's updates; the first made it."""
    port = server.port
    lobbies = [await account(port, name) for name in names]
    seats = [SeatAsk("open"), *(SeatAsk("player", name=name) for name in names[1:])]
    made = await lobbies[0].create(CreateTable(game, seats, **settings))  # type: ignore[arg-type]
    for lobby in lobbies[1:]:
        await lobby.take(made.table)
    players = []
    for seat, (name, lobby) in enumerate(zip(names, lobbies, strict=True)):
        client = seat_client(port, made.table, name)
        await client.join()
        heard = Heard()
        player = Player(name, seat, lobby, client, heard)
        player.reading = asyncio.get_running_loop().create_task(client.run(heard))
        players.append(player)
    try:
        yield Seated(made.table, players)
    finally:
        for player in players:
            if player.reading is not None:
                player.reading.cancel()
            await player.client.close()
            await player.lobby.close()


async def decide_once(server: KaravanServer, seated: Seated) -> int:
    """The player to move plays decisions (the first legal each time) until the turn passes;
    which seat it was."""
    table = server.served[seated.table]
    seat = table.match.to_move
    assert seat is not None
    player = seated.players[seat]
    while table.match.to_move == seat:
        number = table.number
        await until(partial(_heard_number, player, number))
        update = player.heard.last
        await player.client.decide(player.client.action(update.legal[0].action))
        await until(lambda: table.number != number)  # noqa: B023 (awaited within the turn)
    return seat


def _heard_number(player: Player, number: int) -> bool:
    return bool(player.heard.updates) and player.heard.last.number == number


async def heard_by_all(seated: Seated, condition) -> None:
    """Wait until every player's latest update meets ``condition``."""
    await until(
        lambda: all(p.heard.updates and condition(p.heard.last) for p in seated.players), 30
    )
