"""One screen for every table: a game played here, a hosted game joined, a saved game replayed.

The screen lays a game's table out once (header, the line of news or the
replay's position, the table beside the scores and the log, the status line,
the keys) and draws it from one :class:`Frame`.  What stands behind it is a
:class:`Driver`: the local match and its referee, a hosted table's client, or
a saved match being stepped through.  The driver makes the frame, owns the
keys it offers and answers the table's gestures; the screen only draws,
opens pickers and passes the keys on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Click, MouseDown
from textual.geometry import Region
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Static

from karavan_core.engine import Action, Game
from karavan_tui.context import karavan_app
from karavan_tui.glyphs import Glyphs
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.screens.key_list import KEYS_ACTION, key_entries
from karavan_tui.tables import HINT_FLAG, TableView, View, hinted_index, table_for
from karavan_tui.textual_fixes import add_bindings
from karavan_tui.widgets.chrome import AppHeader
from karavan_tui.widgets.clocks import ClockBoard, Timing
from karavan_tui.widgets.redraw import redraw_for_a_moment
from karavan_tui.widgets.side import GameLog, NewsBanner, ScoreBoard, StatusLine

# From this size a picker about a part of the table opens beside it, over the side panel.
WIDE, TALL = 120, 40


TAP_QUIET = 0.3  # seconds after a decision in which a tap decides nothing (a double tap)


class TableKind(StrEnum):
    """What a table screen stands for: its CSS class is ``-`` and this."""

    PLAY = "play"  # a game played here
    JOIN = "join"  # a seat at a hosted table (or watching one)
    REPLAY = "replay"  # a saved game stepped through


@frozen
class Status:
    """What the status line says: the driver's words, and what comes with them.

    The table's marking status ("3 cards marked: …") goes before ``prompt``
    unless the prompt comes ``first`` (a take-back waiting for an answer), or
    the prompt is a ``hint`` whose marks are on the table (then it says both);
    ``presence`` (who or what holds the game up) goes before everything.
    """

    prompt: str
    busy: bool = False  # a bot thinks, a hint is looked for, a decision is on its way
    note: str = ""  # the saved mark
    first: bool = False
    presence: str = ""
    hint: bool = False  # the prompt says a hint: marks the hint laid are said as it


@frozen
class Frame:
    """Everything the table screen shows at one moment, made by its driver."""

    view: View
    subtitle: str
    log_title: str
    to_move: int | None
    winners: tuple[int, ...]
    log: Sequence[str]
    log_news_from: int | None  # the log's first line told in bold (the news), if any
    status: Status
    news: Sequence[str] = ()  # the news line's log lines
    news_yours: bool = True  # someone is at the keyboard: "nothing new" may be said
    notice: str = ""  # said on the news line instead of the news: what a take-back took back
    own: str = ""  # the viewer's last decision (its log line), said when nothing came after it
    hinted: tuple[Action, ...] = ()  # the gesture to mark on the table (its decisions)
    info: str = ""  # the replay's position line
    face_up: Text | None = None  # every card face up (a finished game's replay)
    invite: str = ""  # how the players still missing join (the host's own table)
    clock: Timing | None = None  # a timed online table's clocks


class Driver:
    """What stands behind a table screen: it makes the frames and does what the keys ask.

    A driver is attached to its screen once, before the screen is composed;
    ``start`` runs when the screen is first shown, ``resumed`` when it comes
    back on top, ``stop`` when it closes.  Its ``BINDINGS`` are the screen's
    keys: the action ``name(*args)`` of one calls the driver's ``do_<name>``,
    and ``allows(name)`` greys a key out (``None``) or hides it (``False``).
    """

    BINDINGS: ClassVar[list[BindingType]] = []
    KIND: ClassVar[TableKind] = TableKind.PLAY  # the screen's class: -play, -join or -replay
    NEWS_LINE: ClassVar[bool] = True  # the line of news over the table (a replay has its info)

    game: Game[Any, Any, Any]
    save_path: Path | None = None  # the file the game is kept in, if it is kept here

    def attach(self, screen: TableScreen) -> None:
        """Belong to ``screen``."""
        self.screen = screen

    @property
    def table(self) -> TableView:
        """The screen's table."""
        return self.screen.table

    @property
    def glyphs(self) -> Glyphs:
        """The current symbol set."""
        return karavan_app(self.screen).glyphs

    def notify(self, message: str, **kwargs: Any) -> None:
        """A toast over the table."""
        self.screen.notify(message, **kwargs)

    # -- life ---------------------------------------------------------------------------
    def start(self) -> None:
        """The screen is shown for the first time."""
        self.screen.redraw()

    def resumed(self) -> None:
        """The screen is back on top (a dialog or the rules closed)."""
        self.screen.redraw()

    def stop(self) -> None:
        """The screen closes."""

    def flush(self) -> None:
        """Wait until what must be kept is on disk."""

    def closing(self) -> None:
        """The screen is about to close (before the one under it is shown again)."""

    # -- drawing --------------------------------------------------------------------------
    def frame(self) -> Frame | None:
        """What to draw now (``None`` before there is anything)."""
        raise NotImplementedError

    def status(self) -> Status | None:
        """What the status line says now (drawn again when the table's marks change)."""
        frame = self.frame()
        return frame.status if frame is not None else None

    # -- the table's gestures -------------------------------------------------------------
    def decide(self, *actions: Action) -> bool:
        """Play one gesture for the player at the keyboard, or refuse it saying why."""
        raise NotImplementedError

    def check(self, *actions: Action) -> str | None:
        """The reason this gesture would be refused now, or ``None``."""
        raise NotImplementedError

    def preview(self, action: Action) -> str:
        """``action`` in words before it is taken, from what the viewer may know."""
        raise NotImplementedError

    # -- keys -----------------------------------------------------------------------------
    def allows(self, name: str) -> bool | None:
        """Whether the key doing ``name`` works now (``None``: shown greyed out)."""
        return True

    def commands(self) -> Iterator[SystemCommand]:
        """This table's own commands in the command palette."""
        return iter(())

    def below(self) -> Iterator[Widget]:
        """Widgets of the driver's own, under the table and over the status line (a hosted
        table's chat)."""
        return iter(())


class PanelTab(Static):
    """One of the two tabs over a narrow table: the table, or the scores and the log."""

    def __init__(self, label: str, side: bool, **kwargs: Any) -> None:
        super().__init__(label, markup=False, **kwargs)
        self.side = side  # the tab of the side panel

    def on_click(self, event: Click) -> None:
        """Show what this tab names."""
        event.stop()
        screen = self.screen
        if isinstance(screen, TableScreen):
            screen.show_side(self.side)


class TableFooter(Footer):
    """The table's Footer: below 80 columns it leaves the palette out, to keep its room for
    the table's keys (the list of keys has the palette)."""

    def compose(self) -> ComposeResult:
        """The keys, for the screen's width now (the Footer is composed again as it changes)."""
        self.set_reactive(Footer.show_command_palette, not self.screen.has_class("-slim"))
        yield from super().compose()


class TableScreen(Screen[None]):
    """A game's table, driven by ``driver``."""

    # Below 80 columns the side panel takes the table's place: a key, or a tap on its tab.
    # And its Footer shows four keys: the list of every key is one more.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("i", "toggle_side", "Scores", tooltip="The scores and the log, or the table"),
        Binding(
            "full_stop",
            KEYS_ACTION,
            "Keys",
            key_display=".",
            tooltip="Every key of the table, to choose from",
        ),
    ]

    CSS_PATH = ["game.tcss", "replay.tcss"]
    DEFAULT_CLASSES = "table-screen"
    # Classes the screen takes by its width: below 80 columns (a phone held upright) the
    # table's zones are stacked and the side panel is a key away; from 120 they spread out.
    HORIZONTAL_BREAKPOINTS = [(0, "-slim"), (80, "-narrow"), (120, "-wide"), (180, "-huge")]
    # And by its height: from 40 rows cards may be drawn boxed or large (widgets/cards.py).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (40, "-tall")]

    def __init__(self, driver: Driver) -> None:
        super().__init__(classes=f"{self.DEFAULT_CLASSES} -{driver.KIND}")
        self.driver = driver
        self.game = driver.game
        # The keys are the driver's: Textual keeps a node's bindings per instance.
        add_bindings(self, driver.BINDINGS)
        self.table: TableView = table_for(self.game.name)(self, id="table")
        if not driver.NEWS_LINE:
            self.AUTO_FOCUS = ""  # type: ignore[misc]  # a replay: the arrows step, nothing to focus
        elif self.table.FIRST_FOCUS:
            self.AUTO_FOCUS = self.table.FIRST_FOCUS  # type: ignore[misc]  # read per instance
        self.shown: Frame | None = None
        # The picker open now, with the decisions its entries stand for (if they are some).
        self.picker: tuple[ChoiceScreen, tuple[Action, ...]] | None = None
        self.nudging: Timer | None = None  # drawing again under a dialog (repaint_under_dialog)
        self.table_focus: Widget | None = None  # the table's part that had the keys (narrow)
        # When the last decision was made and the screen last tapped (monotonic).
        self.decided_at = self.tapped_at = -1.0
        # Where the last tap landed, and where the tap that made the last decision had.
        self.tapped_spot: tuple[int, int] | None = None
        self.decided_spot: tuple[int, int] | None = None
        driver.attach(self)

    def compose(self) -> ComposeResult:
        """Header, news or position line, table beside scores and log, the driver's own (a
        chat), status line, keys."""
        yield AppHeader()
        if self.driver.NEWS_LINE:
            yield NewsBanner(id="banner")
        else:
            yield Static("", id="replay-info")
        with Horizontal(id="panel-tabs"):
            yield PanelTab("Table", side=False, id="tab-table", classes="-active")
            yield PanelTab("Scores · log (i)", side=True, id="tab-side")
        yield ClockBoard(compact=True, id="clock-strip")  # a narrow screen's, over the table
        with Horizontal(id="main"):
            yield self.table
            with Vertical(id="side"):
                yield ScoreBoard(id="scores")
                yield ClockBoard(id="clocks", ring=self.ring_for_time)
                yield Static("", id="invite", markup=False)
                yield GameLog(id="log")
                if not self.driver.NEWS_LINE:
                    with VerticalScroll(id="face-up"):
                        yield Static("", id="face-up-text")
        yield from self.driver.below()
        yield StatusLine(id="status")
        # Compact: every key of the table fits in the Footer at 80 columns.
        yield TableFooter(compact=True)

    def on_mount(self) -> None:
        """Let the driver begin."""
        self.query_one("#invite").border_title = "How to join"
        self.query_one("#clocks").border_title = "Clocks"
        if not self.driver.NEWS_LINE:
            self.query_one("#face-up").border_title = "Every card face up"
        self.driver.start()

    def on_screen_resume(self) -> None:
        """Catch up with what changed while another screen was on top."""
        self.driver.resumed()

    def on_unmount(self) -> None:
        """Let the driver stop."""
        self.driver.stop()

    @property
    def glyphs(self) -> Glyphs:
        """The current symbol set."""
        return karavan_app(self).glyphs

    def is_on_top(self) -> bool:
        """Whether this screen is the one shown (no dialog or other screen over it)."""
        return self.is_mounted and self.app.screen is self

    # -- drawing --------------------------------------------------------------------------
    def redraw(self) -> None:
        """Draw the driver's frame now."""
        frame = self.driver.frame()
        if frame is None or not self.is_mounted:
            return
        self.shown = frame
        g = self.glyphs
        view = frame.view
        self.sub_title = frame.subtitle
        self.query_one(GameLog).border_title = frame.log_title
        self.table.show(view)
        self.table.mark_hint(frame.hinted)
        scores = self.query_one(ScoreBoard)
        scores.show(view.seats, view.score_words, frame.to_move, frame.winners, g)
        game = self.game
        over = frame.to_move is None and bool(frame.winners)
        scores.border_title = (game.final_label if over else None) or game.score_label
        scores.border_subtitle = None if over else game.score_note
        self.query_one(GameLog).show(frame.log, frame.log_news_from, g)
        for clocks in self.query(ClockBoard):
            clocks.show(frame.clock)
        invite = self.query_one("#invite", Static)
        invite.display = bool(frame.invite)
        if frame.invite:
            invite.update(frame.invite)
        if self.driver.NEWS_LINE:
            names = [seat.name for seat in view.seats]
            weights = [self.table.news_weight(action) for action in view.news]
            banner = self.query_one(NewsBanner)
            # The log opens with the deal: a log of that line alone is a game nobody has moved in.
            opening = len(frame.log) <= 1
            banner.show(
                frame.news, names, frame.news_yours, g, weights, opening, frame.notice, frame.own
            )
        else:
            self.query_one("#replay-info", Static).update(Text(frame.info))
            face_up = frame.face_up is not None
            self.query_one("#face-up").display = face_up
            self.query_one(GameLog).display = not face_up
            if frame.face_up is not None:
                self.query_one("#face-up-text", Static).update(frame.face_up)
        self.draw_status(frame.status)
        self.refresh_bindings()

    def ring_for_time(self) -> None:
        """The bell, as the player's own live clock enters its last seconds (if wanted)."""
        if karavan_app(self).settings.clock_bell:
            self.app.bell()

    def refresh_status(self) -> None:
        """Draw the status line again (the table's marks changed)."""
        status = self.driver.status()
        if status is not None and self.is_mounted:
            self.draw_status(status)

    def draw_status(self, status: Status) -> None:
        """The status line: the presence, then the marks or the driver's words."""
        hint = status.prompt if status.hint else None
        marking = None if status.first else self.table.marking_status(hint)
        prompt = marking or status.prompt
        if status.presence:  # first: a missing player or connection holds the game up
            prompt = f"{status.presence} {self.glyphs.sep} {prompt}"
        self.query_one(StatusLine).show(prompt, status.busy, status.note, self.glyphs)
        if self.is_mounted and not self.is_on_top():
            self.repaint_under_dialog()

    def repaint_under_dialog(self) -> None:
        """Have this screen drawn again beneath the dialog over it (see widgets/redraw.py:
        a hint that came just as a picker opened stayed "Looking for a hint" under it)."""
        self.nudging = redraw_for_a_moment(self, self.nudging)

    # -- the table's host (TableHost) -----------------------------------------------------
    def decide(self, *actions: Action) -> bool:
        """Play one gesture (through the driver); not one tapped within :data:`TAP_QUIET` of
        a decision tapped at the same spot (a double tap's second: a quick tap elsewhere, and
        keys, are not held back)."""
        now = time.monotonic()
        tapped = self.tapped_at > self.decided_at  # this gesture comes from a tap
        spot = self.tapped_spot if tapped else None
        if spot is not None and spot == self.decided_spot and now < self.decided_at + TAP_QUIET:
            return False
        done = self.driver.decide(*actions)
        if done:
            self.decided_at, self.decided_spot = now, spot
        return done

    def on_mouse_down(self, event: MouseDown) -> None:
        """A tap (or a click) somewhere on the table: noted for :meth:`decide`."""
        self.tapped_at = time.monotonic()
        self.tapped_spot = (event.screen_x, event.screen_y)

    def check(self, *actions: Action) -> str | None:
        """The driver's reason for refusing this gesture now, or ``None``."""
        return self.driver.check(*actions)

    def preview(self, action: Action) -> str:
        """``action`` in words, from what the viewer may know."""
        return self.driver.preview(action)

    def choose(
        self,
        title: str,
        options: Sequence[str],
        on_pick: Callable[[int], object],
        searchable: bool = False,
        highlight: int | None = None,
        actions: Sequence[Action] = (),
        beside: bool = True,
    ) -> None:
        """Ask the player to pick one of ``options`` (a long list can be ``searchable``).

        ``highlight`` is the option the cursor starts on (the hinted one, if any);
        ``actions`` are the decisions the options stand for, where they are some (a
        hint that comes while the picker is open is flagged among them).  A
        choice about a part of the table opens ``beside`` it (not the list of every move).
        Where the keys play nothing (a replay) no picker opens: the driver says why.
        """
        if self.shown is not None and not self.shown.view.playing:
            self.driver.decide()
            return

        def picked(index: int | None) -> None:
            if index is not None:
                on_pick(index)

        place = self.table.PICKER_PLACE
        picker = ChoiceScreen(
            title,
            options,
            place=place,
            searchable=searchable,
            highlight=highlight,
            beside=self.concerned() if beside else None,
            side=self.query_one("#side").region,
        )
        self.picker = (picker, tuple(actions))
        self.app.push_screen(picker, picked)

    def flag_in_picker(self, gesture: Sequence[Action]) -> None:
        """Flag the hinted ``gesture`` in the picker open now, if it lists a decision of it."""
        if self.picker is None:
            return
        picker, actions = self.picker
        index = hinted_index(actions, gesture)
        if picker in self.app.screen_stack and index is not None:  # open, or opening
            picker.flag(index, HINT_FLAG)

    def concerned(self) -> Region | None:
        """On a large screen, the table's focused part: a picker about it opens beside it.

        Below 120 x 40 a picker is never far from anything: it keeps its place.
        """
        part = self.focused
        if self.size.width < WIDE or self.size.height < TALL:
            return None
        if part is None or self.table not in part.ancestors_with_self:
            return None
        return part.region

    # -- the side panel on a narrow screen ---------------------------------------------
    @property
    def side_shown(self) -> bool:
        """Whether the side panel stands in the table's place (below 80 columns)."""
        return self.has_class("-side-shown")

    def show_side(self, side: bool) -> None:
        """Show the side panel (``side``) or the table in the whole width of a narrow screen.

        The table's focused part keeps the keyboard across: it has it back with the table.
        """
        if side == self.side_shown:
            return
        if side:
            self.table_focus = self.focused
        self.set_class(side, "-side-shown")
        self.query_one("#tab-side").set_class(side, "-active")
        self.query_one("#tab-table").set_class(not side, "-active")
        if side:
            self.query_one(GameLog).focus()
        elif self.table_focus is not None and self.table_focus.is_attached:
            self.table_focus.focus()
        self.refresh_bindings()

    def action_toggle_side(self) -> None:
        """The side panel in the table's place, or the table back (narrow screens only)."""
        self.show_side(not self.side_shown)

    def on_resize(self) -> None:
        """On a wide screen the side panel is beside the table again; the keys follow."""
        if not self.has_class("-slim"):
            self.show_side(False)
        self.refresh_bindings()

    def action_keys(self) -> None:
        """The list of the keys that work now (a narrow Footer shows a few): the one chosen
        is pressed, as if typed."""
        entries = key_entries(self)

        def press(index: int | None) -> None:
            if index is not None:
                self.app.simulate_key(entries[index][0])

        lines = [line for _, line in entries]
        self.app.push_screen(ChoiceScreen("Keys", lines, hint="Enter or tap to press it"), press)

    # -- keys -----------------------------------------------------------------------------
    def _driver_key(self, action: str) -> Callable[..., object] | None:
        """The driver's method for the key that runs ``action``, if it has one."""
        method: Callable[..., object] | None = getattr(
            self.__dict__.get("driver"), f"do_{action}", None
        )
        return method

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys work as the driver allows (the table's cards ask it too, for Enter); the
        side panel's key only on a narrow screen."""
        if action in ("toggle_side", KEYS_ACTION):
            return self.has_class("-slim")
        return self.driver.allows(action)

    def __getattr__(self, name: str) -> Any:
        """The driver's keys: Textual runs a key's ``action_<name>``, the driver's ``do_<name>``.

        The keys are the driver's and so are their doings, which the screen would
        otherwise have to list one by one for every kind of table.
        """
        if name.startswith("action_"):
            method = self._driver_key(name.removeprefix("action_"))
            if method is not None:
                return method
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
