"""A seat played headless by a bot from afar: ``karavan join ... --bot LEVEL``.

The bot sees what a player at that seat would: the observation and the legal
decisions the host sends, nothing else.  It plays until the game ends, then
prints the result.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from karavan_core.bots import table_bot
from karavan_core.match import BOT
from karavan_core.referee import bot_agrees
from karavan_core.text import clean_name
from karavan_net.client import TableClient
from karavan_net.protocol import TakeBackAsked, Update


class BotPlayer:
    """Plays ``client``'s seat with a bot of ``level``; :meth:`play` returns the exit status."""

    def __init__(
        self,
        client: TableClient,
        level: str,
        *,
        seed: int | None = None,
        out: Callable[[str], None] = print,
        on_update: Callable[[Update], None] | None = None,
    ) -> None:
        self.client = client
        self.bot = table_bot(
            level, client.game, seed=random.randrange(1 << 30) if seed is None else seed
        )
        self.out = out
        self.on_update = on_update  # tests and the benchmark watch the updates
        self._updates: asyncio.Queue[Update | None] = asyncio.Queue()
        self.ending: str | None = None
        self.declines: list[str] = []
        # The table number the bot last answered: it does not answer the same twice.
        self.answered = -1
        self.consented: set[int] = set()  # the take-back requests it has answered

    # -- the listener -------------------------------------------------------------------
    def table_updated(self, update: Update) -> None:
        """Queue the update for the bot."""
        if self.on_update is not None:
            self.on_update(update)
        self._updates.put_nowait(update)

    def declined(self, reason: str) -> None:
        """A bot's decision refused: the table moved on meanwhile (an undo); it looks again."""
        self.declines.append(reason)

    def connection_changed(self, connected: bool) -> None:
        """Say when the table is lost and found again.

        Back at the table, the bot may answer the same number again: its last
        answer may never have reached a host that went away meanwhile.
        """
        if connected:
            self.answered = -1
        self.out("Back at the table." if connected else "Lost the table: reconnecting...")

    def closed(self, reason: str) -> None:
        """The table is gone."""
        self.ending = reason
        self._updates.put_nowait(None)

    # -- playing ------------------------------------------------------------------------
    async def play(self) -> int:
        """Play until the game is over or the host closes the table (0), or the table is
        lost (1)."""
        client = self.client
        reader = asyncio.get_running_loop().create_task(client.run(self))
        try:
            while True:
                update = await self._updates.get()
                while not self._updates.empty():  # only the newest matters
                    newer = self._updates.get_nowait()
                    if newer is None:
                        update = None
                        break
                    update = newer
                if update is None:
                    if client.update is not None and client.update.outcome is not None:
                        self.report(client.update)
                        return 0
                    if client.closed_why == "closed":  # the host's doing: nothing went wrong
                        self.out(str(self.ending))
                        return 0
                    self.out(f"The table is gone: {self.ending}")
                    return 1
                if update.outcome is not None:
                    self.report(update)
                    return 0
                await self.consent(update)
                if update.to_move != client.seat or not update.legal:
                    continue
                if update.number == self.answered:
                    continue
                self.answered = update.number
                observation = client.observation(update.observation)
                legal = [client.action(choice.action) for choice in update.legal]
                action = await asyncio.to_thread(self.bot.choose, observation, legal)
                await client.decide(action)
        finally:
            await client.close()
            reader.cancel()

    async def consent(self, update: Update) -> None:
        """Answer a take-back the bot is asked to agree to, by the bots' fixed rule."""
        asked: TakeBackAsked | None = update.takeback
        seat = self.client.seat
        key = asked.number if asked is not None and asked.number else -update.number
        if asked is None or seat not in asked.waiting or key in self.consented:
            return
        self.consented.add(key)  # an older host numbers no request: one answer per change
        bots = {seat} | {i for i, info in enumerate(update.seats) if info.kind == BOT}
        whose = [taken.seat for taken in asked.taken]
        await self.client.answer(bot_agrees(asked.seat, whose, bots), asked.number)

    def report(self, update: Update) -> None:
        """Print the result: every seat's score and the winners."""
        outcome = update.outcome
        assert outcome is not None
        names = [clean_name(seat.name) for seat in update.seats]
        self.out(f"The game is over: {outcome.sentence(names)}")
