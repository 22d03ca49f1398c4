"""The seat link of a hosted table: the host's updates made views, the decisions sent to it.

The host's referee gives each seat its :class:`~karavan_core.referee.SeatView`
and sends it as an :class:`~karavan_net.protocol.Update`; :meth:`RemoteLink.take`
builds the same view again from it, so that the seat driver draws a hosted table
as it draws a local one.  Everything in an update is outside data: names are
made safe (``clean_name``) and words shown as plain text, never markup.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from karavan_core.engine import Action, IllegalAction, Observation, State
from karavan_core.match import BOT, HUMAN, Seat
from karavan_core.referee import (
    SeatView,
    TakeBack,
    TakeBackRequest,
    takeback_listing,
    takeback_question,
)
from karavan_core.text import clean_name, printable
from karavan_net.client import TableClient
from karavan_net.protocol import WATCHING, TakeBackAsked, Update
from karavan_tui.screens.seat import SeatLink


def seat_of(info_name: str, kind: str, level: str | None) -> Seat:
    """A seat as the host described it, its name made safe to show."""
    name = clean_name(info_name)
    if kind == BOT:
        return Seat(name, BOT, clean_name(level or "bot"))
    return Seat(name, HUMAN, None)


def request_of(asked: TakeBackAsked | None, made: int) -> TakeBackRequest | None:
    """The take-back request an update tells of (``made``: the decisions made so far)."""
    if asked is None:
        return None
    whose = tuple(taken.seat for taken in asked.taken)
    waiting = frozenset(asked.waiting)
    takeback = TakeBack(
        seat=asked.seat,
        keep=max(0, made - asked.decisions),
        decisions=asked.decisions,
        revealed=asked.revealed,
        needs=tuple(sorted(waiting)),
        whose=whose,
    )
    return TakeBackRequest(takeback, waiting, asked.number)


def question_of(asked: TakeBackAsked, seats: Sequence[Seat], seat: int) -> str:
    """What ``seat`` is asked of the take-back ``asked``: the question, each decision it
    takes back, and how long it waits for the answer."""
    question = takeback_question(
        seats[seat].name, seats[asked.seat].name, asked.decisions, asked.revealed
    )
    taken = [(each.seat, printable(each.words)) for each in asked.taken]
    question = takeback_listing(question, taken, seat)
    if asked.seconds:
        question += f"\nUnanswered, it lapses in {asked.seconds} seconds."
    return question


class RemoteLink(SeatLink):
    """The seat ``client`` joined (a watcher's: none) at a hosted table.

    ``unsent`` is called when something could not be sent (the connection is down).
    """

    def __init__(self, client: TableClient, unsent: Callable[[], None]) -> None:
        self.client = client
        self.game = client.game
        self.seat: int | None = None if client.seat == WATCHING else client.seat
        self.unsent = unsent
        self.latest: Update | None = None
        self.current: SeatView | None = None
        self._seats: tuple[Seat, ...] = ()
        # A state dealt from the seat's observation, for the refusal's words (by revision).
        self._sampled: tuple[int, State] | None = None

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats as the host described them."""
        return self._seats

    def view(self, seat: int | None) -> SeatView | None:
        """The latest view the host sent (for this link's seat: the only one it has)."""
        return self.current

    def take(self, update: Update) -> None:
        """Make ``update`` the table's view; raises if it does not fit this game."""
        client = self.client
        observation = client.observation(update.observation)
        legal = tuple(client.action(choice.action) for choice in update.legal)
        seats = tuple(seat_of(s.name, s.kind, s.level) for s in update.seats)
        log = tuple(client.log)
        before, news = self._news(update)
        since = update.since
        if since is None:  # an older host: all but the news it sends
            since = len(log) - 1 - (len(update.news) if update.before is not None else 0)
        self.latest, self._seats = update, seats
        self.current = SeatView(
            game=self.game,
            revision=update.number,
            seat=self.seat,
            observation=observation,
            legal=legal,
            log=log,
            since=max(0, since),
            before=before,
            news=news,
            scores=tuple(update.scores),
            can_undo=update.can_undo,
            can_redo=update.can_redo,
            outcome=update.outcome,
            request=request_of(update.takeback, len(log) - 1),
            notice=printable(update.notice) if update.notice else None,
        )

    def _news(self, update: Update) -> tuple[Observation | None, tuple[Action, ...]]:
        """What this seat saw after its last decision and the decisions since, if sent."""
        if update.before is None:
            return None, ()
        try:
            before = self.client.observation(update.before)
            return before, tuple(self.client.action(data) for data in update.news)
        except Exception:  # marks are a nicety: without them the table still shows
            return None, ()

    def forget(self) -> None:
        """A new game (a rematch): nothing dealt for the last one is kept."""
        self._sampled = None

    # -- deciding ------------------------------------------------------------------------
    def refusal(self, seat: int, actions: Sequence[Action]) -> str | None:
        """The engine's reason for refusing this gesture now, or ``None`` if it is sent.

        The host sent the seat's legal decisions: the first must be one of them
        (none sent: the host holds the table, and says why when the gesture comes).
        The words of a refusal, and the decisions a gesture makes after its first
        (a purchase's payment), need a state: one dealt from the seat's own
        observation, as the seat's decisions are legal or not whatever the hidden
        cards are.  The host checks the gesture again when it comes.
        """
        seen = self.current
        if seen is None:
            return "Not connected to the table."
        if seen.observation.to_move is None:
            return "The game is over."
        to_move = seen.observation.to_move
        if to_move != seat:
            name = self._seats[to_move].name if 0 <= to_move < len(self._seats) else "?"
            return f"It is {name}'s turn."
        dealt = self._dealt(seen)
        if seen.legal and actions and actions[0] not in seen.legal:
            return self.game.refusal(dealt, actions[0])
        try:
            self.game.gesture_states(dealt, actions, by=seat)
        except IllegalAction as error:
            return str(error)
        return None

    def _dealt(self, seen: SeatView) -> State:
        """A state dealt from ``seen``'s observation, the same for one revision."""
        if self._sampled is None or self._sampled[0] != seen.revision:
            dealt = self.game.sample_state(seen.observation, random.Random(seen.revision))
            self._sampled = (seen.revision, dealt)
        return self._sampled[1]

    def play(self, seat: int, actions: Sequence[Action]) -> None:
        """Send the gesture to the host, which plays it or says why not."""
        self.send(self.client.decide(*actions))

    def send(self, sending: Coroutine[Any, Any, bool]) -> None:
        """Send a message to the host; ``unsent`` hears if it could not go."""

        async def send() -> None:
            if not await sending:
                self.unsent()

        asyncio.get_running_loop().create_task(send())
