"""Where the server calls the player: the web hook of their account, seen and set in the app.

A server calls that address (an ntfy or Gotify topic, a Matrix or Slack incoming hook) when a
turn-based table waits for the player.  The address is the server's to check: it says in
words why it refuses one, and the dialog shows those words (and the address) literally.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual import work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Label, Static

from karavan_core.text import printable
from karavan_net.client import HostUnreachable
from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError, LobbyRefusedError
from karavan_tui.net.lobby_screen import LobbyScreen

MAX_URL = 500  # the longest address a server keeps


def where_words(url: str) -> str:
    """Where the server calls the player, in words (``url`` written out if unsafe)."""
    if not url:
        return "The server calls you nowhere yet."
    return f"The server calls you at {printable(url)}"


class WebHookScreen(ModalScreen[None]):
    """The web hook of ``client``'s account: shown once the server tells it, and set to what
    is written (Enter; an empty line: nowhere)."""

    BINDINGS = [Binding("escape", "close", "Close")]
    DEFAULT_CSS = """
    WebHookScreen { align: center middle; }
    WebHookScreen > Vertical {
        width: 70; max-width: 100%; height: auto; border: thick $accent; background: $surface;
        padding: 1 2;
    }
    WebHookScreen Input { margin-top: 1; }
    WebHookScreen .hint { color: $text-muted; margin-top: 1; width: 100%; }
    WebHookScreen #hook-said { margin-top: 1; width: 100%; }
    """

    def __init__(self, client: LobbyClient) -> None:
        super().__init__()
        self.client = client

    def compose(self) -> ComposeResult:
        """What it is, the address, what the server says."""
        with Vertical():
            yield Label("Your web hook")
            yield Label(
                "The server calls it when a turn-based table waits for you: an ntfy or "
                "Gotify topic, a Matrix or Slack incoming hook.",
                classes="hint",
            )
            yield Input(
                placeholder="https://ntfy.sh/your-topic",
                compact=True,
                max_length=MAX_URL,
                id="hook-url",
            )
            yield Static("Asking the server...", id="hook-said")
            yield Label("Enter keeps it (empty: nowhere), Esc closes.", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        """Ask the server where it calls the player now."""
        self.ask(None)

    def said(self, words: str) -> None:
        """Show the server's answer, as plain text."""
        self.query_one("#hook-said", Static).update(Content(words))

    @work(exclusive=True, exit_on_error=False)
    async def ask(self, url: str | None) -> None:
        """Set the address to ``url`` (if given) and show where the server calls now."""
        try:
            kept = await self.client.notify_address(url)
        except LobbyDeclinedError as error:
            self.said(f"Not kept: {printable(str(error))}")
            return
        except (HostUnreachable, LobbyRefusedError) as error:
            self.said(f"The server does not answer: {printable(str(error))}")
            return
        field = self.query_one("#hook-url", Input)
        if url is None:
            field.value = printable(kept)
        self.said(where_words(kept) if url is None else f"Kept. {where_words(kept)}")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Give the server the address written."""
        self.ask(event.value.strip())

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)


def web_hook_commands(screen: Screen[Any]) -> Iterator[SystemCommand]:
    """The command palette's Web hook, over a server's lobby."""
    if isinstance(screen, LobbyScreen):
        client = screen.client
        yield SystemCommand(
            "Web hook",
            "Where the server calls you when a turn-based table waits for you",
            lambda: screen.app.push_screen(WebHookScreen(client)),
        )
