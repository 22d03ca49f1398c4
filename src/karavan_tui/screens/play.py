"""A game played here: the driver of the table screen for a local match.

The match is run by a :class:`~karavan_core.referee.Referee`, as at a hosted
table: the driver hands it the decisions of the player at the keyboard (from
the table), the bots' (worked out in a worker thread) and the take-backs; the
referee checks them, keeps the save and says what each seat may see.  After
every change the driver redraws and looks at who decides next: a bot (start
it), another human (draw the curtain first) or the game's end.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import ClassVar

from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.worker import get_current_worker

from karavan_core.analysis import Hint, gesture_hints
from karavan_core.bots import Bot
from karavan_core.engine import Action, IllegalAction, Observation, State
from karavan_core.match import Match
from karavan_core.referee import BotTurn, Referee, TakeBackRequest
from karavan_core.saves import new_save_path, save_match
from karavan_core.storage import SaveFile
from karavan_core.text import printable
from karavan_tui.context import karavan_app
from karavan_tui.messages import BackToTitle, GameOver, ShowRules
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.modals.curtain import CurtainScreen, TurnOverScreen
from karavan_tui.modals.full_log import FullLogScreen
from karavan_tui.modals.save_as import SaveAsScreen
from karavan_tui.screens.table import Driver, Frame, Status
from karavan_tui.tables import TurnStep, View, flag_hint


def gesture_of(hint: tuple[Hint, ...] | None) -> tuple[Action, ...]:
    """The decisions a hint suggests, in order (none without a hint)."""
    return () if hint is None else tuple(h.action for h in hint)


# The keys of a player deciding, which a game of bots alone does not offer.
DECIDING_KEYS = frozenset({"undo", "redo", "hint", "actions", "choose"})


class LocalPlay(Driver):
    """A match played at this terminal: hot-seat humans and bots, autosaved to ``save_path``."""

    save_path: Path  # always kept here

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u,ctrl+z", "driver('undo')", "Undo", tooltip="Take back your last decision"),
        Binding("r,ctrl+y", "driver('redo')", "Redo", tooltip="Play an undone decision again"),
        # Short labels: the Footer must hold every key at 80 columns, in ASCII mode too.
        Binding("a", "driver('actions')", "Moves", tooltip="Every legal decision, in words"),
        Binding(
            "h",
            "driver('hint')",
            "Hint",
            tooltip="What the Expert would play here (counted in the save)",
        ),
        Binding("s", "driver('save_as')", "Save", tooltip="Save the game under a name"),
        Binding("l", "driver('full_log')", "Log", show=False, tooltip="Read the whole log"),
        Binding("f1,question_mark", "driver('rules')", "Rules", key_display="F1"),
        Binding(
            "q", "driver('leave')", "Title", tooltip="Back to the title (the game stays saved)"
        ),
        # Offered only while bots move (see allows).
        Binding(
            "n",
            "driver('skip')",
            "Skip",
            tooltip="Let the computer players move without pausing, up to the next human's turn",
        ),
    ]

    def __init__(self, match: Match, save_path: Path) -> None:
        self.match = match
        self.game = match.game
        # The driver autosaves through the referee: a new game once now (an unusable folder
        # raises OSError before play starts), then after every change, off the UI thread.  A
        # save opened only to look at stays as it was ("last played" too).
        self.save_path = save_path
        # A game begun here and left before anyone decided leaves no save behind (it would
        # be the title's Resume); one opened from its file, or named, stays.
        self.begun_here = not save_path.exists()
        if save_path.exists():
            if not os.access(save_path.parent, os.W_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(save_path))
        else:
            save_match(match, save_path)
        self.referee = Referee(match, storage=SaveFile(save_path))
        self.humans = list(self.referee.humans)
        # With one human at the keyboard, that player always sees their own cards.
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.bots: dict[int, Bot] = self.referee.bots
        self.thinking = False
        self.hurrying = False  # the pauses are skipped until a human decides again
        self.hinting = False  # the Expert search is looking for a hint
        # The latest hint (a gesture's decisions, each hinted) and the state it is for.
        self.hint: tuple[State, tuple[Hint, ...]] | None = None
        self._pending = False  # a change happened while another screen was on top
        self.saved_note = "saved"  # any mark: the status draws the symbol set's own
        self.referee.subscribe(lambda _: self._saving())

    # -- life ---------------------------------------------------------------------------
    def start(self) -> None:
        """Let play begin."""
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
        self.flush()
        self.closing()

    def closing(self) -> None:
        """The table is about to close: a game begun here that nobody decided in goes."""
        match = self.match
        if self.begun_here and not match.history and not match.can_redo():
            self.flush()
            self.save_path.unlink(missing_ok=True)

    # -- saving -------------------------------------------------------------------------
    def _saving(self) -> None:
        """After every change the referee writes the match off the UI thread."""
        self.saved_note = "saved"

    def flush(self) -> None:
        """Wait until the newest position is on disk."""
        self.referee.flush()

    # -- drawing ------------------------------------------------------------------------
    def frame(self) -> Frame:
        """The table, scores, log and status, from the viewer's own view of the match."""
        match, g = self.match, self.glyphs
        # The viewer's own view, or the public view when no private card may show.
        seen = self.referee.view(self.viewer)
        since = seen.since
        view = View(
            self.game,
            match.seats,
            seen.observation,
            seen.legal,
            g,
            seen.scores,
            seen.before,
            seen.news,
            match.public_views(),
        )
        hint = self.current_hint()
        log = list(seen.log)
        names = ", ".join(seat.name for seat in match.seats)
        return Frame(
            view,
            subtitle=f"{self.game.title} {g.sep} {names}",
            log_title=f"Log {g.sep} seed {match.seed}",
            to_move=self.referee.to_move,
            winners=seen.outcome.result.winners if seen.outcome is not None else (),
            log=log,
            log_news_from=since + 1,  # the log opens with the deal: decision i is line i + 1
            status=self.status(),
            news=log[since + 1 :],
            news_yours=self.viewer is not None,
            notice=self.taken_back_words(),
            # The log opens with the deal: the viewer's last decision is line ``since``.
            own=log[since] if since and self.viewer is not None else "",
            hinted=gesture_of(hint),
        )

    def taken_back_words(self) -> str:
        """What the player at the keyboard is told of a take-back that was the last change
        (the referee's words, the same at every table); else ""."""
        last = self.referee.last_change
        if self.viewer is None or last is None or last[0].kind != "undo":
            return ""
        return self.referee.notice(self.viewer) or ""

    def status(self) -> Status:
        """The hint or the game's prompt, a busy mark, the saved mark (or NOT SAVED)."""
        error = self.referee.save_error
        if error is not None and self.saved_note != "NOT SAVED":
            self.saved_note = "NOT SAVED"
            self.notify(f"Autosave failed: {error.strerror or error}", severity="error")
        # The symbol set may have changed since the save: its own mark is drawn.
        note = self.glyphs.saved if self.saved_note == "saved" else self.saved_note
        hint = self.current_hint()
        match = self.match
        seat = match.to_move
        prompt = (
            self.table.hint_words(hint)
            if hint is not None
            else "Looking for a hint"
            if self.hinting
            # The game's prompt speaks to the player who decides: not to a bot.
            else f"{match.seats[seat].name}'s turn"
            if seat is not None and match.seats[seat].is_bot
            else self.game.prompt(match.view(self.viewer))
        )
        return Status(prompt, busy=self.thinking or self.hinting, note=note, hint=hint is not None)

    # -- whose decision -------------------------------------------------------------------
    def advance(self) -> None:
        """After any change: redraw, then start a bot, draw the curtain, or end the game."""
        self.cancel_bot()
        self.cancel_hint()
        screen = self.screen
        if not screen.is_on_top():
            self._pending = True
            screen.redraw()
            return
        match, referee = self.match, self.referee
        if referee.bot_to_move() is None:
            self.hurrying = False  # a human decides next (or nobody): pauses come back
        if referee.is_over():
            karavan_app(screen).tell_turn(False)
            screen.redraw()
            screen.post_message(GameOver(match))
            return
        seat = referee.to_move
        assert seat is not None
        if referee.request is not None:
            screen.redraw()
            self.ask_consent(referee.request)
            return
        turn = referee.bot_turn()
        # A bell and the title (the browser tab's) once the bots have moved and a person
        # is to decide.
        karavan_app(screen).tell_turn(turn is None)
        if turn is not None:
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
            return
        handed_over = self.viewer != seat and not match.game.private_views
        if handed_over:
            self.viewer = seat  # nothing is private: the next player just takes the keyboard
        if self.viewer != seat:
            if not self.tell_turn_over():
                self.draw_curtain(seat)
            return
        screen.redraw()
        if handed_over:
            self.table.start_afresh()
        self.table.on_turn()

    def draw_curtain(self, seat: int) -> None:
        """Hot-seat: hide the table until ``seat``'s player takes the keyboard (Enter).

        The curtain tells what happened since that player's last decision; its **u**
        takes back the last human's decision without lifting it.
        """
        screen, match = self.screen, self.match
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
        since = match.last_move_of(seat)
        news = match.log()[since + 1 :]
        taker = self.at_keyboard()
        may_take_back = taker is not None and self.referee.undo_refusal(taker) is None
        curtain = CurtainScreen(
            match.seats[seat].name,
            news=news,
            first=since + 1,
            taker=match.seats[taker].name if taker is not None and may_take_back else None,
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
        note = self.table.turn_note(self.turn_steps(seat))
        if not note:
            return False
        self.viewer = None
        self.screen.redraw()
        self.screen.app.clear_notifications()  # the note says it all, to that player alone
        name = self.match.seats[seat].name
        self.screen.app.push_screen(TurnOverScreen(name, note), lambda _: self.advance())
        return True

    def turn_steps(self, seat: int) -> list[TurnStep]:
        """``seat``'s decisions since the last of another seat's, each with its own views
        before and after it (what it saw of its turn)."""
        match = self.match
        first = len(match.history)
        while first > 0 and match.actor(first - 1) == seat:
            first -= 1
        return [
            (match.view(seat, i), match.history[i], match.view(seat, i + 1))
            for i in range(first, len(match.history))
        ]

    def _my_turn(self) -> bool:
        """Whether the player at the keyboard must decide now; say why not otherwise."""
        seat = self.match.to_move
        if seat is None:
            self.notify("The game is over.", severity="warning")
            return False
        if seat != self.viewer or self.match.seats[seat].is_bot:
            self.notify(f"Wait: it is {self.match.seats[seat].name}'s turn.", severity="warning")
            return False
        return True

    # -- the table's gestures ---------------------------------------------------------------
    def decide(self, *actions: Action) -> bool:
        """Play one gesture for the player at the keyboard; refuse it, saying why, if illegal.

        The match plays ``actions`` (buy, then pay) as one undo step, or none of them.
        """
        if not self._my_turn() or not actions:
            return False
        assert self.viewer is not None
        try:
            self.referee.play(self.viewer, actions)
        except IllegalAction as error:
            self.notify(str(error), title="Not allowed", severity="warning")
            return False
        self.advance()
        return True

    def check(self, *actions: Action) -> str | None:
        """The referee's reason for refusing this gesture now, or ``None`` if it would play it."""
        if self.viewer is None:
            seat = self.referee.to_move
            return (
                "The game is over."
                if seat is None
                else f"It is {self.match.seats[seat].name}'s turn."
            )
        return self.referee.refusal(self.viewer, actions)

    def preview(self, action: Action) -> str:
        """``action`` in words before it is taken, from the viewer's own observation."""
        return self.game.preview(self.match.view(self.viewer), action)

    # -- bots ---------------------------------------------------------------------------------
    def think(self, turn: BotTurn, delay: float) -> None:
        """Let the bot of ``turn`` choose in a worker thread; its decision is played once the
        pause the referee gives it (``delay`` between turns) is over, the thinking included,
        or at once when the player skips the pauses."""

        def choose() -> None:
            worker = get_current_worker()
            end = time.monotonic() + turn.pause(delay)
            action = turn.choose()
            while not self.hurrying and (left := end - time.monotonic()) > 0:
                if worker.is_cancelled:
                    return
                time.sleep(min(left, 0.05))
            if worker.is_cancelled:
                return
            try:
                self.screen.app.call_from_thread(self._bot_chose, turn, action)
            except RuntimeError:  # the app closed meanwhile
                return

        self.screen.run_worker(
            choose, thread=True, exclusive=True, group="bot", exit_on_error=False
        )

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
    def hint_allowed(self) -> bool:
        """Whether a hint may be asked now: a human's own turn, in sight of that human only."""
        seat = self.match.to_move
        return (
            seat is not None
            and seat == self.viewer
            and not self.match.seats[seat].is_bot
            and not self.thinking
        )

    def current_hint(self) -> tuple[Hint, ...] | None:
        """The hint for the position on the table, if one was asked for it."""
        if self.hint is None or not self.hint_allowed():
            return None
        state, hint = self.hint
        return hint if state is self.match.state else None

    def do_hint(self) -> None:
        """Ask the Expert search, in a worker, what to play now (from the player's view only).

        It is the search the review judges this decision by (the same seed and budget),
        so the review never faults a decision the hint chose.
        """
        if not self._my_turn():
            return
        hint = self.current_hint()
        if hint is not None:  # asked already: point at it again, counted once
            self.show_hint(hint)
            return
        if self.hinting:
            return
        seat = self.match.to_move
        assert seat is not None
        state = self.match.state
        # The search is given the player's own observation and decisions, never the state.
        observation = self.game.observe(state, seat)
        legal = list(self.referee.legal())
        self.hinting = True
        self.screen.refresh_status()
        self.find_hint(observation, legal, lambda found: self._hint_found(state, seat, found))

    def find_hint(
        self,
        observation: Observation,
        legal: list[Action],
        done: Callable[[tuple[Hint, ...] | Exception], None],
    ) -> None:
        """Search for a hint off the UI thread; ``done`` gets it (or what went wrong) on the
        UI thread."""
        game, follows = self.game, self.table.hint_follows
        seed, index = self.match.seed, len(self.match.history)
        budget = karavan_app(self.screen).config.review_budget

        def search() -> None:
            worker = get_current_worker()
            found: tuple[Hint, ...] | Exception
            try:
                found = gesture_hints(game, observation, legal, seed, index, budget, follows)
            except Exception as error:  # said on the status line, not left "thinking"
                found = error
            if worker.is_cancelled:
                return
            try:
                self.screen.app.call_from_thread(done, found)
            except RuntimeError:  # the app closed meanwhile
                return

        self.screen.run_worker(
            search, thread=True, exclusive=True, group="hint", exit_on_error=False
        )

    def _hint_found(self, state: State, seat: int, found: tuple[Hint, ...] | Exception) -> None:
        """Show a hint, counted in the save, unless the game moved on since it was asked."""
        if not self.hinting:
            return
        self.hinting = False
        if isinstance(found, Exception):
            self.screen.refresh_status()
            self.notify(f"No hint this time: {found}", title="Hint", severity="error")
            return
        if self.match.state is not state or self.viewer != seat:
            self.screen.refresh_status()
            return
        self.hint = (state, found)
        self.referee.count_hint(seat)
        self.show_hint(found)

    def show_hint(self, hint: tuple[Hint, ...]) -> None:
        """Mark the hint on the table, laid where Enter plays it, and in any picker open.

        Marked on the table and said on the status line, both gone with the move: no
        toast, which would cover the table and outlive the position it is for.
        """
        gesture = gesture_of(hint)
        self.table.mark_hint(gesture, point=True)
        self.table.lay_hint(gesture)
        self.screen.flag_in_picker(gesture)
        self.screen.refresh_status()

    def cancel_hint(self) -> None:
        """Stop looking for a hint; its answer, if it still comes, is ignored."""
        self.hinting = False
        self.screen.workers.cancel_group(self.screen, "hint")

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
        if name == "undo":
            # Greyed when nothing may be taken back at all; else a refusal says why not.
            return True if self.match.can_undo() and not self.referee.is_over() else None
        if name == "redo":
            return True if self.match.can_redo() else None
        if name == "hint":
            if self.thinking:
                return False  # never while bots move: its room in the Footer goes to Skip
            return True if self.hint_allowed() else None
        return True

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
        question = request.question(self.match.seats, seat)

        def answered(yes: bool | None) -> None:
            self.referee.answer(seat, bool(yes))
            if not yes:
                self.notify(request.declined(self.match.seats, seat), title="Take-back declined")
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

    def do_actions(self) -> None:
        """List every legal decision in words."""
        if not self._my_turn():
            return
        # Decisions that read the same are the same to the player (two face-up silks):
        # each is listed once.
        choices = self.referee.view(self.viewer).choices(distinct=True)
        words, actions = [w for _, w in choices], [a for a, _ in choices]
        highlight = flag_hint(words, actions, gesture_of(self.current_hint()))
        title = "Every move you can make now"
        pick = self.table.take_listed
        self.screen.choose(
            title,
            words,
            lambda i: pick(actions[i]),
            searchable=True,
            highlight=highlight,
            actions=actions,
            beside=False,
        )

    def do_save_as(self) -> None:
        """Give the game a name: its save file moves there, and autosave goes on in it."""
        folder = karavan_app(self.screen).config.saves_dir

        def named(name: str | None) -> None:
            if not name:
                return
            if name == self.save_path.stem:  # its own name: autosaved there after every decision
                self.notify(f"Saved as {printable(self.save_path.name)}.")
                return
            path = new_save_path(folder, self.game.name, stem=name)
            try:
                self.referee.relocate(path)  # moved, not copied: one game, one file
            except OSError as error:
                self.notify(f"Could not save: {error.strerror or error}", severity="error")
                return
            self.save_path = path
            self.begun_here = False  # named: kept, played or not
            self.screen.refresh_status()
            self.notify(f"Saved as {printable(path.name)}.")

        self.screen.app.push_screen(SaveAsScreen(self.save_path.stem), named)

    def do_full_log(self) -> None:
        """Read the whole log."""
        title = f"{self.game.title}: every decision so far"
        self.screen.app.push_screen(FullLogScreen(title, self.match.log()))

    def do_rules(self) -> None:
        """Show this game's rules."""
        self.screen.post_message(ShowRules(self.game.name))

    def do_leave(self) -> None:
        """Back to the title; the game is saved already."""
        self.cancel_bot()
        self.cancel_hint()
        self.screen.post_message(BackToTitle())

    def commands(self) -> Iterator[SystemCommand]:
        """Save, and Undo and Redo where they may be asked for."""
        yield SystemCommand("Save", "Save this game under a name", self.do_save_as)
        if self.match.can_undo() and not self.match.is_over():
            yield SystemCommand("Undo", "Take back your last decision", self.do_undo)
        if self.match.can_redo():
            yield SystemCommand("Redo", "Replay an undone decision", self.do_redo)
