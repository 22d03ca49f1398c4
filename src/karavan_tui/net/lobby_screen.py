"""The lobby of a `karavan serve` server: its tables, mine, finished games, the best players.

Four tabs (keys 1 to 4), each a list of rows that has the keys from the start:
the lobby's open and running tables (filtered by game with **g**), my tables (a
mark where it is my turn, with the time left), my finished games (result and my
rating change) and a leaderboard.  **Enter** (or a tap) on a table asks first,
then takes its free seat or watches it; on my own table it opens it; **c**
creates one; **s** stands up from a table of mine not started, **d** declines a
challenge made to me (challenges wait at the top of the tables).  The screen
follows the lists the server pushes (and comes back with the connection after a
server restart); when a table of mine starts, or waits for my decision, the bell
rings and the terminal's title says so, and a live table opens at once.  Every
name comes from the server and is shown as plain text.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane, Tabs

from karavan_core.registry import all_games, get_game
from karavan_core.text import plural, printable
from karavan_net.accounts import Account
from karavan_net.client import HostUnreachable, JoinRefused
from karavan_net.lobby import Board, CreateTable, Lists, TableLine, Tables
from karavan_net.lobby_calls import Caller
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError, LobbyRefusedError
from karavan_tui.context import karavan_app
from karavan_tui.desktop import news
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net import lobby_rows as rows
from karavan_tui.net.create_table import CreateTableScreen
from karavan_tui.net.lobby_acts import challenge_sent, challenges_words, decline, stand_up
from karavan_tui.net.lobby_list import LobbyList
from karavan_tui.net.served_seat import open_served_table
from karavan_tui.screens.table import TableScreen
from karavan_tui.widgets.chrome import AppHeader

GAMES = [None, *(game.name for game in all_games())]  # the lobby's filters, "all" first
NARROW = 80  # below this many columns each table is a block of lines
TABS = {"lobby": "Tables", "mine": "My tables", "over": "Finished", "board": "Leaders"}
PROBLEMS = (HostUnreachable, LobbyDeclinedError, LobbyRefusedError)
TAB_KEYS = Binding.Group("Tabs", compact=True)


class LobbyFooter(Footer):
    """The lobby's Footer: below 80 columns (a phone held upright), only the keys that fit
    (the others still work)."""

    WIDE_ONLY = frozenset({"watch", "game"})  # Enter asks to watch; the filter can wait

    def __init__(self) -> None:
        super().__init__()
        self.narrow = False

    def compose(self) -> ComposeResult:
        """The Footer's keys, but those that do not fit a narrow screen."""
        for widget in super().compose():
            # A key of the Footer names its action (the Footer's other parts do not).
            if self.narrow and getattr(widget, "action", None) in self.WIDE_ONLY:
                continue
            yield widget


class LobbyScreen(Screen[None]):
    """A server's lobby, logged in as ``account`` through ``client``; ``pull`` is a table of
    mine to open at once (a live one that started while the title screen was shown), and
    ``challenge`` a table to ask for once the lobby opens (``karavan online --challenge``)."""

    is_home = True  # leaving a table comes back here, not to the title
    BINDINGS = [
        Binding("c", "create", "Create", tooltip="A new table"),
        *(
            Binding(str(number), f"tab('{name}')", title, group=TAB_KEYS)
            for number, (name, title) in enumerate(TABS.items(), 1)
        ),
        Binding("w", "watch", "Watch", tooltip="Watch the table being played"),
        Binding("g", "game", "Game", tooltip="One game only, or every game"),
        Binding("r", "refresh", "Refresh", show=False),
        Binding("escape,q", "leave", "Leave", tooltip="Back to the title"),
        Binding("d", "decline", "Decline", show=False, tooltip="Decline the challenge"),
        Binding("s", "stand_up", "Stand up", show=False, tooltip="Leave a table not started"),
    ]
    DEFAULT_CSS = """
    LobbyScreen #lobby-status { height: auto; padding: 0 1; color: $text-muted; }
    LobbyScreen TabbedContent, LobbyScreen ContentSwitcher, LobbyScreen TabPane { height: 1fr; }
    LobbyScreen TabPane { padding: 0; }
    LobbyScreen LobbyList { height: auto; max-height: 100%; scrollbar-size-vertical: 1; }
    LobbyScreen .empty { padding: 1 2; color: $text-muted; height: auto; }
    """

    def __init__(
        self,
        client: LobbyClient,
        account: Account,
        pull: int | None = None,
        challenge: CreateTable | None = None,
    ) -> None:
        super().__init__()
        self.client = client
        self.account = account
        self.pull = pull
        self.challenge = challenge
        self.awaiting: int | None = None  # my challenge's table: opened once it starts
        self.game: str | None = None
        self.lines: dict[str, list[TableLine]] = {"lobby": [], "mine": [], "over": []}
        self.board: Board | None = None
        self.my_turns = 0
        self.caller = Caller()  # what in my tables calls me to the table

    def compose(self) -> ComposeResult:
        """The status line, then the four tabs."""
        yield AppHeader()
        with Vertical(id="lobby"):
            yield Static("", id="lobby-status")
            with TabbedContent(initial=f"tab-{karavan_app(self).first_lobby_tab()}"):
                for name, title in TABS.items():
                    with TabPane(title, id=f"tab-{name}"):
                        yield LobbyList(id=f"list-{name}")
                        yield Static("", classes="empty", id=f"empty-{name}")
        yield LobbyFooter()

    def on_mount(self) -> None:
        """The rows have the keys (the tab bar is clicked, not focused); follow the lists."""
        self.query_one(TabbedContent).query_one(Tabs).can_focus = False
        self.query_one(f"#list-{self.shown_tab()}", LobbyList).focus()
        self.lay_out()
        self.fit_footer()
        # What the server tells unasked (a challenge made to me, declined): a toast.
        self.client.told = lambda words: self.notify(words, title="Lobby", markup=False)
        self.follow()
        if self.challenge is not None:
            self.create(self.challenge)

    def on_screen_resume(self) -> None:
        """Back from a table: the lists as they are now."""
        self.follow()

    def say(self, text: str) -> None:
        """The status line, as plain text."""
        self.query_one("#lobby-status", Static).update(Content(text))

    # -- following the lists -------------------------------------------------------------------
    @work(exclusive=True, group="lobby-lists", exit_on_error=False)
    async def follow(self) -> None:
        """Ask for every list, and to be sent them whenever they change."""
        board = self.game or all_games()[0].name
        try:
            lists = await self.client.follow(self, self.game, board)
        except PROBLEMS as error:
            self.say(f"The server does not answer: {printable(str(error))}")
            return
        self.show_lists(lists)
        pull, self.pull = self.pull, None
        if pull is not None:
            self.sit(pull, watch=False)

    def lobby_lists(self, lists: Lists) -> None:
        """The server pushed the lists (or sent them again once the connection was back)."""
        self.show_lists(lists)

    def lobby_connection(self, connected: bool) -> None:
        """The connection dropped (the lists come again once it is back)."""
        if not connected:
            self.say("The connection to the server dropped: reconnecting...")

    def lobby_closed(self, reason: str) -> None:
        """The server closed the lobby for good."""
        self.say(f"The server closed the lobby: {printable(reason)}")

    def show_lists(self, lists: Lists) -> None:
        """Show the lists, and call me to a table of mine that started or waits for me (on
        the desktop too, where the terminal shows such notes)."""
        for words in news(self.lines["mine"], lists.mine.tables):
            karavan_app(self).tell_desktop(words)
        self.lines = {
            "lobby": lists.lobby.tables,
            "mine": lists.mine.tables,
            "over": lists.over.tables,
        }
        self.board = lists.board
        self.my_turns = lists.mine.my_turns
        self.lay_out()
        self.say_where(lists.mine, lists.lobby.challenges)
        self.call(lists.mine)
        started = [line.id for line in lists.mine.tables if line.status == "playing"]
        if self.awaiting in started:  # my challenge was taken up: to its table
            self.sit(self.awaiting, watch=False)
            self.awaiting = None

    def say_where(self, mine: Tables, challenges: int) -> None:
        """Who I am, where, and what waits for me."""
        waiting = "waits" if mine.my_turns == 1 else "wait"
        turns = f"{plural(mine.my_turns, 'table')} {waiting} for you. " if mine.my_turns else ""
        filtered = "every game" if self.game is None else get_game(self.game).title
        self.say(
            f"{self.account.name} on {self.account.server}. {turns}"
            f"{challenges_words(challenges)}Showing {filtered}."
        )

    def call(self, mine: Tables) -> None:
        """The bell and the title for a table of mine that started or waits for me (a live
        one that started opens at once); the title back to the app's once none waits."""
        app = karavan_app(self)
        call = self.caller.heard(mine)
        if any(isinstance(screen, TableScreen) for screen in self.app.screen_stack):
            return  # at a table: that table says whose turn it is
        if call is not None:
            app.call_player(call.words)
            if call.table is not None:
                self.sit(call.table, watch=False)
        elif not mine.my_turns and self.pull is None:  # (a table the title called me to)
            app.tell_turn(False)

    # -- the rows ------------------------------------------------------------------------------
    def on_resize(self, event: Resize) -> None:
        """Lay the lists out again for the new width (a block a table below 80 columns), and
        the Footer's keys."""
        self.lay_out()
        self.fit_footer()

    def fit_footer(self) -> None:
        """The Footer's keys for the terminal's width."""
        footer = self.query_one(LobbyFooter)
        narrow = self.app.size.width < NARROW
        if footer.narrow != narrow:
            footer.narrow = narrow
            footer.show_command_palette = not narrow
            footer.refresh(recompose=True)

    def lay_out(self) -> None:
        """Put every list in its tab, as the width allows; say so in a tab with none."""
        if not self.is_mounted:
            return
        for name in TABS:
            listing = self.query_one(f"#list-{name}", LobbyList)
            keys, layout, header = self._laid_out(name)
            listing.show(layout, keys, header and bool(keys))  # no bare header row
            empty = self.query_one(f"#empty-{name}", Static)
            empty.update(Content(self._empty_words(name)))
            empty.display = not keys
        self.refresh_bindings()

    def _laid_out(self, name: str) -> tuple[list[str], rows.Layout, bool]:
        """The keys, layout and whether a header is shown, of the list ``name``."""
        glyphs = karavan_app(self).glyphs
        width = self.app.size.width  # the screen is the terminal's width
        room = max(width - 1, 20)  # the scroll bar's column kept free
        if name == "board":
            board = self.board.lines if self.board is not None else []
            cells = [rows.board_cells(rank, line) for rank, line in enumerate(board, 1)]
            room -= 2 * len(rows.BOARD)  # each column's padding
            layout = rows.lay_out(rows.BOARD, cells, room, glyphs.ellipsis)
            return [line.name for line in board], layout, True
        lines = self.lines[name]
        keys = [str(line.id) for line in lines]
        if width < NARROW:
            blocks = {"lobby": rows.lobby_block, "mine": rows.mine_block, "over": rows.over_block}
            width = room - 2
            laid = tuple((blocks[name](line, width, glyphs),) for line in lines)
            return keys, rows.Layout(("",), (width,), laid), False
        columns, cells = self._cells(name, lines)
        room -= 2 * len(columns)
        return keys, rows.lay_out(columns, cells, room, glyphs.ellipsis), True

    def _cells(
        self, name: str, lines: list[TableLine]
    ) -> tuple[tuple[rows.Column, ...], list[tuple[rows.Cell, ...]]]:
        glyphs = karavan_app(self).glyphs
        if name == "lobby":
            return rows.LOBBY, [rows.lobby_cells(line) for line in lines]
        if name == "mine":
            return rows.MINE, [rows.mine_cells(line, glyphs) for line in lines]
        return rows.OVER, [rows.over_cells(line, glyphs) for line in lines]

    def _empty_words(self, name: str) -> str:
        """What a tab with no rows says to do."""
        game = "" if self.game is None else f"{get_game(self.game).title} "
        if name == "lobby":
            other = ", g shows every game" if self.game else ""
            return f"No open {game}tables yet: c creates one{other}."
        if name == "mine":
            return "You sit at no table yet: 1 shows the open ones, c creates one."
        if name == "over":
            return "No finished games yet: yours are kept here, with their results."
        return f"Nobody has a rating in {get_game(self._board_game()).title} yet."

    def _board_game(self) -> str:
        return self.board.game if self.board is not None else self.game or all_games()[0].name

    def shown_tab(self) -> str:
        """The name of the tab shown ("lobby", "mine", "over" or "board")."""
        return self.query_one(TabbedContent).active.removeprefix("tab-")

    def chosen(self) -> TableLine | None:
        """The table under the cursor of the tab shown (``None`` on the leaderboard)."""
        tab = self.shown_tab()
        key = self.query_one(f"#list-{tab}", LobbyList).chosen
        return next((line for line in self.lines.get(tab, []) if str(line.id) == key), None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Opening and watching are greyed out where the row allows neither (never hidden:
        the Footer's keys keep their places)."""
        if action == "open":
            return True if self.is_mounted and self.chosen() is not None else None
        if action == "watch":
            line = self.chosen() if self.is_mounted else None
            watched = line is not None and line.status == "playing" and line.my_seat is None
            return True if watched else None  # (my own table opens at my seat)
        return True

    @on(DataTable.RowHighlighted)
    def _row_moved(self) -> None:
        self.refresh_bindings()

    @on(TabbedContent.TabActivated)
    def _tab_shown(self, event: TabbedContent.TabActivated) -> None:
        """A tab shown (by key or click): its rows have the keys."""
        self.query_one(f"#list-{self.shown_tab()}", LobbyList).focus()
        self.refresh_bindings()

    def action_tab(self, name: str) -> None:
        """Show the tab ``name``."""
        self.query_one(TabbedContent).active = f"tab-{name}"

    def show_my_tables(self) -> None:
        """Show the tab of my tables."""
        self.action_tab("mine")

    # -- doing ---------------------------------------------------------------------------------
    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a tap) on a list's row: the list takes the key, so it acts here."""
        event.stop()
        self.action_open()

    def action_refresh(self) -> None:
        """Ask for the lists again now."""
        self.follow()

    def action_game(self) -> None:
        """Show the next game only (then every game again)."""
        self.game = GAMES[(GAMES.index(self.game) + 1) % len(GAMES)]
        self.follow()

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
        except PROBLEMS as error:
            self.notify(printable(str(error)), title="No table", severity="warning")
            return
        if seated.started:  # no seat was left for anyone else: play at once
            self.sit(seated.table, watch=False)
            return
        if request.challenge:
            self.awaiting = seated.table
            self.notify(challenge_sent(seated.table))
        else:
            self.notify(f"Table {seated.table} is open: it starts once every seat is taken.")
        self.action_tab("mine")

    def action_open(self) -> None:
        """Ask, then take a free seat at the table chosen or watch it being played; open my
        own table, or my finished game (its result, review and replay, as I saw it)."""
        line = self.chosen()
        if line is None:
            return
        if line.my_seat is not None:
            if line.status in ("playing", "over"):  # a finished game opens at its end
                self.sit(line.id, watch=False)
            else:
                self.notify("The game starts once every seat is taken.", title="Waiting")
        elif line.status == "open":
            self.ask(rows.sit_question(line), "Sit", lambda: self.take(line.id))
        elif line.status == "playing":
            self.ask(rows.watch_question(line), "Watch", lambda: self.sit(line.id, watch=True))

    def ask(self, question: str, yes: str, then: Callable[[], object]) -> None:
        """Ask ``question``; ``then`` on yes."""

        def answered(agreed: bool | None) -> None:
            if agreed:
                then()

        self.app.push_screen(ConfirmScreen(question, yes=yes), answered)

    @work(exclusive=True, group="lobby-act", exit_on_error=False)
    async def take(self, table: int) -> None:
        """Take a seat at ``table``; open it if the game starts."""
        try:
            seated = await self.client.take(table)
        except PROBLEMS as error:
            self.notify(printable(str(error)), title="No seat", severity="warning")
            return
        if seated.started:
            self.sit(seated.table, watch=False)
        else:
            self.notify("You have a seat: the game starts once every seat is taken.")

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
        while self.app.screen is not self:  # a dialog over the lobby gives way to the table
            self.app.pop_screen()
        open_served_table(self.app, client)

    def action_decline(self) -> None:
        """Decline the challenge chosen, once confirmed."""
        decline(self, self.client, self.chosen(), self.follow)

    def action_stand_up(self) -> None:
        """Leave my seat at the table chosen, which has not started, once confirmed."""
        stand_up(self, self.client, self.chosen(), self.follow)

    def action_leave(self) -> None:
        """Back to the title (the lobby's connection closes)."""
        self.app.pop_screen()

    async def on_unmount(self) -> None:
        """Log out."""
        await self.client.close()
