"""What every game's table widget offers the game screen, and what it may ask of it.

A table draws one observation (never a full state: the screen passes the view
of the player at the keyboard, or a public one behind the curtain) and turns
clicks and keys into decisions it hands back through :class:`TableHost`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from attrs import frozen
from textual.containers import Vertical

from karavan_core.engine import Action, Game, Observation
from karavan_core.match import Seat
from karavan_tui.glyphs import Glyphs
from karavan_tui.widgets.cards import CardRow


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
    ) -> None:
        """Ask the player to pick one of ``options``; ``on_pick`` gets its index.

        ``highlight`` is the option the cursor starts on (the hinted one, if any).
        """

    def check(self, *actions: Action) -> str | None:
        """The engine's reason for refusing this gesture now, or ``None`` if it would be played."""

    def refresh_status(self) -> None:
        """Redraw the status line (the table's marking status may have changed)."""

    def preview(self, action: Action) -> str:
        """``action`` in plain words before it is taken (from the viewer's observation)."""


@frozen
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


HINT_FLAG = "  (hint)"  # after the hinted decision's words, wherever decisions are listed


def flag_hint(words: list[str], actions: Sequence[Action], hinted: Action | None) -> int | None:
    """Flag the ``hinted`` decision among ``actions`` (``words`` are theirs, changed in place).

    Returns its index, for the list's cursor to start on; ``None`` if it is not listed.
    """
    if hinted is None or hinted not in actions:
        return None
    index = list(actions).index(hinted)
    words[index] += HINT_FLAG
    return index


def table_stylesheet(name: str) -> str:
    """The text of a table's own stylesheet file (widgets take no ``CSS_PATH``)."""
    return (Path(__file__).parent / name).read_text(encoding="utf-8")


class TableView(Vertical):
    """Base class of the game tables.

    Each table carries its stylesheet: ``DEFAULT_CSS = table_stylesheet("GAME.tcss")``
    with ``SCOPED_CSS = False`` (Textual reads that flag from each class itself), as
    the rules there name the table class and yield to the app's ASCII-mode rules.
    """

    DEFAULT_CLASSES = "table"
    PICKER_PLACE = "middle"  # where pickers open: "bottom" keeps the table's top in sight
    FIRST_FOCUS: str | None = None  # selector of the zone to focus when the screen opens

    def __init__(self, host: TableHost, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.host = host
        self.view: View | None = None
        self.hinted: Action | None = None  # the decision a hint suggests now, if any
        # True while the table shows the players something to read first (a round
        # summary): the game screen starts no bot until it is False again.
        self.pauses_play = False

    @property
    def obs(self) -> Any:
        """The observation being shown (each table knows its game's observation class)."""
        assert self.view is not None
        return self.view.observation

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
            lambda index: self.host.decide(*before, choices[index]),
            highlight=highlight,
        )

    def take_listed(self, action: Action) -> None:
        """Act on ``action``, a decision picked from the move list.

        It is played, unless it only opens a gesture of several decisions (Karakum's
        Buy, then Pay): then the table goes on with that gesture as if its card had
        been chosen, so that the move list never plays half a gesture.
        """
        self.host.decide(action)

    def news_weight(self, action: Action) -> int:
        """How telling another player's decision is, for the news line over the table.

        When the line is full, the least telling give way (ending a turn tells less than
        what was done in it); all decisions are alike unless a table says otherwise.
        """
        return 1

    def marking_status(self) -> str | None:
        """While cards are marked for a choice of several: what they make, for the status line."""
        return None

    def show(self, view: View) -> None:
        """Draw ``view``."""
        self.view = view

    def on_turn(self) -> None:
        """The player at the keyboard must decide now: open a picker if the step needs one."""

    # -- hints ------------------------------------------------------------------------
    def hint_places(self, action: Action) -> list[tuple[str, int]]:
        """The cards that make ``action``: (id of their row, index in it), the main one first."""
        return []

    def mark_hint(self, action: Action | None, *, point: bool = False) -> None:
        """Mark the cards of a hinted ``action`` (``None`` clears the marks).

        With ``point``, the cursor goes to its main card too, so that Enter plays
        it (or opens its picker).
        """
        self.hinted = action
        for card in self.query(".-hinted"):
            card.remove_class("-hinted")
        if action is None:
            return
        for number, (row_id, index) in enumerate(self.hint_places(action)):
            row = self.query_one(f"#{row_id}", CardRow)
            row.cards[index].add_class("-hinted")
            if point and number == 0:
                row.point_at(index)
                row.focus()
