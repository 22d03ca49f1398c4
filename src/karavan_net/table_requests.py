"""What a table client asks of its host about the game: a decision, a take-back asked,
answered or withdrawn, a redo; each numbered by the update it answers, so the host can
tell a request meant for a table that has moved on since."""

from __future__ import annotations

from typing import Any

from karavan_core.engine import Action, Game
from karavan_core.saves import unstructure_action
from karavan_net import protocol as wire


class TableRequests:
    """A table client's requests about the game (its connection sends them)."""

    update: wire.Update | None  # the newest update from the host

    @property
    def game(self) -> Game[Any, Any, Any]:
        """The game played at the table."""
        raise NotImplementedError

    async def send(self, message: wire.ClientMessage) -> bool:
        """Send ``message``; ``False`` if we are not connected now."""
        raise NotImplementedError

    async def decide(self, *actions: Action) -> bool:
        """Send one gesture for the current decision number."""
        assert self.update is not None
        data = [unstructure_action(self.game, action) for action in actions]
        return await self.send(wire.Decide(self.update.number, data))

    async def undo(self) -> bool:
        """Ask to take back our last decision."""
        assert self.update is not None
        return await self.send(wire.Undo(self.update.number))

    async def redo(self) -> bool:
        """Ask to replay our undone decision."""
        assert self.update is not None
        return await self.send(wire.Redo(self.update.number))

    async def answer(self, accept: bool, request: int | None = None) -> bool:
        """Agree to (or decline) the take-back another player asks for (``request``, if the
        host numbers its requests)."""
        assert self.update is not None
        return await self.send(wire.Answer(self.update.number, accept, request or None))

    async def withdraw(self, request: int) -> bool:
        """No longer ask for our take-back ``request``."""
        return await self.send(wire.Withdraw(request))
