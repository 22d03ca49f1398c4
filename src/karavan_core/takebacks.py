"""Take-backs at a table: who may take back what, who must agree, and what each is told.

Where several people play, a player's own last gesture comes back freely while
nothing since has shown that player or the table something new and no other person
has decided since (the bots' decisions go back with it, their private draws
unseen); anything further needs every other human's consent (lichess-style),
asked as a :class:`TakeBackRequest`.  :class:`TakeBacks` is the policy the
:class:`~karavan_core.referee.Referee` keeps for its table: it holds the request
open and who may not ask again, and tells the referee of each change it makes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from enum import StrEnum
from typing import Protocol

from attrs import field, frozen

from karavan_core.bots import Bot
from karavan_core.engine import IllegalAction
from karavan_core.match import Match, Seat
from karavan_core.text import listed, plural
from karavan_core.values import replace

TAKEBACK_SECONDS = 30.0
"""How long a take-back request waits for its answers before it lapses, unless a table says."""


class ChangeKind(StrEnum):
    """What kind of change happened at a table (its value is the word the wire carries)."""

    PLAY = "play"  # ``decisions`` decisions made by ``seat``
    UNDO = "undo"  # ``decisions`` taken back, asked by ``seat``
    REDO = "redo"  # ``decisions`` played again
    HINT = "hint"  # ``seat`` asked for a hint
    REQUEST = "request"  # ``seat`` asks the others to agree to a take-back
    ACCEPTED = "accepted"  # ``seat`` agreed to it
    DECLINED = "declined"  # ``seat`` said no to it
    WITHDRAWN = "withdrawn"  # the asker no longer asks
    LAPSED = "lapsed"  # nobody answered in time


@frozen
class Change:
    """What just happened at the table: a ``kind`` of change (see :class:`ChangeKind`) by
    ``seat``; ``revision`` is the table's revision after the change."""

    kind: ChangeKind = field(converter=ChangeKind)
    seat: int | None
    decisions: int
    revision: int


@frozen(kw_only=True)
class TakeBack:
    """A take-back ``seat`` may make: back to ``keep`` decisions, ``decisions`` taken back.

    ``revealed``: one of them had shown ``seat`` (or everyone) something new; a
    card only another player drew does not count; ``needs``: the humans
    who must agree first (none: it is free); ``whose``: the seat that made
    each decision taken back, in order.
    """

    seat: int
    keep: int
    decisions: int
    revealed: bool
    needs: tuple[int, ...]
    whose: tuple[int, ...] = ()

    @property
    def after(self) -> int:
        """How many of the decisions others made after ``seat``'s own last gesture."""
        return sum(1 for actor in self.whose if actor != self.seat)

    def words(self, whose: str) -> str:
        """What is taken back, in words: "your last decision and the 3 decisions after it".

        However many decisions a gesture holds (a purchase and its payment), it is one
        decision to the player who made it; the others' after it are counted.
        """
        if not self.after:
            return f"{whose} last decision"
        later = "decision" if self.after == 1 else f"{self.after} decisions"
        return f"{whose} last decision and the {later} after it"


def bot_agrees(asker: int, whose: Sequence[int], bots: Collection[int]) -> bool:
    """The fixed rule by which a bot answers a take-back it is asked to agree to.

    ``whose``: the seat of each decision taken back.  A bot agrees when every
    one is the ``asker``'s own or a bot's (``bots``: the seats bots play, the
    answering one among them), and declines when one is another player's: a
    bot never gives away a person's decision.  Knowing nothing of whose they
    are (``whose`` empty, from an older host), it declines.
    """
    return bool(whose) and all(seat == asker or seat in bots for seat in whose)


def takeback_question(answerer: str, asker: str, decisions: int, revealed: bool) -> str:
    """The question put to ``answerer`` when ``asker`` wants ``decisions`` decisions back."""
    why = "it showed something new" if revealed else "others have decided since"
    return (
        f"{answerer}: {asker} asks to take back {plural(decisions, 'decision')} ({why}). "
        "Do you agree?"
    )


def takeback_listing(question: str, taken: Sequence[tuple[int, str]], seat: int) -> str:
    """``question`` and under it each decision it would take back, a line each in the log's
    words, ``seat``'s own marked: "- Ann draws a card from the deck. (yours)"."""
    lines = [f"- {words}{' (yours)' if actor == seat else ''}" for actor, words in taken]
    return "\n".join([question, *lines])


def takeback_declined(answerer: str, asker: str) -> str:
    """What the table is told when ``answerer`` says no to ``asker``'s take-back."""
    return f"{answerer} declined: {asker}'s decision stands."


def takeback_notice(
    change: Change, request: TakeBackRequest | None, names: Sequence[str], viewer: int | None
) -> str | None:
    """What ``viewer`` is told of a take-back ``change`` (``None``: the table's public record).

    ``request`` is the take-back the change answered, ended or carried out (a free one
    carried out comes as a request nobody had to answer).  The same words in every game,
    at every table: the player who took back is told what went (with who agreed, if
    anyone had to), the others who took back what.  Nothing else is told to the player
    who made the change, except an asker whose request lapsed.
    """
    if change.seat is None:
        return None
    who, kind = names[change.seat], change.kind
    if kind is ChangeKind.LAPSED:  # nobody did it: everyone is told, the asker too
        return f"{who}'s take-back request lapsed: it was not answered in time."
    if kind is ChangeKind.PLAY and request is not None and viewer != change.seat:
        if request.takeback.seat == change.seat:
            return f"{who} played on and no longer asks to take back."
        return f"{who} played on instead: {names[request.takeback.seat]}'s decision stands."
    if kind is ChangeKind.UNDO and request is not None:
        takeback = request.takeback
        if viewer != change.seat:
            return f"{who} took back {takeback.words('their')}."
        mine, needs = takeback.words("your"), takeback.needs
        if needs:
            return f"{listed([names[s] for s in needs])} agreed: you took back {mine}."
        return f"You took back {mine}."
    if viewer == change.seat:
        return None
    if (
        kind is ChangeKind.REQUEST and viewer is None
    ):  # the others are asked, in a question of its own
        return f"{who} asks to take back their last decision."
    if kind is ChangeKind.ACCEPTED:
        return f"{who} agrees to the take-back."
    if kind is ChangeKind.DECLINED and request is not None:
        return takeback_declined(who, names[request.takeback.seat])
    if kind is ChangeKind.WITHDRAWN:
        return f"{who} no longer asks to take back."
    return None


@frozen
class TakeBackRequest:
    """A take-back asked for and waiting for the other humans' answers.

    It ends when it is answered, withdrawn or lapses, or when a person decides
    instead (the asker playing on withdraws it; anyone else declines it); the
    bots' decisions meanwhile go back with the rest.
    """

    takeback: TakeBack
    waiting: frozenset[int]  # the humans yet to answer
    number: int = 0  # which request of the table it is: an answer names it

    def question(self, seats: Sequence[Seat], seat: int, log: Sequence[str] = ()) -> str:
        """What ``seat`` is asked: who wants to take back what, and why it needs consent;
        with the table's ``log`` as ``seat`` may read it (line 0: the deal), each decision
        it takes back in the log's words."""
        wanted = self.takeback
        question = takeback_question(
            seats[seat].name, seats[wanted.seat].name, wanted.decisions, wanted.revealed
        )
        lines = log[wanted.keep + 1 : wanted.keep + 1 + wanted.decisions]
        return takeback_listing(question, list(zip(wanted.whose, lines, strict=False)), seat)

    def declined(self, seats: Sequence[Seat], seat: int) -> str:
        """What the table is told when ``seat`` says no."""
        return takeback_declined(seats[seat].name, seats[self.takeback.seat].name)


class Teller(Protocol):
    """How the referee is told of a change (``about``: the take-back request it concerns)."""

    def __call__(
        self,
        kind: ChangeKind,
        seat: int | None,
        decisions: int,
        *,
        about: TakeBackRequest | None = None,
    ) -> None: ...


class TakeBacks:
    """The take-backs and redos at one table: who may take back what, the request open for
    consent, and who may not ask again yet.

    It plays nothing but take-backs and redos on ``match``; ``bots`` and
    ``stand_ins`` (the referee's, read as they change) say who answers by the
    bots' rule, and ``changed`` tells the referee of every change it makes.
    """

    def __init__(
        self,
        match: Match,
        bots: Mapping[int, Bot],
        stand_ins: Mapping[int, Bot],
        changed: Teller,
    ) -> None:
        self.match = match
        self._bots = bots
        self._stand_ins = stand_ins  # bots playing a person's seat while they are away
        self._changed = changed
        self.request: TakeBackRequest | None = None  # a take-back waiting for consent
        self._requests = 0  # take-back requests asked at this table so far
        self._people_decided = 0  # decisions people have made here (not the host's bots)
        # Who may not ask again before the next decision of a person, and why.
        self._barred: dict[int, tuple[int, str]] = {}

    def person_played(self) -> TakeBackRequest | None:
        """A person decided: a barred asker may ask again, and the request open ends, the
        person having played instead of answering (returned)."""
        self._people_decided += 1
        ended, self.request = self.request, None
        return ended

    def bot_played(self, for_a_person: bool) -> None:
        """A bot decided, standing in for a person (``for_a_person``: a barred asker may ask
        again, as after any decision of that seat) or in a bot's seat; the request open
        stands and covers that decision too (the bot's reply goes back with what it
        answered)."""
        if for_a_person:
            self._people_decided += 1
        if self.request is not None:
            self.request = replace(self.request, takeback=self._covering(self.request.takeback))

    def stand_ins_answer(self) -> None:
        """The bots standing in for absent players answer the open request, by the bots' rule."""
        bots = set(self._bots) | set(self._stand_ins)
        for seat in sorted(self._stand_ins):
            request = self.request
            if request is None or seat not in request.waiting:
                continue
            wanted = request.takeback
            self.answer(seat, bot_agrees(wanted.seat, wanted.whose, bots), request.number)

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play."""
        return self.match.humans

    def takeback(self, seat: int) -> TakeBack:
        """What taking back ``seat``'s last gesture would take back, and who must agree.

        Raises :class:`IllegalAction` with the reason when there is nothing it may
        take back.  Where several people play, a player's own last gesture comes
        back freely, with the bots' decisions after it, while none of them showed
        that player or everyone something new and no other person decided since;
        anything further needs every other human's consent.  Against bots alone a
        take-back is free, but one that goes back past such a revealing decision
        is counted (the results and the review show it).
        """
        match = self.match
        if match.is_over():
            raise IllegalAction("The game is over: its result stands.")
        if not match.history:
            raise IllegalAction("There is nothing to take back.")
        if seat not in self.humans or match.last_move_of(seat) == 0:
            human = match.last_human()
            last = match.seats[human if human is not None else seat]
            if seat in self.humans and human is not None:
                raise IllegalAction(
                    f"{last.name} decided last: you have made no decision to take back."
                )
            raise IllegalAction("You have made no decision to take back.")
        keep = match.undo_target(seat)
        wanted = self._covering(
            TakeBack(seat=seat, keep=keep, decisions=0, revealed=False, needs=())
        )
        rest = tuple(h for h in self.humans if h != seat)
        people = any(actor in rest for actor in wanted.whose)
        needs = rest if rest and (wanted.revealed or people) else ()
        return replace(wanted, needs=needs)

    def sharing_taker(self) -> int | None:
        """Whose decision an undo takes back where the humans share one keyboard and none
        has taken it over yet (no curtain was lifted for them, as none is in Karakorum).

        The player who just moved may take their decision back until the next human
        decides: until then, that is the human who decided last (``None``: nobody has).
        """
        return self.match.last_human()

    def _covering(self, wanted: TakeBack) -> TakeBack:
        """``wanted`` counting every decision from its ``keep`` to now: how many, whose,
        and whether one showed the asker (or everyone) something new."""
        match, taken = self.match, range(wanted.keep, len(self.match.plies))
        whose = tuple(match.actor(index) for index in taken)
        revealed = any(match.showed(index, wanted.seat) for index in taken)
        return replace(wanted, decisions=len(whose), revealed=revealed, whose=whose)

    def undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not take back now, or ``None`` if it may (perhaps by asking)."""
        if seat is None:
            return "Nobody is at the table to take a decision back."
        try:
            self._may_ask(seat)
            self.takeback(seat)
        except IllegalAction as error:
            return str(error)
        return None

    def _may_ask(self, seat: int) -> None:
        """:class:`IllegalAction` while ``seat`` may not ask for a take-back, whatever it is.

        One request is open at a time, and a player whose request was declined,
        withdrawn or lapsed asks again only once somebody has decided since.
        """
        request = self.request
        if request is not None:
            asker = request.takeback.seat
            if asker == seat:
                raise IllegalAction(
                    "Your take-back request waits for its answers: withdraw it first."
                )
            name = self.match.seats[asker].name
            raise IllegalAction(f"{name}'s take-back request waits for its answers first.")
        barred = self._barred.get(seat)
        if barred is not None and barred[0] == self._people_decided:
            raise IllegalAction(
                f"Your take-back request was {barred[1]}: ask again once somebody has decided."
            )

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last gesture (and whatever followed), or ask the others first.

        Returns ``True`` if it was taken back, ``False`` if it now waits for the
        other humans' answers (:attr:`request`).  Raises :class:`IllegalAction`
        with the reason when ``seat`` may not take back now.
        """
        self._may_ask(seat)
        wanted = self.takeback(seat)
        if wanted.needs:
            self._requests += 1
            self.request = TakeBackRequest(wanted, frozenset(wanted.needs), self._requests)
            self._changed(ChangeKind.REQUEST, seat, 0)
            self.stand_ins_answer()
            return False
        self._take_back(wanted)
        return True

    def answer(self, seat: int, accept: bool, number: int | None = None) -> None:
        """``seat``'s answer to the take-back asked for (request ``number``, if named);
        raises if it has nothing to answer."""
        request = self.request
        if request is None or seat not in request.waiting:
            raise IllegalAction("Nobody is waiting for your answer to a take-back.")
        if number is not None and number != request.number:
            raise IllegalAction("That take-back request is no longer open.")
        if not accept:
            self._end_request(request, ChangeKind.DECLINED, seat)
            return
        waiting = request.waiting - {seat}
        if waiting:
            self.request = replace(request, waiting=waiting)
            self._changed(ChangeKind.ACCEPTED, seat, 0, about=request)
            return
        self.request = None
        self._take_back(request.takeback, request)

    def withdraw(self, seat: int) -> None:
        """``seat`` no longer asks to take back; raises if it has no request open."""
        request = self.request
        if request is None or request.takeback.seat != seat:
            raise IllegalAction("You have no take-back request to withdraw.")
        self._end_request(request, ChangeKind.WITHDRAWN, seat)

    def lapse(self, number: int) -> bool:
        """Request ``number`` lapses if it is still open (its time is up); whether it did."""
        request = self.request
        if request is None or request.number != number:
            return False
        self._end_request(request, ChangeKind.LAPSED, request.takeback.seat)
        return True

    def _end_request(self, request: TakeBackRequest, how: ChangeKind, seat: int) -> None:
        """Close ``request`` unanswered (``how``: declined, withdrawn or lapsed)."""
        self.request = None
        self._barred[request.takeback.seat] = (self._people_decided, how)
        self._changed(how, seat, 0, about=request)

    def _take_back(self, wanted: TakeBack, request: TakeBackRequest | None = None) -> None:
        if wanted.revealed:
            self.match.count_takeback(wanted.seat)
        self.match.undo(wanted.keep)
        # A free take-back is told as a request nobody had to answer.
        told = request if request is not None else TakeBackRequest(wanted, frozenset())
        self._changed(ChangeKind.UNDO, wanted.seat, wanted.decisions, about=told)

    def redo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not play an undone gesture again now, or ``None`` if it may."""
        match = self.match
        if not match.undone:
            return "There is nothing to redo."
        if self.request is not None:
            return "A take-back request waits for its answers first."
        if seat is not None and match.to_move != seat:
            return "Only the player who took a decision back can play it again."
        return None

    def redo(self, seat: int | None) -> None:
        """Play the next undone gesture again (and the bots' after it); else raise."""
        reason = self.redo_refusal(seat)
        if reason is not None:
            raise IllegalAction(reason)
        before = len(self.match.history)
        self.match.redo()
        self._changed(ChangeKind.REDO, seat, len(self.match.history) - before)
