"""Calling players on their web hooks: "Your turn at table 12 (Karakum) — 23 h left".

A player may give the server an address to be called at (an ntfy or Gotify topic, a
Matrix or Slack incoming hook): an HTTP(S) POST with a short text, in JSON where the
target reads JSON.  The address is a stranger's, so the server never calls this machine,
its network or any private address unless its operator allows it (``--notify-private``):
an address written as one is refused when it is given, and a name is resolved by a
resolver that drops every such address (at the call, so a name that changes meanwhile
cannot lead there either).  Redirects are not followed.

Calls run on the event loop as tasks of their own, with aiohttp (no thread waits for a
slow receiver): each has a time limit, is tried a few times with a growing wait, and is
counted by its outcome; past :data:`MOST_WAITING` calls at once, more are dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import socket
from collections.abc import Callable
from datetime import datetime
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from karavan_core.registry import get_game
from karavan_core.text import printable
from karavan_net.clocks import time_left
from karavan_net.codec import dumps
from karavan_net.serve.store import TurnCall

MAX_URL = 500
"""The longest web hook address the server keeps."""
CALL_SECONDS = 10.0  # the most one try of a call takes
TRIES = 3
FIRST_WAIT = 1.0  # seconds before the second try (doubled before each after it)
MOST_WAITING = 200  # calls under way at once; past this, more are dropped (and counted)
TITLE = "Karavan"


class PrivateAddress(OSError):
    """A web hook's address is this machine's, or a private network's: it is not called."""


def is_public(address: str) -> bool:
    """Whether the IP ``address`` is on the public internet (not loopback, private, link-local,
    shared, reserved or multicast; an IPv4 address written as IPv6 is judged as IPv4)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def checked_url(text: str, *, allow_private: bool = False) -> str:
    """The web hook address ``text``; ``ValueError`` in words if it may not be kept: only
    ``http`` and ``https``, at most :data:`MAX_URL` characters, and (unless
    ``allow_private``) not written as a private address or as this machine's name."""
    url = text.strip()
    if len(url) > MAX_URL:
        raise ValueError(f"A notification address has at most {MAX_URL} characters.")
    if printable(url) != url or any(char.isspace() for char in url):
        raise ValueError("A notification address holds no spaces or control characters.")
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        raise ValueError("That notification address is not a URL.") from None
    if parts.scheme not in ("http", "https") or not host:
        raise ValueError("A notification address is an http:// or https:// URL.")
    if not allow_private and ((_is_address(host) and not is_public(host)) or _is_local(host)):
        raise ValueError(
            "This server calls no private or local address: give a public one "
            "(an ntfy or Gotify topic, a Matrix or Slack hook)."
        )
    return url


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def _is_local(host: str) -> bool:
    name = host.rstrip(".").lower()
    return name == "localhost" or name.endswith((".localhost", ".local", ".internal"))


def payload(url: str, text: str) -> tuple[bytes, dict[str, str]]:
    """What a call to ``url`` sends, and its headers: JSON for the hooks that read JSON (Slack,
    Matrix, Discord, Gotify), plain text otherwise (ntfy, and any receiver of a POST)."""
    parts = urlsplit(url)
    host, path = (parts.hostname or "").lower(), parts.path
    data: dict[str, object] | None = None
    if path.rstrip("/").endswith("/message"):  # Gotify
        data = {"title": TITLE, "message": text, "priority": 5}
    elif "discord" in host and "/webhooks/" in path:
        data = {"content": text}
    elif host == "hooks.slack.com" or "/hooks/" in path or "/webhook" in path:  # Slack, Matrix
        data = {"text": text}
    if data is not None:
        return dumps(data).encode(), {"Content-Type": "application/json"}
    return text.encode(), {"Content-Type": "text/plain; charset=utf-8", "Title": TITLE}


def turn_words(call: TurnCall, now: datetime) -> str:
    """What a player is told on their web hook: "Your turn at table 12 (Karakum) — 23 h left"."""
    left = time_left(call.deadline, now) or "little time"
    words = f"Your turn at table {call.table_id} ({get_game(call.game).title}) — {left} left"
    return f"{words}: less than a tenth of your time." if call.reminder else words


class PublicResolver(AbstractResolver):
    """aiohttp's resolver, keeping only public addresses (unless ``allow_private``)."""

    def __init__(self, allow_private: bool) -> None:
        self.allow_private = allow_private
        self._inner = aiohttp.ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        """The addresses of ``host`` that may be called; :class:`PrivateAddress` if none."""
        found = await self._inner.resolve(host, port, family)
        kept = [one for one in found if self.allow_private or is_public(one["host"])]
        if not kept:
            raise PrivateAddress(f"{host} is a private address")
        return kept

    async def close(self) -> None:
        """Let go of the resolver."""
        await self._inner.close()


class Notifier:
    """Calls web hooks off the tables' way; ``allow_private`` lets it call private addresses
    (an operator's own network), and ``counted`` (if given) hears each call's outcome:
    ``sent``, ``failed`` (the receiver said no, or never answered), ``refused`` (a private
    address) or ``dropped`` (too many under way)."""

    def __init__(
        self,
        *,
        allow_private: bool = False,
        counted: Callable[[str], None] | None = None,
        first_wait: float = FIRST_WAIT,
    ) -> None:
        self.allow_private = allow_private
        self.counted = counted
        self.first_wait = first_wait
        self._session: aiohttp.ClientSession | None = None
        self._calls: set[asyncio.Task[None]] = set()

    def call(self, url: str, text: str) -> None:
        """Call ``url`` with ``text``, in a task of its own (on the running loop)."""
        if len(self._calls) >= MOST_WAITING:
            self._count("dropped")
            return
        task = asyncio.get_running_loop().create_task(self._call(url, text))
        self._calls.add(task)
        task.add_done_callback(self._calls.discard)

    async def _call(self, url: str, text: str) -> None:
        body, headers = payload(url, text)
        wait = self.first_wait
        for attempt in range(TRIES):
            if attempt:
                await asyncio.sleep(wait)
                wait *= 2
            outcome = await self._post(url, body, headers)
            if outcome is not None:
                self._count(outcome)
                return
        self._count("failed")

    async def _post(self, url: str, body: bytes, headers: dict[str, str]) -> str | None:
        """One try: its outcome, or ``None`` if it is worth another."""
        try:
            checked_url(url, allow_private=self.allow_private)
        except ValueError:
            return "refused"
        try:
            async with self._open().post(
                url, data=body, headers=headers, allow_redirects=False
            ) as answer:
                if answer.status < 300:
                    return "sent"
                if answer.status < 500 and answer.status != 429:
                    return "failed"  # the receiver will not take it: asking again will not help
        except aiohttp.ClientConnectorError as error:
            if isinstance(error.os_error, PrivateAddress):
                return "refused"
        except (aiohttp.ClientError, TimeoutError, OSError):
            pass
        return None

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(resolver=PublicResolver(self.allow_private))
            timeout = aiohttp.ClientTimeout(total=CALL_SECONDS)
            self._session = aiohttp.ClientSession(connector=connector, timeout=timeout)
        return self._session

    def _count(self, outcome: str) -> None:
        if self.counted is not None:
            self.counted(outcome)

    async def close(self) -> None:
        """Give up the calls under way, and close the connections."""
        for task in list(self._calls):
            task.cancel()
        for task in list(self._calls):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        session, self._session = self._session, None
        if session is not None:
            await session.close()
