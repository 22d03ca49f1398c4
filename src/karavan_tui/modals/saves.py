"""The saved games in a list: open one, or delete one after confirming."""

from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from karavan_core.saves import SaveSummary, list_saves
from karavan_core.text import local_time, plural, printable
from karavan_tui.context import karavan_app
from karavan_tui.modals.confirm import ConfirmScreen


def shown_path(path: Path) -> str:
    """``path`` as a user would write it: under the home folder, starting ``~/``."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # elsewhere, or no home folder to speak of
        return str(path)


class SavesScreen(ModalScreen[tuple[str, Path] | None]):
    """Every save in the folder, newest first; dismisses with what to do and the file.

    What to do is ``"open"`` (play on), ``"review"`` or ``"replay"``.

    Each save is two lines: its whole file name (what `karavan resume` takes),
    then the game, the players, the decisions and when it was last played.
    The saves are read and verified in a worker, so the dialog opens at once.
    """

    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("enter", "open", "Open", priority=True),
        Binding("v", "open('review')", "Review", tooltip="The Expert's review of the game"),
        Binding("p", "open('replay')", "Replay", tooltip="Step through the game"),
        Binding("d,delete", "delete", "Delete"),
    ]
    DEFAULT_CSS = """
    SavesScreen { align: center middle; }
    SavesScreen > Vertical {
        width: 100%; max-width: 110; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SavesScreen #saves-title { text-style: bold; width: 100%; }
    SavesScreen OptionList { height: auto; max-height: 16; }
    SavesScreen #saves-note { color: $text-muted; width: 100%; }
    """

    def __init__(
        self, folder: Path, selected: Path | None = None, words: str | None = None
    ) -> None:
        """The saves in ``folder`` (called ``words`` where its path is nobody's business)."""
        super().__init__()
        self.folder = folder
        self.words = words
        self.selected = selected  # the save to highlight once listed (back from its replay)
        self.saves: list[SaveSummary] = []
        self.reading = True

    def compose(self) -> ComposeResult:
        """Title, list and a note on unreadable files."""
        with Vertical():
            where = printable(self.words or shown_path(self.folder))
            yield Label(Content(f"Saved games in {where}, last played first"), id="saves-title")
            yield OptionList(id="saves")
            yield Label("Reading the saves...", id="saves-note")
        yield Footer()

    def on_mount(self) -> None:
        """Fill the list."""
        self.query_one(OptionList).focus()
        self.reload()

    @work(thread=True, exclusive=True, group="saves", exit_on_error=False)
    def reload(self) -> None:
        """Read (and verify) the folder again, off the UI thread."""
        saves, bad = list_saves(self.folder)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_saves, saves, len(bad))

    def show_saves(self, saves: list[SaveSummary], unreadable: int) -> None:
        """List ``saves``; say how many files could not be read."""
        self.reading = False
        self.saves = saves
        listing = self.query_one(OptionList)
        listing.clear_options()
        words = karavan_app(self).glyphs.words  # the separators in the current symbol set
        for save in saves:
            try:
                name = str(save.path.relative_to(self.folder))
            except ValueError:
                name = str(save.path)
            over = ", over" if save.over else ""
            # Names and file names come from outside: Content is never read as markup.
            entry = Content.assemble(
                (printable(name), "bold"),
                "\n  ",
                words(
                    f"{save.game} · {', '.join(save.players)} · "
                    f"{plural(save.decisions, 'decision')}{over} · {local_time(save.saved_at)}"
                ),
            )
            listing.add_option(Option(entry))
        if saves:
            paths = [save.path for save in saves]
            listing.highlighted = paths.index(self.selected) if self.selected in paths else 0
        note = "Enter opens, v reviews, p replays, d deletes, Esc goes back."
        if not saves:
            note = "No saved games yet. Esc goes back."
        if unreadable:
            note += f"  {plural(unreadable, 'file')} could not be read: see `karavan saves`."
        self.query_one("#saves-note", Label).update(note)

    def _selected(self) -> SaveSummary | None:
        index = self.query_one(OptionList).highlighted
        if index is None or not 0 <= index < len(self.saves):
            return None
        return self.saves[index]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """A click or Enter on a save opens it."""
        event.stop()
        self.action_open()

    def action_open(self, how: str = "open") -> None:
        """Open the selected save: to play on, or (``how``) to review or replay it."""
        save = self._selected()
        if save is not None:
            self.dismiss((how, save.path))

    def action_delete(self) -> None:
        """Delete the selected save once the player confirms."""
        save = self._selected()
        if save is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                try:
                    save.path.unlink()
                except OSError as error:
                    self.notify(
                        f"Could not delete {printable(save.path.name)}: {error.strerror}",
                        severity="error",
                    )
                else:
                    self.notify(f"Deleted {printable(save.path.name)}.")
                self.reload()

        self.app.push_screen(
            ConfirmScreen(
                f"Delete the {save.game} game of {', '.join(save.players)} "
                f"({plural(save.decisions, 'decision')})? This cannot be undone.",
                yes="Delete",
            ),
            answered,
        )

    def action_cancel(self) -> None:
        """Go back."""
        self.dismiss(None)
