"""What the four games share behind the engine contract: their words live in a module.

Each game keeps its rules in ``rules.py`` and its sentences in ``words.py``; the
contract's word methods (the prompt, the preview, the log's line, what a replay
discloses) are that module's functions, so a game hands its words module to
:class:`GameShell` instead of repeating four methods that only pass the call on.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from karavan_core.engine import Action, Game, Observation, State

S = TypeVar("S", bound=State)
O = TypeVar("O", bound=Observation)  # noqa: E741 - S and O mirror the contract's types
S_in = TypeVar("S_in", bound=State, contravariant=True)
O_in = TypeVar("O_in", bound=Observation, contravariant=True)


class GameWords(Protocol[S_in, O_in]):
    """A game's words module: the sentences the contract asks a game for (see
    :class:`~karavan_core.engine.Game` for what each may tell)."""

    def prompt(self, observation: O_in) -> str:
        """What the player to move must decide now."""
        ...

    def disclose(self, state: S_in) -> tuple[tuple[str, str], ...]:
        """Every hidden part of ``state``, in words, for a replay of a finished game."""
        ...

    def preview(self, observation: O_in, action: Action) -> str:
        """``action`` before it is taken, from the decider's observation alone."""
        ...

    def describe(self, before: O_in, action: Action, after: O_in) -> str:
        """``action`` in the log's words, from the public views before and after it."""
        ...


class GameShell(Game[S, O, Action]):
    """A game of this project: the contract's words are its ``words`` module's."""

    def __init__(self, words: GameWords[S, O]) -> None:
        self.words = words

    def prompt(self, observation: O) -> str:
        """What the player to move must decide now (the words module's ``prompt``)."""
        return self.words.prompt(observation)

    def disclose(self, state: S) -> tuple[tuple[str, str], ...]:
        """Every hidden part of ``state`` in words (the words module's ``disclose``)."""
        return self.words.disclose(state)

    def preview(self, observation: O, action: Action) -> str:
        """``action`` before it is taken (the words module's ``preview``)."""
        return self.words.preview(observation, action)

    def describe(self, before: O, action: Action, after: O) -> str:
        """``action`` in the log's words (the words module's ``describe``)."""
        return self.words.describe(before, action, after)
