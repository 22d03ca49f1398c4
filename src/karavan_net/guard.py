"""What keeps a host open to its players: rate limits and the door for newcomers.

A :class:`Bucket` lets a client's messages through at a bounded rate (the
excess waits, so a bursty client slows only itself); :class:`WrongCodes`
holds one per address for the wrong table codes it tries.  The
:class:`Doorman` watches every connection that has not said Hello yet (raw
TCP, an HTTP request, a WebSocket in its handshake) and closes it once its
time is up; it keeps a few per address and a bounded number in all, letting
the oldest go when a newcomer comes, so nobody can fill the door and lock
the players out.  Connections that have said Hello
are the tables' business (at most one per seat), not the doorman's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from typing import Protocol


class Bucket:
    """A token bucket: ``rate`` tokens a second on average, at most ``burst`` at once.

    ``clock`` (seconds, only ever growing) is the monotonic clock unless a
    test gives its own.
    """

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self._last = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self._last) * self.rate)
        self._last = now

    def delay(self) -> float:
        """Take a token; the seconds to wait before using it (0: at once)."""
        self._refill()
        self.tokens -= 1  # owed when below zero: waiting that long pays it back
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate

    def ready(self) -> bool:
        """Whether a whole token is there now (none is taken)."""
        self._refill()
        return self.tokens >= 1

    def take(self) -> None:
        """Take a token (there may be none left after it)."""
        self._refill()
        self.tokens = max(self.tokens - 1, 0.0)

    @property
    def full(self) -> bool:
        """Whether the bucket has filled up again (nothing is remembered against it)."""
        self._refill()
        return self.tokens >= self.burst


class Transport(Protocol):
    """The end of a connection the doorman can cut (an asyncio transport)."""

    def get_extra_info(self, name: str, default: object = None) -> object:
        """The socket's details (``"peername"``: the address it comes from)."""

    def abort(self) -> None:
        """Close the connection at once."""


def peer_address(transport: Transport) -> str:
    """The address a connection comes from (its host part), as the doorman counts it."""
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "?"


class Doorman:
    """The connections that have not said Hello: at most ``per_address`` from each
    address and ``total`` in all, each for ``seconds`` at most.

    A newcomer past a limit sends the oldest stranger of its address (or of
    all) away, never itself: a player who connects and says Hello at once
    always gets in.  ``loop`` runs the timers.
    """

    def __init__(
        self,
        *,
        per_address: int,
        total: int,
        seconds: float,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.per_address = per_address
        self.total = total
        self.seconds = seconds
        self.loop = loop
        self._strangers: dict[Hashable, tuple[str, Transport, asyncio.TimerHandle, float]] = {}
        self._by_address: dict[str, dict[Hashable, None]] = {}
        self.turned_away = 0  # strangers closed: their time was up, or newcomers needed room

    def __len__(self) -> int:
        return len(self._strangers)

    def from_address(self, address: str) -> int:
        """How many strangers from ``address`` are waiting now."""
        return len(self._by_address.get(address, ()))

    def arrived(self, key: Hashable, transport: Transport) -> None:
        """A connection ``key`` was made: a stranger until :meth:`welcome`."""
        address = peer_address(transport)
        mine = self._by_address.setdefault(address, {})
        if len(mine) >= self.per_address:
            self._send_away(next(iter(mine)))
        if len(self._strangers) >= self.total:
            self._send_away(next(iter(self._strangers)))
        deadline = self.loop.time() + self.seconds
        timer = self.loop.call_at(deadline, self._send_away, key)
        self._strangers[key] = (address, transport, timer, deadline)
        self._by_address.setdefault(address, {})[key] = None

    def time_left(self, key: Hashable) -> float:
        """Seconds the stranger ``key`` has left to say Hello (0 if it is no stranger)."""
        found = self._strangers.get(key)
        return 0.0 if found is None else max(0.0, found[3] - self.loop.time())

    def welcome(self, key: Hashable) -> None:
        """``key`` has said Hello and sits at a table: no longer a stranger."""
        self._forget(key)

    def left(self, key: Hashable) -> None:
        """The connection ``key`` is gone."""
        self._forget(key)

    def close(self) -> None:
        """Stop every timer (the server is stopping)."""
        for key in list(self._strangers):
            self._forget(key)

    def _send_away(self, key: Hashable) -> None:
        found = self._strangers.get(key)
        if found is None:
            return
        self._forget(key)
        self.turned_away += 1
        found[1].abort()

    def _forget(self, key: Hashable) -> None:
        found = self._strangers.pop(key, None)
        if found is None:
            return
        address, _transport, timer, _deadline = found
        timer.cancel()
        mine = self._by_address.get(address)
        if mine is not None:
            mine.pop(key, None)
            if not mine:
                del self._by_address[address]


class WrongCodes:
    """The wrong table codes each address has tried: ``burst`` at once, then ``rate`` a second.

    An address past its allowance has its joins refused unchecked until it
    may try again, whatever code they name: the answer then tells nothing
    about the code.  At most ``remembered`` addresses are kept: those whose
    allowance has filled up again go first, then the oldest.
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        remembered: int = 4096,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.remembered = remembered
        self._buckets: dict[str, Bucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def __contains__(self, address: object) -> bool:
        return address in self._buckets

    def may_try(self, address: str) -> bool:
        """Whether a join from ``address`` has its code checked now."""
        bucket = self._buckets.get(address)
        return bucket is None or bucket.ready()

    def wrong(self, address: str) -> bool:
        """Count a wrong code from ``address``; whether that used up its allowance."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.remembered:
                self._buckets = {a: b for a, b in self._buckets.items() if not b.full}
                while len(self._buckets) >= self.remembered:
                    del self._buckets[next(iter(self._buckets))]
            bucket = self._buckets[address] = Bucket(self.rate, self.burst, self.clock)
        bucket.take()
        return not bucket.ready()

    def wait(self, address: str) -> float:
        """Seconds until ``address`` may try a code again (0: now)."""
        bucket = self._buckets.get(address)
        if bucket is None or bucket.ready():
            return 0.0
        return (1 - bucket.tokens) / bucket.rate
