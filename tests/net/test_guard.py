"""The host's limits on their own, on a clock the test turns: the message rate, the wrong
codes per address, and the door that no crowd of silent connections can block."""

from __future__ import annotations

import asyncio

from karavan_net.guard import Bucket, Doorman, WrongCodes


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


def test_wrong_codes_are_counted_per_address_and_forgotten_once_paid_back():
    clock = Clock()
    codes = WrongCodes(rate=0.5, burst=3, clock=clock, remembered=50)
    assert codes.may_try("10.0.0.1")
    assert [codes.wrong("10.0.0.1") for _ in range(3)] == [False, False, True]
    assert not codes.may_try("10.0.0.1")
    assert codes.may_try("10.0.0.2")  # another address is not held up
    assert round(codes.wait("10.0.0.1"), 6) == 2.0
    clock.now += 2
    assert codes.may_try("10.0.0.1") and codes.wait("10.0.0.1") == 0
    assert codes.wrong("10.0.0.1")  # one try came back, and it is used up again
    clock.now += 3600
    codes.wrong("10.0.0.2")
    for index in range(49):  # a crowd of addresses: the one paid back is forgotten first
        codes.wrong(f"10.1.0.{index}")
    assert len(codes) == 50 and "10.0.0.1" not in codes and "10.0.0.2" in codes
    for index in range(100):  # then the oldest
        codes.wrong(f"10.2.0.{index}")
    assert len(codes) == 50 and "10.0.0.2" not in codes and "10.2.0.99" in codes


class Socket:
    """A transport the doorman can cut."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.cut = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return (self.address, 5000) if name == "peername" else default

    def abort(self) -> None:
        self.cut = True


async def test_the_doorman_lets_newcomers_in_by_sending_the_oldest_strangers_away():
    doorman = Doorman(per_address=3, total=5, seconds=60, loop=asyncio.get_running_loop())
    crowd = [Socket("10.0.0.66") for _ in range(10)]
    for socket in crowd:
        doorman.arrived(socket, socket)
    # One address holds three places at most: each newcomer sent its oldest away.
    assert [s.cut for s in crowd] == [True] * 7 + [False] * 3
    assert doorman.from_address("10.0.0.66") == 3
    player = Socket("10.0.0.1")
    doorman.arrived(player, player)
    doorman.welcome(player)  # said Hello at once: no longer the doorman's
    others = [Socket(f"10.0.1.{i}") for i in range(4)]
    for socket in others:
        doorman.arrived(socket, socket)
    # Five strangers in all: the oldest of the crowd made room, the player was never counted.
    assert len(doorman) == 5 and not player.cut
    assert sum(not s.cut for s in crowd) == 1 and not any(s.cut for s in others)
    assert doorman.turned_away == 9
    for socket in crowd + others:
        doorman.left(socket)
    assert len(doorman) == 0 and doorman.from_address("10.0.0.66") == 0
    doorman.close()


async def test_a_stranger_that_stays_silent_is_cut_when_its_time_is_up():
    doorman = Doorman(per_address=3, total=5, seconds=0.05, loop=asyncio.get_running_loop())
    silent, polite = Socket("10.0.0.2"), Socket("10.0.0.3")
    doorman.arrived(silent, silent)
    doorman.arrived(polite, polite)
    assert 0 < doorman.time_left(silent) <= 0.05
    doorman.welcome(polite)
    assert doorman.time_left(polite) == 0
    while not silent.cut:
        await asyncio.sleep(0.01)
    assert not polite.cut and len(doorman) == 0
