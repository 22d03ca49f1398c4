"""What a seated client sends to a hosted table, read as data and put to the referee.

Each frame is one message of the table protocol: a decision, an undo or a redo,
an answer to a take-back asked for, or its withdrawal; or a line of chat, which goes to
the table's :class:`~karavan_net.table_chat.TableChat` (a watcher's too).  The referee alone
changes the match; whatever it refuses (or the frame that is no message) goes
back to the client as :class:`~karavan_net.protocol.Declined`, with the reason
in words and nothing changed.  A message must name the table's current number:
one sent before the table moved on is refused.
"""

from __future__ import annotations

from collections.abc import Callable

from karavan_core.engine import IllegalAction
from karavan_core.referee import Referee
from karavan_core.saves import structure_action
from karavan_net.codec import ProtocolError
from karavan_net.link import Link
from karavan_net.protocol import (
    MAX_GESTURE,
    Answer,
    Challenge,
    ClientMessage,
    Decide,
    Declined,
    Hello,
    Redo,
    Say,
    Undo,
    Withdraw,
    decode_client,
)
from karavan_net.table_chat import Send, TableChat

WATCHING_ONLY = "You are watching this table: watchers do not play."


class Dispatch:
    """Hands each message a client sends to ``referee`` (a line of chat to ``chat``); a
    refusal goes back through ``send``."""

    def __init__(self, referee: Referee, send: Send, chat: TableChat) -> None:
        self.referee = referee
        self.match = referee.match
        self.game = referee.game
        self.send = send
        self.chat = chat

    def receive(self, link: Link, text: str | bytes) -> None:
        """Handle one frame from the client ``link`` (seated, or watching)."""
        seat = link.seat
        try:
            message: ClientMessage = decode_client(text)
        except ProtocolError as error:
            self.decline(link, WATCHING_ONLY if seat is None else str(error))
            return
        if isinstance(message, Say):
            self.chat.say(link, message.text)
            return
        if seat is None:
            self.decline(link, WATCHING_ONLY)
            return
        reason = None
        if isinstance(message, Hello | Challenge):
            reason = "You have joined already."
        elif isinstance(message, Decide):
            reason = self.decide(seat, message)
        elif isinstance(message, Undo):
            reason = self.undo(seat, message.number)
        elif isinstance(message, Redo):
            reason = self.redo(seat, message.number)
        elif isinstance(message, Answer):
            reason = self.answer(seat, message.number, message.accept, message.request)
        elif isinstance(message, Withdraw):
            reason = self.withdraw(seat, message.request)
        if reason is not None:
            self.decline(link, reason)

    def decline(self, link: Link, reason: str) -> None:
        """Tell ``link`` its last frame was refused, and why."""
        self.send(link.seat, Declined(self.referee.revision, reason), link)

    def _stale(self, number: int) -> str | None:
        if type(number) is not int or number != self.referee.revision:
            return "The table has moved on since: look again and decide anew."
        return None

    def decide(self, seat: int, message: Decide) -> str | None:
        """Play ``message``'s gesture for ``seat`` if the referee allows it; else the reason."""
        if self.match.is_over():
            return "The game is over."
        stale = self._stale(message.number)
        if stale is not None:
            return stale
        if not 1 <= len(message.actions) <= MAX_GESTURE:
            return f"A gesture holds 1 to {MAX_GESTURE} decisions."
        try:
            actions = [structure_action(self.game, data) for data in message.actions]
        except Exception:  # whatever does not fit is not a decision
            return f"That is not a decision of {self.game.title}."
        try:
            self.referee.play(seat, actions)
        except IllegalAction as error:
            return str(error)
        return None

    def undo(self, seat: int, number: int) -> str | None:
        """Take back ``seat``'s last gesture, or ask the others to agree; else the reason."""
        return self._at(number, lambda: self.referee.undo(seat))

    def answer(
        self, seat: int, number: int, accept: bool, request: int | None = None
    ) -> str | None:
        """``seat``'s answer to the take-back asked for; else the reason it cannot answer.

        An answer that names its ``request`` stands whatever the table's number.
        """
        if request is not None:
            now = self.referee.revision
            return self._at(now, lambda: self.referee.answer(seat, accept, request))
        return self._at(number, lambda: self.referee.answer(seat, accept))

    def withdraw(self, seat: int, request: int) -> str | None:
        """``seat`` no longer asks for its take-back ``request``; else the reason."""
        current = self.referee.request
        if current is None or current.number != request:
            return "That take-back request is no longer open."
        return self._at(self.referee.revision, lambda: self.referee.withdraw(seat))

    def redo(self, seat: int, number: int) -> str | None:
        """Replay ``seat``'s undone decision; else the reason."""
        return self._at(number, lambda: self.referee.redo(seat))

    def _at(self, number: int, call: Callable[[], object]) -> str | None:
        """Ask the referee ``call()`` for a message naming table ``number``; else the reason."""
        stale = self._stale(number)
        if stale is not None:
            return stale
        try:
            call()
        except IllegalAction as error:
            return str(error)
        return None
