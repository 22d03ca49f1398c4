"""Pick one of a list: payments, which camel joins, every legal decision."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.events import Key
from textual.geometry import Offset, Region, Size
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Footer, Label, OptionList
from textual.widgets.option_list import Option

from karavan_tui.context import karavan_app
from karavan_tui.widgets.redraw import redraw_for_a_moment

TALL_ROWS = 40
"""From this many rows a list at the bottom of the screen has the rows of one in the middle."""


def beside_offset(part: Region, dialog: Size, side: Region, room: Size) -> Offset:
    """Where a ``dialog`` goes beside ``part`` of the table: over the ``side`` panel next to
    the table (so that no card is hidden), its top in line with the part's, within ``room``
    (the header keeps the first row and the Footer the last)."""
    y = max(1, min(part.y, room.height - 1 - dialog.height))
    return Offset(side.x, y)


class ChoiceScreen(ModalScreen[int | None]):
    """A titled list; dismisses with the chosen index, or ``None`` on Escape.

    ``place`` puts it in the middle of the screen or at its ``"bottom"``, where it
    leaves the top of the table (Karawane's track) in sight.  A ``searchable``
    list narrows down as the player types: every word typed must appear in an
    entry (in any order, any case); Backspace takes a letter back, and Escape
    closes the list, narrowed or not, as it closes every other dialog.

    On a large screen a choice about one part of the table opens ``beside`` it
    (that part's region on screen), over the ``side`` panel next to the table:
    in line with the part, and hiding none of the cards.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: auto; min-width: 40; max-width: 76; height: auto; max-height: 20;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    ChoiceScreen #choice-title { text-style: bold; width: 100%; margin-bottom: 1; }
    /* The list is all the dialog holds to focus: no border of its own, its rows all entries. */
    ChoiceScreen OptionList, ChoiceScreen OptionList:focus {
        height: auto; max-height: 14; border: none; padding: 0;
    }
    /* The search line takes a row of the list's, so the hint under it stays in the dialog. */
    ChoiceScreen.-searchable OptionList { max-height: 13; }
    ChoiceScreen #choice-hint { color: $text-muted; margin-top: 1; }
    ChoiceScreen #choice-search { color: $text-accent; width: 100%; }
    /* At the bottom (over Karawane's hand, its track kept in sight) six entries at least, the
       status line under the dialog still in sight. */
    ChoiceScreen.-bottom { align: center bottom; }
    ChoiceScreen.-bottom > Vertical { max-height: 11; margin-bottom: 1; }
    ChoiceScreen.-bottom OptionList, ChoiceScreen.-bottom.-searchable OptionList { max-height: 6; }
    /* From 40 rows the track ends high on the screen: the list takes the rows under it
       (fourteen entries, not six, as a dialog in the middle). */
    ChoiceScreen.-bottom.-tall > Vertical { max-height: 19; }
    ChoiceScreen.-bottom.-tall OptionList { max-height: 14; }
    ChoiceScreen.-bottom.-tall.-searchable OptionList { max-height: 13; }
    ChoiceScreen.-bottom #choice-title { margin-bottom: 0; }
    ChoiceScreen.-bottom #choice-hint { margin-top: 0; }
    ChoiceScreen.-beside { align: left top; }
    .-ascii ChoiceScreen > Vertical { border: ascii $accent; }
    """

    def __init__(
        self,
        title: str,
        options: Sequence[str],
        hint: str | None = None,
        place: str = "middle",
        searchable: bool = False,
        highlight: int | None = None,
        beside: Region | None = None,
        side: Region | None = None,
    ) -> None:
        if side is None:
            beside = None
        classes = "-beside" if beside is not None else "-bottom" if place == "bottom" else ""
        super().__init__(classes=f"{classes} -searchable" if searchable else classes)
        self.beside = beside
        self.side = side
        self.choice_title = title
        self.highlight = highlight  # the entry the cursor starts on (a hint), if not the first
        self.options = list(options)
        self.searchable = searchable
        self.query_text = ""
        self.redrawing: Timer | None = None  # drawn again after a late flag (see flag)
        typed = "type to narrow down, " if searchable else ""
        self.hint = hint or f"Enter or click to choose, {typed}Esc to cancel"

    def compose(self) -> ComposeResult:
        """Title, list and hint."""
        with Vertical():
            # Options and titles hold player names and other outside text: never markup.
            title = karavan_app(self).glyphs.words(self.choice_title)
            yield Label(Content(title), id="choice-title")
            if self.searchable:
                yield Label(self._search_line(len(self.options)), id="choice-search")
            yield OptionList(*self._options(range(len(self.options))), id="choices")
            yield Label(Content(self.hint), id="choice-hint")
        yield Footer()

    def on_mount(self) -> None:
        """Start on the entry to highlight, if any."""
        self.set_class(self.app.size.height >= TALL_ROWS, "-tall")
        if self.highlight is not None:
            self.show_entry(self.highlight)
        if self.beside is not None and self.side is not None:
            dialog = self.query_one(Vertical)
            dialog.styles.width = self.side.width  # the side panel's width, no more
            dialog.styles.min_width = None
            dialog.styles.max_width = None
            self.call_after_refresh(self.place_beside)

    def place_beside(self) -> None:
        """Move the dialog next to the part of the table it is about (its size is known now)."""
        if self.beside is None or self.side is None:
            return
        dialog = self.query_one(Vertical)
        dialog.styles.offset = beside_offset(self.beside, dialog.outer_size, self.side, self.size)

    def flag(self, index: int, suffix: str) -> None:
        """Add ``suffix`` to entry ``index`` (a hint that came while the list was open or
        opening) and put the cursor on it, where it is shown."""
        if self.options[index].endswith(suffix):
            return
        self.options[index] += suffix
        self.highlight = index
        self.show_entry(index)
        # It may be opening, and the update dropped (see widgets/redraw.py).
        self.redrawing = redraw_for_a_moment(self, self.redrawing)

    def show_entry(self, index: int) -> None:
        """Draw entry ``index`` as it reads now, the cursor on it, where the list shows it.

        Before the list is mounted there is none to draw: :meth:`on_mount` draws it then
        (the list may have been made from the entries as they read before).
        """
        for choices in self.query("#choices").results(OptionList):
            shown = [option.id for option in choices.options]
            if str(index) in shown:
                words = karavan_app(self).glyphs.words(self.numbered_entry(index))
                choices.replace_option_prompt(str(index), Content(words))
                choices.highlighted = shown.index(str(index))

    def _options(self, indexes: Sequence[int] | range) -> list[Option]:
        # Each option keeps its place in the whole list as its id, whatever the filter;
        # its words (often the engine's previews) are drawn in the current symbol set.
        words = karavan_app(self).glyphs.words
        return [Option(Content(words(self.numbered_entry(i))), id=str(i)) for i in indexes]

    def numbered_entry(self, index: int) -> str:
        """Entry ``index`` as the list shows it, its number first: "6. Ann buys ..."."""
        return f"{index + 1}. {self.options[index]}"

    def _search_line(self, shown: int) -> Content:
        typed = self.query_text or "(type to search)"
        return Content(f"Search: {typed}  {shown} of {len(self.options)}")

    def matching(self) -> list[int]:
        """The entries holding every word typed so far, by their place in the whole list.

        An entry is searched as it is shown, its number first ("6. Ann buys ..."),
        so the number a player reads off the list finds its entry.
        """
        words = self.query_text.casefold().split()
        return [
            i
            for i in range(len(self.options))
            if all(w in self.numbered_entry(i).casefold() for w in words)
        ]

    def numbered(self) -> int | None:
        """The entry whose number was typed (a number alone), by its place in the whole list."""
        typed = self.query_text.strip()
        if typed.isdecimal() and 1 <= int(typed) <= len(self.options):
            return int(typed) - 1
        return None

    def _refilter(self) -> None:
        shown = self.matching()
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        choices.add_options(self._options(shown))
        if shown:
            # The entry numbered as typed, where it is one of those shown, else the first.
            number = self.numbered()
            choices.highlighted = shown.index(number) if number in shown else 0
        self.query_one("#choice-search", Label).update(self._search_line(len(shown)))

    def on_key(self, event: Key) -> None:
        """Typing narrows a searchable list down; Backspace takes a letter back.

        In a list that is not searchable a digit moves the cursor to that entry.
        """
        if not self.searchable:
            digit = event.character
            if (
                digit is not None
                and len(digit) == 1
                and "1" <= digit <= "9"
                and int(digit) <= len(self.options)
            ):
                event.stop()
                event.prevent_default()
                self.query_one("#choices", OptionList).highlighted = int(digit) - 1
            return
        if event.key == "backspace" and self.query_text:
            self.query_text = self.query_text[:-1]
        elif event.character and event.character.isprintable() and event.key not in ("up", "down"):
            self.query_text += event.character
        else:
            return
        event.stop()
        event.prevent_default()
        self._refilter()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Answer with the chosen entry's place in the whole list."""
        event.stop()
        if not self.is_active:  # a second Enter before the picker is gone must not pop the table
            return
        chosen = event.option.id
        self.dismiss(int(chosen) if chosen is not None else event.option_index)

    def action_cancel(self) -> None:
        """Close without choosing."""
        if self.is_active:
            self.dismiss(None)
