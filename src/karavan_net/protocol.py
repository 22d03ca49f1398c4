"""The table protocol: the messages between a host and its clients, as JSON text frames.

Every message is a frozen attrs class, turned into JSON by a strict cattrs
converter and tagged with its class name (``{"type": "Decide", ...}``).  What
a client sends is read as data: a frame that is not JSON, not one of the
client's messages or holds an unknown key is refused with a sentence
(:class:`ProtocolError`), never trusted.

Game data travels as JSON-ready values (:data:`Json` here, passed through
as they are): the observation made for the one seat the frame goes to, and
decisions in the save format's tagged form.  The receiver structures them
with its game's converter.

The host never sends a state, the random generator, the seed or another
seat's observation: only :class:`Update` carries game data, and only what
:func:`karavan_core.engine.Game.observe` gave for that seat, that seat's own
legal decisions with their previews, the public log and the public scores.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from attrs import field, frozen

from karavan_core.engine import Game, Observation
from karavan_core.match import Outcome
from karavan_core.saves import converter_for
from karavan_net.codec import Codec, Json, revised_converter, written_for

PROTOCOL = 3
"""The protocol version, checked in the handshake: host and client must speak the same.

Version 2 carries the engine's own :class:`~karavan_core.match.Outcome` at the end;
version 3 tells each seat of a take-back in words (:attr:`Update.notice`).
"""
MINOR = 6
"""The revision of protocol 3 this Karavan speaks; a client names it in its Hello.

Revision 1 adds messages and fields (each marked "since revision 1"): a host
sends them only to a client that named revision 1 or later, and writes to an
older client in the shapes it knows, so a Karavan of revision 0 keeps playing.
Revision 2 lets a client watch a server's table (:attr:`Hello.watch`) and be
sent to the server process that runs a table (:class:`Moved`).  Revision 3 says in
each update how many decisions its seat has seen made (:attr:`Update.since`).
Revision 4 lets a client ask a server's process to prove the server's identity before
its Hello (:class:`Challenge`, answered by :class:`Proof`), and names that identity in
the Welcome (:attr:`Welcome.identity`).  Revision 5 adds the table's chat: a client says a
line (:class:`Say`), and the host sends each client of revision 5 the lines said
(:class:`Chat`); an older client is sent none, and is never asked for one.  It also lets a
player at a server's table resign (:class:`Resign`), abort the game before everyone has
decided (:class:`Abort`) and ask for a rematch (:class:`Rematch`, answered by
:class:`Rematched`), and says in each update what the table allows of them
(:attr:`Update.abortable`, :attr:`Update.resigned`, :attr:`Update.rematch`).  Revision 6
tells each update the table's clocks (:attr:`Update.clock`) and what its notice is about
(:attr:`Update.notice_about`), the welcome the server's time (:attr:`Welcome.now`), and the
last update of a rated game what it did to each player's rating (:attr:`Update.ratings`).
"""

DEFAULT_PORT = 7654
PATH = "/table"
MAX_CLIENT_FRAME = 64 * 1024
"""The largest frame a host reads from a client: a decision is a few hundred bytes."""
MAX_HOST_FRAME = 8 * 1024 * 1024
"""The largest frame a client reads from a host: an update with a long game's whole log."""
WATCHING = -1
"""The seat a :class:`Welcome` names for a watcher: none (the public view is sent)."""
MAX_GESTURE = 4
"""The most decisions one gesture holds (buying a camel is two: Buy, then Pay)."""
HEARTBEAT = 10.0
"""Seconds between WebSocket pings; a peer silent for longer is taken as gone."""


# -- the client's messages -----------------------------------------------------------


@frozen
class Challenge:
    """Before my Hello: prove the identity of the server, by signing ``nonce`` (since
    revision 4; a lobby's client sends it before its Login).  See :mod:`karavan_net.identity`.
    """

    nonce: str


@frozen
class Hello:
    """A client's first message: which table (``code``) and which seat (``name``).

    ``secret`` is the seat's secret from an earlier :class:`Welcome`, to take
    the seat back after a dropped connection.  ``minor`` is the client's
    revision of the protocol, and ``visitor`` who the player is behind a
    shared web server (``karavan web``), so that the host's limits count
    each visitor apart (both since revision 1).
    """

    protocol: int
    code: str
    name: str
    secret: str | None = None
    program: str = ""
    minor: int = 0
    visitor: str | None = None
    watch: bool = False  # watch the table (a server's) rather than take a seat (since 2)


@frozen
class Decide:
    """Play ``actions`` (one gesture, in the save format) at decision number ``number``."""

    number: int
    actions: list[Json]


@frozen
class Undo:
    """Take back my own last decision (the table is at ``number``)."""

    number: int


@frozen
class Redo:
    """Replay my decision taken back by undo (the table is at ``number``)."""

    number: int


@frozen
class Answer:
    """My answer to the take-back another player asks for (the table is at ``number``).

    ``request`` names the request answered (since revision 1): the answer
    stands while the bots play on, whatever the table's number.
    """

    number: int
    accept: bool
    request: int | None = None


@frozen
class Withdraw:
    """I no longer ask for my take-back ``request`` (since revision 1)."""

    request: int


@frozen
class Resign:
    """I give the game up (a server's table; since revision 5): two players, the game ends
    and I lose it; more, a bot plays my seat to the end and I am ranked last."""


@frozen
class Abort:
    """End the game with no result, as if it had not been played: only before every player
    has made a first decision (a server's table; since revision 5)."""


@frozen
class Rematch:
    """Once the game is over: I ask for (or agree to) a new game with the same seats and
    settings, or (``accept`` false) I do not want one (a server's table; since revision 5)."""

    accept: bool = True


@frozen
class Say:
    """Say ``text`` at the table's chat (since revision 5; sent only to a host that has sent
    a :class:`Chat`)."""

    text: str


# -- the host's messages ---------------------------------------------------------------


@frozen
class Welcome:
    """The join is accepted: the game, your seat, and your seat's secret for reconnecting.

    ``peers`` are the other processes of the same server (``HOST:PORT``), where the client
    comes back to if this one is lost (since revision 2); ``identity`` is the fingerprint
    of the server's identity, if it has one (since revision 4).  ``now`` is the time by
    which a server keeps its clocks' deadlines, as it sends the welcome (ISO 8601, UTC;
    since revision 6): a client whose own clock is off counts by it.
    """

    protocol: int
    game: str
    seat: int
    secret: str
    program: str = ""
    peers: tuple[str, ...] = ()
    identity: str = ""
    now: str = ""


@frozen
class Proof:
    """The answer to a :class:`Challenge`: the server's public ``key``, this process's
    ``address`` and the server's ``processes`` (each ``HOST:PORT``), signed with the
    challenge's nonce (``signature``; keys and signatures in base64; since revision 4)."""

    key: str
    address: str
    signature: str
    processes: tuple[str, ...] = ()


@frozen
class Refused:
    """The join is refused (or the connection ends), with the reason; the host closes."""

    reason: str


@frozen
class Closed:
    """The table ends for this connection, with the reason (since revision 1; an older
    client is sent :class:`Refused`).

    ``why`` is ``"closed"`` (the host closed the table mid-game: it stays saved),
    ``"over"`` (the game has ended) or ``"replaced"`` (the seat was taken from
    another connection).  The client does not try to come back.
    """

    reason: str
    why: str


@frozen
class Record:
    """The finished game as this seat saw it, for its review and replay (since revision 1).

    ``observations`` holds the seat's own observation of every position, the
    deal first, and ``actions`` every decision (save format); ``seed`` deals
    what the seat never saw (a fresh one, not the game's).  ``hints`` and
    ``takebacks`` are the seat's own counts.
    """

    seat: int
    observations: list[Json]
    actions: list[Json]
    seed: int
    hints: int = 0
    takebacks: int = 0


@frozen
class Declined:
    """A decision, undo or message of yours was refused with ``reason``; nothing changed."""

    number: int
    reason: str


@frozen
class SeatInfo:
    """A seat as every player sees it.

    ``status`` is ``"here"`` (connected), ``"away"`` (joined once, not
    connected now), ``"empty"`` (nobody has joined yet, or the host freed it)
    or ``"bot"`` (the host plays it).  ``stand_in`` (since revision 1) is the
    level of the bot that plays a person's seat while they are away.
    """

    name: str
    kind: str
    level: str | None
    status: str
    stand_in: str | None = None


@frozen
class Choice:
    """A legal decision (save format) and its words before it is taken."""

    action: Json
    words: str


@frozen
class TakenBack:
    """One decision a take-back would take back: who made it, and the log's words for it."""

    seat: int
    words: str


@frozen
class TakeBackAsked:
    """A take-back a player asks for: ``decisions`` decisions of the game, ``waiting`` to answer.

    ``revealed``: one of them had shown something new (else others have decided
    since).  Since revision 1: ``number``, the request's own number (an answer
    names it); ``taken``, each decision it would take back; ``seconds``, how
    long the table waits for the answers before the request lapses.
    """

    seat: int
    decisions: int
    waiting: list[int]
    revealed: bool = False
    number: int = 0
    taken: list[TakenBack] = field(factory=list)
    seconds: int = 0


@frozen
class SeatTime:
    """One person's clock at a timed table (since revision 6).

    ``bank`` is the seconds of bank left; ``deadline`` (the seat to move only) is when its
    time runs out, as the server keeps it: an ISO 8601 moment in UTC, never a count, so
    that a client works its clock out from its own clock whenever it draws it.
    ``stood_in``: a bot made this seat's last decision, its player's time having run out.
    """

    seat: int
    bank: float = 0.0
    deadline: str | None = None
    stood_in: bool = False


@frozen
class TableClock:
    """A timed table's clocks (since revision 6): its rule (``kind`` ``"live"`` or
    ``"turn"``, a move's seconds, the bank's seconds at the start) and each person's
    clock (a bot's seat, or a player's who resigned, has none)."""

    kind: str
    move_seconds: int
    bank_seconds: int = 0
    seats: tuple[SeatTime, ...] = ()


NOTICE_TAKEBACK = "takeback"
NOTICE_TIME = "time"
NOTICE_TABLE = "table"
"""What an update's notice is about: a take-back, a time-out, or the table's own rules
(a resignation, a rematch asked for)."""


@frozen
class Update:
    """The table as one seat sees it now.

    ``number`` counts the changes of the match (a decision, an undo, a redo):
    a decision must name the current one.  ``log`` holds the public log's
    lines from ``log_start`` on (the client keeps the earlier ones it has).
    ``before`` and ``news`` are what this seat saw right after its last
    decision and the decisions made since, when others have moved since.
    ``takeback`` is a take-back some player asks the others to agree to, and
    ``notice`` what this seat is told of the change, where it was a take-back's
    ("Bob declined: Ann's decision stands.").  ``since`` (since revision 3) is how many
    decisions this seat has seen made: up to its own last one (for a watcher, all but
    the latest); an older host leaves it out.  ``clock`` (since revision 6) is a timed
    table's clocks, the same for every seat and watcher; ``notice_about`` (since revision 6)
    what the notice is about (:data:`NOTICE_TAKEBACK`, :data:`NOTICE_TIME`,
    :data:`NOTICE_TABLE`; "" from an older host: a take-back).
    """

    number: int
    to_move: int | None
    observation: Json
    legal: list[Choice]
    scores: list[int]
    seats: list[SeatInfo]
    log_start: int
    log: list[str]
    before: Json | None = None
    news: list[Json] = field(factory=list)
    can_undo: bool = False
    can_redo: bool = False
    outcome: Outcome | None = None
    takeback: TakeBackAsked | None = None
    notice: str | None = None
    since: int | None = None
    abortable: bool = False
    resigned: list[int] = field(factory=list)
    rematch: list[int] = field(factory=list)
    clock: TableClock | None = None
    notice_about: str = ""
    ratings: list[list[int]] = field(factory=list)  # a rated game's end: each seat's before, after


@frozen
class Rematched:
    """Everyone agreed to a rematch: it is played at table ``table`` of the same server,
    the same seats; join it there (the connection ends; since revision 5)."""

    table: int


@frozen
class ChatLine:
    """A line of the table's chat: its ``number`` (counted from the table's first line),
    who said it (``seat``: ``None`` for a watcher; ``name``) and what, made safe to show by
    the host (the client makes it safe again: it is outside data all the same)."""

    number: int
    name: str
    text: str
    seat: int | None = None


@frozen
class Chat:
    """Lines of the table's chat (since revision 5): all those kept when a client joins,
    then each as it is said.  ``open`` says whether this connection may say a line (a
    watcher may not where the table keeps its chat to the players); ``refused`` why the
    line it last said was not said (no lines come with it then)."""

    lines: list[ChatLine] = field(factory=list)
    open: bool = True
    refused: str = ""


@frozen
class Moved:
    """The table is run by another process of the same server: join it at ``address``
    (``HOST:PORT``) instead; the connection ends (since revision 2)."""

    address: str


ClientMessage = (
    Hello | Decide | Undo | Redo | Answer | Withdraw | Challenge | Say | Resign | Abort | Rematch
)
HostMessage = (
    Welcome | Refused | Declined | Update | Closed | Record | Moved | Proof | Chat | Rematched
)
_CLIENT_TYPES = (
    Hello,
    Decide,
    Undo,
    Redo,
    Answer,
    Withdraw,
    Challenge,
    Say,
    Resign,
    Abort,
    Rematch,
)
_HOST_TYPES = (Welcome, Refused, Declined, Update, Closed, Record, Moved, Proof, Chat, Rematched)


SINCE: dict[type, dict[str, int]] = {
    Hello: {"minor": 1, "visitor": 1, "watch": 2},
    Welcome: {"peers": 2, "identity": 4, "now": 6},
    Answer: {"request": 1},
    TakeBackAsked: {"number": 1, "taken": 1, "seconds": 1},
    SeatInfo: {"stand_in": 1},
    Update: {
        "since": 3,
        "abortable": 5,
        "resigned": 5,
        "rematch": 5,
        "clock": 6,
        "notice_about": 6,
        "ratings": 6,
    },
}
"""The fields each revision added, by message: a host leaves them out for older clients."""
CHAT_SINCE = 5
"""The revision whose clients are sent the table's chat (:class:`Chat`)."""


@cache
def _codec(side: str) -> Codec[Any]:
    """The table protocol's codec for the messages ``side`` sends: each written for its
    reader's revision (the fields :data:`SINCE` names left out for older readers)."""
    types = _CLIENT_TYPES if side == "client" else _HOST_TYPES
    return Codec(types, "table protocol", revised_converter(SINCE))


def encode(message: ClientMessage | HostMessage, minor: int = MINOR) -> str:
    """``message`` as one JSON text frame, for a reader of protocol revision ``minor``."""
    with written_for(minor):
        return _codec("client" if isinstance(message, _CLIENT_TYPES) else "host").encode(message)


def decode_client(text: str | bytes) -> ClientMessage:
    """The client message in ``text``; :class:`ProtocolError` if it is none."""
    message: ClientMessage = _codec("client").decode(text)
    return message


def decode_host(text: str | bytes) -> HostMessage:
    """The host message in ``text``; :class:`ProtocolError` if it is none."""
    message: HostMessage = _codec("host").decode(text)
    return message


def observation_data(game: Game[Any, Any, Any], observation: Observation) -> Json:
    """``observation`` as JSON-ready data, in its game's save format."""
    return Json(converter_for(game.name).unstructure(observation, game.observation_type))


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST:PORT`` (or ``HOST``, ``[::1]:PORT``) as a host and a port; ``ValueError`` if unfit."""
    text = text.strip()
    if "://" in text:
        text = text.split("://", 1)[1].split("/", 1)[0]
    host, port_text = text, ""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError(f"{text!r} is not an address (an unclosed [).")
        host, rest = text[1:end], text[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"{text!r} is not an address.")
        port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    if not host or any(c.isspace() for c in host):
        raise ValueError(f"{text!r} is not an address: write HOST:PORT, like 127.0.0.1:7654.")
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"{port_text!r} is not a port (a number from 1 to 65535).")
    return host, int(port_text)


def moved(address: str, minor: int) -> Moved | Refused:
    """Send a client to the process at ``address``, in the words an older client reads."""
    if minor >= 2:
        return Moved(address)
    return Refused(f"This table is served at {address} now: join it there.")


def shown_address(host: str, port: int) -> str:
    """``HOST:PORT`` as written (``[HOST]:PORT`` for an IPv6 host)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def is_tls(text: str) -> bool:
    """Whether the address ``text`` asks for TLS (``wss://HOST:PORT``)."""
    return text.strip().lower().startswith("wss://")


def table_url(host: str, port: int, tls: bool = False) -> str:
    """The WebSocket address of the table served at ``host``:``port`` (over TLS: ``wss``)."""
    return f"{'wss' if tls else 'ws'}://{shown_address(host, port)}{PATH}"
