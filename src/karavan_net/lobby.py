"""The lobby protocol: what the app and a `karavan serve` server say before and between games.

A client opens the lobby's WebSocket (:data:`LOBBY_PATH`), proves its account
(:class:`Login`), then asks for lists of tables, creates tables and takes seats.
A client that sends :class:`Follow` is answered with every list at once
(:class:`Lists`) and sent them again, unasked, whenever they change; a client that
never does is sent nothing it did not ask for.
A table is played over the table protocol (:mod:`karavan_net.protocol`): its
:class:`~karavan_net.protocol.Hello` names the table by number and proves the
same account.  A client may begin with a :class:`~karavan_net.protocol.Challenge`, which
the server answers with a :class:`~karavan_net.protocol.Proof` of its identity before the
Login (see :mod:`karavan_net.identity`).  Everything a client sends is read as data.
"""

from __future__ import annotations

from attrs import field, frozen

from karavan_net.codec import Codec
from karavan_net.protocol import Challenge, Proof

LOBBY_PATH = "/lobby"
DEFAULT_SERVER_PORT = 7700
MAX_LOBBY_FRAME = 16 * 1024
"""The largest frame a server reads from a lobby client."""
DOOR_ENV = "KARAVAN_DOOR"
"""Set by a server's ssh door for the app it runs there: the one server (``HOST:PORT``) that
app plays on, and nothing of the machine's (the app's door mode)."""

# -- the client's messages ---------------------------------------------------------------------


@frozen
class Login:
    """Prove the account ``name`` with its ``secret``; ``create`` makes it if it is new."""

    protocol: int
    name: str
    secret: str
    create: bool = False
    program: str = ""


@frozen
class ListTables:
    """The tables open or being played (of ``game`` only, if given)."""

    game: str | None = None


@frozen
class MyTables:
    """The tables where I sit: running ones, or finished ones with ``over``."""

    over: bool = False


@frozen
class SeatAsk:
    """A seat of a table to create: ``open``, ``player`` (kept for ``name``) or ``bot``."""

    kind: str
    name: str | None = None
    level: str | None = None


@frozen
class CreateTable:
    """A new table of ``game``; my seat is the first.  ``watchers_chat``: its watchers may
    write in its chat too (its players always do)."""

    game: str
    seats: list[SeatAsk]
    clock: str = "none"  # none, live or turn
    move_seconds: int = 0
    bank_seconds: int = 0
    takebacks: str = "consent"  # consent or none
    rated: bool = False
    stand_in: str = "hard"
    watchers_chat: bool = False


@frozen
class TakeSeat:
    """Sit at ``table`` (in ``seat``, or the first free one)."""

    table: int
    seat: int | None = None


@frozen
class Leaderboard:
    """The best rated players of ``game``."""

    game: str


@frozen
class Follow:
    """Send me every list now, and again whenever one changes: the lobby's tables (of
    ``game`` only, if given), mine, my finished ones and (if ``board`` names a game) its
    leaderboard.  Sent again, it changes what is followed."""

    game: str | None = None
    board: str | None = None


@frozen
class NotifyAddress:
    """Where the server calls me when a turn-based table waits for me: ``url`` (a web hook,
    ``http(s)://``), ``""`` to be called nowhere, or (left out) only tell me where it is."""

    url: str | None = None


# -- the server's messages ---------------------------------------------------------------------


@frozen
class LoggedIn:
    """The account is proven: this is its name as the server keeps it.

    ``identity`` is the fingerprint of the server's identity, told to a client that began
    with a :class:`~karavan_net.protocol.Challenge` (an older client is sent none).
    """

    name: str
    program: str = ""
    identity: str = ""


@frozen
class LobbyRefused:
    """The login is refused, with the reason; the server closes."""

    reason: str


@frozen
class LobbyDeclined:
    """A request was refused with ``reason``; nothing changed."""

    reason: str


@frozen
class SeatLine:
    """A seat as the lobby shows it."""

    kind: str  # human or bot
    name: str | None = None  # the player sitting, if any
    level: str | None = None
    reserved_for: str | None = None
    rating: int | None = None
    stood_in: bool = False  # a bot is deciding for this player, whose time ran out


@frozen
class TableLine:
    """A table as the lobby shows it."""

    id: int
    game: str
    status: str  # open, playing or over
    seats: list[SeatLine]
    clock: str  # in words: "30 s a move + 5 min"
    takebacks: str
    rated: bool
    created_by: str | None = None
    to_move: int | None = None
    my_seat: int | None = None
    my_turn: bool = False
    time_left: str = ""
    result: str = ""  # who won, once over
    rating_change: list[int] = field(factory=list)  # my rating before and after, once rated
    clock_kind: str = ""  # none, live or turn: sent only in Lists (older clients know no such)


@frozen
class Tables:
    """A list of tables: ``kind`` is ``lobby``, ``mine`` or ``over``."""

    kind: str
    tables: list[TableLine]
    my_turns: int = 0  # how many of my tables wait for my decision


@frozen
class BoardLine:
    """A player on a leaderboard."""

    name: str
    rating: int
    games: int


@frozen
class Board:
    """The leaderboard of ``game``."""

    game: str
    lines: list[BoardLine]


@frozen
class NotifyingAt:
    """Where the server calls me when a turn-based table waits for me (``""``: nowhere)."""

    url: str = ""


@frozen
class Seated:
    """I sit at ``table`` in ``seat`` (after creating it or taking a seat)."""

    table: int
    seat: int
    started: bool


@frozen
class Lists:
    """Every list a :class:`Follow` asks for, as one account sees them: its answer, and
    (``pushed``) sent unasked once one of them changed (a burst of changes sent once)."""

    lobby: Tables
    mine: Tables
    over: Tables
    board: Board | None = None
    pushed: bool = False


LobbyClientMessage = (
    Login
    | ListTables
    | MyTables
    | CreateTable
    | TakeSeat
    | Leaderboard
    | Follow
    | Challenge
    | NotifyAddress
)
LobbyServerMessage = (
    LoggedIn | LobbyRefused | LobbyDeclined | Tables | Board | Seated | Lists | Proof | NotifyingAt
)

CLIENT: Codec[LobbyClientMessage] = Codec(
    (
        Login,
        ListTables,
        MyTables,
        CreateTable,
        TakeSeat,
        Leaderboard,
        Follow,
        Challenge,
        NotifyAddress,
    ),
    "lobby protocol",
)
SERVER: Codec[LobbyServerMessage] = Codec(
    (LoggedIn, LobbyRefused, LobbyDeclined, Tables, Board, Seated, Lists, Proof, NotifyingAt),
    "lobby protocol",
)
