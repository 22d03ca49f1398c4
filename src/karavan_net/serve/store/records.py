"""What the store is asked for and gives back: plain values, never rows tied to a session."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from attrs import frozen

from karavan_net.clocks import Clock, ClockKind
from karavan_net.serve.schema import GameTable

UNTIMED = Clock()


class StoreError(Exception):
    """A request the store refuses; ``str()`` is a sentence for the player."""


class KeyKind(StrEnum):
    """How an account is proven."""

    SECRET = "secret"  # the app's secret, kept in the player's settings
    SSH = "ssh"  # an SSH public key


class Status(StrEnum):
    """Where a table is in its life."""

    OPEN = "open"  # seats wait for players
    PLAYING = "playing"
    OVER = "over"
    CLOSED = "closed"  # everyone stood up before it started: listed nowhere


def key_digest(secret: str) -> str:
    """What the store keeps of an account's secret (a high-entropy token: SHA-256 will do)."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def name_key(name: str) -> str:
    """A name as it is compared: two names that differ only in case are the same."""
    return name.strip().casefold()


def aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back naive times: they were written in UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


@frozen
class AccountInfo:
    """An account: its number and name."""

    id: int
    name: str


@frozen(kw_only=True)
class SeatSpec:
    """A seat as a new table asks for it: open, kept for a named player, or a bot's."""

    kind: str = "human"  # "human" or "bot"
    level: str | None = None
    reserved_for: str | None = None  # a player's name


@frozen(kw_only=True)
class TableSpec:
    """A new table: its game, seats, clock, take-back rule and whether it is rated."""

    game: str
    seats: tuple[SeatSpec, ...]
    clock: Clock = UNTIMED
    takebacks: str = "consent"  # "consent" or "none"
    rated: bool = False
    stand_in: str = "hard"  # the bot level that decides for a player out of time
    watchers_chat: bool = False  # watchers may say lines at the table's chat, not only read
    challenge: bool = False  # made for the players its seats are kept for


@frozen(kw_only=True)
class TableCaps:
    """How many tables one account may have opened at once: ``waiting`` for players, and
    ``unfinished`` in all (those started against bots count: their bots think on the
    server)."""

    waiting: int
    unfinished: int


@frozen(kw_only=True)
class SeatRecord:
    """A seat of a stored table."""

    seat: int
    kind: str
    level: str | None
    account_id: int | None
    name: str | None
    reserved_for: str | None
    bank_left: float
    deadline: datetime | None
    stood_in: bool
    resigned: int | None = None  # the player resigned: the order they did (1 for the first)

    @property
    def free(self) -> bool:
        """Whether anyone may take this seat (a person's, not taken, kept for nobody)."""
        return self.kind == "human" and self.account_id is None and self.reserved_for is None


@frozen(kw_only=True)
class TableRecord:
    """A stored table: its settings, seats and (once started) its save envelope."""

    id: int
    game: str
    status: Status
    created_by: str | None
    created_at: datetime
    updated_at: datetime
    clock: Clock
    takebacks: str
    rated: bool
    stand_in: str
    seed: int
    revision: int
    to_move: int | None
    seats: tuple[SeatRecord, ...]
    save: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    watchers_chat: bool = False
    challenge: bool = False
    log_marks: tuple[tuple[int, str], ...] = ()  # words the table adds to lines of its log

    def seat_of(self, account_id: int) -> int | None:
        """The seat ``account_id`` holds here, if any."""
        return next((s.seat for s in self.seats if s.account_id == account_id), None)

    @property
    def resigned(self) -> list[int]:
        """The seats whose players resigned a game that goes on, in the order they did."""
        marked = [s for s in self.seats if s.resigned is not None]
        return [s.seat for s in sorted(marked, key=lambda s: s.resigned or 0)]

    @property
    def wanted(self) -> int:
        """How many people's seats are still to be taken."""
        return sum(1 for s in self.seats if s.kind == "human" and s.account_id is None)


@frozen(kw_only=True)
class Lease:
    """What asking for a table's lease gave: whether it is held now, where the process that
    holds it listens, and (taken over from a process that was lost) when that one's lease
    ran out, by the database's clock."""

    held: bool
    address: str | None
    lapsed: datetime | None


@frozen(kw_only=True)
class SeatClock:
    """A seat's clock after a change: its bank, its deadline, whether a bot stood in."""

    bank_left: float
    deadline: datetime | None
    stood_in: bool


@frozen(kw_only=True)
class Start:
    """How a full table starts: its game's save (revision 0), who moves, the seats' clocks."""

    save: dict[str, Any]
    to_move: int | None
    clocks: dict[int, SeatClock]


# How a table that has every player starts: given the table and the database's now.
Starter = Callable[[TableRecord, datetime], Start]


@frozen(kw_only=True)
class TurnCall:
    """A call to make on a player's web hook: the turn-based table ``table_id`` of ``game``
    waits for them (``reminder``: and less than a tenth of their time is left) until
    ``deadline``."""

    url: str
    table_id: int
    game: str
    deadline: datetime
    reminder: bool


@frozen(kw_only=True)
class RatedGame:
    """A rated table's game and the accounts in its seats, seat by seat: its result is rated
    in the transaction that keeps it."""

    game: str
    accounts: tuple[int, ...]


@frozen(kw_only=True)
class Decision:
    """A table's game after a change, to keep: its save (whose revision follows ``after``),
    who moves, the seats' clocks, the result once it is over, (when several processes share
    the database) the process whose lease lets it write the table, and (a rated table) what
    to rate the result by."""

    table_id: int
    after: int
    save: dict[str, Any]
    to_move: int | None
    clocks: dict[int, SeatClock]
    result: dict[str, Any] | None = None
    owner: str | None = None
    rated: RatedGame | None = None
    marks: tuple[tuple[int, str], ...] = ()  # words the table adds to lines of its log


def table_record(table: GameTable, with_save: bool = True) -> TableRecord:
    """The stored ``table`` as a value (its game's save only ``with_save``)."""
    creator = table.creator
    created_at, updated_at = aware(table.created_at), aware(table.updated_at)
    assert created_at is not None and updated_at is not None
    return TableRecord(
        id=table.id,
        game=table.game,
        status=Status(table.status),
        created_by=None if creator is None else creator.name,
        created_at=created_at,
        updated_at=updated_at,
        clock=Clock(
            kind=ClockKind(table.clock),
            move_seconds=table.move_seconds,
            bank_seconds=table.bank_seconds,
        ),
        takebacks=table.takebacks,
        rated=table.rated,
        stand_in=table.stand_in,
        seed=table.seed,
        revision=table.revision,
        to_move=table.to_move,
        seats=tuple(
            SeatRecord(
                seat=s.seat,
                kind=s.kind,
                level=s.level,
                account_id=s.account_id,
                name=s.name,
                reserved_for=s.reserved_for,
                bank_left=s.bank_left,
                deadline=aware(s.deadline),
                stood_in=s.stood_in,
                resigned=s.resigned,
            )
            for s in table.seats
        ),
        save=table.save if with_save else None,
        result=table.result if with_save else None,
        watchers_chat=table.watchers_chat,
        challenge=table.challenge,
        log_marks=log_marks(table.log_marks) if with_save else (),
    )


def log_marks(stored: object) -> tuple[tuple[int, str], ...]:
    """The [line, words] pairs a table keeps of its log, as values; any other shape is
    none (a column written by a later version, or by hand)."""
    if not isinstance(stored, list):
        return ()
    return tuple(
        (pair[0], pair[1])
        for pair in stored
        if isinstance(pair, list)
        and len(pair) == 2
        and isinstance(pair[0], int)
        and isinstance(pair[1], str)
    )
