"""Join a hosted table from the app: address, code and name, then the table opens."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from karavan_core.text import MAX_NAME_LENGTH, check_name, printable
from karavan_net.client import HostUnreachable, JoinRefused, TableClient
from karavan_net.protocol import DEFAULT_PORT, parse_address
from karavan_net.seats import seats_file
from karavan_net.tls import client_tls
from karavan_tui.config import MAX_ADDRESS, MAX_CODE, LastJoin
from karavan_tui.context import karavan_app


class JoinScreen(ModalScreen[TableClient | None]):
    """Ask where the table is and who you are; dismisses with the joined client, or ``None``."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    JoinScreen { align: center middle; }
    JoinScreen > Vertical {
        width: 64; height: auto; border: thick $accent; background: $surface; padding: 1 2;
    }
    JoinScreen .row { height: auto; margin-top: 1; }
    JoinScreen .row Label { width: 10; }
    JoinScreen .row Input { width: 1fr; }
    JoinScreen #join-problem { color: $error; margin-top: 1; height: auto; }
    JoinScreen #join-hint { color: $text-muted; margin-top: 1; }
    JoinScreen #join-buttons { height: auto; margin-top: 1; align-horizontal: right; }
    JoinScreen Button { margin-left: 2; }
    """

    def __init__(self, last: LastJoin | None = None, name: str | None = None) -> None:
        """Offer the ``last`` table joined again (a drop, a restart), else the player's ``name``."""
        super().__init__()
        self.address = last.address if last else f"127.0.0.1:{DEFAULT_PORT}"
        self.code = last.code if last else ""
        self.seat_name = last.name if last else name or ""
        self.joining = False

    def compose(self) -> ComposeResult:
        """The three fields."""
        with Vertical():
            yield Label("Join a table")
            with Horizontal(classes="row"):
                yield Label("Address")
                yield Input(self.address, id="join-address", compact=True, max_length=MAX_ADDRESS)
            with Horizontal(classes="row"):
                yield Label("Code")
                yield Input(self.code, id="join-code", compact=True, max_length=MAX_CODE)
            with Horizontal(classes="row"):
                yield Label("Name")
                yield Input(
                    self.seat_name, id="join-name", compact=True, max_length=MAX_NAME_LENGTH + 2
                )
            yield Static("", id="join-problem")
            yield Static(
                "The host's terminal shows the address and the code. Your name is your seat's.",
                id="join-hint",
            )
            with Horizontal(id="join-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Join (enter)", id="join", variant="primary", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Start with the code (selected, where it is offered again: typing replaces it)."""
        self.query_one("#join-code", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter joins."""
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Join or cancel."""
        if event.button.id == "join":
            self.submit()
        else:
            self.action_cancel()

    def problem(self, text: str) -> None:
        """Say what is wrong, as plain text."""
        self.query_one("#join-problem", Static).update(Content(text))

    def submit(self) -> None:
        """Check the fields, then connect in the background."""
        if self.joining:
            return
        typed = self.query_one("#join-address", Input).value
        try:
            host, port = parse_address(typed)
            tls = client_tls(typed, karavan_app(self).settings.tls_ca)
        except ValueError as error:
            self.problem(printable(str(error)))
            return
        code = self.query_one("#join-code", Input).value.strip()
        if not code:
            self.problem("Type the table's code.")
            return
        try:
            name = check_name(self.query_one("#join-name", Input).value)
        except ValueError as error:
            self.problem(printable(str(error)))
            return
        self.joining = True
        self.problem("")
        self.query_one("#join-problem", Static).update(Content("Joining..."))
        config = karavan_app(self).config
        memory = seats_file(config.settings_path)
        client = TableClient(host, port, code, name, memory=memory, visitor=config.visitor, tls=tls)
        address = typed.strip()
        self.run_worker(self.join(client, LastJoin(address, code, name)), exclusive=True)

    async def join(self, client: TableClient, table: LastJoin) -> None:
        """Take the seat (and remember the ``table`` for next time), or say why not."""
        try:
            await client.join()
        except (JoinRefused, HostUnreachable) as error:
            self.joining = False
            reason = printable(str(error)).rstrip(".")
            self.problem(f"Cannot join: {reason}.")
            return
        app = karavan_app(self)
        app.settings.last_join = table
        app.save_settings()
        self.dismiss(client)

    def action_cancel(self) -> None:
        """Close without joining."""
        self.dismiss(None)
