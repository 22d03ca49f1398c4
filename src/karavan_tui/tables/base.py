"""What every game's table widget offers the game screen, and what it may ask of it.

A table draws one observation (never a full state: the screen passes the view
of the player at the keyboard, or a public one behind the curtain) and turns
clicks and keys into decisions it hands back through :class:`TableHost`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, cast

from attrs import frozen
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from typing_extensions import TypeVar

from karavan_core.analysis import Hint
from karavan_core.engine import Action, Game, Observation
from karavan_core.match import Seat
from karavan_tui.glyphs import Glyphs
from karavan_tui.tables.marking import Marked
from karavan_tui.tables.outcome import Ask, Confirm, Outcome, Pick, Play, Refuse, Say
from karavan_tui.tables.spots import Spot
from karavan_tui.widgets.cards import CardRow

# The observation class of a table's game (the plain contract where a table is not known).
O = TypeVar("O", bound=Observation, covariant=True, default=Observation)  # noqa: E741

# Esc forgets the cards marked for a gesture of several (in the tables that mark cards).
CLEAR_MARKS = Binding("escape", "clear_marks", "Clear marks", show=False)


class TableHost(Protocol):
    """The game screen, as a table sees it."""

    def decide(self, *actions: Action) -> bool:
        """Play ``actions`` as one gesture (one undo step); notify and play none if illegal."""

    def choose(
        self,
        title: str,
        options: Sequence[str],
        on_pick: Callable[[int], object],
        searchable: bool = False,
        highlight: int | None = None,
        actions: Sequence[Action] = (),
    ) -> None:
        """Ask the player to pick one of ``options``; ``on_pick`` gets its index.

        ``highlight`` is the option the cursor starts on (the hinted one, if any);
        ``actions``, where each option is one decision, are those decisions (a
        hint that comes while the picker is open is flagged among them).
        """

    def check(self, *actions: Action) -> str | None:
        """The engine's reason for refusing this gesture now, or ``None`` if it would be played."""

    def refresh_status(self) -> None:
        """Redraw the status line (the table's marking status may have changed)."""

    def preview(self, action: Action) -> str:
        """``action`` in plain words before it is taken (from the viewer's observation)."""


@frozen(kw_only=True)
class View:
    """What the table shows now.

    ``observation`` is what the player at the keyboard may know, or the public
    view (its ``player`` is ``None``) when no private card may be shown;
    ``legal`` is non-empty only when that player is the one to move.
    ``before`` is what that same player saw right after their last decision,
    when others have moved since, and ``news`` the decisions made since (all
    public): the table marks what changed in between.  ``past`` holds the
    public views of the game's states up to the one shown, the deal first
    (empty where the history is not at hand, as at a hosted table): a table
    lays out from it what must stay in place, so that undo, a resume and a
    replay show the same places.  ``playing`` is False where the keys play
    nothing (a replay): the table then says nothing of what they would do.
    """

    game: Game[Any, Any, Any]
    seats: tuple[Seat, ...]
    observation: Observation
    legal: tuple[Action, ...]
    glyphs: Glyphs
    scores: tuple[int, ...]
    before: Observation | None = None
    news: tuple[Action, ...] = ()
    past: Sequence[Observation] = ()
    playing: bool = True

    @property
    def score_words(self) -> tuple[str, ...]:
        """Each seat's score as the game says it on a board ("out" where it has a word)."""
        return self.game.score_words(self.observation, self.scores)


# One decision of a player with their own views before and after it.
TurnStep = tuple[Observation, Action, Observation]

HINT_FLAG = "  (hint)"  # after the hinted decision's words, wherever decisions are listed


def hinted_index(actions: Sequence[Action], hinted: Sequence[Action]) -> int | None:
    """Where the ``hinted`` gesture's first decision listed in ``actions`` is; ``None``: not there.

    ``hinted`` holds the gesture's decisions in order (empty: no hint), so a
    list of payments finds the payment of a hinted purchase.
    """
    listed = list(actions)
    for action in hinted:
        if action in listed:
            return listed.index(action)
    return None


def flag_hint(words: list[str], actions: Sequence[Action], hinted: Sequence[Action]) -> int | None:
    """Flag the ``hinted`` gesture's decision among ``actions`` (``words`` are theirs, changed
    in place).

    Returns its index, for the list's cursor to start on; ``None`` if it is not listed.
    """
    index = hinted_index(actions, hinted)
    if index is not None:
        words[index] += HINT_FLAG
    return index


def hint_status(hints: Sequence[Hint], words: str | None = None) -> str:
    """A hint as the status line says it: its chance first (so that a cut keeps it), then
    ``words``, by default those of its decisions."""
    said = " ".join(hint.words for hint in hints) if words is None else words
    return f"Hint ({hints[0].win:.0%} to win): {said}"


def table_stylesheet(name: str) -> str:
    """The text of a table's own stylesheet file (widgets take no ``CSS_PATH``)."""
    return (Path(__file__).parent / name).read_text(encoding="utf-8")


class TableView(Vertical, Generic[O]):
    """Base class of the game tables, typed by the observation of their game.

    Each table carries its stylesheet: ``DEFAULT_CSS = table_stylesheet("GAME.tcss")``
    with ``SCOPED_CSS = False`` (Textual reads that flag from each class itself), as
    the rules there name the table class and yield to the app's ASCII-mode rules.
    """

    DEFAULT_CLASSES = "table"
    PICKER_PLACE = "middle"  # where pickers open: "bottom" keeps the table's top in sight
    # The zones, top to bottom: each zone's widget class and its id.
    ZONES: ClassVar[tuple[tuple[type[Widget], str], ...]] = ()
    FIRST_FOCUS: str | None = None  # selector of the zone to focus when the screen opens

    def compose(self) -> ComposeResult:
        """The ``ZONES``, top to bottom."""
        for zone, name in self.ZONES:
            yield zone(id=name, classes="zone")

    def __init__(self, host: TableHost, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.host = host
        self.view: View | None = None  # what is shown; its observations are of type O
        self.hinted: tuple[Action, ...] = ()  # the gesture a hint suggests now (empty: none)
        self._laid: object | None = None  # the marks a hint laid on the table (see lay_hint)
        # True while the table shows the players something to read first (a round
        # summary): the game screen starts no bot until it is False again.
        self.pauses_play = False
        # The last gesture this table played (undo and redo play none): what the player
        # did, where a change on the table could mean more than one thing.
        self.played: tuple[Action, ...] = ()

    @property
    def obs(self) -> O:
        """The observation being shown, of the table's own game."""
        assert self.view is not None
        return cast(O, self.view.observation)  # the screen shows a game's views on its table

    @property
    def before(self) -> O | None:
        """What the player at the keyboard saw after their last decision, if others moved since."""
        return None if self.view is None else cast("O | None", self.view.before)

    @property
    def past(self) -> Sequence[O]:
        """The public views of the game so far, the deal first (empty where not at hand)."""
        return () if self.view is None else cast(Sequence[O], self.view.past)

    @property
    def legal(self) -> tuple[Action, ...]:
        """The decisions open to the player at the keyboard now."""
        return self.view.legal if self.view is not None else ()

    def turn_view(self) -> View | None:
        """The view, if the player at the keyboard may decide now; else ``None``.

        When it is not their turn, the host is asked to play nothing, which
        tells the player whose turn it is.
        """
        view = self.view
        if view is None or not view.legal:
            self.host.decide()
            return None
        return view

    def decide(self, *actions: Action) -> bool:
        """Play ``actions`` as one gesture through the host, and remember them."""
        self.played = actions
        return self.host.decide(*actions)

    def ask(
        self,
        title: str,
        options: Sequence[Action],
        labels: Sequence[str] | None = None,
        *,
        before: Sequence[Action] = (),
    ) -> None:
        """Let the player pick one of ``options`` (legal decisions); the pick is played.

        Each option reads as its preview unless ``labels`` are given; ``before``
        are decisions of the same gesture played first (buying: Buy, then Pay),
        all as one undo step.  The hinted option is flagged and the cursor starts on it.
        """
        choices = list(options)
        words = list(labels) if labels is not None else [self.host.preview(a) for a in choices]
        highlight = flag_hint(words, choices, self.hinted)
        self.host.choose(
            title,
            words,
            lambda index: self.decide(*before, choices[index]),
            highlight=highlight,
            actions=choices,
        )

    def take_listed(self, action: Action) -> None:
        """Act on ``action``, a decision picked from the move list.

        It is played, unless it only opens a gesture of several decisions (Karakum's
        Buy, then Pay): then the table goes on with that gesture as if its card had
        been chosen, so that the move list never plays half a gesture.
        """
        self.decide(action)

    def news_weight(self, action: Action) -> int:
        """How telling another player's decision is, for the news line over the table.

        When the line is full, the least telling give way (ending a turn tells less than
        what was done in it); all decisions are alike unless a table says otherwise.
        """
        return 1

    def perform(self, outcome: Outcome | None) -> None:
        """Carry out what a gesture came to: play it, open its picker, or say why not."""
        if isinstance(outcome, Play):
            self.decide(*outcome.actions)
        elif isinstance(outcome, Ask):
            self.ask(outcome.title, outcome.options, outcome.labels, before=outcome.before)
        elif isinstance(outcome, Pick):
            then = outcome.then
            self.host.choose(outcome.title, outcome.labels, lambda index: self.perform(then(index)))
        elif isinstance(outcome, Refuse):
            self.refuse(outcome.actions, outcome.more)
        elif isinstance(outcome, Confirm):
            self.confirm_marks()
        elif isinstance(outcome, Say):
            self.notify(
                outcome.text,
                title=outcome.title or "",
                severity="warning" if outcome.warning else "information",
            )

    def refuse(self, actions: Sequence[Action], more: str = "") -> None:
        """Say the engine's reason for refusing ``actions`` (then ``more``); play nothing,
        whatever the engine says (the gesture asked for a refusal, not a move)."""
        said = " ".join(words for words in (self.host.check(*actions), more) if words)
        if said:
            self.notify(said, title="Not allowed", severity="warning")

    # -- cards marked for a gesture of several (see marking.py) ---------------------
    def marked_gesture(self) -> Marked | None:
        """What the cards marked now make; ``None`` while nothing is being marked."""
        return None

    def forget_marks(self) -> None:
        """Drop every mark (nothing is drawn: see :meth:`marks_changed`)."""

    def marks_fit(self, view: View) -> bool:
        """Whether the marks still mean something in ``view``: while its player is to move."""
        return bool(view.legal)

    def marks_changed(self) -> None:
        """Draw the marks as they are now, and what they make on the status line."""
        if self.view is not None:
            self.show(self.view)
        self.host.refresh_status()

    def marking_status(self, hint: str | None = None) -> str | None:
        """While cards are marked for a choice of several: what they make, for the status line.

        Marks a hint laid (``hint`` is what the status says of it) are said as that
        hint, with the keys that play it.
        """
        marked = self.marked_gesture()
        if marked is None or self.view is None:
            return None
        if hint is not None and self.hint_laid():
            return f"{hint} {self.view.glyphs.sep} {self.laid_keys(marked)}"
        refusal = self.host.check(*marked.actions) if marked.actions else None
        return marked.status(refusal, self.view.glyphs.sep)

    def confirm_marks(self) -> None:
        """Play what the marks make (Enter), or say the engine's reason why not."""
        marked = self.marked_gesture()
        if marked is None or not marked.actions:
            return
        if self.host.check(*marked.actions) is not None:
            self.refuse(marked.actions)
            return
        self.forget_marks()
        self.decide(*marked.actions)

    def action_clear_marks(self) -> None:
        """Forget the marks (Esc), unless they must stay (then say why)."""
        marked = self.marked_gesture()
        if marked is None:
            return
        if marked.kept is not None:
            self.notify(marked.kept)
            return
        self.forget_marks()
        self.marks_changed()

    def show(self, view: View) -> None:
        """Draw ``view`` (a table draws its zones after this); marks that no longer fit go."""
        self.view = view
        if not self.marks_fit(view):
            self.forget_marks()

    def on_turn(self) -> None:
        """The player at the keyboard must decide now: open a picker if the step needs one."""

    def start_afresh(self) -> None:
        """Another player has taken the keyboard: each row's cursor goes back to its first
        card that can be acted on and the keys to the first zone, as when the table opened,
        so that Enter never acts on a card the last player pointed at."""
        for row in self.query(CardRow):
            row.restart()
        if self.FIRST_FOCUS:
            self.query_one(self.FIRST_FOCUS).focus()

    def turn_note(self, steps: Sequence[TurnStep]) -> str:
        """What only the player whose turn has just ended saw happen in it, in words ("" if
        nothing): in hot-seat play they are told before the table is hidden from them.

        ``steps`` are their decisions of that turn, each with their own views before and
        after it.
        """
        return ""

    # -- hints ------------------------------------------------------------------------
    def hint_places(self, action: Action) -> list[Spot]:
        """The cards that make ``action``: (id of their row, index in it), the main one first."""
        return []

    def hint_follows(self, action: Action) -> bool:
        """Whether this table plays ``action`` together with its player's next decision, as
        one gesture (a hint of it then names both)."""
        return False

    def hint_words(self, hints: Sequence[Hint]) -> str:
        """What the status line says of the ``hints`` of one gesture."""
        return hint_status(hints)

    def mark_hint(self, gesture: Sequence[Action], *, point: bool = False) -> None:
        """Mark the cards of a hinted ``gesture`` (its decisions; empty clears the marks).

        With ``point``, the cursor goes to its main card too, so that Enter plays
        it (or opens its picker).
        """
        self.hinted = tuple(gesture)
        for card in self.query(".-hinted"):
            card.remove_class("-hinted")
        if not gesture:
            self._laid = None
            return
        for action in gesture:
            for number, (row_id, index) in enumerate(self.hint_places(action)):
                row = self.query_one(f"#{row_id}", CardRow)
                row.cards[index].add_class("-hinted")
                if point and number == 0 and action == gesture[0]:
                    self.point_at((row_id, index))

    def point_at(self, spot: Spot) -> None:
        """Put the cursor on the card at ``spot`` and the keys in its row."""
        row_id, index = spot
        row = self.query_one(f"#{row_id}", CardRow)
        row.point_at(index)
        row.focus()

    def lay_hint(self, gesture: Sequence[Action]) -> None:
        """Lay a hinted ``gesture`` on the table as the player's own marks would be.

        Where the table marks cards for a gesture of several (an exchange, a
        payment, a card to place), the hint's cards are marked that way and the
        cursor goes where Enter plays them: Enter plays the hint, Esc clears it,
        and a mark changed makes the marks the player's own.  A decision no card
        makes is chosen in the picker its step opens: that picker opens on it.
        """
        spot = self.hint_marks(tuple(gesture))
        if spot is None:
            if gesture and not self.hint_places(gesture[0]):
                # No card on the table makes it (a camel to join first): the step's own
                # picker opens again, on the hinted entry.
                self.on_turn()
            return
        self._laid = self.marks_now()
        self.marks_changed()
        self.point_at(spot)

    def hint_marks(self, gesture: tuple[Action, ...]) -> Spot | None:
        """Mark ``gesture``'s cards as the player would to make it; return where Enter plays it.

        ``None`` (nothing marked) where this table has no marks for such a gesture.
        """
        return None

    def marks_now(self) -> object | None:
        """The cards marked now, as a value that equals itself while they stay (or ``None``)."""
        return None

    def hint_laid(self) -> bool:
        """Whether the marks on the table are those a hint laid, untouched since."""
        return self._laid is not None and self.marks_now() == self._laid

    def laid_keys(self, marked: Marked) -> str:
        """The keys the status line offers for marks a hint laid."""
        return marked.keys
