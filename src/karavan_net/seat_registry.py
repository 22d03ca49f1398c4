"""Who sits where at a hosted table: the seats taken, each seat's connection, the watchers.

A seat is taken by its name with the table's code, and from then on only by
its secret (whose hash the :class:`~karavan_net.storage.TableFile` keeps), or,
at a server, by its player's account.  Until every person's seat is taken (or a
bot stands in for its player) the referee holds the game, saying why.
"""

from __future__ import annotations

from collections.abc import Mapping

from karavan_core.engine import IllegalAction
from karavan_core.match import seat_named
from karavan_core.referee import Referee
from karavan_core.text import printable
from karavan_net.link import Link
from karavan_net.protocol import PROTOCOL, Hello, SeatInfo
from karavan_net.storage import TableFile


class SeatRegistry:
    """The seats of ``referee``'s match: which are taken (``file``), who is connected to each
    (:attr:`links`) and who watches (:attr:`watchers`)."""

    def __init__(self, referee: Referee, file: TableFile) -> None:
        self.referee = referee
        self.match = referee.match
        self.file = file
        self.links: dict[int, Link] = {}  # seat -> its connection now
        self.watchers: set[Link] = set()  # spectators' connections
        self.ended: str | None = None  # why the game ended before its rules end it, if it did

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats people play."""
        return self.referee.humans

    def claimed(self, seat: int) -> bool:
        """Whether somebody has taken ``seat`` (and holds its secret)."""
        return self.file.claimed(seat)

    @property
    def started(self) -> bool:
        """Whether every human seat has been taken: nobody decides before."""
        return all(self.claimed(seat) for seat in self.humans)

    def hold_until_seated(self) -> None:
        """Hold the game while a person's seat is neither taken nor played by a stand-in (or
        for good, once it has ended by the table's rule)."""
        if self.ended is not None:
            self.referee.hold(self.ended)
            return
        stand_ins = self.referee.stand_ins
        empty = [
            self.match.seats[seat].name
            for seat in self.humans
            if not self.claimed(seat) and seat not in stand_ins
        ]
        if not empty:
            self.referee.hold(None)
            return
        verb = "has" if len(empty) == 1 else "have"
        names = " and ".join(empty)
        if self.match.history:  # a freed seat: the game waits for a player to take it
            self.referee.hold(f"The game goes on once {names} {verb} taken the seat.")
        else:
            self.referee.hold(f"The game starts once {names} {verb} joined.")

    def end(self, reason: str) -> None:
        """The game has ended by the table's rule before its own rules end it (a player
        abandoned it): nobody decides from now on, and whoever tries is told ``reason``."""
        self.ended = reason
        self.referee.hold(reason)

    def reserve(self, seat: int) -> str:
        """Give ``seat`` a fresh secret (the host's own terminal plays it) and return it."""
        secret = self.file.claim(seat)
        self.hold_until_seated()
        return secret

    def infos(self, stand_in_levels: Mapping[int, str]) -> list[SeatInfo]:
        """Every seat with who plays it and whether they are here (``stand_in_levels``: the
        level of the bot standing in for each absent player who has one)."""
        infos = []
        for index, seat in enumerate(self.match.seats):
            if seat.is_bot:
                status = "bot"
            elif index in self.links:
                status = "here"
            elif self.claimed(index):
                status = "away"
            else:
                status = "empty"
            stand_in = self.referee.stand_ins.get(index)
            level = None if stand_in is None else stand_in_levels.get(index)
            infos.append(SeatInfo(seat.name, seat.kind, seat.level, status, level))
        return infos

    # -- coming and going ------------------------------------------------------------------
    def refusal(self, hello: Hello) -> str | None:
        """Why ``hello`` may not take the seat it names, or ``None`` if it may."""
        if hello.protocol != PROTOCOL:
            return (
                f"The host speaks table protocol {PROTOCOL} and this client {hello.protocol}: "
                "use the same version of Karavan."
            )
        seat = seat_named(self.match.seats, hello.name)
        humans = ", ".join(self.match.seats[i].name for i in self.humans)
        if seat is None:
            asked = printable(hello.name)[:40]
            return f"There is no seat called {asked} at this table (its players: {humans})."
        if self.match.seats[seat].is_bot:
            bot = self.match.seats[seat].name
            return f"{bot} is a bot's seat at this table (its players: {humans})."
        if self.claimed(seat) and not self.file.holds(seat, hello.secret):
            name = self.match.seats[seat].name
            if seat in self.links:
                return f"{name}'s seat is taken: {name} is at the table now."
            return f"{name} is away: ask the host to free the seat."
        return None

    def take(self, hello: Hello) -> tuple[int, str, bool]:
        """The seat ``hello`` names (which :meth:`refusal` let it take), the secret that
        proves it, and whether it was taken only now (else its player is back)."""
        seat = seat_named(self.match.seats, hello.name)
        assert seat is not None
        if not self.claimed(seat):
            return seat, self.file.claim(seat), True
        assert hello.secret is not None
        return seat, hello.secret, False

    def admit(self, link: Link, seat: int, minor: int) -> Link | None:
        """``link`` (speaking protocol revision ``minor``) is ``seat``'s connection now; the
        connection it replaces, if another held the seat."""
        old = self.links.get(seat)
        link.minor = minor
        link.seat = seat
        self.links[seat] = link
        return None if old is link else old

    def watch(self, link: Link, minor: int) -> None:
        """``link`` (speaking protocol revision ``minor``) watches the table."""
        link.seat = None
        link.minor = minor
        self.watchers.add(link)

    def unwatch(self, link: Link) -> bool:
        """Whether ``link`` was watching (it no longer is)."""
        if link not in self.watchers:
            return False
        self.watchers.discard(link)
        return True

    def unseat(self, link: Link) -> int | None:
        """The seat ``link`` held, if it was that seat's connection (it no longer is)."""
        seat = link.seat
        if seat is None or self.links.get(seat) is not link:
            return None
        del self.links[seat]
        return seat

    def connected(self, seat: int | None, link: Link) -> bool:
        """Whether ``link`` is still ``seat``'s connection (``None``: a watcher's)."""
        if seat is None:
            return link in self.watchers
        return self.links.get(seat) is link

    def everyone(self) -> list[tuple[int | None, Link]]:
        """Every connection with its seat (``None``: a watcher)."""
        return [*self.links.items(), *((None, watcher) for watcher in self.watchers)]

    def clear(self) -> None:
        """Nobody is connected any more (the table has closed)."""
        self.links.clear()
        self.watchers.clear()

    # -- the host's commands -----------------------------------------------------------------
    def seat_of(self, name: str) -> int:
        """The person's seat called ``name``; :class:`IllegalAction` if there is none."""
        seat = seat_named(self.match.seats, name)
        if seat is None or seat not in self.humans:
            players = ", ".join(self.match.seats[i].name for i in self.humans)
            raise IllegalAction(f"No player's seat is called {printable(name)[:40]} ({players}).")
        return seat

    def absent(self, seat: int) -> str:
        """``seat``'s name, if its player is not at the table; else :class:`IllegalAction`."""
        name = self.match.seats[seat].name
        if seat in self.links:
            raise IllegalAction(f"{name} is at the table: only an absent player's seat changes.")
        if self.match.is_over():
            raise IllegalAction("The game is over.")
        return name

    def free(self, seat: int) -> str:
        """Forget absent ``seat``'s secret: whoever joins by its name with the code takes it.

        Returns what the table is told; :class:`IllegalAction` if the seat may not be freed.
        """
        name = self.absent(seat)
        if not self.claimed(seat):
            raise IllegalAction(f"{name}'s seat is free already: it waits for {name} to join.")
        self.file.release(seat)
        self.hold_until_seated()
        return f"The host freed {name}'s seat: whoever joins as {name} with the code takes it."
