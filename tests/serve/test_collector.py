"""The server's cycle collector: what lives long is frozen out of its way, and once in a long
while everything is looked at again (a let-go table's cycles are freed)."""

from __future__ import annotations

import gc

from karavan_net.serve.collector import Collector


class Cycle:
    """An object in a reference cycle with itself: only the cycle collector frees it."""

    def __init__(self) -> None:
        self.me = self


def cycles() -> int:
    """How many :class:`Cycle` objects are alive, frozen ones included (they stay frozen)."""
    gc.unfreeze()  # gc.get_objects leaves out the frozen
    found = sum(1 for thing in gc.get_objects() if type(thing) is Cycle)
    gc.freeze()
    return found


async def test_what_lives_is_frozen_and_everything_is_collected_once_in_a_while():
    now = [0.0]
    collector = Collector(freeze_seconds=3600, full_seconds=60, clock=lambda: now[0])
    try:
        collector.start()
        assert gc.get_freeze_count() > 0  # the program itself, out of the way
        Cycle()
        collector.tick()  # not time for everything yet: the cycle is frozen with the rest
        gc.collect()  # so the collections of every day never look at it
        assert cycles() == 1
        now[0] = 61.0
        collector.tick()  # everything is looked at: the cycle, garbage, is freed
        assert cycles() == 0 and gc.get_freeze_count() > 0
    finally:
        collector.stop()
    assert gc.get_freeze_count() == 0  # stopped: everything is the collector's again
