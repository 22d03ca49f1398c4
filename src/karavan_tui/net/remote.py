"""The table of a hosted game, as one seat sees it: the table screen, fed by the host.

:class:`RemoteTable` drives a :class:`~karavan_tui.screens.table.TableScreen`
as the local match does, but it owns no match: it draws the latest
:class:`~karavan_net.protocol.Update` its :class:`TableClient` received, and
it sends the table's gestures to the host instead of playing them.  The
host's answer is the next update, or a refusal with its reason.

Everything in an update is outside data: names are made safe (``clean_name``),
log lines, previews and reasons are shown as plain text, never markup.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

from attrs import evolve
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType

from karavan_core.engine import Action
from karavan_core.match import Match, Seat
from karavan_core.referee import SeatView
from karavan_core.text import printable
from karavan_net.client import TableClient
from karavan_net.hosting import HostControl
from karavan_net.protocol import NOTICE_TABLE, NOTICE_TIME, TakeBackAsked, Update
from karavan_tui.context import karavan_app
from karavan_tui.messages import BackToTitle
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.net.connected import Connected
from karavan_tui.net.host_desk import HOSTING, HostDesk
from karavan_tui.net.presence import missing_words, presence_news
from karavan_tui.net.remote_link import RemoteLink, question_of
from karavan_tui.net.remote_over import RemoteOverScreen
from karavan_tui.net.table_talk import Chatting, TableTalk
from karavan_tui.screens.seat import SeatDriver, keys_with, seat_keys
from karavan_tui.screens.table import Frame, Status, TableKind, TableScreen
from karavan_tui.widgets.clocks import Timing
from karavan_tui.words import listed

REPEAT_SECONDS = 3.0  # the same toast again within this time is not shown twice
NOTICE_TITLES = {NOTICE_TIME: "Time out", NOTICE_TABLE: "The table"}


def question_key(update: Update, asked: TakeBackAsked) -> tuple[int, int]:
    """Which question ``asked`` puts: the request and how many decisions it takes back
    (a host that numbers no request: the table's change)."""
    return (asked.number or -update.number, asked.decisions)


def notice_title(update: Update) -> str:
    """The title of the toast that tells ``update``'s notice: what it is about (an older
    host's notice is a take-back's)."""
    return NOTICE_TITLES.get(update.notice_about, "Take-back")


def timing(table: RemoteTable, frame: Frame) -> Timing | None:
    """The clocks ``table``'s latest update tells (``None``: an untimed table, or a game
    over), for the seats of ``frame``, counted by the host's clock."""
    update = table.latest
    if update is None or update.clock is None or update.outcome is not None:
        return None
    names = tuple(seat.name for seat in frame.view.seats)
    online = table.online and table.ending is None
    g, skew = frame.view.glyphs, table.client.skew
    return Timing(update.clock, names, frame.to_move, table.viewer, online, g, skew)


# The keys of a player's decisions: a watcher has none, and is not offered them.
PLAYERS_KEYS = frozenset({"choose", "undo", "redo", "actions", "withdraw", "mark", "exchange"})


REMOTE_KEYS = keys_with(
    seat_keys(
        redo="Play your undone decision again",
        log_shown=True,
        leave="Leave",
        leave_tip="Leave the table",
    ),
    "redo",
    [Binding("c", "chat", "Chat", tooltip="Say something at the table", id="chat")],
) + [
    # Shown only now and then: last, so that coming and going they move no other key in the
    # Footer (a tap on a phone finds each where it was).
    Binding("w", "withdraw", "Withdraw", tooltip="No longer ask to take back", id="withdraw"),
    Binding("e", "seats", "Seats", tooltip="Free an absent player's seat, or a bot", id="seats"),
]


class RemoteTable(Connected, Chatting, SeatDriver):
    """A seat at a hosted table (or a watcher's place at it: no seat).

    ``control`` is given in the host's own terminal (``hosting``): there the
    host frees an absent player's seat or hands it to a bot, and leaving the
    table closes it for everyone (it stays saved).
    """

    KIND = TableKind.JOIN
    BINDINGS: ClassVar[list[BindingType]] = REMOTE_KEYS
    SERVED = False  # a server's table, where every player may ask for a rematch

    def __init__(
        self,
        client: TableClient,
        *,
        control: HostControl | None = None,
        save_path: Path | None = None,
    ) -> None:
        self.client = client
        self.link: RemoteLink = RemoteLink(client, self._unsent)
        self.game = client.game
        self.control = control
        self.hosting = control is not None
        # The host's own controls, in the host's terminal.
        self.desk = None if control is None else HostDesk(self, control, self.link)
        self.viewer = self.link.seat
        self.save_path = save_path
        self.waiting = False  # a decision is on its way to the host
        self.online = True
        self.ending: str | None = None
        self._asked: tuple[int, int] | None = None  # the question we were last asked (a key)
        self._asking: ConfirmScreen | None = None  # that question, while it is open
        self._turn_number: int | None = None
        self._statuses: list[tuple[str, str | None]] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._over_shown = False
        self._last_note: tuple[tuple[str, str], float] = (("", ""), 0.0)
        self._seen: Match | None = None  # the finished game as this player saw it, once built
        self.chat = TableTalk(self)

    @property
    def latest(self) -> Update | None:
        """The latest update the host sent."""
        return self.link.latest

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats as the host described them."""
        return self.link.seats

    def notify(self, message: str, **kwargs: Any) -> None:
        """A toast, unless the same one went up a moment ago (keys pressed again and again)."""
        now = time.monotonic()
        said, when = self._last_note
        key = (message, str(kwargs.get("title", "")))
        if said == key and now - when < REPEAT_SECONDS:
            return
        self._last_note = (key, now)
        self.screen.notify(message, markup=False, **kwargs)

    @property
    def app(self) -> App[Any]:
        """The app the table is open in."""
        return self.screen.app

    # -- life -------------------------------------------------------------------------
    def start(self) -> None:
        """Start reading the table."""
        self._reader = asyncio.get_running_loop().create_task(self.client.run(self))

    def resumed(self) -> None:
        """Catch up with updates that came while another screen was on top."""
        self.screen.redraw()
        self.chat.show()
        self._after_update()

    def stop(self) -> None:
        """Leave the table."""
        karavan_app(self.screen).tell_turn(False)
        if self._reader is not None:
            self._reader.cancel()
        asyncio.get_running_loop().create_task(self.client.close())

    # -- the listener (the client calls these on the app's loop) ---------------------
    def table_updated(self, update: Update) -> None:
        """Draw the table the host sent."""
        latest = self.latest
        try:
            self.link.take(update)
        except Exception:  # a host that sends what does not fit is not followed
            self.notify(
                "The host sent a table this Karavan cannot read: is it another version?",
                severity="error",
            )
            return
        fresh = update.number != (latest.number if latest else None)
        if latest is not None and latest.outcome is not None and update.outcome is None:
            self._new_game()  # the host started a rematch: this is its first position
        if fresh:
            self.waiting = False
            if update.notice:  # said, or the table would change without a word
                self.notify(printable(update.notice), title=notice_title(update))
        self._tell_presence(update)
        # A bell and the title once the others have moved and it is our turn again.
        mine = update.to_move == self.viewer and bool(update.legal) and update.outcome is None
        karavan_app(self.screen).tell_turn(mine)
        if self.hosting and all(seat.status != "empty" for seat in update.seats):
            karavan_app(self.screen).withdraw_notes(HOSTING)  # nobody left to invite
        asked = update.takeback
        if self._asking is not None and (
            asked is None
            or self.viewer not in asked.waiting
            or question_key(update, asked) != self._asked
        ):
            self._asking.dismiss(None)  # answered, ended, or the bots' replies joined it
        self.screen.redraw()
        self._after_update()

    def _new_game(self) -> None:
        """A rematch: back to the table from the results, ready for the new game."""
        app = self.app
        while app.screen is not self.screen and len(app.screen_stack) > 1:
            app.pop_screen()
        self._over_shown = False
        self._turn_number = self._asked = self._statuses = None
        self._seen = None
        self.link.forget()
        self.notify("A rematch: a new game with the same seats.", title="Rematch")

    def seen_game(self) -> Match | None:
        """The finished game as this player saw it, once the host has sent it."""
        if self._seen is None:
            self._seen = self.client.seen(self.seats)
        return self._seen

    def do_rematch(self) -> None:
        """The host: a new game with the same seats."""
        if self.desk is not None:
            self.desk.rematch()

    def declined(self, reason: str) -> None:
        """The host refused what we sent: say why; nothing changed."""
        self.waiting = False
        self.notify(reason, title="Not allowed", severity="warning")
        self.screen.redraw()

    def _tell_presence(self, update: Update) -> None:
        """Say who came, went, or had a bot stand in since the last update."""
        statuses = [(seat.status, seat.stand_in) for seat in update.seats]
        before, self._statuses = self._statuses, statuses
        for said, here in presence_news(before, update, self.seats, self.viewer):
            self.notify(said, severity="information" if here else "warning")

    # -- drawing -----------------------------------------------------------------------
    def frame(self) -> Frame | None:
        """The table, scores, log and status from the latest update."""
        frame = super().frame()
        if frame is None:
            return None
        # A hosted table's news line tells the news alone, for a watcher too.
        clock = timing(self, frame)
        return evolve(frame, news_yours=True, own="", invite=self.invitation(), clock=clock)

    def subtitle(self) -> str:
        """The game, the players and where the table is."""
        where = "hosting" if self.hosting else "at"
        return f"{super().subtitle()} {self.glyphs.sep} {where} {self.client.address}"

    def notice(self) -> str:
        """What the host told this seat of the last change (a take-back), if anything."""
        seen = self.link.current
        return seen.notice or "" if seen is not None else ""

    def legal(self, seen: SeatView) -> tuple[Action, ...]:
        """The seat's decisions, while it may send one."""
        return seen.legal if self._my_move() else ()

    def invitation(self) -> str:
        """In the host's terminal: how the players whose seat nobody has taken join."""
        return self.desk.invitation() if self.desk is not None else ""

    def do_invite(self) -> None:
        """Show again the lines that tell the players how to join."""
        if self.desk is not None:
            self.desk.invite()

    def status(self) -> Status | None:
        """Whose turn, what to decide, and who is away."""
        seen = self.link.current
        if seen is None:
            return None
        prompt, first = self.game.prompt(seen.observation), False
        to_move = seen.observation.to_move
        if to_move is not None and to_move != self.viewer:
            # The game's prompt speaks to the player who decides: the others are told whose turn.
            prompt = f"{self.seat_name(to_move)}'s turn"
        if self.viewer is None:
            prompt = f"You are watching {self.glyphs.sep} {prompt}"
        if self.ending is not None:
            prompt, first = self.ending, True  # no prompt: this Karavan no longer plays here
        asked = seen.request
        if asked is not None and asked.takeback.seat == self.viewer:
            waiting = [self.seat_name(s) for s in sorted(asked.waiting)]
            prompt = f"Your take-back waits for {listed(waiting)} to agree (w withdraws it)"
            first = True
        bot_moving = (
            to_move is not None and 0 <= to_move < len(self.seats) and self.seats[to_move].is_bot
        )
        busy = bot_moving or self.waiting
        return Status(prompt, busy=busy, first=first, presence=self.presence())

    def presence(self) -> str:
        """Who is missing, in words ("" when everybody is here)."""
        if self.ending is not None:
            return ""  # the status line says why the table ended, and nothing else
        if not self.online:
            return "Reconnecting to the table..."
        return "" if self.latest is None else missing_words(self.latest, self.seats)

    # -- whose decision ------------------------------------------------------------------
    def _my_move(self) -> bool:
        seen = self.link.current
        return (
            seen is not None
            and seen.observation.to_move == self.viewer
            and bool(seen.legal)
            and self.online
            and not self.waiting
        )

    def _after_update(self) -> None:
        """Open a picker when it is our turn anew; the game-over screen at the end."""
        update = self.latest
        if update is None or not self.screen.is_on_top():
            return
        if update.outcome is not None:
            if not self._over_shown:
                self._over_shown = True
                rematch = self.do_rematch if self.hosting or self.SERVED else None
                label = self.game.chart_label or ""
                over = RemoteOverScreen(
                    self.seats,
                    update,
                    self.hosting,
                    self.seen_game,
                    rematch,
                    label=label,
                    viewer=self.viewer,
                )
                self.app.push_screen(over)
            return
        asked, seen = update.takeback, self.link.current
        if asked is not None and seen is not None and seen.to_answer:
            key = question_key(update, asked)
            if self._asked != key:
                self._asked = key  # asked once per question: again if the bots' replies join
                self.ask_answer(asked)
                return
        if self._my_move() and self._turn_number != update.number:
            self._turn_number = update.number
            self.table.on_turn()

    def ask_answer(self, asked: TakeBackAsked) -> None:
        """Another player asks to take back: agree or decline (the host hears either)."""
        if not 0 <= asked.seat < len(self.seats) or self.viewer is None:
            return
        question = question_of(asked, self.seats, self.viewer)

        def answered(yes: bool | None) -> None:
            self._asking = None
            if yes is not None:  # None: the question was withdrawn before we answered
                self._send(self.client.answer(yes, asked.number))

        self._asking = ConfirmScreen.consent(question)
        self.app.push_screen(self._asking, answered)

    def not_now(self) -> str | None:
        """Why we may not decide now ("": nothing to say), or ``None``."""
        if self.latest is None:
            return ""
        if not self.online:
            return self.not_sent()
        reason = super().not_now()
        if reason is None and self.waiting:
            return "Your last decision is on its way to the host."
        return reason

    # -- the table's gestures --------------------------------------------------------------
    def send(self, actions: Sequence[Action]) -> bool:
        """Send the gesture to the host, which plays it or says why not."""
        assert self.viewer is not None
        self.waiting = True
        self.screen.redraw()
        self.link.play(self.viewer, actions)
        return True

    def _send(self, sending: Coroutine[Any, Any, bool]) -> None:
        self.link.send(sending)

    # -- keys ----------------------------------------------------------------------------------
    def allows(self, name: str) -> bool | None:
        """Undo and redo as the host allows them now; the host's keys for the seats; none of a
        player's keys for a watcher."""
        update = self.latest
        if self.viewer is None and name in PLAYERS_KEYS:
            return False
        if name == "seats":  # the host's, while somebody is missing
            return self.hosting and bool(self.absent_seats())
        if name == "withdraw":  # shown only while our own request waits
            asked = None if update is None else update.takeback
            return asked is not None and asked.seat == self.viewer and self.online
        if name == "chat":
            return self.chat.shown()
        return super().allows(name)

    def may_undo(self) -> bool:
        """As the host says, while connected."""
        return super().may_undo() and self.online

    def may_redo(self) -> bool:
        """As the host says, while connected."""
        return super().may_redo() and self.online

    def do_undo(self) -> None:
        """Ask the host to take back our last decision."""
        if self.latest is None or not self.online:
            return
        self._send(self.client.undo())

    def do_withdraw(self) -> None:
        """No longer ask to take back."""
        asked = None if self.latest is None else self.latest.takeback
        if asked is None or asked.seat != self.viewer or not self.online:
            return
        self._send(self.client.withdraw(asked.number))

    def absent_seats(self) -> list[int]:
        """The people's seats whose player is not at the table now."""
        return self.desk.absent_seats() if self.desk is not None else []

    def do_seats(self) -> None:
        """The host: free an absent player's seat, or hand it to a bot (or take the bot off)."""
        if self.desk is not None:
            self.desk.choose_seat()

    def do_redo(self) -> None:
        """Ask the host to replay our undone decision."""
        if self.latest is None or not self.online:
            return
        self._send(self.client.redo())

    def commands(self) -> Iterator[SystemCommand]:
        """This table's own commands in the command palette."""
        yield from super().commands()
        if self.hosting and self.absent_seats():
            yield SystemCommand("Seats", "Free an absent player's seat, or a bot", self.do_seats)
        if self.control is not None and self.control.invitation:
            yield SystemCommand("Invitation", "How the players join this table", self.do_invite)
        yield SystemCommand("Log", "Read the whole log", self.do_full_log)
        yield SystemCommand("Leave", "Leave the table", self.do_leave)

    def do_save_as(self) -> None:
        """A hosted table is saved by its host."""
        self.notify("The host saves this table after every decision.")

    def do_leave(self) -> None:
        """Leave the table (in the host's terminal: close it, once the host says so)."""
        if not self.hosting:
            self.screen.post_message(BackToTitle())
            return
        if self.desk is not None:
            self.desk.close_table()


def open_table(
    app: App[Any],
    client: TableClient,
    *,
    control: HostControl | None = None,
    save_path: Path | None = None,
    above: bool = False,
) -> None:
    """Open ``client``'s table (already joined) in ``app`` above its title screen, or
    (``above``) above the screen shown, a server's lobby (``control``: in the host's own
    terminal)."""
    while not above and len(app.screen_stack) > 1:
        app.pop_screen()
    app.push_screen(TableScreen(RemoteTable(client, control=control, save_path=save_path)))
