"""A new table on a server: game, seats (open, kept for a player, or a bot), clock, rules.

The first seat is the player's own.  What the dialog offers is what the server
accepts; anything it still refuses comes back in the server's own words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from karavan_core.bots import BOT_LEVELS
from karavan_core.registry import all_games, get_game
from karavan_core.text import MAX_NAME_LENGTH, check_name, printable
from karavan_net.clocks import PRESETS, Clock
from karavan_net.lobby import CreateTable, SeatAsk
from karavan_tui.widgets.chrome import TickBox

OPEN, PLAYER = "open", "player"
T = TypeVar("T")


def seat_options() -> list[tuple[str, str]]:
    """What a seat other than mine may be: open to anyone, kept for a player, or a bot."""
    bots = [(f"Bot: {level}", f"bot:{level}") for level in BOT_LEVELS]
    return [("Open to anyone", OPEN), ("Kept for a player", PLAYER), *bots]


def clock_words(preset: str) -> str:
    """A clock preset in words, for the list."""
    kind, move, bank = PRESETS[preset]
    return Clock(kind=kind, move_seconds=move, bank_seconds=bank).describe()


def rated_words(rated: bool) -> str:
    """What the Rated box means for the table, in words."""
    if rated:
        return "Rated: the result changes the players' ratings."
    return "Not rated: the result changes nobody's rating."


def select_field(label: str, options: Sequence[tuple[str, T]], value: T, id: str) -> ComposeResult:
    """A row of the form: ``label``, then a compact choice among ``options``, ``value`` first."""
    with Horizontal(classes="field"):
        yield Label(label)
        yield Select(options, value=value, allow_blank=False, compact=True, id=id)


class CreateTableScreen(ModalScreen[CreateTable | None]):
    """Set up a table; dismisses with the request to send, or ``None`` on Escape."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "create", "Create", priority=True),
    ]
    DEFAULT_CSS = """
    CreateTableScreen { align: center middle; }
    CreateTableScreen > Vertical {
        width: 72; height: auto; max-height: 100%; border: thick $accent;
        background: $surface; padding: 0 1;
    }
    CreateTableScreen VerticalScroll { height: auto; max-height: 20; }
    CreateTableScreen .field { height: auto; }
    CreateTableScreen .field > Label { width: 12; padding-top: 0; }
    CreateTableScreen .field > Select { width: 1fr; }
    CreateTableScreen .field > Input { width: 1fr; }
    CreateTableScreen #rated-words { color: $text-muted; padding-left: 4; }
    CreateTableScreen #create-problem { color: $error; height: auto; }
    CreateTableScreen #create-buttons { height: auto; align-horizontal: right; }
    CreateTableScreen Button { margin-left: 2; }
    """

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.first_game = game if game in {g.name for g in all_games()} else all_games()[0].name

    def compose(self) -> ComposeResult:
        """The form: game, players, each other seat, clock, take-backs, rated, stand-in, whether
        watchers write in the chat."""
        game = get_game(self.first_game)
        with Vertical():
            yield Label("New table (the first seat is yours)")
            with VerticalScroll(can_focus=False):
                games = [(g.title, g.name) for g in all_games()]
                yield from select_field("Game", games, game.name, "game")
                yield from select_field(
                    "Players", self._counts(game.name), game.min_players, "players"
                )
                yield from self.seat_rows()
                clocks = [(clock_words(p), p) for p in PRESETS]
                yield from select_field("Clock", clocks, "untimed", "clock")
                takebacks = [("By consent", "consent"), ("None", "none")]
                yield from select_field("Take-backs", takebacks, "consent", "takebacks")
                stand_ins = [(f"a {level} bot decides", level) for level in BOT_LEVELS]
                stand_in = "hard" if "hard" in BOT_LEVELS else next(iter(BOT_LEVELS))
                yield from select_field("Out of time", stand_ins, stand_in, "stand-in")
                # Ticked and not differ by their symbol (Textual's only by colour), and the
                # line under the box says which the table is.
                yield TickBox("Rated (people only)", id="rated", compact=True)
                yield Static(rated_words(False), id="rated-words")
                yield TickBox("Watchers write in the chat", id="watchers-chat", compact=True)
            yield Static("", id="create-problem")
            with Horizontal(id="create-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Create (ctrl+s)", id="create", variant="primary", compact=True)
        yield Footer()

    @staticmethod
    def seat_rows() -> ComposeResult:
        """A row for each seat after the creator's: who may take it, and their name."""
        for index in range(1, 4):
            with Horizontal(classes="field seat", id=f"seat-{index}"):
                yield Label(f"Seat {index + 1}")
                yield Select(
                    seat_options(), value=OPEN, allow_blank=False, compact=True, id=f"kind-{index}"
                )
                yield Input(
                    "",
                    placeholder="their name",
                    compact=True,
                    max_length=MAX_NAME_LENGTH + 2,
                    id=f"name-{index}",
                )

    def on_mount(self) -> None:
        """Show as many seats as the game has players."""
        self.fit_seats()

    @staticmethod
    def _counts(game: str) -> list[tuple[str, int]]:
        g = get_game(game)
        return [(str(n), n) for n in range(g.min_players, g.max_players + 1)]

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        """Another game: its player counts."""
        players = self.query_one("#players", Select)
        players.set_options(self._counts(str(event.value)))
        players.value = get_game(str(event.value)).min_players
        self.fit_seats()

    @on(Select.Changed)
    def fit_on_change(self, event: Select.Changed) -> None:
        """The seats shown follow the player count, and names the seats kept for a player."""
        if event.select.id != "game":
            self.fit_seats()

    @on(Checkbox.Changed, "#rated")
    def rated_changed(self, event: Checkbox.Changed) -> None:
        """Say what the table now is."""
        self.query_one("#rated-words", Static).update(rated_words(event.value))

    def fit_seats(self) -> None:
        """Show the seats the player count asks for; a name field where one is kept."""
        count = self.query_one("#players", Select).value
        shown = count if isinstance(count, int) else 2
        for index in range(1, 4):
            self.query_one(f"#seat-{index}").display = index < shown
            kind = self.query_one(f"#kind-{index}", Select).value
            self.query_one(f"#name-{index}", Input).display = kind == PLAYER

    def request(self) -> CreateTable:
        """The table asked for (``ValueError`` with a sentence if a field does not fit)."""
        game = str(self.query_one("#game", Select).value)
        count = self.query_one("#players", Select).value
        seats = [SeatAsk(OPEN)]
        for index in range(1, count if isinstance(count, int) else 2):
            kind = str(self.query_one(f"#kind-{index}", Select).value)
            if kind == PLAYER:
                name = check_name(self.query_one(f"#name-{index}", Input).value)
                seats.append(SeatAsk(PLAYER, name=name))
            elif kind.startswith("bot:"):
                seats.append(SeatAsk("bot", level=kind.split(":", 1)[1]))
            else:
                seats.append(SeatAsk(OPEN))
        clock_kind, move, bank = PRESETS[str(self.query_one("#clock", Select).value)]
        return CreateTable(
            game,
            seats,
            clock=clock_kind.value,
            move_seconds=move,
            bank_seconds=bank,
            takebacks=str(self.query_one("#takebacks", Select).value),
            rated=self.query_one("#rated", Checkbox).value,
            stand_in=str(self.query_one("#stand-in", Select).value),
            watchers_chat=self.query_one("#watchers-chat", Checkbox).value,
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Create or cancel."""
        if event.button.id == "create":
            self.action_create()
        else:
            self.action_cancel()

    def action_create(self) -> None:
        """Send the table asked for, or say what does not fit."""
        try:
            asked = self.request()
        except ValueError as error:
            self.query_one("#create-problem", Static).update(Content(printable(str(error))))
            return
        self.dismiss(asked)

    def action_cancel(self) -> None:
        """Close without creating."""
        self.dismiss(None)
