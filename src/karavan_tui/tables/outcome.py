"""What a gesture on the table comes to, as plain data: play, ask, refuse, say, confirm.

Each game's ``gestures`` module decides what a click, a mark, Enter or a key
means and answers with one of these; the table view carries it out
(``TableView.perform``).  Kept free of Textual, so that gestures are tested
without a running app.  A gesture the rules refuse is still played
(:class:`Play`) where the engine has the sentence that says why: the game
screen shows the engine's words and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from karavan_core.engine import Action


@frozen
class Play:
    """Play ``actions`` as one gesture (one undo step); the engine may refuse it, saying why."""

    actions: tuple[Action, ...]


@frozen
class Ask:
    """Let the player pick one of ``options`` (legal decisions) in a picker; the pick is played.

    ``labels`` are the options' words (their previews if ``None``); ``before`` are
    decisions of the same gesture played first (Karakum's Buy before its Pay).
    """

    title: str
    options: tuple[Action, ...]
    labels: tuple[str, ...] | None = None
    before: tuple[Action, ...] = ()


@frozen
class Pick:
    """Let the player pick one of ``labels``; ``then`` says what the pick (its index) comes to.

    For a choice in steps (Jaipur's exchange: first the goods to take, then what to give).
    """

    title: str
    labels: tuple[str, ...]
    then: Callable[[int], Outcome]


@frozen
class Refuse:
    """Play nothing: the rules refuse ``actions``, and the engine's reason says why.

    ``more`` follows that reason: what the player can do instead.
    """

    actions: tuple[Action, ...]
    more: str = ""


@frozen
class Confirm:
    """Play what the marked cards make (Enter while marking), or say why not."""


@frozen
class Say:
    """Tell the player ``text`` and change nothing (a ``warning`` when it refuses something)."""

    text: str
    warning: bool = False
    title: str | None = None


Outcome = Play | Ask | Pick | Refuse | Confirm | Say


def play(*actions: Action) -> Play:
    """The gesture of ``actions``."""
    return Play(actions)
