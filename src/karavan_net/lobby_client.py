"""The app's side of the lobby: log in to a `karavan serve` server, then ask and be answered.

:class:`LobbyClient` opens the lobby's WebSocket, has the server prove its identity
(:mod:`karavan_net.identity`: the one pinned for the server, if any), proves the account
(:class:`~karavan_net.lobby.Login`) and then sends one request at a time,
waiting for its answer.  Once it follows the lobby (:meth:`LobbyClient.follow`) it
reads every frame as it comes: the lists the server pushes go to a
:class:`LobbyListener`, and when the connection drops (the server restarts, say) it
logs in and follows again until it is back, as a table's client does.  Everything the
server sends is read as data.  What the server tells unasked (a challenge
made to me, declined, a table closed) goes to ``told``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import aiohttp

from karavan_core.text import printable
from karavan_core.version import __version__
from karavan_net import lobby as wire
from karavan_net.accounts import Account
from karavan_net.client import RETRY_DELAYS, HostUnreachable, TableClient, unreachable
from karavan_net.codec import ProtocolError
from karavan_net.identity import IdentityError, check, new_challenge
from karavan_net.lobby import DEFAULT_SERVER_PORT, LOBBY_PATH
from karavan_net.protocol import HEARTBEAT, PROTOCOL, Proof, parse_address, shown_address
from karavan_net.tls import client_tls

ANSWER_SECONDS = 15.0  # a server that takes longer to answer a request is taken as gone


class LobbyRefusedError(Exception):
    """The server refused the login; ``str()`` is its reason."""


class LobbyDeclinedError(Exception):
    """The server declined a request; ``str()`` is its reason (nothing changed)."""


OLDER = "That message is not one of the lobby protocol's"  # an older server's first words
OLDER_LOGIN = "That Login message does not fit the protocol"  # a server of lobby revision 0
COMING_BACK = "The connection to the server dropped: Karavan is making it again."


class LobbyListener(Protocol):
    """What a client that follows the lobby tells (on its event loop)."""

    def lobby_lists(self, lists: wire.Lists) -> None:
        """The lists changed (pushed), or came again once the connection was back."""

    def lobby_connection(self, connected: bool) -> None:
        """The connection dropped (and is being made again), or is back."""

    def lobby_closed(self, reason: str) -> None:
        """The server closed the lobby for good, saying ``reason``: no more lists come."""


def lobby_url(host: str, port: int, tls: bool = False) -> str:
    """The WebSocket address of the lobby served at ``host``:``port`` (over TLS: ``wss``)."""
    return f"{'wss' if tls else 'ws'}://{shown_address(host, port)}{LOBBY_PATH}"


class LobbyClient:
    """One logged-in lobby connection.

    ``identity`` is the fingerprint pinned for the server, if any: the server must prove
    it before the account's secret is sent.  Once logged in, ``identity`` is the one the
    server proved and ``processes`` the addresses of its processes.  ``tls``: speak TLS,
    checking the server's certificate with this context.
    """

    def __init__(
        self,
        host: str,
        port: int,
        name: str,
        secret: str,
        *,
        identity: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.name = name
        self.secret = secret
        self.told: Callable[[str], None] | None = None  # what the server tells unasked
        self.minor = wire.MINOR  # the lobby's revision the server speaks, once known
        self.identity = identity
        self.tls = tls
        self.processes: tuple[str, ...] = ()
        self.account: str | None = None  # the name the server keeps, once logged in
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._lock = asyncio.Lock()
        # Following: what is followed, who hears it, the task that reads every frame, and
        # the answer the request sent waits for.
        self._follow: wire.Follow | None = None
        self._listener: LobbyListener | None = None
        self._reader: asyncio.Task[None] | None = None
        self._answer: asyncio.Future[wire.LobbyServerMessage] | None = None
        self._refused: str | None = None  # why the server closed the lobby, once it did
        self._left = asyncio.Event()  # closed for good

    @classmethod
    def for_account(cls, account: Account, ca: str | Path | None = None) -> LobbyClient:
        """The lobby's client for ``account``, not yet logged in: its server must prove the
        identity pinned for it, if any, and (at a ``wss://`` address) show a certificate
        that the system's CAs or ``ca`` check; ``ValueError`` in words if ``ca`` cannot be
        read."""
        host, port = parse_address(account.server, DEFAULT_SERVER_PORT)
        tls = client_tls(account.server, ca)
        return cls(host, port, account.name, account.secret, identity=account.identity, tls=tls)

    @property
    def address(self) -> str:
        """The server's address, as its accounts are kept (``wss://`` first over TLS)."""
        return ("wss://" if self.tls else "") + shown_address(self.host, self.port)

    async def connect(self, create: bool = False) -> str:
        """Log in (``create``: make the account if the server does not know the key).

        Returns the account's name; :class:`LobbyRefusedError` or
        :class:`~karavan_net.client.HostUnreachable` if it cannot.
        """
        answer = await self._log_in(create)
        if isinstance(answer, wire.LobbyRefused) and answer.reason.startswith(OLDER_LOGIN):
            await self._hang_up()  # a server of the lobby's first revision: met as it knows
            self.minor = 0
            answer = await self._log_in(create)
        if isinstance(answer, wire.LobbyRefused):
            await self._hang_up()
            raise LobbyRefusedError(answer.reason)
        if not isinstance(answer, wire.LoggedIn):
            await self._hang_up()
            raise LobbyRefusedError("The server answered the login with something else.")
        self.account = answer.name
        return answer.name

    async def _log_in(self, create: bool) -> wire.LobbyServerMessage:
        """Open the lobby, have the server prove itself, send the Login; its answer."""
        await self._open()
        proof = await self._prove()
        if proof is None:  # an older server, that knows no challenge: met as before
            await self._hang_up()
            await self._open()
        said = (PROTOCOL, self.name, self.secret, create, __version__, self.minor)
        await self._send(wire.Login(*said))
        return await self._receive()

    async def _open(self) -> None:
        self._session = aiohttp.ClientSession()
        try:
            self._ws = await self._session.ws_connect(
                lobby_url(self.host, self.port, self.tls is not None),
                heartbeat=HEARTBEAT,
                max_msg_size=4 * 1024 * 1024,
                timeout=aiohttp.ClientWSTimeout(ws_close=5.0),
                ssl=self.tls if self.tls is not None else True,
            )
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            await self._hang_up()
            raise unreachable("No Karavan server answers", self.address, error) from None

    async def _prove(self) -> Proof | None:
        """Have the server prove its identity (the pinned one, if any); ``None`` if it is an
        older server that knows no such proof and none is pinned."""
        challenge = new_challenge()
        await self._send(challenge)
        answer = await self._receive()
        older = isinstance(answer, wire.LobbyRefused) and answer.reason.startswith(OLDER)
        if older and self.identity is None:
            return None
        try:
            where = f"The server at {self.address}"
            self.identity = check(answer, challenge, where, self.identity, None)
        except IdentityError as error:
            await self._hang_up()
            raise LobbyRefusedError(str(error)) from None
        assert isinstance(answer, Proof)
        self.processes = tuple(printable(address)[:100] for address in answer.processes)
        return answer

    def table(self, table: int, watch: bool = False) -> TableClient:
        """A client for my seat at ``table`` (``watch``: to watch it), sent only where the
        server proves the identity it proved here."""
        return TableClient(
            self.host,
            self.port,
            str(table),
            self.name,
            secret=self.secret,
            watch=watch,
            identity=self.identity,
            announced=self.processes,
            tls=self.tls,
        )

    async def ask(self, request: wire.LobbyClientMessage) -> wire.LobbyServerMessage:
        """Send ``request`` and return its answer; :class:`LobbyDeclinedError` if declined.

        One request at a time, each read to its answer even if the caller gives up
        meanwhile: an answer left unread would be taken for the next request's.
        """
        answer = await asyncio.shield(self._exchange(request))
        if isinstance(answer, wire.LobbyDeclined):
            raise LobbyDeclinedError(answer.reason)
        return answer

    async def _exchange(self, request: wire.LobbyClientMessage) -> wire.LobbyServerMessage:
        async with self._lock:
            if self._reader is not None and not self._reader.done():
                return await self._through_reader(request)
            return await self._direct(request)

    async def _direct(self, request: wire.LobbyClientMessage) -> wire.LobbyServerMessage:
        """Send ``request`` and read its answer (nobody else reads the connection)."""
        try:
            if self._ws is None or self._ws.closed:
                raise HostUnreachable(COMING_BACK)
            await self._send(request)
        except HostUnreachable:
            # The connection dropped while the lobby sat idle (or could not be made again
            # when last tried): nothing was sent, so the request goes again, once, on a new
            # login, unless the server closed it saying why (then logging in again would
            # only be closed again).
            if self._refused is not None:
                raise LobbyRefusedError(self._refused) from None
            await self._last_words()
            await self._hang_up()
            await self.connect()
            await self._send(request)
        answer = await self._receive()
        while isinstance(answer, wire.Told):
            self._heard(answer)
            answer = await self._receive()
        if isinstance(answer, wire.LobbyRefused):  # the server closed this connection
            await self._hang_up()
            raise LobbyRefusedError(printable(answer.reason))
        return answer

    def _heard(self, told: wire.Told) -> None:
        """Pass on what the server tells unasked (outside data: made safe to show)."""
        if self.told is not None:
            self.told(printable(told.words))

    async def _through_reader(self, request: wire.LobbyClientMessage) -> wire.LobbyServerMessage:
        """Send ``request`` and wait for the reader to hand over its answer."""
        if self._ws is None:
            raise HostUnreachable(COMING_BACK)
        self._answer = asyncio.get_running_loop().create_future()
        try:
            await self._send(request)
            return await asyncio.wait_for(asyncio.shield(self._answer), ANSWER_SECONDS)
        except TimeoutError:
            raise HostUnreachable("The server did not answer in time.") from None
        finally:
            self._answer = None

    # -- following -----------------------------------------------------------------------------
    async def follow(
        self, listener: LobbyListener, game: str | None = None, board: str | None = None
    ) -> wire.Lists:
        """Follow the lobby's lists (``game``: the lobby's tables of that game only; ``board``:
        that game's leaderboard too): returns them now, and tells ``listener`` whenever they
        change, whenever the connection drops or is back, and if the server closes it."""
        self._listener = listener
        self._follow = wire.Follow(game, board)
        answer = await self.ask(self._follow)
        assert isinstance(answer, wire.Lists)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read())
        return answer

    async def _read(self) -> None:
        """Read every frame while following; after a drop, log in and follow again."""
        while not self._left.is_set():
            reason = await self._frames()
            answer, self._answer = self._answer, None
            if answer is not None and not answer.done():
                answer.set_exception(HostUnreachable(COMING_BACK))
            if self._left.is_set():
                return
            if reason is None:
                self._tell().lobby_connection(False)
                reason = await self._come_back()
            if reason is not None:
                await self._hang_up()
                self._refused = reason
                self._tell().lobby_closed(reason)
                return

    def _tell(self) -> LobbyListener:
        assert self._listener is not None
        return self._listener

    async def _frames(self) -> str | None:
        """Read frames until the connection ends: ``None`` if it dropped, else why the
        server closed it."""
        ws = self._ws
        while ws is not None:
            try:
                message = await ws.receive()
            except (aiohttp.ClientError, ConnectionError, RuntimeError):
                break
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            try:
                answer = wire.SERVER.decode(message.data)
            except ProtocolError as error:
                return f"The server sent what this Karavan cannot read ({error})."
            if isinstance(answer, wire.Lists) and answer.pushed:
                self._tell().lobby_lists(answer)
            elif isinstance(answer, wire.Told):
                self._heard(answer)
            elif isinstance(answer, wire.LobbyRefused):
                return printable(answer.reason)
            elif self._answer is not None and not self._answer.done():
                self._answer.set_result(answer)
        await self._hang_up()
        return None

    async def _come_back(self) -> str | None:
        """Log in and follow again until the server answers: ``None`` once back (the listener
        has the lists), else why it will not have us."""
        attempt = 0
        while not self._left.is_set():
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            attempt += 1
            async with self._lock:
                try:
                    await self.connect()
                    assert self._follow is not None
                    lists = await self._direct(self._follow)
                except LobbyRefusedError as refused:
                    return str(refused)
                except HostUnreachable:
                    await self._hang_up()
                    continue
            if not isinstance(lists, wire.Lists):  # declined (the database is away): again
                await self._hang_up()
                continue
            self._tell().lobby_connection(True)
            self._tell().lobby_lists(lists)
            return None
        return None

    async def _last_words(self) -> None:
        """Raise :class:`LobbyRefusedError` if the server's last message on the connection
        that closed is a refusal."""
        ws = self._ws
        while ws is not None:
            try:
                message = await ws.receive(timeout=0.1)
            except (TimeoutError, RuntimeError, aiohttp.ClientError):
                return
            if message.type != aiohttp.WSMsgType.TEXT:
                return
            with contextlib.suppress(ProtocolError):
                answer = wire.SERVER.decode(message.data)
                if isinstance(answer, wire.LobbyRefused):
                    await self._hang_up()
                    raise LobbyRefusedError(printable(answer.reason))

    async def tables(self, game: str | None = None) -> wire.Tables:
        """The lobby's open and running tables."""
        answer = await self.ask(wire.ListTables(game))
        assert isinstance(answer, wire.Tables)
        return answer

    async def mine(self, over: bool = False) -> wire.Tables:
        """My running tables, or (``over``) my finished ones."""
        answer = await self.ask(wire.MyTables(over))
        assert isinstance(answer, wire.Tables)
        return answer

    async def create(self, request: wire.CreateTable) -> wire.Seated:
        """Create a table; I sit in its first seat."""
        answer = await self.ask(request)
        assert isinstance(answer, wire.Seated)
        return answer

    async def take(self, table: int, seat: int | None = None) -> wire.Seated:
        """Take a seat at ``table``."""
        answer = await self.ask(wire.TakeSeat(table, seat))
        assert isinstance(answer, wire.Seated)
        return answer

    async def stand_up(self, table: int) -> str:
        """Leave my seat at ``table`` before its game starts; what that did, in words."""
        answer = await self.ask(wire.StandUp(table))
        assert isinstance(answer, wire.Done)
        return printable(answer.words)

    async def decline(self, table: int) -> str:
        """Decline the challenge made to me at ``table``; what that did, in words."""
        answer = await self.ask(wire.DeclineChallenge(table))
        assert isinstance(answer, wire.Done)
        return printable(answer.words)

    async def board(self, game: str) -> wire.Board:
        """The leaderboard of ``game``."""
        answer = await self.ask(wire.Leaderboard(game))
        assert isinstance(answer, wire.Board)
        return answer

    async def notify_address(self, url: str | None = None) -> str:
        """Where the server calls me when a turn-based table waits for me (``""``: nowhere),
        after setting it to ``url`` (``""`` to be called nowhere) if given;
        :class:`LobbyDeclinedError` says why an address is refused."""
        answer = await self.ask(wire.NotifyAddress(url))
        assert isinstance(answer, wire.NotifyingAt)
        return answer.url

    async def _send(self, message: wire.LobbyClientMessage) -> None:
        assert self._ws is not None
        try:
            await self._ws.send_str(wire.CLIENT.encode(message))
        except (aiohttp.ClientError, ConnectionError, RuntimeError) as error:
            raise HostUnreachable(f"The connection to the server dropped ({error}).") from None

    async def _receive(self) -> wire.LobbyServerMessage:
        assert self._ws is not None
        try:
            message = await asyncio.wait_for(self._ws.receive(), ANSWER_SECONDS)
        except TimeoutError:
            raise HostUnreachable("The server did not answer in time.") from None
        if message.type != aiohttp.WSMsgType.TEXT:
            raise HostUnreachable("The connection to the server closed.")
        if len(message.data) > 4 * 1024 * 1024:
            raise HostUnreachable("The server sent far more than a lobby needs.")
        try:
            return wire.SERVER.decode(message.data)
        except ProtocolError as error:
            raise HostUnreachable(
                f"The server sent what this Karavan cannot read ({error})."
            ) from None

    async def close(self) -> None:
        """Leave the lobby (for good: a closed client is not used again)."""
        self._left.set()
        reader, self._reader = self._reader, None
        if reader is not None and reader is not asyncio.current_task():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        await self._hang_up()

    async def _hang_up(self) -> None:
        """Close the connection (a new one may be made)."""
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._session is not None:
            await self._session.close()
        self._ws = self._session = None
