"""The parts a host is made of, each on its own: the seat registry, the broadcaster's hooks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from karavan_core.match import Match
from karavan_core.referee import Referee
from karavan_core.saves import envelope
from karavan_net.broadcaster import Hooks
from karavan_net.host import Host
from karavan_net.protocol import MINOR, decode_host
from karavan_net.seat_registry import SeatRegistry
from karavan_net.storage import TableFile

from .helpers import CODE, new_match, until


class FakeLink:
    """A connection that keeps every frame it is sent, building each refresh at once."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.minor = MINOR
        self.frames: list[str] = []
        self.closed = False

    def send(self, text: str) -> None:
        self.frames.append(text)

    def refresh(self, frame: Callable[[], str | None]) -> None:
        text = frame()
        if text is not None:
            self.frames.append(text)

    def close(self, text: str | None = None) -> None:
        self.closed = True

    def numbers(self) -> list[int]:
        """The table numbers of the updates this link was sent."""
        return [data["number"] for data in map(json.loads, self.frames) if data["type"] == "Update"]


class Flaky:
    """A storage that keeps each match in memory until it is told to fail."""

    def __init__(self) -> None:
        self.failing = False
        self.kept: list[str] = []

    def snapshot(self, match: Match) -> str:
        return json.dumps(envelope(match))

    def write(self, text: str) -> None:
        if self.failing:
            raise OSError("the disk is full")
        self.kept.append(text)


def seated_host(hooks: Hooks, storage: Flaky | None = None) -> tuple[Host, FakeLink, FakeLink]:
    """A Jaipur host with both seats taken, Ann connected and one watcher."""
    referee = Referee(new_match("jaipur", "Ann,Bob"), storage=storage)
    host = Host(referee, CODE, TableFile(None, CODE, {}), bot_delay=0.0, hooks=hooks)
    for seat in host.humans:
        host.reserve(seat)
    ann, watcher = FakeLink(), FakeLink()
    host.admit(ann, 0)
    host.watch(watcher)
    return host, ann, watcher


async def test_a_change_the_store_refuses_is_never_shown_where_the_table_is_lost():
    storage = Flaky()
    lost = asyncio.Event()
    host, ann, watcher = seated_host(Hooks(lost=lost.set), storage)
    storage.failing = True
    host.referee.play(0, (host.referee.legal()[0],))
    await asyncio.wait_for(lost.wait(), 10)
    await asyncio.sleep(0)  # anything shown after the loss would come now
    assert 1 not in ann.numbers() + watcher.numbers()
    assert ann.numbers() and watcher.numbers()  # what was kept before was shown
    await host.close()


async def test_a_host_with_no_hook_shows_a_change_its_save_failed_and_says_so():
    storage = Flaky()
    host, ann, watcher = seated_host(Hooks(), storage)
    said: list[str] = []
    host.events = said.append
    storage.failing = True
    host.referee.play(0, (host.referee.legal()[0],))
    await until(lambda: 1 in ann.numbers() and 1 in watcher.numbers())
    assert said[-1] == "The autosave failed: the disk is full"
    await host.close()


async def test_a_notice_hook_is_told_to_every_seat_where_the_referee_tells_nothing():
    told: list[str | None] = [None]
    host, _ann, watcher = seated_host(Hooks(notice=lambda: told[0]))
    assert host.update_for(0).notice is None
    told[0] = "Ann's time ran out: a hard bot decided for them."
    host.referee.play(0, (host.referee.legal()[0],))
    for seat, key in ((0, None), (1, None), (None, -1)):
        assert host.update_for(seat, key).notice == told[0]
    last = decode_host(watcher.frames[-1])
    assert getattr(last, "notice", None) == told[0]
    await host.close()


def test_the_registry_gives_back_the_connection_a_seat_replaces():
    referee = Referee(new_match("jaipur", "Ann,Bob"))
    seats = SeatRegistry(referee, TableFile(None, CODE, {}))
    first, second = FakeLink(), FakeLink()
    assert seats.admit(first, 0, MINOR) is None
    assert seats.admit(second, 0, 1) is first
    assert seats.admit(second, 0, 1) is None  # the same connection again replaces nobody
    assert (second.seat, second.minor) == (0, 1)
    assert seats.unseat(first) is None  # the replaced one's going leaves the seat taken
    assert seats.links == {0: second}
    assert seats.unseat(second) == 0 and seats.links == {}
