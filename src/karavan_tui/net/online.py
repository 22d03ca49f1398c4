"""Play online: the server's address and, the first time there, a name; then the lobby.

The account is the app's own: a secret made on first use and kept beside the
settings (:mod:`karavan_net.accounts`); the server keeps only its hash, and the
identity the server proves is pinned beside it.  Once logged in, the dialog
dismisses with the lobby's client, and the address is remembered for next time.
Behind a server's ssh door the address is that server's, and cannot be changed.
"""

from __future__ import annotations

from pathlib import Path

from attrs import evolve
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, Static

from karavan_core.text import MAX_NAME_LENGTH, check_name, printable
from karavan_net.accounts import Account, account_for, keep, new_secret, server_key
from karavan_net.client import HostUnreachable
from karavan_net.lobby import DEFAULT_SERVER_PORT
from karavan_net.lobby_client import LobbyClient, LobbyRefusedError
from karavan_tui.config import MAX_ADDRESS
from karavan_tui.context import karavan_app
from karavan_tui.textual_fixes import FocusedInput

DEFAULT_SERVER = f"127.0.0.1:{DEFAULT_SERVER_PORT}"


async def log_in(account: Account, create: bool, ca: str | None = None) -> LobbyClient:
    """The lobby's client for ``account``, logged in (``create``: a new account); see
    :meth:`LobbyClient.for_account`."""
    client = LobbyClient.for_account(account, ca)
    await client.connect(create=create)
    return client


class OnlineScreen(ModalScreen[tuple[LobbyClient, Account] | None]):
    """Ask for the server (and a name, the first time there); dismisses with the logged-in
    lobby client and its account, or ``None``."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    OnlineScreen { align: center middle; }
    OnlineScreen > Vertical {
        width: 64; height: auto; border: thick $accent; background: $surface; padding: 1 2;
    }
    OnlineScreen .row { height: auto; margin-top: 1; }
    OnlineScreen .row Label { width: 10; }
    OnlineScreen .row Input { width: 1fr; }
    OnlineScreen #online-problem { color: $error; margin-top: 1; height: auto; }
    OnlineScreen #online-hint { color: $text-muted; margin-top: 1; height: auto; }
    OnlineScreen #online-buttons { height: auto; margin-top: 1; align-horizontal: right; }
    OnlineScreen Button { margin-left: 2; }
    """

    def __init__(self, server: str | None, name: str | None, accounts: Path) -> None:
        """Offer ``server`` (the last one played on) and ``name`` (the player's usual one)."""
        super().__init__()
        self.server = server or DEFAULT_SERVER
        self.player_name = name or ""
        self.accounts = accounts
        self.busy = False

    def compose(self) -> ComposeResult:
        """The server and the name."""
        with Vertical():
            yield Label("Play online")
            with Horizontal(classes="row"):
                yield Label("Server")
                yield FocusedInput(
                    self.server, id="online-server", compact=True, max_length=MAX_ADDRESS
                )
            with Horizontal(classes="row"):
                yield Label("Name")
                yield FocusedInput(
                    self.player_name, id="online-name", compact=True, max_length=MAX_NAME_LENGTH + 2
                )
            yield Static("", id="online-problem")
            yield Static("", id="online-hint")
            with Horizontal(id="online-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Go (enter)", id="go", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Say whether this Karavan already has an account on the server offered (behind an
        ssh door, the only one)."""
        door = karavan_app(self).config.door
        server = self.query_one("#online-server", Input)
        if door is not None:
            server.value, server.disabled = door, True
        self.show_account()
        self.first_to_fill().focus()

    def first_to_fill(self) -> Widget:
        """The first field still empty (the name where the server is given), else Go."""
        for field in self.query(Input):
            if not field.disabled and not field.value.strip():
                return field
        name = self.query_one("#online-name", Input)
        return self.query_one("#go", Button) if name.disabled else name

    def on_input_changed(self, event: Input.Changed) -> None:
        """The server typed may be one where we have an account."""
        if event.input.id == "online-server":
            self.show_account()

    def known(self) -> Account | None:
        """The account kept for the server typed, if any."""
        try:
            return account_for(self.accounts, self.query_one("#online-server", Input).value)
        except ValueError:
            return None

    def show_account(self) -> None:
        """Under the fields: who we play as there, or that a name makes an account."""
        account = self.known()
        name_input = self.query_one("#online-name", Input)
        if account is not None:
            name_input.value = account.name
            name_input.disabled = True
            hint = f"You play as {account.name} on this server."
        else:
            name_input.disabled = False
            hint = "New to this server: the name you choose is your account's (unique there)."
        self.query_one("#online-hint", Static).update(Content(hint))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter goes."""
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Go or cancel."""
        if event.button.id == "go":
            self.submit()
        else:
            self.action_cancel()

    def problem(self, text: str) -> None:
        """Say what is wrong, as plain text."""
        self.query_one("#online-problem", Static).update(Content(text))

    def submit(self) -> None:
        """Check the fields, then log in in the background."""
        if self.busy:
            return
        typed = karavan_app(self).config.door or self.query_one("#online-server", Input).value
        try:
            server = server_key(typed)
        except ValueError as error:
            self.problem(printable(str(error)))
            return
        account = self.known()
        create = account is None
        if account is None:
            try:
                name = check_name(self.query_one("#online-name", Input).value)
            except ValueError as error:
                self.problem(printable(str(error)))
                return
            account = Account(server, name, new_secret())
        self.busy = True
        self.problem("Connecting...")
        self.run_worker(self.go(account, create), exclusive=True)

    async def go(self, account: Account, create: bool) -> None:
        """Log in (making the account the first time, pinning the server's identity), or
        say why not."""
        app = karavan_app(self)
        try:
            client = await log_in(account, create, app.settings.tls_ca)
        except (LobbyRefusedError, HostUnreachable, ValueError) as error:
            self.busy = False
            self.problem(f"Cannot play online: {printable(str(error)).rstrip('.')}.")
            return
        pinned = evolve(account, identity=account.identity or client.identity)
        if create or pinned != account:
            try:
                keep(self.accounts, pinned)
            except OSError as error:
                await client.close()
                self.busy = False
                self.problem(f"Cannot keep your account here: {error.strerror or error}.")
                return
        account = pinned
        app.settings.last_server = account.server
        app.save_settings()
        self.dismiss((client, account))

    def action_cancel(self) -> None:
        """Close without going online."""
        self.dismiss(None)
