"""Joining a hosted table: the handshake, the updates, and coming back after a drop.

:class:`TableClient` connects to a host, sends :class:`Hello` and keeps the
seat's secret from the :class:`Welcome`.  :meth:`TableClient.run` then reads
the host's frames and tells a :class:`Listener`; when the connection drops it
says so, tries again with the secret until it is back (or gives up), and
goes on.  Everything the host sends is read as data: frames that do not fit
the protocol end the connection, and every text shown to the player is made
safe to show by whoever draws it.

A client that knows the identity of the table's server (told by the lobby, or by a
first Welcome) sends its secret only where that identity is proven first
(:mod:`karavan_net.identity`), and goes only to the processes the server announced.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import aiohttp

from karavan_core.engine import Action, Game, Observation
from karavan_core.match import Match, Seat
from karavan_core.registry import game_names, get_game
from karavan_core.saves import converter_for, structure_action
from karavan_core.seen import seen_match
from karavan_core.text import clean_name, printable
from karavan_core.version import __version__
from karavan_net import protocol as wire
from karavan_net.chat_heard import ChatHeard
from karavan_net.clocks import skew
from karavan_net.codec import ProtocolError
from karavan_net.identity import IdentityError, Trust, new_challenge
from karavan_net.protocol import (
    HEARTBEAT,
    MAX_HOST_FRAME,
    MINOR,
    PROTOCOL,
    decode_host,
    encode,
    shown_address,
    table_url,
)
from karavan_net.seats import remember, remembered
from karavan_net.table_requests import TableRequests

RETRY_DELAYS = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0)
JOIN_DELAYS = (0.05, 0.2, 0.5, 1.0)
"""Pauses before joining again when a connection was dropped before the host answered."""
CONNECT_SECONDS = 10.0


class JoinRefused(Exception):
    """The host refused to seat us; ``str()`` is its reason."""


class HostUnreachable(Exception):
    """No table answers at the address; ``str()`` says why.

    ``dropped``: something took the connection and closed it before any answer
    (a host whose door was crowded, say): worth another try.
    """

    def __init__(self, reason: str, *, dropped: bool = False) -> None:
        super().__init__(reason)
        self.dropped = dropped


class Unproven(HostUnreachable):
    """An address did not prove the identity of the table's server: no secret was sent."""


def unreachable(nobody: str, address: str, error: BaseException) -> HostUnreachable:
    """Why nothing answers at ``address`` after ``error``: ``nobody`` ("No Karavan table
    answers") and what went wrong, or that its TLS certificate does not check."""
    if isinstance(error, aiohttp.ClientConnectorCertificateError):
        reason = getattr(error.certificate_error, "verify_message", "") or "not trusted"
        return HostUnreachable(
            f"{address} shows a TLS certificate that does not check ({reason}): if it is "
            "self-signed, give its CA with --tls-ca FILE."
        )
    if isinstance(error, aiohttp.ClientSSLError):
        return HostUnreachable(f"{nobody} at {address}: TLS failed ({error}).")
    return HostUnreachable(f"{nobody} at {address} ({error}).")


def nobody(address: str, *, dropped: bool = False) -> HostUnreachable:
    """The one answer for every address where no Karavan table answers.

    Nothing listening, a web server, another program's WebSocket: all get
    the same words, so the join screen of a shared Karavan (``karavan
    web``) cannot be used to learn which ports of its machine are open.
    """
    return HostUnreachable(f"no Karavan table answers at {address}", dropped=dropped)


async def open_socket(
    session: aiohttp.ClientSession,
    url: str,
    address: str,
    heartbeat: float,
    tls: ssl.SSLContext | None,
) -> aiohttp.ClientWebSocketResponse:
    """The WebSocket of the table at ``url`` (``address``, as shown), over ``tls`` if given;
    :class:`HostUnreachable` if no table answers there (see :func:`nobody`), or its TLS
    certificate does not check."""
    try:
        return await session.ws_connect(
            url,
            heartbeat=heartbeat,
            max_msg_size=MAX_HOST_FRAME,
            timeout=aiohttp.ClientWSTimeout(ws_receive=None, ws_close=5.0),
            autoping=True,
            ssl=tls if tls is not None else True,
        )
    except aiohttp.ClientSSLError as error:
        raise unreachable("No Karavan table answers", address, error) from None
    except aiohttp.WSServerHandshakeError:
        raise nobody(address) from None  # an answer, and not a table's
    except (aiohttp.ClientConnectorError, TimeoutError):
        raise nobody(address) from None  # nothing listens there
    except (aiohttp.ClientError, OSError):
        raise nobody(address, dropped=True) from None


class Listener(Protocol):
    """Who hears what happens at the table (the screen, or a headless bot)."""

    def table_updated(self, update: wire.Update) -> None:
        """The table changed (or who is here did)."""

    def declined(self, reason: str) -> None:
        """Something we sent was refused; nothing changed."""

    def connection_changed(self, connected: bool) -> None:
        """The connection dropped (``False``) or is back (``True``)."""

    def closed(self, reason: str) -> None:
        """The table is gone for good (ended, refused us, or lost for too long)."""


def _refusal(reason: str) -> str:
    """A host's refusal of our Hello, in words (an older host cannot read this Karavan's)."""
    if reason.startswith("That Hello message does not fit the protocol"):
        return "the host runs an older Karavan: use the same version of Karavan as the host"
    return printable(reason)


class TableClient(ChatHeard, TableRequests):
    """One seat's connection to a hosted table.

    ``identity`` is the fingerprint of the server's identity, proven by every address
    before the secret goes there (``None``: none known yet; a Welcome may tell it), and
    ``announced`` the server's processes, where it may send us; with ``tls`` the client
    speaks TLS, checking the host's certificate with that context.
    """

    def __init__(
        self,
        host: str,
        port: int,
        code: str,
        name: str,
        *,
        secret: str | None = None,
        heartbeat: float = HEARTBEAT,
        retry_for: float | None = None,
        memory: Path | None = None,
        visitor: str | None = None,
        watch: bool = False,
        identity: str | None = None,
        announced: Sequence[str] = (),
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.trust = Trust(identity, announced)  # what guards our secret
        self.tls = tls
        self.memory = memory  # the file of remembered seat secrets, if any
        self.visitor = visitor  # who we are behind a shared web server, told to the host
        self.watch = watch  # a watcher of a server's table: the public view, no seat
        if secret is None:
            secret = remembered(memory, host, port, code, name)
        self.host = host
        self.port = port
        self.home = (host, port)  # where we first joined (a server's processes send us on)
        self.peers: tuple[tuple[str, int], ...] = ()  # the server's other processes
        self.code = code
        self.name = name
        self.secret = secret
        self.heartbeat = heartbeat
        self.retry_for = retry_for  # seconds to keep trying after a drop; None: forever
        self.welcome: wire.Welcome | None = None
        self.skew = 0.0  # seconds the host's clock is ahead of ours, as its welcome told
        self.update: wire.Update | None = None
        self.log: list[str] = []
        self.connected = False
        self.closed_why: str | None = None  # why the host ended the table for us, if it did
        self.record: wire.Record | None = None  # the finished game as we saw it, once sent
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._closing = False
        self._rematch = False  # the host started a rematch: coming back is no news
        self._no_chat_yet()

    # -- facts ---------------------------------------------------------------------------------
    @property
    def address(self) -> str:
        """``HOST:PORT`` as typed (``wss://HOST:PORT`` over TLS)."""
        return ("wss://" if self.tls else "") + shown_address(self.host, self.port)

    @property
    def game(self) -> Game[Any, Any, Any]:
        """The game played at the table."""
        assert self.welcome is not None
        return get_game(self.welcome.game)

    @property
    def seat(self) -> int:
        """Our seat number."""
        assert self.welcome is not None
        return self.welcome.seat

    def observation(self, data: Any) -> Observation:
        """The observation in ``data`` (from the host), its names made safe to show."""
        game = self.game
        observation: Observation = converter_for(game.name).structure(data, game.observation_type)
        names = tuple(clean_name(name) for name in observation.players)
        if names != observation.players:
            from attrs import evolve

            observation = evolve(observation, players=names)
        return observation

    def action(self, data: Any) -> Action:
        """The decision in ``data`` (from the host)."""
        return structure_action(self.game, data)

    def seen(self, seats: Sequence[Seat]) -> Match | None:
        """The finished game as we saw it (from the host's :class:`Record`), to review and
        replay; ``None`` until the host has sent it, or if it does not fit."""
        record = self.record
        if record is None or record.seat != self.seat:
            return None
        outcome = None if self.update is None else self.update.outcome
        try:
            observations = [self.observation(data) for data in record.observations]
            actions = [self.action(data) for data in record.actions]
            return seen_match(
                self.game,
                seats,
                record.seat,
                observations,
                actions,
                record.seed,
                hints=record.hints,
                takebacks=record.takebacks,
                series=None if outcome is None else outcome.series,
            )
        except Exception:  # outside data that does not fit is no game
            return None

    # -- connecting --------------------------------------------------------------------------
    async def _connect(self) -> None:
        if self._session is None:
            timeout = aiohttp.ClientTimeout(
                total=None, connect=CONNECT_SECONDS, sock_connect=CONNECT_SECONDS
            )
            self._session = aiohttp.ClientSession(timeout=timeout)
        url = table_url(self.host, self.port, self.tls is not None)
        ws = await open_socket(self._session, url, self.address, self.heartbeat, self.tls)
        self._ws = ws
        try:
            await self._prove()
            said = (self.code, self.name, self.secret, __version__, MINOR, self.visitor)
            await ws.send_str(encode(wire.Hello(PROTOCOL, *said, self.watch)))
            self._welcomed(await self._expect(greeted=False))
            first = await self._expect(greeted=True)
            while isinstance(first, wire.Chat):  # the chat may come before the table shows
                self._heard(first)
                first = await self._expect(greeted=True)
            if not isinstance(first, wire.Update):
                raise JoinRefused("the host did not show the table")
            self._take(first)
        except BaseException:
            await self._drop()
            raise
        self.connected = True

    async def _prove(self) -> None:
        """Where the server's identity is known, have this address prove it before our
        secret goes (:class:`Unproven` if it does not); an address the server sent us to
        must prove it as the process announced there, not as another it passes it on to."""
        if self.trust.identity is None or self._ws is None:
            return
        challenge = new_challenge()
        await self._ws.send_str(encode(challenge))
        at = None if (self.host, self.port) == self.home else self.address
        try:
            self.trust.proven(await self._expect(greeted=False), challenge, self.address, at)
        except (IdentityError, HostUnreachable) as error:
            reason = str(error) if isinstance(error, IdentityError) else f"{error}: no secret sent"
            raise Unproven(printable(reason)) from None

    def _welcomed(self, welcome: wire.HostMessage) -> None:
        """Take the seat the host's answer to our Hello gives; raise if it gives none (a
        refusal, another process of the server to go to, or not a table's answer)."""
        if isinstance(welcome, wire.Moved):
            self._move_to(welcome.address)
            raise HostUnreachable("the table is run elsewhere", dropped=True)
        if isinstance(welcome, wire.Refused | wire.Closed):
            raise JoinRefused(_refusal(welcome.reason))
        if not isinstance(welcome, wire.Welcome):
            raise nobody(self.address)
        try:
            self.peers = self.trust.told(welcome.identity, welcome.peers, self.address)
        except IdentityError as error:
            raise JoinRefused(printable(str(error))) from None
        if welcome.game not in game_names():
            unknown = printable(welcome.game)[:30]
            raise JoinRefused(f"the table plays a game this Karavan does not know ({unknown})")
        if self.welcome is not None and (welcome.seat, welcome.game) != (
            self.seat,
            self.welcome.game,
        ):
            raise JoinRefused("the host gave another seat than before")
        self.welcome = welcome
        self.skew = skew(welcome.now, datetime.now(UTC))  # a clock of ours that is off
        if welcome.secret != self.secret:
            remember(self.memory, self.host, self.port, self.code, self.name, welcome.secret)
        self.secret = welcome.secret

    async def _expect(self, *, greeted: bool) -> wire.HostMessage:
        """The host's next message.

        Until it has ``greeted`` us (a Welcome or a refusal), whatever else
        comes back is nobody's table.
        """
        assert self._ws is not None
        try:
            message = await asyncio.wait_for(self._ws.receive(), CONNECT_SECONDS)
        except TimeoutError:
            if not greeted:
                raise nobody(self.address) from None
            raise JoinRefused("the host did not answer in time") from None
        if message.type == aiohttp.WSMsgType.TEXT:
            try:
                return decode_host(message.data)
            except ProtocolError as error:
                if not greeted:
                    raise nobody(self.address) from None
                raise JoinRefused(
                    f"the host sent what this Karavan cannot read ({error})"
                ) from None
        if not greeted:
            raise nobody(self.address, dropped=True)
        raise HostUnreachable(f"the table at {self.address} closed the connection")

    async def join(self) -> wire.Welcome:
        """Connect and take our seat; :class:`JoinRefused` or :class:`HostUnreachable` if not.

        A connection dropped before the host answered is tried again a few times.
        """
        try:
            for delay in (*JOIN_DELAYS, None):
                try:
                    await self._connect()
                    break
                except HostUnreachable as error:
                    if not error.dropped or delay is None:
                        raise
                if (self.host, self.port) == self.home:
                    await asyncio.sleep(delay)  # sent elsewhere, it goes there at once
        except BaseException:
            await self.close()
            raise
        assert self.welcome is not None
        return self.welcome

    def _take(self, update: wire.Update) -> None:
        """Keep ``update`` and the whole log it continues."""
        if update.log_start > len(self.log):
            raise ProtocolError("The host skipped part of the log.")
        self.log = self.log[: update.log_start] + [printable(line) for line in update.log]
        self.update = update

    # -- playing -----------------------------------------------------------------------------
    async def send(self, message: wire.ClientMessage) -> bool:
        """Send ``message``; ``False`` if we are not connected now."""
        ws = self._ws
        if ws is None or ws.closed or not self.connected:
            return False
        try:
            await ws.send_str(encode(message))
        except (ConnectionError, RuntimeError, aiohttp.ClientError):
            return False
        return True

    async def run(self, listener: Listener) -> None:
        """Read the table until it is gone, telling ``listener``; reconnect after drops."""
        if self.update is not None:
            listener.table_updated(self.update)
        while not self._closing:
            reason = await self._read(listener)
            if reason is not None or self._closing:
                await self.close()
                if reason is not None:
                    listener.closed(reason)
                return
            self.connected = False
            quiet, self._rematch = self._rematch, False
            if not quiet:
                listener.connection_changed(False)
            reason = await self._rejoin()
            if reason is not None:
                await self.close()
                listener.closed(reason)
                return
            if not quiet:
                listener.connection_changed(True)
            assert self.update is not None
            listener.table_updated(self.update)

    async def _read(self, listener: Listener) -> str | None:
        """Read frames until the connection ends: ``None`` if it dropped (or the host starts a
        rematch, here or at another table of the server), else why it closed."""
        ws = self._ws
        if ws is None:
            return None
        try:
            async for frame in ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                try:
                    message = decode_host(frame.data)
                    if isinstance(message, wire.Update):
                        self._take(message)
                except ProtocolError as error:
                    return f"The host sent what this Karavan cannot read ({error})"
                if isinstance(message, wire.Update):
                    listener.table_updated(message)
                elif isinstance(message, wire.Declined):
                    listener.declined(printable(message.reason))
                elif isinstance(message, wire.Refused):
                    return printable(message.reason)
                elif isinstance(message, wire.Closed) and message.why == "rematch":
                    self.record, self._rematch = None, True
                    break  # a new game at the same table: we take our seat there at once
                elif isinstance(message, wire.Rematched):
                    self.code = str(message.table)
                    self.record, self._rematch = None, True
                    break  # the rematch is at another table of the server: we go there
                elif isinstance(message, wire.Closed):
                    self.closed_why = message.why
                    return printable(message.reason)
                elif isinstance(message, wire.Record):
                    self.record = message
                elif isinstance(message, wire.Chat):
                    self._heard(message)
        except (ConnectionError, aiohttp.ClientError, RuntimeError):
            pass
        await self._drop()
        return None

    def _move_to(self, address: str) -> None:
        """The server runs the table in another process, at ``address``: go there, if the
        server announced that address (the secret goes only once it proves the identity)."""
        try:
            host, port = wire.parse_address(address)
        except ValueError:
            raise JoinRefused("the server sent us to an address that is none") from None
        if not self.trust.follows(host, port):
            shown = printable(shown_address(host, port))[:60]
            raise JoinRefused(
                f"the server sent us to {shown}, which it never announced: not followed"
            )
        self.host, self.port = host, port

    async def _rejoin(self) -> str | None:
        """Connect again with our secret: ``None`` once back, else why we gave up.

        The tries go round the address of the table, the address first joined and the
        server's other processes: a server of several processes may have sent us to one
        that is gone, and another takes its tables over.
        """
        started = time.monotonic()
        attempt = 0
        places = list(dict.fromkeys(((self.host, self.port), self.home, *self.peers)))
        sent = False  # the last process tried sent us to the one that runs the table
        while not self._closing:
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            if not sent:
                self.host, self.port = places[attempt % len(places)]
            attempt += 1
            tried = (self.host, self.port)
            try:
                await self._connect()
            except JoinRefused as refused:
                return str(refused)
            except (HostUnreachable, ProtocolError):
                sent = (self.host, self.port) != tried
                if self.retry_for is not None and time.monotonic() - started > self.retry_for:
                    return f"Lost the table at {self.address}: it has not come back."
                continue
            return None
        return "Left the table."

    async def _drop(self) -> None:
        ws, self._ws = self._ws, None
        self.connected = False
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()

    async def close(self) -> None:
        """Leave the table."""
        self._closing = True
        await self._drop()
        session, self._session = self._session, None
        if session is not None:
            await session.close()

    def abort(self) -> None:
        """Cut the connection abruptly, as a network failure would (for tests)."""
        ws = self._ws
        if ws is not None and ws._conn is not None:  # aiohttp keeps the connection there
            transport = ws._conn.transport
            if transport is not None:
                transport.abort()
