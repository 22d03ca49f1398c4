"""The lobby's WebSocket of `karavan serve`: the login, the gate, and each request answered.

A client opens ``/lobby``, may ask the server to prove its identity (a
:class:`~karavan_net.protocol.Challenge`), proves its account with a
:class:`~karavan_net.lobby.Login` and then asks for lists, new tables and seats,
which :class:`~karavan_net.serve.lobby_service.LobbyService` answers on the server's
database thread (and where the player's web hook is, for turn-based tables).  A
connection that asks to :class:`~karavan_net.lobby.Follow` the lists is sent them again
whenever they change (:mod:`karavan_net.serve.lobby_news`), and every table created or
seat taken here is told to the followers.  A login with a key no account has is a wrong
guess, answered only as fast as the guess allowances let.  What one account or one
address may take of the lobby is kept by the
:class:`~karavan_net.serve.limits.LobbyGate`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

from aiohttp import WSCloseCode, WSMsgType, web

from karavan_core.registry import get_game
from karavan_core.text import listed
from karavan_core.version import __version__
from karavan_net import lobby as wire
from karavan_net.codec import ProtocolError
from karavan_net.guard import Bucket, Doorman
from karavan_net.identity import ServerIdentity
from karavan_net.protocol import PROTOCOL, Challenge, Proof
from karavan_net.serve.eventlog import EventLog
from karavan_net.serve.limits import (
    NEW_ACCOUNTS_REFUSED,
    NEW_TABLES_REFUSED,
    REPLACED,
    Limits,
    LobbyGate,
)
from karavan_net.serve.lobby_news import LobbyNews
from karavan_net.serve.lobby_service import LobbyService, unknown_key
from karavan_net.serve.notifier import Notifier
from karavan_net.serve.store import AccountInfo, Status, StoreError, TableRecord
from karavan_net.serve.upkeep import Upkeep
from karavan_net.server import GRACE, Connection

T = TypeVar("T")
M = TypeVar("M")

UNKNOWN_KEY = ("login with a key no account has", "unknown keys")
DATABASE_AWAY = "The server cannot reach its database just now: try again in a moment."


class LobbyServer(Protocol):
    """What the lobby's connections use of the server they belong to
    (:class:`~karavan_net.serve.server.KaravanServer`)."""

    heartbeat: float
    rate: float
    burst: float
    doorman: Doorman | None
    connections: set[Connection]
    identity: ServerIdentity | None
    lobby: LobbyService
    news: LobbyNews
    log: EventLog
    upkeep: Upkeep
    notifier: Notifier

    def client_address(self, request: web.BaseRequest) -> str:
        """The address a request comes from."""

    async def first_message(
        self,
        request: web.BaseRequest,
        connection: Connection,
        decode: Callable[[str | bytes], M],
        refuse: Callable[[str], None],
        words: tuple[str, str],
    ) -> M | None:
        """The client's next message before it is let in."""

    def proof(self, challenge: Challenge) -> Proof | None:
        """The proof of the server's identity a challenge asks for."""

    async def slow_the_guesser(
        self, address: str, visitor: str | None, most: float, guess: tuple[str, str]
    ) -> None:
        """Count a wrong guess and wait as its allowances say."""

    async def db(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` on the database's thread."""


class LobbySockets:
    """The lobby connections of ``server``, within ``limits``."""

    def __init__(self, server: LobbyServer, limits: Limits) -> None:
        self.server = server
        self.gate: LobbyGate[Connection] = LobbyGate(limits)
        self.open = 0  # lobby connections open now, logged in or not yet

    async def serve(self, request: web.BaseRequest) -> web.StreamResponse:
        """One client's lobby connection, from its login to its end."""
        server = self.server
        ws = web.WebSocketResponse(
            heartbeat=server.heartbeat, max_msg_size=wire.MAX_LOBBY_FRAME + 1, autoping=True
        )
        assert server.doorman is not None
        server.doorman.knocked(request.protocol)
        await ws.prepare(request)
        connection = Connection(ws, server.client_address(request))
        server.connections.add(connection)
        self.open += 1
        try:
            account = await self._login(request, connection)
            if account is not None:
                await self._requests(connection, account)
        finally:
            self.gate.left(connection)
            server.news.left(connection)
            self.open -= 1
            await connection.finish()
            server.connections.discard(connection)
        return ws

    def _admitted(self, connection: Connection, account: AccountInfo) -> bool:
        """Whether ``connection`` of ``account`` may stay; the account's oldest connections
        past its share are closed (it proved the account: it is its owner)."""
        try:
            giving_way = self.gate.admit(connection, account.id, connection.address)
        except PermissionError as refused:
            connection.close(wire.SERVER.encode(wire.LobbyRefused(str(refused))))
            return False
        for old in giving_way:
            old.close(wire.SERVER.encode(wire.LobbyRefused(REPLACED)))
        return True

    async def _requests(self, connection: Connection, account: AccountInfo) -> None:
        """Answer ``account``'s requests until the connection ends, each in its turn."""
        server = self.server
        bucket = Bucket(server.rate, server.burst)
        async for message in connection.ws:
            if message.type == WSMsgType.ERROR:
                break
            if len(message.data) > wire.MAX_LOBBY_FRAME:
                connection.close(code=WSCloseCode.MESSAGE_TOO_BIG)
                break
            delay = bucket.delay()
            if delay > 0:  # this client is in a hurry: it waits, nobody else does
                await asyncio.sleep(delay)
            answer = await self._answer(connection, account, message.data)
            connection.send(wire.encode(answer, connection.minor))

    async def _login(self, request: web.BaseRequest, connection: Connection) -> AccountInfo | None:
        """Read the client's Login (after a Challenge, answered, if it sends one first) and
        prove its account; ``None`` (closed) if refused."""
        server = self.server

        def refuse(reason: str) -> None:
            connection.close(wire.SERVER.encode(wire.LobbyRefused(reason)))

        words = ("No login from this client: the server waits no longer.", "a Login")
        login = await server.first_message(request, connection, wire.CLIENT.decode, refuse, words)
        proof = None
        if isinstance(login, Challenge):
            proof = server.proof(login)
            if proof is None:
                refuse("That challenge does not fit the protocol.")
                return None
            connection.send(wire.SERVER.encode(proof))
            login = await server.first_message(
                request, connection, wire.CLIENT.decode, refuse, words
            )
        if login is None:
            return None
        if not isinstance(login, wire.Login):
            refuse("The first message is a Login.")
            return None
        if login.protocol != PROTOCOL:
            refuse(
                f"The server speaks protocol {PROTOCOL} and this client {login.protocol}: "
                "use the same version of Karavan."
            )
            return None
        account = await self._account(request, connection, login, refuse)
        if account is None or not self._admitted(connection, account):
            return None
        assert server.doorman is not None
        server.doorman.welcome(request.protocol)
        server.log.event("login", f"{account.name} is in the lobby.", account=account.name)
        connection.minor = max(0, login.minor)  # what it is sent is written in its shapes
        # A client that asked for the proof reads the identity; an older one knows no such field.
        identity = "" if proof is None or server.identity is None else server.identity.fingerprint
        connection.send(wire.SERVER.encode(wire.LoggedIn(account.name, __version__, identity)))
        return account

    async def _account(
        self,
        request: web.BaseRequest,
        connection: Connection,
        login: wire.Login,
        refuse: Callable[[str], None],
    ) -> AccountInfo | None:
        """The account ``login`` proves (or makes, within the address's allowance); ``None``
        once refused."""
        server = self.server
        try:
            account = await server.db(server.lobby.proven, login.secret)
            if account is not None:
                return account
            if not login.create:
                assert server.doorman is not None
                most = server.doorman.time_left(request.protocol) - GRACE
                await server.slow_the_guesser(connection.address, None, most, UNKNOWN_KEY)
                refuse(unknown_key(login.name))
                return None
            if not self.gate.may_make_account(connection.address):
                refuse(NEW_ACCOUNTS_REFUSED)
                return None
            return await server.db(server.lobby.new_account, login.name, login.secret)
        except StoreError as error:
            refuse(str(error))
        except Exception as error:  # the database's own
            server.upkeep.failed("log a player in", error)
            refuse(DATABASE_AWAY)
        return None

    async def _answer(
        self, connection: Connection, account: AccountInfo, text: str | bytes
    ) -> wire.LobbyServerMessage:
        """The answer to one lobby request of ``account`` on ``connection``."""
        server = self.server
        try:
            request = wire.CLIENT.decode(text)
        except ProtocolError as error:
            return wire.LobbyDeclined(str(error))
        lobby = server.lobby
        try:
            if isinstance(request, wire.ListTables):
                return await server.db(lobby.lobby, account, request.game)
            if isinstance(request, wire.MyTables):
                return await server.db(lobby.mine, account, request.over)
            if isinstance(request, wire.Leaderboard):
                return await server.db(lobby.board, request.game)
            if isinstance(request, wire.CreateTable):
                return await self._create(account, request)
            if isinstance(request, wire.TakeSeat):
                table = await server.db(lobby.take, account, request.table, request.seat)
                self.took(table, account)
                server.news.changed()
                return _seated(table, account)
            if isinstance(request, wire.StandUp):
                return await self._stand_up(account, request.table)
            if isinstance(request, wire.DeclineChallenge):
                return await self._decline(account, request.table)
            if isinstance(request, wire.Follow):
                lists = await server.db(lobby.lists, account, request)
                server.news.follow(connection, account, request, lists)
                return lists
            if isinstance(request, wire.NotifyAddress):
                private = server.notifier.allow_private
                ask = partial(lobby.notify_address, allow_private=private)
                return await server.db(ask, account, request.url)
        except StoreError as error:
            return wire.LobbyDeclined(str(error))
        except Exception as error:  # the database's own: this request is declined, not the rest
            server.upkeep.failed(f"answer a lobby request of {account.name}", error)
            return wire.LobbyDeclined(DATABASE_AWAY)
        return wire.LobbyDeclined("You are logged in already.")

    async def _create(self, account: AccountInfo, ask: wire.CreateTable) -> wire.LobbyServerMessage:
        """A new table of ``account``'s, within its allowance."""
        if not self.gate.may_open_table(account.id):
            return wire.LobbyDeclined(NEW_TABLES_REFUSED)
        server = self.server
        table = await server.db(server.lobby.create, account, ask)
        server.log.event(
            "table_opened",
            f"{account.name} opened table {table.id} ({table.game}).",
            table=table.id,
            account=account.name,
            game=table.game,
        )
        self.started(table)
        server.news.changed()
        if table.challenge:
            await self.tell(table, account, challenge_words(table, account.name))
        return _seated(table, account)

    def took(self, table: TableRecord, account: AccountInfo) -> None:
        """Tell the server's output that ``account`` took a seat at ``table`` (and that its
        game starts, if that seat was the last)."""
        seat = table.seat_of(account.id)
        where = f"seat {(seat or 0) + 1} at {table_words(table)}"
        self.server.log.event(
            "seat_taken", f"{account.name} took {where}.", table=table.id, account=account.name
        )
        self.started(table)

    def started(self, table: TableRecord) -> None:
        """Tell the server's output that ``table``'s game starts, if it has (every seat taken)."""
        if table.status is not Status.PLAYING:
            return
        names = listed([seat.name or f"a {seat.level or 'stand-in'} bot" for seat in table.seats])
        said = f"Table {table.id} ({get_game(table.game).title}) starts: {names} play."
        self.server.log.event("game_started", said, table=table.id, game=table.game)

    async def _stand_up(self, account: AccountInfo, table_id: int) -> wire.LobbyServerMessage:
        """``account`` leaves its seat at a table that has not started; the others there are
        told, and a table left empty is closed."""
        table = await self.server.db(self.server.lobby.stand_up, account, table_id)
        name, where = account.name, table_words(table)
        if table.status is Status.CLOSED:
            said = f"{name} stood up from {where}, and it is closed."
            done = f"You stood up from {where}: it is closed."
        else:
            said = f"{name} stood up from {where}: the seat is free again."
            done = f"You stood up from {where}: the seat is free again."
        self.server.log.event("stood_up", said, table=table.id, account=name)
        self.server.news.changed()
        await self.tell(table, account, said)
        return wire.Done(done)

    async def _decline(self, account: AccountInfo, table_id: int) -> wire.LobbyServerMessage:
        """``account`` declines the challenge made to it; its challenger is told."""
        table = await self.server.db(self.server.lobby.decline, account, table_id)
        said = f"{account.name} declined the challenge at {table_words(table)}: it is closed."
        self.server.log.event(
            "challenge_declined",
            f"{account.name} declined the challenge at table {table.id}.",
            table=table.id,
            account=account.name,
        )
        self.server.news.changed()
        await self.tell(table, account, said)
        return wire.Done(f"You declined the challenge of {table.created_by or 'its maker'}.")

    async def tell(self, table: TableRecord, by: AccountInfo, words: str) -> None:
        """Tell ``words`` to the lobby connections of everyone at ``table`` (sitting there, or
        a seat kept for them) but ``by``, that read such news."""
        told = wire.Told(words)
        for account_id in await self.server.db(self.server.lobby.people, table):
            if account_id == by.id:
                continue
            for connection in self.gate.of_account(account_id):
                if connection.minor >= 1:
                    connection.send(wire.encode(told, connection.minor))


def table_words(table: TableRecord) -> str:
    """A table in a few words: "table 4 (Jaipur)"."""
    return f"table {table.id} ({get_game(table.game).title})"


def challenge_words(table: TableRecord, challenger: str) -> str:
    """What a player challenged at ``table`` is told: who, which game, which clock."""
    rated = ", rated" if table.rated else ""
    return (
        f"{challenger} challenges you to {get_game(table.game).title} "
        f"({table.clock.describe()}{rated}) at table {table.id}: it is at the top of your lobby."
    )


def _seated(table: TableRecord, account: AccountInfo) -> wire.Seated:
    seat = table.seat_of(account.id)
    assert seat is not None
    return wire.Seated(table.id, seat, table.status is Status.PLAYING)
