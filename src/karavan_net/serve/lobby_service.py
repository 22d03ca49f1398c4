"""The lobby's answers: accounts, lists of tables, new tables, seats, leaderboards.

Plain logic over the :class:`~karavan_net.serve.store.Store`, with no network:
the server calls it from a worker thread for each lobby message, and the tests
call it directly.  Every refusal is a :class:`~karavan_net.serve.store.StoreError`
whose words are shown to the player.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import datetime

from karavan_core.bots import BOT_LEVELS
from karavan_core.match import BOT, HUMAN, MAX_SEED, Match, Seat
from karavan_core.registry import game_names, get_game
from karavan_core.saves import envelope
from karavan_core.text import check_name, printable
from karavan_net.clocks import Clock, time_left
from karavan_net.lobby import (
    Board,
    BoardLine,
    CreateTable,
    Follow,
    Lists,
    NotifyingAt,
    SeatLine,
    TableLine,
    Tables,
)
from karavan_net.serve.limits import TABLE_CAPS
from karavan_net.serve.notifier import checked_url
from karavan_net.serve.ratings import Skill
from karavan_net.serve.store import (
    AccountInfo,
    KeyKind,
    SeatClock,
    SeatSpec,
    Start,
    Status,
    Store,
    StoreError,
    TableCaps,
    TableRecord,
    TableSpec,
    key_digest,
)

TAKEBACK_RULES = ("consent", "none")
START_RATING = Skill().shown
MIN_SECRET = 32  # characters of an app secret: the app makes 43


def _game_title(name: str) -> str:
    return get_game(name).title


class LobbyService:
    """What the lobby answers, over ``store``; ``now`` is the database's time as the server
    follows it (by default, asked of the database each time)."""

    def __init__(
        self,
        store: Store,
        now: Callable[[], datetime] | None = None,
        caps: TableCaps | None = TABLE_CAPS,
    ) -> None:
        self.store = store
        self.now = now or store.now
        self.caps = caps  # how many tables an account may have opened (None: no cap)

    # -- accounts ------------------------------------------------------------------------
    def login(self, name: str, secret: str, create: bool) -> AccountInfo:
        """The account ``secret`` proves; with ``create``, a new one called ``name``."""
        account = self.proven(secret)
        if account is not None:
            return account
        if not create:
            raise StoreError(unknown_key(name))
        return self.new_account(name, secret)

    def proven(self, secret: str) -> AccountInfo | None:
        """The account ``secret`` proves, if any; :class:`StoreError` if it is no key this
        server gives out."""
        if not MIN_SECRET <= len(secret) <= 256:
            raise StoreError("That account key is not one this server gives out.")
        return self.store.accounts.by_key(KeyKind.SECRET, key_digest(secret))

    def new_account(self, name: str, secret: str) -> AccountInfo:
        """A new account called ``name``, proven by ``secret``."""
        return self.store.accounts.create(name, KeyKind.SECRET, key_digest(secret))

    def notify_address(
        self, account: AccountInfo, url: str | None, *, allow_private: bool = False
    ) -> NotifyingAt:
        """Where ``account`` is called when a turn-based table waits for it: set to ``url``
        (``""``: nowhere; ``None``: as it is), checked first (see
        :func:`~karavan_net.serve.notifier.checked_url`)."""
        if url is not None:
            try:
                kept = checked_url(url, allow_private=allow_private) if url.strip() else None
            except ValueError as error:
                raise StoreError(str(error)) from None
            self.store.accounts.set_notify_url(account.id, kept)
        return NotifyingAt(self.store.accounts.notify_url(account.id) or "")

    # -- tables --------------------------------------------------------------------------
    def create(self, account: AccountInfo, ask: CreateTable) -> TableRecord:
        """A new table as ``ask`` says, ``account`` in its first seat."""
        if ask.game not in game_names():
            raise StoreError(f"There is no game called {printable(ask.game)[:20]}.")
        game = get_game(ask.game)
        if not game.min_players <= len(ask.seats) <= game.max_players:
            raise StoreError(f"{game.title} is for {game.player_counts}.")
        seats = tuple(self._seat(index, seat) for index, seat in enumerate(ask.seats))
        if seats[0].kind != HUMAN or seats[0].reserved_for is not None:
            raise StoreError("The first seat is yours: it cannot be a bot's or kept for another.")
        if ask.rated and any(seat.kind == BOT for seat in seats):
            raise StoreError("A rated table seats people only: bots are not rated.")
        if ask.takebacks not in TAKEBACK_RULES:
            raise StoreError("Take-backs are by consent or none.")
        if ask.stand_in not in BOT_LEVELS:
            raise StoreError(f"The stand-in is a bot level: {', '.join(BOT_LEVELS)}.")
        try:
            clock = Clock.checked(ask.clock, ask.move_seconds, ask.bank_seconds)
        except ValueError as error:
            raise StoreError(str(error)) from None
        spec = TableSpec(
            game=ask.game,
            seats=seats,
            clock=clock,
            takebacks=ask.takebacks,
            rated=ask.rated,
            stand_in=ask.stand_in,
            watchers_chat=ask.watchers_chat,
        )
        seed = secrets.randbelow(MAX_SEED)
        return self.store.tables.create(spec, account, seed, start=self.start, caps=self.caps)

    @staticmethod
    def _seat(index: int, ask: object) -> SeatSpec:
        kind = getattr(ask, "kind", None)
        if kind == "open":
            return SeatSpec()
        if kind == "player":
            try:
                return SeatSpec(reserved_for=check_name(getattr(ask, "name", None) or ""))
            except ValueError as error:
                raise StoreError(f"Seat {index + 1}: {error}") from None
        if kind == "bot":
            level = getattr(ask, "level", None)
            if level not in BOT_LEVELS:
                raise StoreError(f"Seat {index + 1}: a bot is {', '.join(BOT_LEVELS)}.")
            return SeatSpec(kind=BOT, level=level)
        raise StoreError(f"Seat {index + 1} is open, kept for a player, or a bot's.")

    def take(self, account: AccountInfo, table_id: int, seat: int | None) -> TableRecord:
        """Seat ``account`` at ``table_id``; the game starts once every seat is taken."""
        return self.store.tables.take_seat(table_id, seat, account, start=self.start)

    @staticmethod
    def start(table: TableRecord, now: datetime) -> Start:
        """How ``table``, every seat of it taken, starts at ``now``: its match dealt, the
        first person to move given a deadline."""
        match = new_match(table)
        clocks = {
            seat.seat: SeatClock(
                bank_left=seat.bank_left,
                deadline=table.clock.deadline(now, seat.bank_left, rated=table.rated)
                if seat.seat == match.to_move and seat.kind == HUMAN
                else None,
                stood_in=False,
            )
            for seat in table.seats
        }
        return Start(save=envelope(match), to_move=match.to_move, clocks=clocks)

    # -- lists ---------------------------------------------------------------------------
    def lobby(self, account: AccountInfo, game: str | None, kinds: bool = False) -> Tables:
        """The lobby's tables (of ``game`` only, if given; ``kinds``: see :meth:`line`)."""
        if game is not None and game not in game_names():
            raise StoreError(f"There is no game called {printable(game)[:20]}.")
        lines = self.lines(self.store.tables.lobby(game), account, kinds)
        return Tables("lobby", lines, self.my_turns(account))

    def mine(self, account: AccountInfo, over: bool, kinds: bool = False) -> Tables:
        """The tables where ``account`` sits (finished ones with ``over``; ``kinds``: see
        :meth:`line`)."""
        tables = self.store.tables.of_account(account.id, over=over)
        lines = self.lines(tables, account, kinds)
        return Tables("over" if over else "mine", lines, sum(line.my_turn for line in lines))

    def lists(self, account: AccountInfo, follow: Follow) -> Lists:
        """Every list ``follow`` asks for, as ``account`` sees them."""
        lobby = self.lobby(account, follow.game, kinds=True)
        mine, over = self.mine(account, False, kinds=True), self.mine(account, True, kinds=True)
        board = None if follow.board is None else self.board(follow.board)
        return Lists(lobby, mine, over, board)

    def my_turns(self, account: AccountInfo) -> int:
        """How many of ``account``'s tables wait for its decision."""
        return self.store.tables.my_turns(account.id)

    def lines(
        self, tables: Sequence[TableRecord], account: AccountInfo | None, kinds: bool = False
    ) -> list[TableLine]:
        """``tables`` as the lobby shows them to ``account`` (their players' ratings, and what
        the finished ones did to them, read at once; ``kinds``: see :meth:`line`)."""
        accounts = {s.account_id for t in tables for s in t.seats if s.account_id is not None}
        ratings = self.store.ratings.shown(accounts)
        finished = {t.id for t in tables if t.status is Status.OVER and t.rated}
        changes = self.store.ratings.changes(finished) if account is not None else {}
        now = self.now()
        return [self.line(t, account, ratings, changes, now, kinds) for t in tables]

    def line(
        self,
        table: TableRecord,
        account: AccountInfo | None,
        ratings: dict[tuple[str, int], int],
        changes: dict[tuple[int, int], tuple[int, int]],
        now: datetime,
        kinds: bool = False,
    ) -> TableLine:
        """``table`` as the lobby shows it to ``account`` at ``now``, with the players'
        ``ratings`` and the ``changes`` finished tables made to them; with ``kinds``, its
        clock's kind too (only a client that follows the lists knows that field)."""
        mine = None if account is None else table.seat_of(account.id)
        to_move = table.to_move if table.status is Status.PLAYING else None
        deadline = None if to_move is None else table.seats[to_move].deadline
        before_after = None if account is None else changes.get((table.id, account.id))
        change = list(before_after) if before_after else []
        return TableLine(
            id=table.id,
            game=table.game,
            status=table.status.value,
            seats=[
                SeatLine(
                    kind=seat.kind,
                    name=seat.name,
                    level=seat.level,
                    reserved_for=seat.reserved_for,
                    rating=None
                    if seat.account_id is None
                    else ratings.get((table.game, seat.account_id), START_RATING),
                    stood_in=seat.stood_in,
                )
                for seat in table.seats
            ],
            clock=table.clock.describe(),
            clock_kind=table.clock.kind.value if kinds else "",
            takebacks=table.takebacks,
            rated=table.rated,
            created_by=table.created_by,
            to_move=to_move,
            my_seat=mine,
            my_turn=mine is not None and mine == to_move,
            time_left=time_left(deadline, now),
            result=_result_words(table),
            rating_change=change,
        )

    def board(self, game: str) -> Board:
        """The leaderboard of ``game``."""
        if game not in game_names():
            raise StoreError(f"There is no game called {printable(game)[:20]}.")
        lines = [
            BoardLine(name, skill.shown, skill.games)
            for name, skill in self.store.ratings.leaderboard(game)
        ]
        return Board(game, lines)


def unknown_key(name: str) -> str:
    """Why a login of ``name`` with a key no account has is refused."""
    return (
        f"No account here is proven by this key: {printable(name)[:24]} may be new "
        "to this server, or the key belongs to another one."
    )


def new_match(table: TableRecord) -> Match:
    """The match a full table starts: its players in their seats, dealt from its seed."""
    taken = {seat.name.casefold() for seat in table.seats if seat.name is not None}
    seats: list[Seat] = []
    for seat in table.seats:
        if seat.kind == BOT:
            name = _bot_name(seat.level or "hard", taken)
            taken.add(name.casefold())
            seats.append(Seat(name, BOT, seat.level))
        else:
            assert seat.name is not None
            seats.append(Seat(seat.name))
    return Match(get_game(table.game), seats, table.seed)


def _bot_name(level: str, taken: set[str]) -> str:
    """ "Hard bot", or "Hard bot 2" when the name is taken at the table."""
    base = f"{level.capitalize()} bot"
    name, count = base, 1
    while name.casefold() in taken:
        count += 1
        name = f"{base} {count}"
    return name


def _result_words(table: TableRecord) -> str:
    result = table.result or {}
    words = result.get("sentence")
    return words if isinstance(words, str) else ""
