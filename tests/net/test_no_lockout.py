"""No stranger keeps a player out (issue 57): a guesser or a churner on the players' own
address slows only itself, each against a real host on loopback, bounded in time and count.

A wrong code's answer waits once its visitor, its address or the whole table has tried a
few; the right code, or a seat's secret, gets in at once from any address.  The door for
connections that have not said Hello gives way from the address that holds the most.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys

from karavan_net.client import TableClient
from karavan_net.guard import Allowance, WrongCodes
from karavan_net.protocol import Refused, Update, Welcome

from .helpers import CODE, Raw, hosting, new_match, until

PLAYERS = "127.0.0.1"  # the players' own address, which the guesser and the churner share


class StillClock:
    """The allowances' clock: it moves only when the test says, so no try comes back."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def held_codes(longest: float = 3.0) -> WrongCodes:
    """The host's allowances on a still clock: past them every answer waits ``longest``."""
    return WrongCodes(
        Allowance(0.5, 5), Allowance(2, 20), Allowance(5, 50), longest=longest, clock=StillClock()
    )


async def guess(port: int, code: str, source: str = PLAYERS, visitor: str | None = None):
    """One wrong code tried: the host's answer (its first frame)."""
    raw = await Raw.hello(port, "Bob", code=code, source=source, visitor=visitor)
    try:
        return await asyncio.wait_for(raw.next(), 10)
    finally:
        await raw.close()


async def test_a_guesser_on_the_players_address_is_slowed_and_the_players_get_in_at_once():
    events: list[str] = []
    match = new_match("karakum", "Ann,Bob,Cid", first=0)
    async with hosting(match, events=events) as (table, server):
        server.wrong_codes = held_codes()
        ann = TableClient(PLAYERS, server.port, CODE, "Ann")
        await ann.join()
        secret = ann.secret
        await ann.close()
        await until(lambda: 0 not in table.links)
        for number in range(5):  # the first few are answered at once
            answer = await guess(server.port, f"guess-{number:04}")
            assert isinstance(answer, Refused) and answer.reason.startswith("Wrong table code")
        # Then the guesser's answers wait; meanwhile, from its own address, Bob joins for
        # the first time, Ann takes her seat back and Cid joins as a revision-0 client.
        held = [asyncio.ensure_future(guess(server.port, f"later-{n}")) for n in range(3)]
        await until(lambda: len(server.doorman) == 0 or table.links == {})
        bob = TableClient(PLAYERS, server.port, CODE, "Bob")
        await bob.join()
        ann = TableClient(PLAYERS, server.port, CODE, "Ann", secret=secret)
        await ann.join()
        cid = await Raw.hello(server.port, "Cid", minor=0)
        assert isinstance(await cid.next(), Welcome)
        assert not any(answer.done() for answer in held)  # the guesses still wait
        for answer in await asyncio.gather(*held):
            assert isinstance(answer, Refused) and answer.reason.startswith("Wrong table code")
        assert [s.status for s in table.seat_infos()] == ["here", "here", "here"]
        assert [line for line in events if "wrong table code" in line.lower()] == [
            f"A join with a wrong table code from {PLAYERS}."
        ] * 5 + [f"Too many wrong table codes from {PLAYERS}: their answers wait."]
        await cid.close()
        await ann.close()
        await bob.close()


async def test_behind_a_web_server_one_visitors_guesses_slow_only_that_visitor():
    match = new_match("karakum", "Ann,Bob", first=0)
    async with hosting(match) as (table, server):
        server.wrong_codes = held_codes()
        web = PLAYERS  # every visitor of a web server comes from its address
        for number in range(5):
            answer = await guess(server.port, f"guess-{number}", visitor="bad-tab")
            assert isinstance(answer, Refused)
        held = asyncio.ensure_future(guess(server.port, "guess-more", visitor="bad-tab"))
        # Another visitor's mistyped code is answered at once, and its right code seats it.
        typo = await guess(server.port, "test-table-cdoe", visitor="good-tab")
        assert isinstance(typo, Refused) and not held.done()
        bob = await Raw.hello(server.port, "Bob", visitor="good-tab")
        assert isinstance(await bob.next(), Welcome) and not held.done()
        # A guesser that makes up a visitor for every try is held by its address's allowance.
        answers = await asyncio.gather(
            *(guess(server.port, f"made-up-{n}", visitor=f"tab-{n}") for n in range(16))
        )
        assert all(isinstance(answer, Refused) for answer in answers)
        assert server.wrong_codes.slowed(web, "yet-another-tab")
        assert isinstance(await held, Refused)
        await bob.close()
        assert table.seat_infos()[1].status in ("here", "away")


async def test_guesses_from_many_addresses_wait_once_the_table_has_answered_enough():
    match = new_match("karakum", "Ann,Bob", first=0)
    async with hosting(match) as (_table, server):
        server.wrong_codes = held_codes()
        sources = [f"127.0.1.{n}" for n in range(1, 26)]
        for source in sources:  # two each: 50, the table's allowance, none held for its address
            for number in range(2):
                assert isinstance(await guess(server.port, f"g{number}", source), Refused)
        assert server.wrong_codes.slowed("127.0.2.1")  # an address never seen before
        held = asyncio.ensure_future(guess(server.port, "fresh", "127.0.2.1"))
        ann = await Raw.hello(server.port, "Ann", source="127.0.2.2")
        assert isinstance(await ann.next(), Welcome) and not held.done()
        assert isinstance(await held, Refused)
        await ann.close()


CHURN = """
import asyncio, collections, contextlib, sys, time
port, seconds = int(sys.argv[1]), float(sys.argv[2])

async def churn(kept, made):
    end = time.monotonic() + seconds
    while time.monotonic() < end and made[0] < 6000:
        with contextlib.suppress(OSError):
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            kept.append(writer)
            made[0] += 1
        while len(kept) > 300:
            kept.popleft().close()

async def main():
    kept, made = collections.deque(), [0]
    await asyncio.gather(*(churn(kept, made) for _ in range(4)))
    print(made[0], flush=True)

asyncio.run(main())
"""


async def test_connection_churn_on_the_players_address_keeps_nobody_out():
    """A churner in a process of its own opens connections from the players' address as fast
    as it can (four loops, at most 6,000 in 8 seconds) and never says Hello."""
    match = new_match("karakum", "Ann,Bob,Cid,Dee", first=0)
    async with hosting(match) as (table, server):
        doorman = server.doorman
        assert doorman is not None
        churner = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHURN, str(server.port), "8", stdout=asyncio.subprocess.PIPE
        )
        try:
            await until(lambda: doorman.turned_away >= 200)  # the door is full and churning
            before = doorman.turned_away
            seated = []
            for name in ("Ann", "Bob", "Cid"):  # newcomers from the churner's address
                client = TableClient(PLAYERS, server.port, CODE, name)
                await client.join()
                seated.append(client)
            secret = seated[0].secret
            await seated[0].close()  # Ann's connection goes, and her Karavan comes back
            await until(lambda: 0 not in table.links)
            ann = TableClient(PLAYERS, server.port, CODE, "Ann", secret=secret)
            await ann.join()
            dee = TableClient(PLAYERS, server.port, CODE, "Dee")
            await dee.join()
            churning = churner.returncode is None and doorman.turned_away > before
        finally:
            with contextlib.suppress(ProcessLookupError):
                churner.kill()
            await churner.wait()
        assert churning  # the churn went on while the players got in
        assert isinstance(ann.update, Update) and table.started
        assert [s.status for s in table.seat_infos()] == ["here"] * 4
        for client in (ann, dee, *seated[1:]):
            await client.close()
