"""Learn to play: a lesson's guided game, played at the normal table.

The driver is the local table's (:class:`~karavan_tui.screens.play.LocalPlay`)
with a :class:`~karavan_core.lessons.Lesson` on top: the match is the
lesson's deal, the learner plays the first seat and the lesson plays the
Greedy opponent's scripted decisions, and the stretches between its steps, by
itself.  At each step the panel beside the table says what happened (the log's
own words) and what to do, the table marks the card to use, and a decision
other than the lesson's is refused with the reason to make the lesson's
instead.  The step reached is kept in the settings: leaving and coming back
goes on from it (the game is dealt again and played up to there).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from attrs import evolve
from textual.binding import Binding, BindingType

from karavan_core.engine import Action, IllegalAction, Observation
from karavan_core.lessons import LEARNER, OPPONENT_LEVEL, OPPONENT_NAME, Lesson, Step
from karavan_core.match import BOT, Match, Seat
from karavan_tui.context import karavan_app
from karavan_tui.messages import BackToTitle, OpenMatch
from karavan_tui.modals.confirm import ConfirmScreen
from karavan_tui.screens.play import LocalPlay
from karavan_tui.screens.table import Frame, Status
from karavan_tui.widgets.lesson import LessonPanel

DEFAULT_NAME = "Learner"
LESSON_REFUSAL = "Not the lesson's move: its panel says which, and why."
_KEPT = {"actions", "rules"}


def opponent() -> Seat:
    """The lesson's opponent, and the one a finished lesson offers a real game against."""
    return Seat(OPPONENT_NAME, BOT, OPPONENT_LEVEL)


class LessonPlay(LocalPlay):
    """The lesson ``lesson`` at the table, for ``name``, from step number ``step``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next", "Next", tooltip="Go on with the lesson"),
        # The table's own keys but the take-backs, the hint and the save: the lesson leads.
        *(
            binding
            for binding in LocalPlay.BINDINGS
            if isinstance(binding, Binding) and binding.action in _KEPT
        ),
        # Shown: the panel stands where the log was.
        Binding("l", "full_log", "Log", tooltip="Read the whole log"),
        # The panel may run past the screen at 80x24; the arrows belong to the cards.
        Binding("pagedown", "scroll_lesson(1)", "Lesson down", show=False),
        Binding("pageup", "scroll_lesson(-1)", "Lesson up", show=False),
        Binding(
            "q",
            "leave",
            "Title",
            tooltip="Leave the lesson: it goes on from this step next time",
        ),
    ]

    def __init__(self, lesson: Lesson, name: str, save_path: Path, step: int = 0) -> None:
        self.lesson = lesson
        if not 0 <= step < len(lesson.steps):
            step = 0  # finished (or unknown): the lesson starts again
        self.step = step
        match = Match(lesson.game, [Seat(name), opponent()], lesson.seed, lesson.options)
        for move in lesson.moves[: lesson.steps[step].at]:
            match.play(move)  # the steps done on an earlier visit, played again
        save_path.unlink(missing_ok=True)  # the lesson's own file: its game is made anew
        super().__init__(match, save_path)
        # The panel tells the decisions from the learner's last one on (back at a step: the
        # stretch played for the learner before it).
        self.told_from = max(0, self.link.view(LEARNER).since - 1)
        # Decisions made once the learner's last gesture at the keyboard was played (the
        # lesson plays some of the learner's own): the news line tells what came after.
        self.keyed_to = 0
        self.advice = ""  # why the lesson's decision, after another was tried
        self.panel = LessonPanel(id="lesson")

    # -- where the lesson is ----------------------------------------------------------------
    @property
    def current(self) -> Step | None:
        """The step the learner is at (``None`` once the lesson is over)."""
        steps = self.lesson.steps
        return steps[self.step] if self.step < len(steps) else None

    def expected(self) -> tuple[Action, ...]:
        """The learner's decisions the step still waits for (none: read it and go on)."""
        step = self.current
        if step is None or not step.decisions:
            return ()
        return self.lesson.moves[self.link.decisions() : step.end]

    def remember(self) -> None:
        """Keep the step reached in the settings (a step done is never done again)."""
        app = karavan_app(self.screen)
        app.settings.lessons[self.lesson.game_name] = self.step
        app.save_settings()

    # -- life -------------------------------------------------------------------------------
    def start(self) -> None:
        """Put the lesson's panel beside the table, then play on."""
        log = self.screen.query_one("#log")
        log.display = False  # the panel tells the news in its place; l shows the whole log
        self.screen.query_one("#side").mount(self.panel, before=log)
        self.remember()
        super().start()

    def advance(self) -> None:
        """Play what the lesson plays itself, then wait for the learner (or the reading)."""
        self.cancel_bot()
        screen = self.screen
        if not screen.is_on_top():
            self._pending = True
            screen.redraw()
            return
        self.play_script()
        expected = self.expected()
        if expected and self.to_move() == LEARNER:
            super().advance()  # the learner decides: the table as usual
            if screen.is_on_top():  # the cursor on the card to use: Enter plays it
                self.table.mark_hint(expected[:1], point=True)
        else:
            screen.redraw()
        self.tell()

    def play_script(self) -> None:
        """Play the decisions up to the next step that waits for the learner."""
        lesson = self.lesson
        while True:
            step = self.current
            played = self.link.decisions()
            if step is not None and step.decisions and played >= step.end:
                self.step += 1  # done: on to the next step
                self.remember()
                continue
            if step is None or played >= step.at:
                return
            self.play_move(lesson.moves[played])

    def play_move(self, move: Action) -> None:
        """Play one of the lesson's own decisions, for whichever seat takes it."""
        if self.to_move() == LEARNER:
            self.referee.play(LEARNER, (move,))
            return
        turn = self.referee.bot_turn()
        if turn is None or not self.referee.play_bot(turn, move):
            raise IllegalAction("The lesson's opponent cannot decide now.")

    def do_next(self) -> None:
        """Go on: the step was read (a step that waits for a decision says what to do)."""
        step = self.current
        if step is None:
            self.finish()
            return
        if step.decisions:
            self.notify(f"First {step.task[:1].lower()}{step.task[1:]}", title="Your move")
            return
        self.step += 1
        self.advice = ""
        self.told_from = self.link.decisions()
        self.remember()
        if self.current is None:
            self.finish()
            return
        self.advance()

    def do_scroll_lesson(self, pages: int) -> None:
        """Scroll the lesson's panel a page down (``1``) or up (``-1``)."""
        if pages > 0:
            self.panel.scroll_page_down(animate=False)
        else:
            self.panel.scroll_page_up(animate=False)

    def finish(self) -> None:
        """The lesson is over: offer a real game against Greedy."""
        game = self.game

        def answered(yes: bool | None) -> None:
            if not yes:
                self.screen.post_message(BackToTitle())
                return
            seed = karavan_app(self.screen).config.seed_factory()
            seats = [self.link.seats[LEARNER], opponent()]
            self.screen.post_message(OpenMatch(Match(game, seats, seed)))

        question = (
            f"That was the {game.title} lesson: you know every rule now. "
            f"Play a real game against {OPPONENT_NAME}?"
        )
        self.screen.app.push_screen(ConfirmScreen(question, yes="Play"), answered)

    # -- words --------------------------------------------------------------------------------
    def tell(self) -> None:
        """The panel: what happened since the learner's last decision, the step, advice."""
        step = self.current
        if step is None:
            return
        happened = list(self.seen().log[self.told_from + 1 :])
        title = f"Lesson {self.glyphs.sep} step {self.step + 1} of {len(self.lesson.steps)}"
        self.panel.show(title, happened, step.say, self.advice, self.glyphs)

    def frame(self) -> Frame:
        """The table as usual, the lesson's decision marked on it, and the news of the step."""
        frame = super().frame()
        expected = self.expected()
        g = self.glyphs
        step = f"step {self.step + 1} of {len(self.lesson.steps)}"
        # The news line tells what the panel tells, but for the learner's own gesture: the
        # decisions the lesson played since (the learner's too), not since the learner's last.
        since = max(self.told_from, self.keyed_to)
        mine = since == self.keyed_to > 0
        log, news = frame.log, frame.log[since + 1 :]
        # Nothing since the step began, where no move of the learner's came last: said so.
        untold = not news and not mine and len(log) > 1
        return evolve(
            frame,
            subtitle=f"Learn to play {self.game.title} {g.sep} {step}",
            hinted=expected[:1] if self.to_move() == LEARNER else (),
            news=news,
            own=log[since] if mine else "",
            notice="Nothing new since this step began." if untold else frame.notice,
        )

    def status(self) -> Status:
        """The step's task; a step to read says how to go on."""
        step = self.current
        if step is None:
            return Status("The lesson is over.")
        if step.decisions:
            return Status(step.task)
        return Status(f"{step.task} {self.glyphs.sep} n goes on")

    # -- the learner's decisions ---------------------------------------------------------------
    def views(self, expected: tuple[Action, ...]) -> list[Observation]:
        """The learner's view before each of the step's next decisions, as far as it is known.

        The first is the table now; each next one follows the lesson's own decisions,
        as long as they reveal nothing (the engine checks it), so it is exactly what
        the learner will see then.
        """
        return self.link.views_along(LEARNER, expected)

    def lesson_gesture(self, actions: tuple[Action, ...]) -> tuple[Action, ...] | str:
        """The lesson's own decisions that ``actions`` (legal ones) make, or why not.

        A decision that reads the same as the lesson's (the other of two face-up silks)
        is the same to the player: the lesson's own is played for it.
        """
        step = self.current
        expected = self.expected()
        if step is None:
            return "The lesson is over."
        if not expected:
            return "Read the lesson first, then press n to go on."
        if actions == expected[: len(actions)]:
            return actions
        views = self.views(expected)
        preview = self.game.preview
        done = self.link.decisions() - step.at  # of the step's decisions, made already
        for index, (action, wanted) in enumerate(zip(actions, expected, strict=False)):
            if action == wanted:
                continue
            if index < len(views) and preview(views[index], action) == preview(
                views[index], wanted
            ):
                continue
            at = min(index, len(views) - 1)
            return self.instead(preview(views[at], expected[at]), step.reason(done + at))
        if len(actions) > len(expected):
            return self.instead(preview(views[0], expected[0]), step.reason(done))
        return expected[: len(actions)]

    @staticmethod
    def instead(words: str, why: str) -> str:
        """The lesson's answer to another decision than its own: which to make (``words``),
        and ``why`` that one (the reason for it, not for the step's other decisions).

        Said as what the learner is to do: the lesson plays none of the learner's moves.
        """
        return f"Not this one. Make this move instead: {words.rstrip('.')}, because {why}"

    def check(self, *actions: Action) -> str | None:
        """The rules' refusal, else the lesson's (another decision than the step's)."""
        reason = super().check(*actions)
        if reason is not None or not actions:
            return reason
        gesture = self.lesson_gesture(tuple(actions))
        return gesture if isinstance(gesture, str) else None

    def decide(self, *actions: Action) -> bool:
        """Play the step's decision; another legal one is refused, with the reason."""
        if not actions or super().check(*actions) is not None:
            return super().decide(*actions)  # says why not, as at any table
        gesture = self.lesson_gesture(tuple(actions))
        if isinstance(gesture, str):
            self.advice = gesture  # in full at the top of the panel: the note only points there
            self.notify(LESSON_REFUSAL, title="The lesson", severity="warning")
            self.tell()
            return False
        self.advice = ""
        self.told_from = self.link.decisions()
        self.keyed_to = self.told_from + len(gesture)
        return super().decide(*gesture)

    def allows(self, name: str) -> bool | None:
        """Next is always offered: on a step that waits for a move it says which."""
        if name == "next":
            return True
        return super().allows(name)
