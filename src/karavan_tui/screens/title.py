"""The title screen: new game, learn to play, resume, load, join, rules, settings, quit.

Behind a server's ssh door it offers only that server's lobby, the rules and the settings
(:mod:`karavan_tui.door`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from karavan_core.lessons import get_lesson, lesson_names
from karavan_core.registry import all_games, get_game
from karavan_core.saves import SaveSummary, list_saves, resumable
from karavan_core.text import local_time, plural
from karavan_core.version import __version__
from karavan_net.accounts import Account, account_for, accounts_file
from karavan_net.lobby import Lists
from karavan_net.lobby_calls import Caller
from karavan_net.lobby_client import LobbyClient
from karavan_tui.context import karavan_app
from karavan_tui.door import at_door, door_refuses
from karavan_tui.messages import OpenLesson, OpenLobby, OpenSave
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.widgets.chrome import AppHeader

ONLINE_LOOK_SECONDS = 3.0  # how long the title waits for the server to say whose turn it is

_ART = r"""
 _  __
| |/ /__ _ _ __ __ ___   ____ _ _ __
| ' // _` | '__/ _` \ \ / / _` | '_ \
| . \ (_| | | | (_| |\ V / (_| | | | |
|_|\_\__,_|_|  \__,_| \_/ \__,_|_| |_|
"""
# Padded to one width so that centring the block keeps the letters aligned.
_WIDTH = max(len(line) for line in _ART.splitlines())
BANNER = "\n".join(line.ljust(_WIDTH) for line in _ART.strip("\n").splitlines())


class TitleScreen(Screen[None]):
    """The menu the app opens on."""

    CSS_PATH = "title.tcss"
    BINDINGS = [
        Binding("n", "app.new_game", "New game"),
        Binding("t", "learn", "Learn"),
        Binding("c", "resume", "Resume"),
        Binding("l", "app.load", "Load"),
        Binding("o", "app.online", "Online", show=False),
        Binding("f2", "app.my_tables", "My tables", show=False),  # Play online is in the menu
        Binding("j", "app.join", "Join"),
        Binding("f1,question_mark", "app.rules", "Rules", key_display="F1"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.latest: SaveSummary | None = None
        self.looking = False  # the saves are being read
        self.my_turns = 0  # online tables waiting for the player's decision
        self.challenges = 0  # online challenges waiting for the player's answer
        self.follower: tuple[LobbyClient, Account] | None = None  # following the player's tables
        self.caller = Caller()  # what in the player's tables calls them to the table

    def compose(self) -> ComposeResult:
        """Banner, games and menu."""
        yield AppHeader()
        with Vertical(id="title-box"):
            yield Static(BANNER, id="banner")
            names = ", ".join(game.title for game in all_games())
            yield Static(f"Camel-caravan card games: {names}", id="tagline")
            with Center():
                yield OptionList(id="menu")
        yield Static(f"karavan {__version__}", id="version")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the menu."""
        self.fill_menu()
        self.query_one("#menu", OptionList).focus()

    def on_screen_resume(self) -> None:
        """The latest save may have changed while a game was open."""
        self.fill_menu()

    def fill_menu(self) -> None:
        """Build the menu now, and look for the latest game to resume off the UI thread (and
        for online tables waiting for the player)."""
        if at_door(karavan_app(self)):  # no saved games there
            self.show_menu(None)
        else:
            self.show_menu(self.latest, looking=True)
            self.find_latest()
        self.look_online()

    @work(exclusive=True, group="online", exit_on_error=False)
    async def look_online(self) -> None:
        """Follow the player's tables on the server last played on: how many wait for the
        player, and (while the title is shown) any that starts or comes to wait for them."""
        app = karavan_app(self)
        server = app.settings.last_server
        if not server or self.follower is not None:
            return
        account = account_for(accounts_file(app.config.settings_path), server)
        if account is None:
            return
        try:
            client = LobbyClient.for_account(account, app.settings.tls_ca)
        except ValueError:  # a CA file that cannot be read: the dialog says so when asked
            return
        try:
            await asyncio.wait_for(client.connect(), ONLINE_LOOK_SECONDS)
            lists = await client.follow(self)
        except (Exception, TimeoutError):  # no server, or another problem: nothing to mark
            await client.close()
            return
        self.follower = (client, account)
        self.lobby_lists(lists)

    def lobby_lists(self, lists: Lists) -> None:
        """The player's tables, pushed: the counts in the menu, and a call to a table that
        started (a live one opens, in the server's lobby) or waits for the player."""
        self.my_turns, self.challenges = lists.mine.my_turns, lists.mine.challenges
        self.show_menu(self.latest, self.looking)
        call = self.caller.heard(lists.mine)
        if call is None or self.follower is None or self.app.screen is not self:
            return
        karavan_app(self).call_player(call.words)
        if call.table is not None:
            client, account = self.follower
            self.follower = None  # the lobby's now
            self.post_message(OpenLobby(client, account, call.table))

    def lobby_connection(self, connected: bool) -> None:
        """The server went away (or came back): the lists say what changed meanwhile."""

    def lobby_closed(self, reason: str) -> None:
        """The server closed the connection for good: nothing more is followed."""
        self.follower = None

    def on_screen_suspend(self) -> None:
        """Another screen over the title: the player's tables are followed there, if at all."""
        self.stop_following()

    def stop_following(self) -> None:
        """Close the follower's connection (in the background)."""
        follower, self.follower = self.follower, None
        if follower is not None:
            self.run_worker(follower[0].close(), exit_on_error=False)

    @work(thread=True, exclusive=True, group="saves", exit_on_error=False)
    def find_latest(self) -> None:
        """Read (and verify) every save, then offer the latest game in progress."""
        saves, _ = list_saves(karavan_app(self).config.saves_dir)
        latest = resumable(saves)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_menu, latest)

    def show_menu(self, latest: SaveSummary | None, looking: bool = False) -> None:
        """(Re)build the menu around ``latest``, the game to resume."""
        self.latest = latest
        self.looking = looking
        menu = self.query_one("#menu", OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        if at_door(karavan_app(self)):
            menu.add_options(self.door_menu())
            menu.highlighted = highlighted if highlighted is not None else 0
            return
        menu.add_option(Option("New game", id="new"))
        menu.add_option(Option("Learn to play", id="learn"))
        if latest is not None:
            # Names come from saves: Content is never read as markup.
            resume = Content(
                f"Resume {latest.game}: {', '.join(latest.players)}\n  "
                f"{plural(latest.decisions, 'decision')}, last played {local_time(latest.saved_at)}"
            )
            menu.add_option(Option(resume, id="resume"))
        elif looking:
            menu.add_option(Option("Resume (looking for saved games…)", id="resume", disabled=True))
        else:
            menu.add_option(Option("Resume (no game in progress)", id="resume", disabled=True))
        menu.add_option(Option("Load a saved game", id="load"))
        menu.add_option(self.online_option())
        menu.add_option(Option("Join a table", id="join"))
        menu.add_options(self.last_options())
        menu.highlighted = highlighted if highlighted is not None else 0

    def online_option(self) -> Option:
        """Play online, saying how many tables wait for the player's move, and how many
        challenges for their answer."""
        waiting = []
        if self.my_turns:
            waiting.append(f"{plural(self.my_turns, 'table')} waiting for your move")
        if self.challenges:
            waiting.append(f"{plural(self.challenges, 'challenge')} for you")
        online = "Play online" + (f" ({', '.join(waiting)})" if waiting else "")
        return Option(online, id="online")

    @staticmethod
    def last_options() -> list[Option]:
        """The rules, the settings, and the way out."""
        return [
            Option("Rules", id="rules"),
            Option("Settings", id="settings"),
            Option("Quit", id="quit"),
        ]

    def door_menu(self) -> list[Option]:
        """Behind a server's ssh door: its lobby, the rules, the settings, the way out."""
        return [self.online_option(), *self.last_options()]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Behind an ssh door, neither lessons nor saved games."""
        return not door_refuses(karavan_app(self), action, tell=False)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Do what the chosen entry says."""
        app = karavan_app(self)
        actions: dict[str | None, Callable[[], object]] = {
            "new": app.action_new_game,
            "learn": self.action_learn,
            "resume": self.action_resume,
            "load": app.action_load,
            "online": app.action_online,
            "join": app.action_join,
            "rules": app.action_rules,
            "settings": app.action_settings,
            "quit": app.exit,
        }
        action = actions.get(event.option.id)
        if action is not None:
            action()

    def action_learn(self) -> None:
        """Pick a game to learn: its guided first game, at the step it had reached."""
        if door_refuses(karavan_app(self), "learn"):
            return
        names = lesson_names()
        reached = karavan_app(self).settings.lessons
        entries = []
        for name in names:
            steps = len(get_lesson(name).steps)
            step = reached.get(name, 0)
            where = (
                "finished: play it again"
                if step >= steps
                else f"go on at step {step + 1} of {steps}"
                if step
                else f"{steps} steps, about five minutes"
            )
            entries.append(f"{get_game(name).title} ({where})")

        def picked(index: int | None) -> None:
            if index is not None:
                self.post_message(OpenLesson(names[index]))

        self.app.push_screen(ChoiceScreen("Learn to play: which game?", entries), picked)

    def action_resume(self) -> None:
        """Open the latest game in progress."""
        if door_refuses(karavan_app(self), "resume"):
            return
        if self.latest is None and self.looking:
            self.notify("Still looking for saved games: try again in a moment.")
            return
        if self.latest is None:
            self.notify("There is no game in progress to resume.", severity="warning")
            return
        self.post_message(OpenSave(self.latest.path))
