"""The lobby of a `karavan serve` server: its tables, mine, finished games, the best players.

Four tabs, each a table of rows: the lobby's open and running tables (filtered
by game with **g**), my tables (a mark where it is my turn, with the time left),
my finished games (result and rating change) and a leaderboard per game.
**Enter** takes a free seat, or opens my table; **w** watches a table; **c**
creates one.  The lists refresh every few seconds while the screen is shown.
Every name comes from the server and is shown as plain text.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane

from karavan_core.registry import all_games, get_game
from karavan_core.text import printable
from karavan_net.accounts import Account
from karavan_net.client import HostUnreachable, JoinRefused
from karavan_net.lobby import Board, CreateTable, TableLine, Tables
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError, LobbyRefusedError
from karavan_tui.context import karavan_app
from karavan_tui.desktop import news
from karavan_tui.net.create_table import CreateTableScreen
from karavan_tui.net.lobby_acts import challenge_sent, challenges_words, decline, stand_up
from karavan_tui.net.served_seat import open_served_table
from karavan_tui.widgets.chrome import AppHeader

REFRESH_SECONDS = 5.0
GAMES = [None, *(game.name for game in all_games())]  # the lobby's filters, "all" first


def seats_words(line: TableLine) -> str:
    """The seats of a table in a few words: "Ann (1012), Bob, open, Hard bot"."""
    words = []
    for seat in line.seats:
        if seat.kind == "bot":
            words.append(f"{(seat.level or 'bot').capitalize()} bot")
        elif seat.name:
            rating = f" ({seat.rating})" if seat.rating is not None else ""
            late = " (late: a bot decided)" if seat.stood_in else ""
            words.append(f"{seat.name}{rating}{late}")
        elif seat.reserved_for:
            words.append(f"kept for {seat.reserved_for}")
        else:
            words.append("open")
    return ", ".join(words)


def rules_words(line: TableLine) -> str:
    """The clock and the rules of a table: "30 s a move + 5 min, rated"."""
    parts = [line.clock]
    if line.rated:
        parts.append("rated")
    if line.takebacks == "none":
        parts.append("no take-backs")
    return ", ".join(parts)


class LobbyScreen(Screen[None]):
    """A server's lobby, logged in as ``account`` through ``client``."""

    is_home = True  # leaving a table comes back here, not to the title
    BINDINGS = [
        Binding("enter", "open", "Sit / play", priority=False),
        Binding("w", "watch", "Watch"),
        Binding("c", "create", "Create"),
        Binding("g", "game", "Game filter"),
        Binding("r", "refresh", "Refresh"),
        Binding("escape,q", "leave", "Leave"),
        Binding("d", "decline", "Decline", show=False, tooltip="Decline the challenge"),
        Binding("s", "stand_up", "Stand up", show=False, tooltip="Leave a table not started"),
    ]
    DEFAULT_CSS = """
    LobbyScreen #lobby-status { height: auto; padding: 0 1; color: $text-muted; }
    LobbyScreen DataTable { height: 1fr; }
    """

    def __init__(
        self, client: LobbyClient, account: Account, challenge: CreateTable | None = None
    ) -> None:
        super().__init__()
        self.client = client
        self.account = account
        self.challenge = challenge  # a table to ask for once the lobby opens
        self.awaiting: int | None = None  # my challenge's table: opened once it starts
        self.game: str | None = None
        self.lines: dict[str, list[TableLine]] = {"lobby": [], "mine": [], "over": []}

    def compose(self) -> ComposeResult:
        """The status line, then the four tabs."""
        yield AppHeader()
        with Vertical(id="lobby"):
            yield Static("", id="lobby-status")
            yield from self.tabs()
        yield Footer()

    def tabs(self) -> ComposeResult:
        """The four lists."""
        with TabbedContent(initial="tab-lobby"):
            with TabPane("Tables", id="tab-lobby"):
                yield DataTable(id="list-lobby", cursor_type="row", zebra_stripes=True)
            with TabPane("My tables", id="tab-mine"):
                yield DataTable(id="list-mine", cursor_type="row", zebra_stripes=True)
            with TabPane("Finished", id="tab-over"):
                yield DataTable(id="list-over", cursor_type="row", zebra_stripes=True)
            with TabPane("Leaderboard", id="tab-board"):
                yield DataTable(id="list-board", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        """Fill the lists, and keep them fresh."""
        columns = {
            "lobby": ("#", "Game", "Seats", "Clock and rules", "By"),
            "mine": ("", "#", "Game", "Seats", "Time left"),
            "over": ("#", "Game", "Seats", "Result", "Rating"),
            "board": ("", "Player", "Rating", "Games"),
        }
        for name, heads in columns.items():
            self.query_one(f"#list-{name}", DataTable).add_columns(*heads)
        self.refresh_lists()
        self.set_interval(REFRESH_SECONDS, self.refresh_lists)
        # What the server tells unasked (a challenge made to me, declined): a toast.
        self.client.told = lambda words: self.notify(words, title="Lobby", markup=False)
        if self.challenge is not None:
            self.create(self.challenge)

    def on_screen_resume(self) -> None:
        """Back from a table: what changed there shows at once."""
        self.refresh_lists()

    def say(self, text: str) -> None:
        """The status line, as plain text."""
        self.query_one("#lobby-status", Static).update(Content(text))

    # -- the lists -----------------------------------------------------------------------------
    @work(exclusive=True, group="lobby-lists", exit_on_error=False)
    async def refresh_lists(self) -> None:
        """Ask the server for every list (one request at a time, in the background)."""
        try:
            lobby = await self.client.tables(self.game)
            mine = await self.client.mine()
            over = await self.client.mine(over=True)
            board = await self.client.board(self.game or all_games()[0].name)
        except (HostUnreachable, LobbyDeclinedError, LobbyRefusedError) as error:
            self.say(f"The server does not answer: {printable(str(error))}")
            return
        self.show(lobby, mine, over, board)

    def show(self, lobby: Tables, mine: Tables, over: Tables, board: Board) -> None:
        """Put the lists in their tables, each cursor kept on its row where it can be; a game
        of mine that has started, or a table that now waits for me, is told on the desktop."""
        for words in news(self.lines["mine"], mine.tables):
            karavan_app(self).tell_desktop(words)
        self.lines = {"lobby": lobby.tables, "mine": mine.tables, "over": over.tables}
        self._fill("lobby", [self._lobby_row(line) for line in lobby.tables])
        self._fill("mine", [self._mine_row(line) for line in mine.tables])
        self._fill("over", [self._over_row(line) for line in over.tables])
        rows = [
            (str(rank), Content(line.name), str(line.rating), str(line.games))
            for rank, line in enumerate(board.lines, start=1)
        ]
        self._fill("board", rows)
        waiting = mine.my_turns
        filtered = "every game" if self.game is None else get_game(self.game).title
        turns = f"{waiting} of your tables wait for you. " if waiting else ""
        self.say(
            f"{self.account.name} on {self.account.server}. {turns}"
            f"{challenges_words(lobby.challenges)}Showing {filtered}; "
            f"leaderboard of {get_game(board.game).title}."
        )
        started = [line.id for line in mine.tables if line.status == "playing"]
        if self.awaiting in started:  # my challenge was taken up: to its table
            self.sit(self.awaiting, watch=False)
            self.awaiting = None

    def _fill(self, name: str, rows: list[tuple[Any, ...]]) -> None:
        table = self.query_one(f"#list-{name}", DataTable)
        row = table.cursor_row
        table.clear()
        for cells in rows:
            table.add_row(*cells)
        if rows:
            table.move_cursor(row=min(row, len(rows) - 1))

    @staticmethod
    def _lobby_row(line: TableLine) -> tuple[Any, ...]:
        wanted = sum(1 for seat in line.seats if seat.kind == "human" and seat.name is None)
        where = "playing" if line.status == "playing" else f"{wanted} wanted"
        return (
            str(line.id),
            get_game(line.game).title,
            Content(f"{'Challenge: ' if line.challenge else ''}{seats_words(line)} ({where})"),
            rules_words(line),
            Content(line.created_by or ""),
        )

    @staticmethod
    def _mine_row(line: TableLine) -> tuple[Any, ...]:
        mark = ">" if line.my_turn else ""
        left = line.time_left if line.my_turn else ""
        state = "waiting for players" if line.status == "open" else left
        return (mark, str(line.id), get_game(line.game).title, Content(seats_words(line)), state)

    @staticmethod
    def _over_row(line: TableLine) -> tuple[Any, ...]:
        change = ""
        if len(line.rating_change) == 2:
            before, after = line.rating_change
            change = f"{before} -> {after} ({after - before:+d})"
        return (
            str(line.id),
            get_game(line.game).title,
            Content(seats_words(line)),
            Content(line.result),
            change,
        )

    def chosen(self) -> TableLine | None:
        """The table under the cursor of the tab shown (``None`` on the leaderboard)."""
        tab = self.query_one(TabbedContent).active.removeprefix("tab-")
        lines = self.lines.get(tab)
        if not lines:
            return None
        row = self.query_one(f"#list-{tab}", DataTable).cursor_row
        return lines[row] if 0 <= row < len(lines) else None

    # -- doing ---------------------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a list's row: the list takes the key, so it acts here."""
        event.stop()
        self.action_open()

    def action_refresh(self) -> None:
        """Ask for the lists again now."""
        self.refresh_lists()

    def action_game(self) -> None:
        """Show the next game only (then every game again)."""
        self.game = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)]
        self.refresh_lists()

    def action_create(self) -> None:
        """Set up a new table."""

        def asked(request: CreateTable | None) -> None:
            if request is not None:
                self.create(request)

        self.app.push_screen(CreateTableScreen(self.game), asked)

    @work(exclusive=True, group="lobby-act", exit_on_error=False)
    async def create(self, request: CreateTable) -> None:
        """Create the table, then say so (or why not)."""
        try:
            seated = await self.client.create(request)
        except (HostUnreachable, LobbyDeclinedError, LobbyRefusedError) as error:
            self.notify(printable(str(error)), title="No table", severity="warning")
            return
        if seated.started:  # no seat was left for anyone else: play at once
            self.sit(seated.table, watch=False)
            return
        if request.challenge:
            self.awaiting = seated.table
        self.notify(
            challenge_sent(seated.table)
            if request.challenge
            else f"Table {seated.table} is open: it starts once every seat is taken."
        )
        self.refresh_lists()

    def action_open(self) -> None:
        """Take a free seat at the table chosen, play at my own, or open my finished game (its
        result, review and replay, as I saw it)."""
        line = self.chosen()
        if line is None:
            return
        if line.my_seat is not None:
            if line.status in ("playing", "over"):  # a finished game opens at its end
                self.sit(line.id, watch=False)
            elif line.status == "open":
                self.notify("The game starts once every seat is taken.", title="Waiting")
            return
        if line.status != "open":
            self.notify("That table has started: w watches it.", title="No free seat")
            return
        self.take(line.id)

    @work(exclusive=True, group="lobby-act", exit_on_error=False)
    async def take(self, table: int) -> None:
        """Take a seat at ``table``; open it if the game starts."""
        try:
            seated = await self.client.take(table)
        except (HostUnreachable, LobbyDeclinedError, LobbyRefusedError) as error:
            self.notify(printable(str(error)), title="No seat", severity="warning")
            return
        if seated.started:
            self.sit(seated.table, watch=False)
        else:
            self.notify("You have a seat: the game starts once every seat is taken.")
            self.refresh_lists()

    def action_watch(self) -> None:
        """Watch the table chosen (the public view: no hand is ever shown)."""
        line = self.chosen()
        if line is None or line.status != "playing":
            self.notify("Only a table being played can be watched.", title="Nothing to watch")
            return
        self.sit(line.id, watch=True)

    @work(exclusive=True, group="lobby-act", exit_on_error=False)
    async def sit(self, table: int, watch: bool) -> None:
        """Go to ``table``, at my seat or (``watch``) as a watcher."""
        client = self.client.table(table, watch)
        try:
            await client.join()
        except (JoinRefused, HostUnreachable) as error:
            self.notify(printable(str(error)), title="Cannot open the table", severity="warning")
            return
        open_served_table(self.app, client)

    def action_decline(self) -> None:
        """Decline the challenge chosen, once confirmed."""
        decline(self, self.client, self.chosen(), self.refresh_lists)

    def action_stand_up(self) -> None:
        """Leave my seat at the table chosen, which has not started, once confirmed."""
        stand_up(self, self.client, self.chosen(), self.refresh_lists)

    def action_leave(self) -> None:
        """Back to the title (the lobby's connection closes)."""
        self.app.pop_screen()

    async def on_unmount(self) -> None:
        """Log out."""
        await self.client.close()
