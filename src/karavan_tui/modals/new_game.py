"""The new game dialog: game, players, seats, seed and first player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Select

from karavan_core.bots import BOT_LEVELS
from karavan_core.engine import Game
from karavan_core.match import BOT, HUMAN, MAX_SEED, Seat, bot_name, bot_names, names_differ
from karavan_core.text import MAX_NAME_LENGTH, check_name
from karavan_tui.config import MAX_SEATS
from karavan_tui.messages import ShowRules
from karavan_tui.widgets.chrome import DropDown


@frozen
class NewGameRequest:
    """The dialog's answer: game, seats in order, seed, and the first seat or ``None``."""

    game: str
    seats: tuple[Seat, ...]
    seed: int
    first: int | None


def kind_options() -> list[tuple[str, str]]:
    """Human, then one entry per bot level the program has."""
    return [("Human", HUMAN)] + [(f"Bot: {level}", f"{BOT}:{level}") for level in BOT_LEVELS]


def default_bot() -> str:
    """The bot kind a new seat starts with: Hard, the level made to feel like a real
    opponent while answering within a second (else the first level there is)."""
    level = "hard" if "hard" in BOT_LEVELS else next(iter(BOT_LEVELS))
    return f"{BOT}:{level}"


def bot_level(kind: str) -> str:
    """The level of a bot kind such as ``bot:hard``."""
    return kind.split(":", 1)[1]


def kind_tooltip(kind: str) -> str:
    """What a seat of ``kind`` is: a person at this terminal, or how the bot plays."""
    if kind == HUMAN:
        return "a person at this terminal (with two or more, a curtain hides each hand)"
    level = bot_level(kind)
    return f"{level.capitalize()} bot: {BOT_LEVELS[level].description}"


def seat_kind(seat: Seat) -> str:
    """The kind of ``seat`` as the dialog's seat list names it: ``human`` or ``bot:LEVEL``."""
    return HUMAN if seat.level is None else f"{BOT}:{seat.level}"


def default_names(kinds: Sequence[str]) -> list[str]:
    """The names the seats of ``kinds`` start with: "Player 2" for a human in seat 2, the bots'
    as :func:`~karavan_core.match.bot_names` makes them ("Hard bot", or numbered where several
    of a level sit)."""
    bots = bot_names([None if kind == HUMAN else bot_level(kind) for kind in kinds])
    return [f"Player {index + 1}" if name is None else name for index, name in enumerate(bots)]


# Every name the dialog makes up: a seat that still has one is renamed as the table changes.
MADE_UP = frozenset(
    [f"Player {n}" for n in range(1, MAX_SEATS + 1)]
    + [bot_name(level, n) for level in BOT_LEVELS for n in (None, *range(1, MAX_SEATS + 1))]
)


class NewGameScreen(ModalScreen[NewGameRequest | None]):
    """Set up a game; dismisses with a :class:`NewGameRequest`, or ``None`` on Escape."""

    CSS_PATH = "new_game.tcss"

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "start", "Start", priority=True),
        # F1 only: "?" is a character a name may hold.
        Binding("f1", "rules", "Rules", tooltip="The rules of the game chosen"),
    ]

    def __init__(
        self,
        games: Sequence[Game[Any, Any, Any]],
        seed: int,
        last_game: str | None = None,
        player_name: str | None = None,
        last_seats: Sequence[Seat] = (),
    ) -> None:
        """``last_game``, ``player_name`` and ``last_seats`` (remembered from the last game)
        prefill the form: that game, as many players, each seat as it was."""
        super().__init__()
        self.games = {game.name: game for game in games}
        self.seed = seed
        self.last_game = last_game if last_game in self.games else None
        self.player_name = player_name
        self.last_seats = tuple(last_seats)

    def compose(self) -> ComposeResult:
        """The form."""
        first_game = self.games[self.last_game or next(iter(self.games))]
        count = self._fitted_count(first_game, len(self.last_seats))
        with Vertical(id="dialog"):
            yield Label("New game", id="dialog-title")
            with VerticalScroll(id="form", can_focus=False):
                with Horizontal(classes="field"):
                    yield Label("Game", classes="label")
                    yield DropDown(
                        [(game.title, game.name) for game in self.games.values()],
                        value=first_game.name,
                        allow_blank=False,
                        compact=True,
                        id="game",
                    )
                with Horizontal(classes="field"):
                    yield Label("Players", classes="label")
                    yield DropDown(
                        self._count_options(first_game),
                        value=count,
                        allow_blank=False,
                        compact=True,
                        id="count",
                    )
                yield from self.seat_rows()
                with Horizontal(classes="field"):
                    yield Label("First", classes="label")
                    yield DropDown(
                        self._first_options(count),
                        value="random",
                        allow_blank=False,
                        compact=True,
                        id="first",
                    )
                with Horizontal(classes="field"):
                    yield Label("Seed", classes="label")
                    yield Input(str(self.seed), compact=True, id="seed", type="integer")
                    yield Label(" the same seed deals the same game", classes="hint")
            with Horizontal(id="buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Start (ctrl+s)", id="start", variant="primary", compact=True)
        yield Footer()

    def seat_rows(self) -> ComposeResult:
        """A row for each seat the form may show: its kind (a person or a bot) and name."""
        for index in range(MAX_SEATS):
            kind, name = self._seat_prefill(index)
            with Horizontal(classes="field seat", id=f"seat-{index}"):
                yield Label(f"Seat {index + 1}", classes="label")
                yield DropDown(
                    kind_options(),
                    value=kind,
                    allow_blank=False,
                    compact=True,
                    id=f"kind-{index}",
                    classes="kind",
                    tooltip=kind_tooltip(kind),
                )
                yield Input(
                    name,
                    compact=True,
                    max_length=MAX_NAME_LENGTH,
                    id=f"name-{index}",
                    classes="name",
                )

    def _seat_prefill(self, index: int) -> tuple[str, str]:
        """Seat ``index``'s kind and name as the form opens: as last time, else the defaults."""
        if index < len(self.last_seats):
            seat = self.last_seats[index]
            return seat_kind(seat), seat.name
        kind = HUMAN if index == 0 else default_bot()
        if index == 0 and self.player_name:
            return kind, self.player_name
        return kind, default_names([HUMAN] * index + [kind])[index]

    @staticmethod
    def _fitted_count(game: Game[Any, Any, Any], count: int) -> int:
        """``count`` players, or the nearest number ``game`` seats."""
        return min(max(count, game.min_players), game.max_players)

    @staticmethod
    def _count_options(game: Game[Any, Any, Any]) -> list[tuple[str, int]]:
        return [(str(n), n) for n in range(game.min_players, game.max_players + 1)]

    @staticmethod
    def _first_options(count: int) -> list[tuple[str, str]]:
        return [("Random", "random")] + [(f"Seat {i + 1}", str(i)) for i in range(count)]

    def on_mount(self) -> None:
        """Show as many seats as players."""
        self._show_seats()
        self._name_seats()

    @property
    def game(self) -> Game[Any, Any, Any]:
        """The chosen game."""
        return self.games[str(self.query_one("#game", Select).value)]

    @property
    def count(self) -> int:
        """The chosen number of players."""
        count = self.query_one("#count", Select).value
        assert isinstance(count, int)  # never blank: allow_blank is off
        return count

    def _show_seats(self) -> None:
        for index in range(MAX_SEATS):
            self.query_one(f"#seat-{index}").display = index < self.count
        first = self.query_one("#first", Select)
        keep = first.value if first.value != Select.BLANK else "random"
        first.set_options(self._first_options(self.count))
        first.value = keep if keep == "random" or int(str(keep)) < self.count else "random"

    def on_select_changed(self, event: Select.Changed) -> None:
        """Keep the form consistent as choices change."""
        select = event.select
        if select.id == "game":
            game = self.game
            count = self.query_one("#count", Select)
            keep = self._fitted_count(game, self.count)
            count.set_options(self._count_options(game))
            count.value = keep
            self._show_seats()
        elif select.id == "count":
            self._show_seats()
        elif select.id and select.id.startswith("kind-"):
            select.tooltip = kind_tooltip(str(event.value))
        self._name_seats()

    def _name_seats(self) -> None:
        """Rename the seats that still have a name the dialog made up, as the table is now
        (a second Hard bot makes the first "Hard bot 1")."""
        kinds = [str(self.query_one(f"#kind-{index}", Select).value) for index in range(self.count)]
        for index, default in enumerate(default_names(kinds)):
            name = self.query_one(f"#name-{index}", Input)
            if name.value in MADE_UP and name.value != default:
                name.value = default

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or cancel."""
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_cancel()

    def on_input_submitted(self) -> None:
        """Enter in any field starts the game."""
        self.action_start()

    def action_start(self) -> None:
        """Check the form and answer with the request."""
        seats = []
        for index in range(self.count):
            kind = str(self.query_one(f"#kind-{index}", Select).value)
            name = self.query_one(f"#name-{index}", Input).value.strip()
            if not name:
                self.notify(f"Seat {index + 1} needs a name.", severity="warning")
                return
            try:
                check_name(name)
            except ValueError as error:
                self.notify(f"Seat {index + 1}: {error}", severity="warning")
                return
            if kind == HUMAN:
                seats.append(Seat(name))
            else:
                seats.append(Seat(name, BOT, bot_level(kind)))
        if not names_differ(seats):
            self.notify("Every player needs a different name.", severity="warning")
            return
        try:
            seed = int(self.query_one("#seed", Input).value)
        except ValueError:
            self.notify("The seed must be a whole number.", severity="warning")
            return
        if not -MAX_SEED < seed < MAX_SEED:
            self.notify("The seed must have at most 18 digits.", severity="warning")
            return
        first = str(self.query_one("#first", Select).value)
        self.dismiss(
            NewGameRequest(
                self.game.name, tuple(seats), seed, None if first == "random" else int(first)
            )
        )

    def action_rules(self) -> None:
        """Open the rules on the tab of the game chosen."""
        self.post_message(ShowRules(self.game.name))

    def action_cancel(self) -> None:
        """Close without starting."""
        self.dismiss(None)
