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
import ipaddress
import time
from collections.abc import Callable, Hashable
from typing import Protocol

from attrs import frozen


class Bucket:
    """A token bucket: ``rate`` tokens a second on average, at most ``burst`` at once.

    ``clock`` (seconds, only ever growing) is the monotonic clock unless a
    test gives its own.
    """

    def __init__(
        self,
        rate: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        most_owed: float | None = None,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.most_owed = most_owed  # the deepest the bucket runs into debt (None: no floor)
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
        if self.most_owed is not None:
            self.tokens = max(self.tokens, -self.most_owed)
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


def is_loopback(address: str) -> bool:
    """Whether ``address`` (an IP address) is this machine's own."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def peer_address(transport: Transport) -> str:
    """The address a connection comes from (its host part), as the doorman counts it."""
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "?"


class Doorman:
    """The connections that have not said Hello: ``total`` at most, each for ``seconds`` at most.

    A newcomer always gets in.  When the door is full, the address that holds
    the most strangers (the newcomer's counted) gives way: its oldest stranger
    that has not yet asked for the table's WebSocket goes first (see
    :meth:`knocked`), else its oldest.  So a crowd from elsewhere sends away
    only its own while an address waits with its share of the door or less,
    and a churner on the players' own address spreads over the whole door:
    each of its connections, and the player's among them, stays as long as
    the door takes to fill, far longer than a player takes to say Hello.
    ``loop`` runs the timers.
    """

    def __init__(
        self,
        *,
        total: int,
        seconds: float,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self.total = total
        self.seconds = seconds
        self.loop = loop
        self._strangers: dict[Hashable, tuple[str, Transport, asyncio.TimerHandle, float]] = {}
        self._by_address: dict[str, dict[Hashable, None]] = {}
        self._knocked: set[Hashable] = set()
        self.turned_away = 0  # strangers closed: their time was up, or newcomers needed room

    def __len__(self) -> int:
        return len(self._strangers)

    def from_address(self, address: str) -> int:
        """How many strangers from ``address`` are waiting now."""
        return len(self._by_address.get(address, ()))

    def arrived(self, key: Hashable, transport: Transport) -> None:
        """A connection ``key`` was made: a stranger until :meth:`welcome`."""
        address = peer_address(transport)
        if len(self._strangers) >= self.total:
            self._send_away(self._gives_way(address))
        deadline = self.loop.time() + self.seconds
        timer = self.loop.call_at(deadline, self._send_away, key)
        self._strangers[key] = (address, transport, timer, deadline)
        self._by_address.setdefault(address, {})[key] = None

    def _gives_way(self, newcomer: str) -> Hashable:
        """The stranger that makes room for a newcomer from ``newcomer`` at a full door.

        The newcomer's own address gives way when, the newcomer counted, it holds the most
        and has a stranger to give.  Else the addresses that hold the most give way: their
        oldest stranger that has not knocked, else their oldest.
        """
        own = self._by_address.get(newcomer, {})
        most = max(len(waiting) for waiting in self._by_address.values())
        if own and len(own) + 1 >= most:
            return self._first(own)
        crowded = {a for a, waiting in self._by_address.items() if len(waiting) == most}
        return self._first({key: None for key, (a, *_) in self._strangers.items() if a in crowded})

    def _first(self, waiting: dict[Hashable, None]) -> Hashable:
        """The first of ``waiting`` (oldest first) that has not knocked, else the first."""
        return next((key for key in waiting if key not in self._knocked), next(iter(waiting)))

    def knocked(self, key: Hashable) -> None:
        """The stranger ``key`` has asked for the table's WebSocket: others give way first."""
        if key in self._strangers:
            self._knocked.add(key)

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
        self._knocked.discard(key)
        address, _transport, timer, _deadline = found
        timer.cancel()
        mine = self._by_address.get(address)
        if mine is not None:
            mine.pop(key, None)
            if not mine:
                del self._by_address[address]


class Buckets:
    """A bucket for each key, at most ``remembered`` of them.

    The keys whose allowance has filled up again are forgotten first, then the oldest.
    """

    def __init__(
        self, rate: float, burst: float, owed: float, clock: Callable[[], float], remembered: int
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.owed = owed
        self.clock = clock
        self.remembered = remembered
        self.buckets: dict[str, Bucket] = {}

    def get(self, key: str) -> Bucket:
        """The bucket of ``key`` (a full one for a key not seen yet)."""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.remembered:
                self.buckets = {k: b for k, b in self.buckets.items() if not b.full}
                while len(self.buckets) >= self.remembered:
                    del self.buckets[next(iter(self.buckets))]
            bucket = Bucket(self.rate, self.burst, self.clock, most_owed=self.owed)
            self.buckets[key] = bucket
        return bucket

    def used_up(self, key: str) -> bool:
        """Whether ``key`` has no whole try left now."""
        bucket = self.buckets.get(key)
        return bucket is not None and not bucket.ready()


@frozen
class Allowance:
    """Wrong codes one may try: ``burst`` at once, then ``rate`` a second."""

    rate: float
    burst: float

    def owing(self, longest: float) -> tuple[float, float, float]:
        """Rate, burst and the most owed, so that nobody waits more than ``longest`` seconds."""
        return self.rate, self.burst, self.rate * longest


class WrongCodes:
    """The wrong table codes tried: per visitor, per address and at the whole table.

    A wrong code takes one try from the allowance of its visitor (the address
    and, behind a shared web server, the visitor it names), of its address
    and of the table; once one of them is used up, the answer waits until
    that allowance has a try again (:meth:`wrong` says how long, at most
    ``longest`` seconds).  So a guesser is slowed wherever it guesses from,
    while a Hello with the right code or a seat's secret is never counted
    here: it gets in at once, from any address.  At most ``remembered``
    visitors and addresses are kept.
    """

    def __init__(
        self,
        visitor: Allowance,
        address: Allowance,
        table: Allowance,
        *,
        longest: float,
        clock: Callable[[], float] = time.monotonic,
        remembered: int = 4096,
    ) -> None:
        self.longest = longest
        self._visitors = Buckets(*visitor.owing(longest), clock, remembered)
        self._addresses = Buckets(*address.owing(longest), clock, remembered)
        rate, burst, owed = table.owing(longest)
        self._table = Bucket(rate, burst, clock, most_owed=owed)

    def __len__(self) -> int:
        return len(self._visitors.buckets)

    def __contains__(self, address: object) -> bool:
        return address in self._addresses.buckets

    @staticmethod
    def visitor_key(address: str, visitor: str | None) -> str:
        """Who tried a code: the address, and the visitor it names (behind a web server)."""
        return address if not visitor else f"{address} {visitor}"

    def wrong(self, address: str, visitor: str | None = None) -> float:
        """Count a wrong code; the seconds its answer waits (0: at once)."""
        buckets = (
            self._visitors.get(self.visitor_key(address, visitor)),
            self._addresses.get(address),
            self._table,
        )
        return min(self.longest, max(bucket.delay() for bucket in buckets))

    def slowed(self, address: str, visitor: str | None = None) -> bool:
        """Whether the next wrong code from there waits for its answer."""
        return (
            self._visitors.used_up(self.visitor_key(address, visitor))
            or self._addresses.used_up(address)
            or not self._table.ready()
        )
