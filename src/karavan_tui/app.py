"""Karavan's Textual app: the screens, the settings and the commands that tie them together.

Build it with :func:`create_app` so that the command line and the tests make
it the same way, from an :class:`~karavan_tui.config.AppConfig`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.events import Resize
from textual.screen import Screen

from karavan_core.analysis import GameReview
from karavan_core.lessons import OPPONENT_NAME, get_lesson
from karavan_core.match import Match
from karavan_core.registry import all_games, get_game
from karavan_core.text import printable
from karavan_net.accounts import Account, account_for, accounts_file, pin
from karavan_net.client import HostUnreachable, TableClient
from karavan_net.hosting import HostControl
from karavan_net.lobby_client import LobbyClient, LobbyRefusedError
from karavan_tui.config import AppConfig, Settings
from karavan_tui.crash import write_crash_report
from karavan_tui.door import DoorMode, at_door, door_refuses
from karavan_tui.looks import KaravanLooks
from karavan_tui.messages import (
    BackToTitle,
    GameOver,
    OpenLesson,
    OpenMatch,
    OpenReplay,
    OpenReview,
    SaveOpenGame,
    ShowRules,
)
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.curtain import CurtainScreen
from karavan_tui.modals.new_game import NewGameRequest, NewGameScreen
from karavan_tui.modals.saves import SavesScreen
from karavan_tui.modals.settings import SettingsScreen
from karavan_tui.net.host_desk import HOSTING
from karavan_tui.net.join_screen import JoinScreen
from karavan_tui.net.lobby_screen import LobbyScreen
from karavan_tui.net.my_tables import MyTables
from karavan_tui.net.online import OnlineScreen, log_in
from karavan_tui.net.remote import open_table
from karavan_tui.net.web_hook import web_hook_commands
from karavan_tui.opening import Opening
from karavan_tui.screens.game_over import GameOverScreen
from karavan_tui.screens.lesson import DEFAULT_NAME, LessonPlay
from karavan_tui.screens.play import LocalPlay
from karavan_tui.screens.replay import Replay
from karavan_tui.screens.review import ReviewScreen
from karavan_tui.screens.rules import RulesScreen
from karavan_tui.screens.table import Driver, TableScreen
from karavan_tui.screens.title import TitleScreen
from karavan_tui.screens.too_small import TooSmallScreen, too_small
from karavan_tui.textual_fixes import tooltips_off
from karavan_tui.widgets.chrome import use_ascii_scrollbars


class KaravanApp(KaravanLooks, MyTables, Opening, DoorMode):
    """Karavan's terminal app (its looks and settings, and what it refuses behind an ssh
    door, in the classes it comes from)."""

    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live elsewhere
    TITLE = "Karavan"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]
    # Every screen below 80 columns (a phone held upright) takes -slim: its dialogs fit the
    # width (app.tcss). The table screen has breakpoints of its own.
    HORIZONTAL_BREAKPOINTS = [(0, "-slim"), (80, "-fits")]
    # A mode rather than the default screen, so that the title screen's CSS_PATH is loaded.
    MODES = {"play": TitleScreen}
    DEFAULT_MODE = "play"

    def __init__(
        self,
        config: AppConfig,
        start: tuple[Match, Path] | None = None,
        lesson: str | None = None,
        online: str | None = None,
    ) -> None:
        super().__init__()
        self.config = config
        self.online = online  # the server whose lobby opens first (karavan online SERVER)
        self.settings = Settings.load(config.settings_path)
        self.start = start
        self.lesson = lesson  # the game whose lesson opens first (karavan learn GAME)
        self.ascii_mode = config.ascii or self.settings.ascii
        self._settings_applied = False  # until then, theme changes are not the player's
        self.crash_report: Path | None = None  # written if an unexpected error stops the app
        self.turn_told = False  # whether the title says it is the player's turn
        # Reviews made this session, by the match they judge (a review takes a while).
        self.reviews: dict[tuple[object, ...], GameReview] = {}
        if not config.animations:
            self.animation_level = "none"

    # -- crashes --------------------------------------------------------------------
    def crashed(self, error: Exception) -> None:
        """An unexpected error: save the open game, write a crash report (the app exits with
        status 1, and the command line prints one line)."""
        if self.crash_report is not None:
            return  # one report for the first error is enough
        context = [("saves folder", str(self.config.saves_dir))]
        driver = self.open_game()
        if driver is not None:
            driver.flush()
            context += [("game", driver.game.title), ("save", str(driver.save_path or "-"))]
        self.crash_report = write_crash_report(self.config.saves_dir, error, context)

    # -- start ------------------------------------------------------------------------
    def on_load(self) -> None:
        """On a touch screen, no tooltips: a tap would open them over what it tapped."""
        if self.config.touch:
            tooltips_off(self)

    def on_mount(self) -> None:
        """Apply the settings and open the game asked for on the command line."""
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self._settings_applied = True
        self.set_class(self.ascii_mode, "-ascii")
        use_ascii_scrollbars(self.ascii_mode)
        if self.start is not None:
            match, path = self.start
            self.open_match(match, path)
        elif self.lesson is not None:
            self.open_lesson(self.lesson)
        elif self.online is not None:
            self.action_online(self.online, direct=True)
        self.check_size(self.size.width, self.size.height)

    def on_resize(self, event: Resize) -> None:
        """Cover the screen with a notice while the terminal is too small."""
        self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int, height: int) -> None:
        """Show or hide the too-small notice."""
        small = too_small(width, height)
        top = self.screen
        if small and not isinstance(top, TooSmallScreen):
            self.push_screen(TooSmallScreen())
        elif small and isinstance(top, TooSmallScreen) and top.is_mounted:
            top.show_size(width, height)
        elif not small and isinstance(top, TooSmallScreen):
            self.pop_screen()

    # -- moving between screens (the screens post messages; the app opens what they ask) ----
    def show_title(self, then_new: bool = False) -> None:
        """Close everything above the title screen, or above a server's lobby where one is
        open (a table left there goes back to it)."""
        homes = [i for i, screen in enumerate(self.screen_stack) if getattr(screen, "is_home", 0)]
        self.close_tables(self.screen_stack[max(homes, default=0) + 1 :])
        while len(self.screen_stack) > 1 and not getattr(self.screen, "is_home", False):
            self.pop_screen()
        if then_new:
            self.call_next(self.action_new_game)

    def on_back_to_title(self, message: BackToTitle) -> None:
        """A screen asks for the title."""
        self.show_title(message.then_new)

    def open_lesson(self, game_name: str) -> None:
        """Open ``game_name``'s lesson at the step it had reached (from the start once done).

        The lesson's game is kept in its own file beside the settings, not among the saves.
        """
        lesson = get_lesson(game_name)
        name = self.settings.player_name or DEFAULT_NAME
        if name.casefold() == OPPONENT_NAME.casefold():
            name = DEFAULT_NAME  # two players of one name could not be told apart
        step = self.settings.lessons.get(lesson.game_name, 0)
        path = self.config.settings_path.parent / "lessons" / f"{lesson.game_name}.json"

        def make() -> LessonPlay:
            path.parent.mkdir(parents=True, exist_ok=True)
            return LessonPlay(lesson, name, path, step)

        self.open_table(make, path.parent, "keep the lesson")

    def on_open_lesson(self, message: OpenLesson) -> None:
        """A screen asks for a lesson."""
        self.open_lesson(message.game_name)

    def on_open_match(self, message: OpenMatch) -> None:
        """A screen asks for a new game at the table (the game a finished lesson offers)."""
        self.open_match(message.match)

    def on_game_over(self, message: GameOver) -> None:
        """The results of a game that ended at the local table."""
        match = message.match

        def chosen(where: str | None) -> None:
            if where == "rematch":
                seed = self.config.seed_factory()
                self.open_match(Match(match.game, match.seats, seed, match.options))
            elif where == "new":
                self.show_title(then_new=True)
            else:
                self.show_title()

        self.push_screen(GameOverScreen(match), chosen)

    def show_rules(self, game_name: str | None = None) -> None:
        """Open the rules, on ``game_name``'s tab if given."""
        self.push_screen(RulesScreen(game_name))

    def on_show_rules(self, message: ShowRules) -> None:
        """A screen asks for the rules."""
        self.show_rules(message.game_name)

    def on_open_review(self, message: OpenReview) -> None:
        """A screen asks for a game's review."""
        self.show_review(message.match)

    def on_open_replay(self, message: OpenReplay) -> None:
        """A screen asks for a game's replay."""
        self.show_replay(message.match, message.position)

    def on_save_open_game(self, message: SaveOpenGame) -> None:
        """A screen (the curtain) asks to save the game at the table under a name."""
        self.save_open_game()

    # -- actions (keys, menu and command palette) -----------------------------------
    def action_new_game(self) -> None:
        """Open the new game dialog (from the title screen)."""
        if door_refuses(self, "new_game"):
            return
        if len(self.screen_stack) > 1 and not getattr(self.screen, "is_home", False):
            # Back to the title or a lobby first; the dialog opens over either (a lobby is
            # never closed, so asking again from it would only ask again, forever).
            self.show_title(then_new=True)
            return

        def chosen(request: NewGameRequest | None) -> None:
            if request is None:
                return
            game = get_game(request.game)
            options = {} if request.first is None else {"first_player": request.first}
            try:
                match = Match(game, request.seats, request.seed, options)
            except ValueError as error:
                self.notify(str(error), severity="error")
                return
            # The dialog offers the same game and seats next time, in this run or the next.
            self.settings.last_game = request.game
            self.settings.last_seats = request.seats
            human = next((seat.name for seat in request.seats if not seat.is_bot), None)
            if human is not None:
                self.settings.player_name = human
            self.save_settings()
            self.open_match(match)

        settings = self.settings
        dialog = NewGameScreen(
            all_games(),
            self.config.seed_factory(),
            settings.last_game,
            settings.player_name,
            settings.last_seats,
        )
        self.push_screen(dialog, chosen)

    def action_join(self) -> None:
        """Join a hosted table (from the title screen)."""
        if door_refuses(self, "join"):
            return

        def joined(client: Any) -> None:
            if client is not None:
                open_table(self, client)

        settings = self.settings
        self.push_screen(JoinScreen(settings.last_join, settings.player_name), joined)

    def action_online(self, server: str | None = None, direct: bool = False) -> None:
        """Play online: log in to a server (``server``, else the one last played on) and
        open its lobby; ``direct``: straight in where this Karavan has an account there."""
        settings = self.settings
        accounts = accounts_file(self.config.settings_path)
        door = self.config.door
        if door is not None and server not in (None, door) and door_refuses(self, "other_server"):
            return
        server = door or server or settings.last_server
        account = account_for(accounts, server) if direct and server else None
        if account is not None:
            self.run_worker(self._log_in(account), exclusive=True, group="online")
            return
        self.push_screen(OnlineScreen(server, settings.player_name, accounts), self._online)

    def _online(self, done: tuple[LobbyClient, Account] | None) -> None:
        if done is not None:
            challenge, self.config.challenge = self.config.challenge, None  # asked once
            self.push_screen(LobbyScreen(*done, challenge=challenge))

    async def _log_in(self, account: Account) -> None:
        """Into the lobby as ``account``; the dialog, saying why, if that fails."""
        try:
            client = await log_in(account, False, self.settings.tls_ca)
        except (LobbyRefusedError, HostUnreachable, ValueError) as error:
            self.notify(printable(str(error)), title="Play online", severity="warning")
            accounts = accounts_file(self.config.settings_path)
            screen = OnlineScreen(account.server, account.name, accounts)
            self.push_screen(screen, self._online)
            return
        with contextlib.suppress(OSError):  # a pin not kept now is kept at the next login
            account = pin(accounts_file(self.config.settings_path), account, client.identity)
        self._online((client, account))

    def action_load(self, selected: Path | None = None) -> None:
        """Show the saved games (``selected`` highlighted, if it is among them).

        A review or a replay opened from here comes back here when it is closed.
        """
        if door_refuses(self, "load"):
            return

        def chosen(picked: tuple[str, Path] | None) -> None:
            if picked is None:
                return
            how, path = picked
            if how == "open":
                self.open_file(path)
                return
            back = partial(self.action_load, path)
            if how == "review":
                self.load_save(path, partial(self.show_review, back=back), "Cannot open")
            else:
                self.load_save(path, partial(self.show_replay, back=back), "Cannot open")

        saves = SavesScreen(self.config.saves_dir, selected, self.config.saves_words)
        self.push_screen(saves, chosen)

    def show_review(self, match: Match, back: Callable[[], None] | None = None) -> None:
        """Open the review of ``match``'s human players; ``back`` is called once it closes.

        A game in progress with several humans is reviewed one player at a time,
        behind the curtain: each decision is told in its player's own words.
        """
        if door_refuses(self, "review"):
            return
        closed = _then(back)
        humans = list(match.humans)
        if not humans:
            self.notify("Only bots played this game: there is nobody to review.")
            return
        if match.is_over() or len(humans) == 1:
            self.push_screen(ReviewScreen(match, humans), closed)
            return

        def picked(index: int | None) -> None:
            if index is None:
                closed(None)
                return
            seat = humans[index]

            def lifted(result: bool | None) -> None:
                if result is None:  # backed out before the review showed
                    closed(None)
                    return
                self.push_screen(ReviewScreen(match, [seat]), closed)

            self.push_screen(CurtainScreen(match.seats[seat].name, at_table=False), lifted)

        names = [match.seats[seat].name for seat in humans]
        self.push_screen(ChoiceScreen("The game is in progress: whose review?", names), picked)

    def show_replay(
        self, match: Match, position: int = 0, back: Callable[[], None] | None = None
    ) -> None:
        """Step through ``match`` from ``position`` (as its only human saw it, if it has one);
        ``back`` is called once it closes."""
        humans = list(match.humans)
        viewer = humans[0] if len(humans) == 1 else None
        self.push_screen(TableScreen(Replay(match, position, viewer)), _then(back))

    def action_rules(self) -> None:
        """Show the rules (of the open game, if any)."""
        driver = self.open_game()
        self.show_rules(driver.game.name if driver else None)

    def save_open_game(self) -> None:
        """Ask for a name for the game at the table and save it there (if a game is open)."""
        driver = self.open_game()
        if isinstance(driver, LocalPlay) and not door_refuses(self, "save"):
            driver.do_save_as()

    def action_settings(self) -> None:
        """Open the settings."""
        self.push_screen(SettingsScreen())

    def action_toggle_ascii(self) -> None:
        """Switch ASCII mode."""
        self.set_ascii(not self.ascii_mode)
        self.notify(f"ASCII mode {'on' if self.ascii_mode else 'off'}.")

    def open_game(self) -> Driver | None:
        """The driver of the game open at a table (played or joined, not replayed), if any."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen) and screen.driver.KIND != "replay":
                return screen.driver
        return None

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The app's own commands in the command palette, then Textual's (Theme, Quit, ...);
        behind an ssh door, none that door mode refuses."""
        if not at_door(self):
            yield SystemCommand("New game", "Set up a new game", self.action_new_game)
            yield SystemCommand("Load", "Open a saved game", self.action_load)
        if isinstance(screen, TableScreen):
            yield from screen.driver.commands()  # a hosted table's: the host saves
        yield from web_hook_commands(screen)
        yield SystemCommand("Rules", "How to play", self.action_rules)
        yield SystemCommand("Settings", "Theme, ASCII mode, bot pause", self.action_settings)
        yield SystemCommand(
            "ASCII mode",
            f"Turn plain ASCII symbols {'off' if self.ascii_mode else 'on'}",
            self.action_toggle_ascii,
        )
        yield from super().get_system_commands(screen)


class TableApp(KaravanApp):
    """Karavan's app that opens ``client``'s table (already joined) when it starts:
    ``karavan join``, and the host's own terminal (with its ``control`` of the table)."""

    def __init__(
        self,
        config: AppConfig,
        client: TableClient,
        *,
        control: HostControl | None = None,
        save_path: Path | None = None,
    ) -> None:
        super().__init__(config)
        self.client = client
        self.control = control
        self.save_path = save_path

    def on_mount(self) -> None:
        """The table (then Textual runs the app's own ``on_mount``: settings and size)."""
        open_table(self, self.client, control=self.control, save_path=self.save_path)
        if self.control is not None and self.control.invitation:
            self.notify("\n".join(self.control.invitation), title=HOSTING, timeout=30)


def create_app(
    config: AppConfig,
    start: tuple[Match, Path] | None = None,
    lesson: str | None = None,
    online: str | None = None,
) -> KaravanApp:
    """Build the app from ``config``, optionally opening ``start`` (a match and its save
    file), the lesson of the game called ``lesson``, or Play online at the server ``online``."""
    return KaravanApp(config, start, lesson, online)


def _then(back: Callable[[], None] | None) -> Callable[[object], None]:
    """A screen's result callback that calls ``back`` (if any), whatever the result."""

    def closed(_: object) -> None:
        if back is not None:
            back()

    return closed
