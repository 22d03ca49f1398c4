"""The chat line at the bottom of a hosted table: the newest line said, and a line to write.

Closed, the panel shows the newest line said at the table (nothing before the first); open
(**c**), the last few lines and an input: Enter says what is written, Tab offers the quick
phrases, Escape closes it.  Every line is outside data: names and words are drawn as plain
text (never markup) and were made safe to show on their way in
(:meth:`~karavan_net.chat_heard.ChatHeard._heard`).  The lines of muted players are not shown.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Static

from karavan_net.protocol import ChatLine
from karavan_net.table_chat import MAX_CHAT

OPEN_LINES = 4  # the lines shown while the chat is open (one while it is closed)
QUICK_PHRASES = ("Good game", "Thinking", "Hello", "Well played", "Thanks", "Good luck")


def chat_text(lines: Sequence[ChatLine]) -> Text:
    """``lines`` as plain text, one a row, each speaker's name in bold (a watcher's marked)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        watcher = " (watching)" if line.seat is None else ""
        text.append(f"{line.name}{watcher}", style="bold")
        text.append(f": {line.text}")
    return text


class ChatInput(Input):
    """The line the player writes in: Enter says it, Tab offers the quick phrases, ctrl+o
    mutes who spoke last, Escape closes the chat."""

    BINDINGS = [
        # Escape first: at 40 columns the Footer shows little more than these three.
        Binding("escape", "close_chat", "Close", tooltip="Close the chat"),
        Binding("tab", "phrases", "Phrases", tooltip="Good game, Thinking, Hello..."),
        Binding("ctrl+o", "mute", "Mute", tooltip="Hide the lines of who spoke last"),
    ]

    def action_phrases(self) -> None:
        """Offer the quick phrases."""
        panel = self.parent
        if isinstance(panel, ChatPanel):
            panel.phrases()

    def action_mute(self) -> None:
        """Mute who spoke last (another player, or a watcher)."""
        panel = self.parent
        if isinstance(panel, ChatPanel):
            panel.mute_last()

    def action_close_chat(self) -> None:
        """Close the chat (the table has the keys again)."""
        panel = self.parent
        if isinstance(panel, ChatPanel):
            panel.close()


class ChatPanel(Vertical):
    """The chat of a hosted table.  ``say`` sends a line written; ``phrases`` offers the quick
    phrases (and the players to mute); ``mute_last`` mutes who spoke last."""

    DEFAULT_CSS = """
    ChatPanel { height: auto; display: none; padding: 0 1; background: $boost; }
    ChatPanel.-lines, ChatPanel.-open { display: block; }
    ChatPanel #chat-lines { height: auto; max-height: 4; color: $text; }
    ChatPanel ChatInput { display: none; height: 1; border: none; padding: 0; }
    ChatPanel.-open ChatInput { display: block; }
    """

    def __init__(
        self,
        say: Callable[[str], None],
        phrases: Callable[[], None],
        mute_last: Callable[[], None],
    ) -> None:
        super().__init__(id="chat")
        self._say = say
        self._phrases = phrases
        self.mute_last = mute_last
        self.lines: Sequence[ChatLine] = ()
        self.muted: Collection[str] = ()
        self._before: Widget | None = None  # what had the keys before the chat opened

    def compose(self) -> ComposeResult:
        """The lines, and the line to write in."""
        yield Static("", id="chat-lines", markup=False)
        yield ChatInput(
            placeholder="Say something (Enter says it, Tab: quick phrases, Esc closes)",
            max_length=MAX_CHAT,
            compact=True,
            id="chat-input",
        )

    def on_mount(self) -> None:
        """Show the lines heard before the table was on screen."""
        self._draw()

    @property
    def is_open(self) -> bool:
        """Whether the line to write in is shown."""
        return self.has_class("-open")

    def show(self, lines: Sequence[ChatLine], muted: Collection[str]) -> None:
        """Show ``lines`` (but those of ``muted`` names): the newest, or the last few while
        the chat is open."""
        self.lines, self.muted = lines, muted
        self._draw()

    def _draw(self) -> None:
        shown = [line for line in self.lines if line.name.casefold() not in self.muted]
        self.set_class(bool(shown), "-lines")
        count = OPEN_LINES if self.is_open else 1
        if self.is_mounted:
            self.query_one("#chat-lines", Static).update(chat_text(shown[-count:]))

    def open(self) -> None:
        """Open the line to write in, with the keys."""
        self._before = self.screen.focused
        self.add_class("-open")
        self._draw()
        self.query_one(ChatInput).focus()

    def close(self) -> None:
        """Close the line to write in; the keys go back where they were."""
        self.remove_class("-open")
        self._draw()
        before, self._before = self._before, None
        if before is not None and before.is_attached:
            before.focus()
        else:
            self.screen.set_focus(None)

    def phrases(self) -> None:
        """Offer the quick phrases."""
        self._phrases()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Say what is written (and clear the line)."""
        event.stop()
        text = event.value.strip()
        event.input.clear()
        if text:
            self._say(text)
