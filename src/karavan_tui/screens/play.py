"""A game played here: the driver of the table screen for a local match.

The match is run by a :class:`~karavan_core.referee.Referee`, as at a hosted
table: the driver hands it the decisions of the player at the keyboard (from
the table), the bots' (worked out in a worker thread) and the take-backs; the
referee checks them, keeps the save and says what each seat may see.  After
every change the driver redraws and looks at who decides next: a bot (start
it), another human (draw the curtain first) or the game's end.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import ClassVar

from textual.app import SystemCommand
from textual.binding import Binding, BindingType

from karavan_core.analysis import Hint
from karavan_core.engine import Action, IllegalAction
from karavan_core.match import Match
from karavan_core.pacing import bot_decision
from karavan_core.referee import BotTurn, SeatView, TakeBackRequest
from karavan_tui.context import karavan_app
from karavan_tui.messages import BackToTitle, GameOver
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.modals.curtain import CurtainScreen, TurnOverScreen
from karavan_tui.screens.hints import HintDesk
from karavan_tui.screens.local_link import LocalLink
from karavan_tui.screens.save_desk import SaveDesk
from karavan_tui.screens.seat import SeatDriver, keys_with, seat_keys
from karavan_tui.screens.table import Frame, Status

# The keys of a player deciding, which a game of bots alone does not offer.
DECIDING_KEYS = frozenset({"undo", "redo", "hint", "actions", "choose"})

LOCAL_KEYS = keys_with(
    keys_with(
        seat_keys(
            redo="Play an undone decision again",
            log_shown=False,
            leave="Title",
            leave_tip="Back to the title (the game stays saved)",
        ),
        "actions",
        [
            Binding(
                "h",
                "hint",
                "Hint",
                tooltip="What the Expert would play here (counted in the save)",
                id="hint",
            ),
            # The same key while a bot ends its turn: a hint asked a moment before the
            # turn comes back comes once it has (see allows; out of the Footer).
            Binding("h", "hint_soon", "Hint", show=False),
            Binding("s", "save_as", "Save", tooltip="Save the game under a name", id="save_as"),
        ],
    ),
    "leave",
    # Offered only while bots move (see allows).
    [
        Binding(
            "n",
            "skip",
            "Skip",
            tooltip="Let the computer players move without pausing, up to the next human's turn",
            id="skip",
        )
    ],
)


class LocalPlay(SeatDriver):
    """A match played at this terminal: hot-seat humans and bots, autosaved to ``save_path``."""

    BINDINGS: ClassVar[list[BindingType]] = LOCAL_KEYS

    def __init__(self, match: Match, save_path: Path) -> None:
        self.link: LocalLink = LocalLink(match, save_path)
        self.game = match.game
        self.referee = self.link.referee
        self.humans = list(self.referee.humans)
        # With one human at the keyboard, that player always sees their own cards.
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.thinking = False
        self.hurrying = False  # the pauses are skipped until a human decides again
        self.hints = HintDesk(self, self.link, lambda: self.thinking)
        self._pending = False  # a change happened while another screen was on top
        self.saves = SaveDesk(self, self.link)

    @property
    def save_path(self) -> Path:  # type: ignore[override]  # read-only: the link moves the file
        """The file the game is kept in."""
        return self.link.save_path

    # -- life ---------------------------------------------------------------------------
    def start(self) -> None:
        """Hear of every save once it is written, then let play begin."""
        self.saves.watch()
        self.advance()

    def resumed(self) -> None:
        """Catch up with a change made while a rules or other screen was on top."""
        if self._pending:
            self._pending = False
            self.advance()
        else:
            self.screen.redraw()

    def stop(self) -> None:
        """Leave only once every position is on disk; a game left untouched, not at all."""
        karavan_app(self.screen).tell_turn(False)
        self.cancel_bot()
        self.cancel_hint()
        self.closing()

    def closing(self) -> None:
        """The table is about to close: a game begun here that nobody decided in goes."""
        self.link.close()

    def flush(self) -> None:
        """Wait until the newest position is on disk."""
        self.referee.flush()

    # -- drawing ------------------------------------------------------------------------
    def frame(self) -> Frame:
        """The table as the viewer sees it (a local table always has something to show)."""
        frame = super().frame()
        assert frame is not None
        return frame

    def log_title(self) -> str:
        """The log's title says the seed the game was dealt from."""
        return f"Log {self.glyphs.sep} seed {self.link.seed}"

    def notice(self) -> str:
        """What the player at the keyboard is told of a take-back that was the last change
        (the referee's words, the same at every table); else ""."""
        last = self.referee.last_change
        if self.viewer is None or last is None or last[0].kind != "undo":
            return ""
        return self.referee.notice(self.viewer) or ""

    def status(self) -> Status:
        """The hint or the game's prompt, a busy mark, the saved mark (or NOT SAVED)."""
        # The symbol set may have changed since the save: its own mark is drawn.
        note = "NOT SAVED" if self.saves.failed else self.glyphs.saved
        hint = self.current_hint()
        seen = self.link.view(self.viewer)
        seat = seen.observation.to_move
        prompt = (
            self.table.hint_words(hint)
            if hint is not None
            else "Looking for a hint"
            if self.hinting
            else f"{self.seat_name(seat)}'s turn: your hint is looked for once it is yours"
            if self.hints.wanted and seat is not None
            # The game's prompt speaks to the player who decides: not to a bot.
            else f"{self.seat_name(seat)}'s turn"
            if seat is not None and self.link.seats[seat].is_bot
            else self.game.prompt(seen.observation)
        )
        return Status(prompt, busy=self.thinking or self.hinting, note=note, hint=hint is not None)

    # -- whose decision -------------------------------------------------------------------
    def advance(self) -> None:
        """After any change: redraw, then start a bot, draw the curtain, or end the game."""
        self.cancel_bot()
        self.cancel_hint()
        screen, referee = self.screen, self.referee
        if not screen.is_on_top():
            self._pending = True
            screen.redraw()
            return
        if referee.bot_to_move() is None:
            self.hurrying = False  # a human decides next (or nobody): pauses come back
        if referee.is_over():
            karavan_app(screen).tell_turn(False)
            screen.redraw()
            screen.post_message(GameOver(self.link.match))
            return
        if referee.request is not None:
            screen.redraw()
            self.ask_consent(referee.request)
            return
        turn = referee.bot_turn()
        # A bell and the title (the browser tab's) once the bots have moved and a person
        # is to decide.
        karavan_app(screen).tell_turn(turn is None)
        if turn is not None:
            self.bot_moves(turn)
            return
        seat = referee.to_move
        assert seat is not None
        self.human_moves(seat)

    def bot_moves(self, turn: BotTurn) -> None:
        """A bot decides next: hide what it must not show, then let it think."""
        screen = self.screen
        if len(self.humans) > 1:
            if self.tell_turn_over():
                return
            self.viewer = None  # hot-seat: while a bot moves, only the public table shows
        screen.redraw()
        if not screen.is_on_top() or self.table.pauses_play:
            self._pending = True  # a round summary to read first: the bot waits for it
            return
        self.thinking = True
        screen.refresh_status()
        screen.refresh_bindings()  # the key that skips the pauses shows while bots move
        self.think(turn, karavan_app(screen).bot_delay)

    def human_moves(self, seat: int) -> None:
        """``seat``'s player decides next: hand them the keyboard (behind the curtain, where
        cards are private and another player has it)."""
        handed_over = self.viewer != seat and not self.game.private_views
        if handed_over:
            self.viewer = seat  # nothing is private: the next player just takes the keyboard
        if self.viewer != seat:
            if not self.tell_turn_over():
                self.draw_curtain(seat)
            return
        self.screen.redraw()
        if handed_over:
            self.table.start_afresh()
        self.table.on_turn()
        if self.hints.wanted:  # asked as the turn came back, while the bot still moved
            self.hints.wanted = False
            self.do_hint()

    def draw_curtain(self, seat: int) -> None:
        """Hot-seat: hide the table until ``seat``'s player takes the keyboard (Enter).

        The curtain tells what happened since that player's last decision; its **u**
        takes back the last human's decision without lifting it.
        """
        screen = self.screen
        self.viewer = None  # nothing private stays on screen under the curtain
        screen.redraw()
        # A toast about the last player's cards ("Mirage 2 can move…") must not outlive them.
        screen.app.clear_notifications()

        def lifted(take_back: bool | None) -> None:
            if take_back:
                # Behind the curtain still: the table draws the next one (or asks
                # for consent) for whoever decides after the take-back.
                if not self.do_undo():
                    self.advance()
                return
            self.viewer = seat
            screen.redraw()
            self.table.start_afresh()
            self.table.on_turn()

        # What happened since that player's last decision, in the public log's words.
        theirs = self.link.view(seat)
        taker = self.at_keyboard()
        may_take_back = taker is not None and self.referee.undo_refusal(taker) is None
        curtain = CurtainScreen(
            self.seat_name(seat),
            news=list(theirs.log[theirs.since + 1 :]),
            first=theirs.since + 1,
            taker=self.seat_name(taker) if taker is not None and may_take_back else None,
        )
        screen.app.push_screen(curtain, lifted)

    def tell_turn_over(self) -> bool:
        """Hot-seat, the table about to be hidden from the player who has just played: tell
        them first what only they saw happen in their turn, if anything (a card drawn
        blind); say whether they are being told (play goes on once they have read it)."""
        seat = self.viewer
        last = self.referee.last_change
        if seat is None or last is None or last[0].kind != "play" or last[0].seat != seat:
            return False
        note = self.table.turn_note(self.link.turn_steps(seat))
        if not note:
            return False
        self.viewer = None
        self.screen.redraw()
        self.screen.app.clear_notifications()  # the note says it all, to that player alone
        turn_over = TurnOverScreen(self.seat_name(seat), note)
        self.screen.app.push_screen(turn_over, lambda _: self.advance())
        return True

    # -- the table's gestures ---------------------------------------------------------------
    def send(self, actions: Sequence[Action]) -> bool:
        """The referee plays the gesture (as one undo step); then whoever is next decides."""
        assert self.viewer is not None
        try:
            self.link.play(self.viewer, actions)
        except IllegalAction as error:
            self.notify(str(error), title="Not allowed", severity="warning")
            return False
        self.advance()
        return True

    # -- bots ---------------------------------------------------------------------------------
    def think(self, turn: BotTurn, delay: float) -> None:
        """Let the bot of ``turn`` choose off the UI thread; its decision is played once the
        pause the referee gives it (``delay`` between turns) is over, the thinking included,
        or at once when the player skips the pauses (cancelled: never)."""

        async def choose() -> None:
            action = await bot_decision(turn, delay, lambda: self.hurrying)
            self._bot_chose(turn, action)

        self.screen.run_worker(choose(), exclusive=True, group="bot", exit_on_error=False)

    def _bot_chose(self, turn: BotTurn, action: Action) -> None:
        """Play a bot's decision, unless the game moved on (undo) since it started."""
        if not self.thinking:
            return
        self.thinking = False
        if self.referee.play_bot(turn, action):
            self.advance()

    def do_skip(self) -> None:
        """Play the bots' decisions without pausing until a human is to decide."""
        self.hurrying = True
        self.screen.refresh_bindings()

    def cancel_bot(self) -> None:
        """Stop a thinking bot; its answer, if it still comes, is ignored."""
        self.thinking = False
        self.screen.workers.cancel_group(self.screen, "bot")

    # -- hints ----------------------------------------------------------------------------------
    @property
    def hinting(self) -> bool:
        """Whether the Expert search is looking for a hint now."""
        return self.hints.hinting

    def hint_allowed(self) -> bool:
        """Whether a hint may be asked now (see :meth:`HintDesk.allowed`)."""
        return self.hints.allowed()

    def current_hint(self) -> tuple[Hint, ...] | None:
        """The hint for the position on the table, if one was asked for it."""
        return self.hints.current()

    def do_hint(self) -> None:
        """Ask the Expert what to play now (see :meth:`HintDesk.ask`)."""
        if self._my_turn():
            self.hints.ask()

    def do_hint_soon(self) -> None:
        """Ask for a hint while a bot ends its turn: it is looked for once the turn is back."""
        self.hints.wanted = True
        self.screen.refresh_status()

    def cancel_hint(self) -> None:
        """Stop looking for a hint; its answer, if it still comes, is ignored."""
        self.hints.cancel()

    # -- keys ---------------------------------------------------------------------------------
    def allows(self, name: str) -> bool | None:
        """Grey out Undo and Redo when there is nothing to take back or replay.

        In a game of bots alone nobody at the keyboard decides: the keys that
        decide, take back or advise are not offered at all.
        """
        if not self.humans and name in DECIDING_KEYS:
            return False
        if name == "skip":
            return self.thinking and not self.hurrying
        if name == "hint_soon":
            return self.thinking and self.viewer is not None and not self.hints.wanted
        if name == "hint":
            if self.thinking:
                return False  # never while bots move: its room in the Footer goes to Skip
            return True if self.hint_allowed() else None
        return super().allows(name)

    def may_undo(self) -> bool:
        """Offered while there is a decision to take back (a refusal says whose it may be)."""
        seen = self.seen()
        return len(seen.log) > 1 and seen.outcome is None  # the log's first line is the deal

    def may_redo(self) -> bool:
        """Offered while an undone decision waits."""
        return self.link.can_redo()

    def seen(self) -> SeatView:
        """The table as the viewer sees it now (a local table always has one)."""
        return self.link.view(self.viewer)

    def at_keyboard(self) -> int | None:
        """The human at the keyboard: the viewer, else (bots moving behind the public view,
        or the game over) the human who decided last, who has not passed the keyboard on."""
        return self.viewer if self.viewer is not None else self.referee.sharing_taker()

    def taker(self) -> int | None:
        """Whose last gesture the keyboard's undo takes back: the human at the keyboard.

        In hot-seat play without a curtain (Karakorum) nobody takes the keyboard over:
        the player who just moved keeps their take-back until the next human decides,
        as the referee says (:meth:`Referee.sharing_taker`).
        """
        if len(self.humans) > 1 and not self.game.private_views:
            return self.referee.sharing_taker()
        return self.at_keyboard()

    def do_undo(self) -> bool:
        """Take back your own last gesture and whatever followed it, as the referee allows;
        say whether it was taken back (or asked for).

        Where it needs the other players' consent, they are asked in turn.
        """
        seat = self.taker()
        reason = "Nobody has decided yet." if seat is None else self.referee.undo_refusal(seat)
        if reason is not None:
            self.notify(reason, title="Cannot undo", severity="warning")
            return False
        assert seat is not None
        self.cancel_bot()
        self.referee.undo(seat)
        self.advance()
        return True

    def ask_consent(self, request: TakeBackRequest) -> None:
        """Hot-seat: ask each player whose consent the take-back needs, behind the public view."""
        self.viewer = None  # the one answering must not see the asker's cards
        self.screen.redraw()
        seat = min(request.waiting)
        seats = self.link.seats
        # The public log: the one answering sits behind the public view.
        question = request.question(seats, seat, self.referee.log())

        def answered(yes: bool | None) -> None:
            self.referee.answer(seat, bool(yes))
            if not yes:
                self.notify(request.declined(seats, seat), title="Take-back declined")
            self.advance()

        self.screen.app.push_screen(ConfirmScreen.consent(question), answered)

    def do_redo(self) -> None:
        """Replay your undone gesture (and the bot decisions after it)."""
        seat = self.at_keyboard()
        reason = "There is nothing to redo." if seat is None else self.referee.redo_refusal(seat)
        if reason is not None:
            self.notify(reason, title="Cannot redo", severity="warning")
            return
        self.cancel_bot()
        self.referee.redo(seat)
        self.advance()

    def do_save_as(self) -> None:
        """Give the game a name (see :meth:`SaveDesk.save_as`)."""
        self.saves.save_as()

    def do_leave(self) -> None:
        """Back to the title; the game is saved already."""
        self.cancel_bot()
        self.cancel_hint()
        self.screen.post_message(BackToTitle())

    def commands(self) -> Iterator[SystemCommand]:
        """Save, and Undo and Redo where they may be asked for."""
        yield SystemCommand("Save", "Save this game under a name", self.do_save_as)
        yield from super().commands()
