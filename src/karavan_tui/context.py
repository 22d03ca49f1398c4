"""What the screens, modals and widgets may ask of the running app.

The app module imports the screens, so the screens may not import it back:
they reach the app through :class:`Karavan`, the part of it they use (its
config, settings and symbols), which :class:`~karavan_tui.app.KaravanApp`
fills in.  To move from one screen to another they post a message
(:mod:`karavan_tui.messages`) that the app handles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from karavan_core.analysis import GameReview
from karavan_core.match import Match
from karavan_tui.config import AppConfig, Settings
from karavan_tui.glyphs import Glyphs
from karavan_tui.textual_fixes import FixedApp

if TYPE_CHECKING:
    from textual.dom import DOMNode


class Karavan(FixedApp):
    """The app as its parts see it; every method here is the app's to fill in."""

    config: AppConfig
    settings: Settings
    ascii_mode: bool
    reviews: dict[tuple[object, ...], GameReview]  # made this session, by the match judged

    @property
    def glyphs(self) -> Glyphs:
        """The symbols for the current mode."""
        raise NotImplementedError

    @property
    def bot_delay(self) -> float:
        """How long a bot pauses before its decision, in seconds."""
        raise NotImplementedError

    def save_settings(self) -> None:
        """Keep the settings on disk."""
        raise NotImplementedError

    def withdraw_notes(self, title: str) -> None:
        """Take down the toasts titled ``title``."""
        raise NotImplementedError

    def set_ascii(self, on: bool) -> None:
        """Switch ASCII mode on or off (and remember it)."""
        raise NotImplementedError

    def set_bot_delay(self, delay: float) -> None:
        """Set the bots' pause (and remember it)."""
        raise NotImplementedError

    def tell_turn(self, mine: bool) -> None:
        """Say (``mine``) that the player must decide, or that they have decided."""
        raise NotImplementedError

    def tell_desktop(self, words: str) -> None:
        """A desktop notification saying ``words``, where the settings have them."""
        raise NotImplementedError

    def show_title(self, then_new: bool = False) -> None:
        """Close everything above the title screen (or above a server's lobby)."""
        raise NotImplementedError

    def first_lobby_tab(self) -> str:
        """The tab a lobby opening now shows first: ``mine`` once when the player asked for
        their tables, else ``lobby``."""
        raise NotImplementedError

    def show_replay(
        self, match: Match, position: int = 0, back: Callable[[], None] | None = None
    ) -> None:
        """Step through ``match`` from ``position``; ``back`` is called once it closes."""
        raise NotImplementedError

    def call_player(self, words: str) -> None:
        """Call the player to a table: the bell, and ``words`` in the terminal's title."""
        raise NotImplementedError

    def action_new_game(self) -> None:
        """The new game dialog."""
        raise NotImplementedError

    def action_load(self) -> None:
        """The saves dialog."""
        raise NotImplementedError

    def action_join(self) -> None:
        """Join a hosted table."""
        raise NotImplementedError

    def action_online(self, server: str | None = None, direct: bool = False) -> None:
        """Play online: a server's lobby (``direct``: straight in where this Karavan has an
        account there)."""
        raise NotImplementedError

    def action_rules(self) -> None:
        """The rules (of the open game, if any)."""
        raise NotImplementedError

    def action_settings(self) -> None:
        """The settings dialog."""
        raise NotImplementedError


def karavan_app(node: DOMNode) -> Karavan:
    """The Karavan app that ``node`` (a screen or a widget) runs in."""
    running = node.app
    assert isinstance(running, Karavan)
    return running
