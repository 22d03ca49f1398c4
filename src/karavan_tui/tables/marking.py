"""The cards marked for a gesture of several, and what they make (the one marking helper).

Some decisions take several cards at once: Jaipur's exchange (market goods to
take, cards to give), Karakum's payment (the cards that pay for a camel),
Karakorum's take (cards of one peak) and place.  The player marks them one by
one (Space, or a right click), the status line says what they make, Enter plays
them and Esc forgets them.  :class:`Marks` holds the marked cards; each game's
gestures turn them into a :class:`Marked`, which the table view shows and plays
the same way for every game (``TableView.marking_status``, ``confirm_marks``,
``action_clear_marks``).  Nothing here draws: it is plain data, tested alone.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Generic, TypeVar

from attrs import frozen

from karavan_core.engine import Action

K = TypeVar("K", bound=Hashable)


@frozen
class Marks(Generic[K]):
    """The marked cards, each with how many of it are marked, in the order first marked.

    A key is whatever names a card in its game (a market place, a good, a summit
    card).  Marks are a value: each change gives new marks, so a gesture that
    refuses leaves the old ones as they were.
    """

    pairs: tuple[tuple[K, int], ...] = ()

    @classmethod
    def of(cls, counts: Iterable[tuple[K, int]]) -> Marks[K]:
        """Marks from (key, how many) pairs; a key counted none is not marked."""
        return cls(tuple((key, n) for key, n in counts if n > 0))

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def __iter__(self) -> Iterator[K]:
        """The marked keys, the first marked first."""
        return (key for key, _ in self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    def __contains__(self, key: object) -> bool:
        return any(key == marked for marked, _ in self.pairs)

    def count(self, key: K) -> int:
        """How many of ``key`` are marked (0 if none)."""
        return next((n for marked, n in self.pairs if marked == key), 0)

    def counts(self, keys: Iterable[K]) -> tuple[int, ...]:
        """How many of each of ``keys`` are marked, in their order (a count per good)."""
        return tuple(self.count(key) for key in keys)

    @property
    def total(self) -> int:
        """How many cards are marked in all."""
        return sum(n for _, n in self.pairs)

    def counted(self, key: K, count: int) -> Marks[K]:
        """These marks with ``count`` of ``key`` (none: unmarked); it keeps its place in order."""
        if key not in self:
            return Marks.of((*self.pairs, (key, count)))
        return Marks.of((marked, count if marked == key else n) for marked, n in self.pairs)

    def toggled(self, key: K) -> Marks[K]:
        """``key`` marked if it was not, unmarked if it was."""
        return self.counted(key, 0 if key in self else 1)

    def alone(self, key: K) -> Marks[K]:
        """``key`` as the only mark, or no mark if it was that already (a card to place)."""
        return Marks() if list(self) == [key] else Marks(((key, 1),))

    def cycled(self, key: K, most: int) -> Marks[K]:
        """One more of ``key``, and back to none after ``most`` (as many as the player holds)."""
        return self.counted(key, (self.count(key) + 1) % (most + 1))

    def kept(self, still: Callable[[K], bool]) -> Marks[K]:
        """Only the marks whose card is ``still`` there."""
        return Marks(tuple((key, n) for key, n in self.pairs if still(key)))


@frozen(kw_only=True)
class Marked:
    """What the marks make now: the words for the status line and the decisions Enter plays.

    ``actions`` is the gesture to play (empty while one more choice is needed, as
    where a card goes); ``keys`` says what the keys do when the engine would
    accept it; ``question`` words are asked ("Take the R5?"), so the engine's
    refusal follows a question mark.  ``kept`` says why Esc leaves the marks (a
    camel already bought must be paid for): ``None`` where Esc clears them.
    """

    words: str
    actions: tuple[Action, ...] = ()
    keys: str = ""
    question: bool = False
    kept: str | None = None

    def status(self, refusal: str | None, sep: str) -> str:
        """The status line: the words, then the keys, or the engine's ``refusal`` of the gesture."""
        if refusal is None:
            return f"{self.words} {sep} {self.keys}" if self.keys else self.words
        return f"{self.words}{'?' if self.question else '.'} {refusal}"
