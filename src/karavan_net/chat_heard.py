"""The chat of a table as a client hears it: the lines kept, whether it may say one, and who
is told of each :class:`~karavan_net.protocol.Chat` the host sends."""

from __future__ import annotations

from collections.abc import Callable

from karavan_core.text import clean_name, printable
from karavan_net import protocol as wire

CHAT_KEPT = 100  # the chat's lines a client keeps (the newest)
CHAT_SHOWN = 1000  # the most characters of a chat line shown (a host caps them far lower)


class ChatHeard:
    """A table client's part that hears the chat and says lines in it."""

    # The lines heard (the newest, in order), whether we may say one (``None``: the host has
    # no chat), and who hears each Chat the host sends.
    chat: list[wire.ChatLine]
    chat_open: bool | None
    on_chat: Callable[[wire.Chat], None] | None

    def _no_chat_yet(self) -> None:
        self.chat, self.chat_open, self.on_chat = [], None, None

    async def send(self, message: wire.ClientMessage) -> bool:
        """Send ``message``; ``False`` if we are not connected now."""
        raise NotImplementedError

    async def say(self, text: str) -> bool:
        """Say ``text`` at the table's chat (the host sends it back to everyone, or says
        why not)."""
        return await self.send(wire.Say(text))

    def _heard(self, chat: wire.Chat) -> None:
        """Keep the lines ``chat`` brings (made safe to show: outside data), and tell
        :attr:`on_chat`."""
        if chat.lines:
            kept = {line.number: line for line in self.chat}
            for line in chat.lines[-CHAT_KEPT:]:
                kept[line.number] = wire.ChatLine(
                    line.number, clean_name(line.name), printable(line.text)[:CHAT_SHOWN], line.seat
                )
            self.chat = [kept[number] for number in sorted(kept)][-CHAT_KEPT:]
        self.chat_open = chat.open
        if self.on_chat is not None:
            self.on_chat(chat)
