"""The host's limits on their own, on a clock the test turns: the message rate, the wrong
codes per visitor, address and table, and the door that no crowd of silent connections can
block."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from karavan_net.guard import Allowance, Bucket, Doorman, WrongCodes


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_a_burst_through_then_makes_the_rest_wait_their_turn():
    clock = Clock()
    bucket = Bucket(rate=10, burst=3, clock=clock)
    assert [bucket.delay() for _ in range(3)] == [0, 0, 0]
    # The fourth and fifth are owed: they wait 0.1 s and 0.2 s.
    assert [round(bucket.delay(), 6) for _ in range(2)] == [0.1, 0.2]
    clock.now += 0.2  # both waited: the bucket is empty, nothing is owed
    assert round(bucket.delay(), 6) == 0.1
    clock.now += 10  # a long pause fills it up to the burst, no more
    assert [bucket.delay() for _ in range(3)] == [0, 0, 0]
    assert bucket.delay() > 0


def test_a_bucket_owes_no_more_than_it_is_told():
    clock = Clock()
    bucket = Bucket(rate=1, burst=1, clock=clock, most_owed=2)
    assert [bucket.delay() for _ in range(5)] == [0, 1, 2, 2, 2]


def codes(clock: Clock, remembered: int = 4096) -> WrongCodes:
    return WrongCodes(
        Allowance(rate=0.5, burst=3),
        Allowance(rate=1, burst=5),
        Allowance(rate=2, burst=9),
        longest=4,
        clock=clock,
        remembered=remembered,
    )


def test_wrong_codes_are_answered_later_once_a_visitor_has_tried_a_few():
    clock = Clock()
    wrong = codes(clock)
    assert not wrong.slowed("10.0.0.1")
    assert [wrong.wrong("10.0.0.1") for _ in range(3)] == [0, 0, 0]
    assert wrong.slowed("10.0.0.1") and not wrong.slowed("10.0.0.2")
    # Past its allowance each answer waits, the longer the more it tries, up to 4 seconds.
    assert [wrong.wrong("10.0.0.1") for _ in range(4)] == [2, 4, 4, 4]
    assert wrong.wrong("10.0.0.2") == 0  # another address is not held up
    clock.now += 3600
    assert not wrong.slowed("10.0.0.1") and wrong.wrong("10.0.0.1") == 0


def test_behind_one_address_each_visitor_counts_apart_and_all_of_them_together():
    clock = Clock()
    wrong = codes(clock)
    web = "127.0.0.1"
    assert [wrong.wrong(web, "bad-tab") for _ in range(3)] == [0, 0, 0]
    assert wrong.slowed(web, "bad-tab") and not wrong.slowed(web, "good-tab")
    assert wrong.wrong(web, "good-tab") == 0  # another visitor's mistake is answered at once
    # A guesser that names a new visitor every time is held by the address's allowance.
    answers = [wrong.wrong(web, f"made-up-{i}") for i in range(3)]
    assert answers == [0, 1, 2] and wrong.slowed(web, "good-tab")


def test_wrong_codes_from_everywhere_are_held_once_the_table_has_answered_enough():
    wrong = codes(Clock())
    answers = [wrong.wrong(f"10.0.1.{i}") for i in range(11)]
    assert answers[:9] == [0] * 9 and answers[9:] == [0.5, 1]
    assert wrong.slowed("10.9.9.9")


def test_wrong_codes_remember_so_many_addresses_the_paid_back_first():
    clock = Clock()
    wrong = codes(clock, remembered=50)
    wrong.wrong("10.0.0.1")
    clock.now += 3600
    wrong.wrong("10.0.0.2")
    for index in range(49):  # a crowd of addresses: the one paid back is forgotten first
        wrong.wrong(f"10.1.0.{index}")
    assert len(wrong) == 50 and "10.0.0.1" not in wrong and "10.0.0.2" in wrong
    for index in range(100):  # then the oldest
        wrong.wrong(f"10.2.0.{index}")
    assert len(wrong) == 50 and "10.0.0.2" not in wrong and "10.2.0.99" in wrong


class Socket:
    """A transport the doorman can cut."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.cut = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return (self.address, 5000) if name == "peername" else default

    def abort(self) -> None:
        self.cut = True


async def test_at_a_full_door_the_address_that_holds_the_most_gives_way():
    doorman = Doorman(total=5, seconds=60, loop=asyncio.get_running_loop())
    crowd = [Socket("10.0.0.66") for _ in range(10)]
    for socket in crowd:
        doorman.arrived(socket, socket)
    # Alone at the door, the crowd fills it, then each newcomer sends its own oldest away.
    assert [s.cut for s in crowd] == [True] * 5 + [False] * 5
    player = Socket("10.0.0.1")
    doorman.arrived(player, player)  # the crowd holds the most: it makes room
    assert not player.cut and sum(not s.cut for s in crowd) == 4
    doorman.welcome(player)  # said Hello at once: no longer the doorman's
    others = [Socket(f"10.0.1.{i}") for i in range(4)]
    for socket in others:
        doorman.arrived(socket, socket)
    assert len(doorman) == 5 and not player.cut
    assert sum(not s.cut for s in crowd) == 1 and not any(s.cut for s in others)
    # Now one stranger each: a newcomer from one of these addresses sends its own away...
    again = Socket("10.0.1.0")
    doorman.arrived(again, again)
    assert others[0].cut and not again.cut and doorman.from_address("10.0.1.0") == 1
    assert doorman.turned_away == 10
    for socket in crowd + others + [again]:
        doorman.left(socket)
    assert len(doorman) == 0 and doorman.from_address("10.0.0.66") == 0
    doorman.close()


async def test_a_stranger_that_has_asked_for_the_table_goes_after_the_silent_ones():
    doorman = Doorman(total=4, seconds=60, loop=asyncio.get_running_loop())
    player = Socket("127.0.0.1")
    doorman.arrived(player, player)
    doorman.knocked(player)  # its WebSocket asked for: its Hello comes next
    churn = [Socket("127.0.0.1") for _ in range(50)]
    for socket in churn:
        doorman.arrived(socket, socket)
    assert not player.cut and sum(not s.cut for s in churn) == 3
    doorman.close()


async def test_a_stranger_that_stays_silent_is_cut_when_its_time_is_up():
    doorman = Doorman(total=5, seconds=0.05, loop=asyncio.get_running_loop())
    silent, polite = Socket("10.0.0.2"), Socket("10.0.0.3")
    doorman.arrived(silent, silent)
    doorman.arrived(polite, polite)
    assert 0 < doorman.time_left(silent) <= 0.05
    doorman.welcome(polite)
    assert doorman.time_left(polite) == 0
    while not silent.cut:
        await asyncio.sleep(0.01)
    assert not polite.cut and len(doorman) == 0


class Timer:
    """A timer of :class:`Loop`."""

    def __init__(self, when: float, callback, args) -> None:
        self.when, self.callback, self.args = when, callback, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Loop:
    """The doorman's timers on a clock the test turns."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[Timer] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback, *args) -> Timer:
        timer = Timer(when, callback, args)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = sorted((t for t in self.timers if t.when <= self.now), key=lambda t: t.when)
        self.timers = [t for t in self.timers if t.when > self.now]
        for timer in due:
            if not timer.cancelled:
                timer.callback(*timer.args)


def test_at_a_door_full_of_addresses_with_one_stranger_each_a_newcomer_gets_in():
    loop = Loop()
    doorman = Doorman(total=256, seconds=6, loop=loop)
    crowd = [Socket(f"10.1.{i // 200}.{i % 200}") for i in range(256)]
    for socket in crowd:
        doorman.arrived(socket, socket)
    doorman.knocked(crowd[0])
    player = Socket("10.9.9.9")
    doorman.arrived(player, player)
    # Every address holds one: the oldest that has not knocked makes room.
    assert not player.cut and crowd[1].cut and sum(s.cut for s in crowd) == 1
    assert len(doorman) == 256 and doorman.from_address("10.9.9.9") == 1
    loop.advance(6)
    assert len(doorman) == 0 and all(s.cut for s in crowd + [player])


door_steps = st.lists(
    st.one_of(
        st.tuples(st.just("arrive"), st.integers(0, 7)),
        st.tuples(st.sampled_from(["knock", "welcome", "leave"]), st.integers(0, 400)),
        st.tuples(st.just("wait"), st.floats(0, 3)),
    ),
    max_size=120,
)


@settings(max_examples=300, deadline=None)
@given(total=st.integers(1, 12), steps=door_steps)
def test_the_doorman_never_fails_never_overfills_and_always_lets_a_newcomer_in(total, steps):
    """Any mix of addresses, arrivals, knocks, welcomes, departures and time: the door never
    raises, never holds more than ``total``, always takes the newcomer in, and makes room at
    the address that holds the most (the newcomer counted), its silent strangers first."""
    loop = Loop()
    doorman = Doorman(total=total, seconds=5, loop=loop)
    sockets: list[Socket] = []
    inside: set[Socket] = set()  # the strangers, as the test counts them
    knocked: set[Socket] = set()
    for action, value in steps:
        if action == "arrive":
            counts = {s.address: sum(o.address == s.address for o in inside) for s in inside}
            newcomer = Socket(f"10.0.0.{value}")
            counts[newcomer.address] = counts.get(newcomer.address, 0) + 1
            sockets.append(newcomer)
            doorman.arrived(newcomer, newcomer)
            cut = {s for s in inside if s.cut}
            if len(inside) >= total:
                [gone] = cut
                assert counts[gone.address] == max(counts.values())
                silent = [s for s in inside if s.address == gone.address and s not in knocked]
                assert gone not in knocked or not silent
            else:
                assert not cut
            inside = (inside - cut) | {newcomer}
            assert not newcomer.cut and doorman.time_left(newcomer) > 0
        elif action == "wait":
            loop.advance(value)
            inside = {s for s in inside if not s.cut}
        elif sockets:
            socket = sockets[value % len(sockets)]
            if action == "knock":
                doorman.knocked(socket)
                if socket in inside:
                    knocked.add(socket)
            else:
                (doorman.welcome if action == "welcome" else doorman.left)(socket)
                inside.discard(socket)
        assert len(doorman) == len(inside) <= total
        assert all(not s.cut for s in inside)
        assert sum(doorman.from_address(f"10.0.0.{i}") for i in range(8)) == len(inside)
    doorman.close()
    assert len(doorman) == 0
