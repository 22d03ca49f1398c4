"""A match: the seats, the current state, and unlimited undo and redo.

The match keeps every state of the game so far (states are small frozen
values, so this is cheap) and the decisions that led to them.  Undo goes back
to the most recent decision taken by a human, taking back the bot decisions
after it too; redo replays that human decision and the bot decisions that
followed it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from attrs import frozen

from karavan_core.engine import Action, Game, State

HUMAN = "human"
BOT = "bot"


@frozen
class Seat:
    """One player at the table: a name, and either a human or a bot of some level."""

    name: str
    kind: str = HUMAN
    level: str | None = None

    @property
    def is_bot(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind == BOT

    @classmethod
    def parse(cls, text: str, index: int = 0) -> Seat:
        """Read ``Ann`` (a human) or ``bot:LEVEL`` / ``bot:LEVEL:Name`` (a bot)."""
        text = text.strip()
        if not text:
            raise ValueError("A player name cannot be empty.")
        if text.lower().startswith("bot:") or text.lower() == "bot":
            parts = text.split(":")
            level = parts[1].strip().lower() if len(parts) > 1 and parts[1].strip() else "random"
            name = parts[2].strip() if len(parts) > 2 and parts[2].strip() else None
            return cls(name or f"{level.capitalize()} bot {index + 1}", BOT, level)
        return cls(text, HUMAN, None)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Match:
    """A game in progress with its whole history.

    ``on_change`` (if given) is called after every change of state: the app
    uses it to autosave.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        seed: int,
        options: Mapping[str, Any] | None = None,
        *,
        initial: State | None = None,
        created_at: str | None = None,
    ) -> None:
        self.game = game
        self.seats = tuple(seats)
        self.seed = seed
        self.options = dict(options or {})
        self.created_at = created_at or _now()
        names = [seat.name for seat in self.seats]
        if initial is None:
            initial = game.new_game(names, seed, self.options)
        self.states: list[State] = [initial]
        self.history: list[Action] = []
        self.future: list[Action] = []
        self.on_change: Callable[[Match], None] | None = None
        self.save_path: Path | None = None  # where autosave writes, once enabled

    # -- reading --------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current state."""
        return self.states[-1]

    @property
    def initial(self) -> State:
        """The state the match started from."""
        return self.states[0]

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now, or ``None`` when the game is over."""
        return self.state.to_move

    @property
    def current_seat(self) -> Seat | None:
        """The seat that must decide now."""
        seat = self.to_move
        return None if seat is None else self.seats[seat]

    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_over(self.state)

    def legal_actions(self) -> list[Action]:
        """The decisions open to the player to move."""
        return self.game.legal_actions(self.state)

    def actor(self, index: int) -> int:
        """The seat that took decision number ``index`` of the history."""
        seat = self.states[index].to_move
        assert seat is not None
        return seat

    def log(self) -> list[str]:
        """Every decision so far as a plain sentence."""
        return [self.game.describe(self.states[i], action) for i, action in enumerate(self.history)]

    # -- changing -------------------------------------------------------------
    def play(self, action: Action) -> State:
        """Apply one decision of the player to move (raises ``IllegalAction``)."""
        new = self.game.apply(self.state, action)
        self.states.append(new)
        self.history.append(action)
        self.future.clear()
        self._changed()
        return new

    def can_undo(self) -> bool:
        """Whether there is a decision to take back."""
        return bool(self.history)

    def can_redo(self) -> bool:
        """Whether there is an undone decision to replay."""
        return bool(self.future)

    def undo_target(self) -> int:
        """How many decisions remain after an undo."""
        for index in range(len(self.history) - 1, -1, -1):
            if not self.seats[self.actor(index)].is_bot:
                return index
        return len(self.history) - 1

    def undo(self) -> bool:
        """Take back decisions up to and including the last human one; ``False`` if none."""
        if not self.history:
            return False
        keep = self.undo_target()
        self.future[:0] = self.history[keep:]
        del self.history[keep:]
        del self.states[keep + 1 :]
        self._changed()
        return True

    def redo(self) -> bool:
        """Replay the next undone decision and the bot decisions after it; ``False`` if none."""
        if not self.future:
            return False
        first = True
        while self.future and (first or self._bot_to_move()):
            action = self.future.pop(0)
            self.states.append(self.game.apply(self.state, action))
            self.history.append(action)
            first = False
        self._changed()
        return True

    def _bot_to_move(self) -> bool:
        seat = self.current_seat
        return seat is not None and seat.is_bot

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)
