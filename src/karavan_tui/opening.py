"""Opening games at the table: a match, a save, any table a driver runs; what cannot be
kept in its folder is reported, and a save another window plays is offered to watch."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from textual.screen import Screen

from karavan_core.match import Match
from karavan_core.saves import OPEN_ELSEWHERE, OpenElsewhere, SaveError, load_match, new_save_path
from karavan_core.text import printable
from karavan_tui.context import Karavan
from karavan_tui.door import door_refuses
from karavan_tui.messages import OpenSave
from karavan_tui.modals.choice import ChoiceScreen
from karavan_tui.modals.opening_save import OpeningSave
from karavan_tui.screens.play import LocalPlay
from karavan_tui.screens.table import Driver, TableScreen

PROGRESS_AFTER = 0.3
"""Seconds a save may take to load before a dialog shows how far its replay is."""


class Opening(Karavan):
    """The app's way to the table: from a match, a save file, or any driver."""

    _loading: object | None = None  # the save being loaded now (the latest asked for)

    def close_tables(self, screens: Sequence[Screen[object]] | None = None) -> None:
        """Tell every table about to close (of ``screens``; all by default) so, before the
        title looks for a game to resume (a game nobody decided in is no game to resume: its
        file goes first)."""
        for screen in self.screen_stack if screens is None else screens:
            if isinstance(screen, TableScreen):
                screen.driver.closing()

    def open_match(self, match: Match, save_path: Path | None = None) -> None:
        """Open ``match`` at its table, autosaving to ``save_path`` (a new file if not given);
        a save another window plays is offered to watch instead."""
        if save_path is None:
            save_path = new_save_path(self.config.saves_dir, match.game.name)
        make = partial(LocalPlay, match, save_path)
        self.open_table(make, save_path.parent, "save", partial(self.offer_watching, match))

    def offer_watching(self, match: Match) -> None:
        """``match``'s save is played in another window: watch it as it was saved, or not."""

        def chosen(choice: int | None) -> None:
            if choice == 0:
                self.show_replay(match, len(match.history))

        options = ["Watch it read-only", "Go back"]
        self.push_screen(ChoiceScreen(OPEN_ELSEWHERE, options), chosen)

    def open_table(
        self,
        make: Callable[[], Driver],
        folder: Path,
        keep: str,
        elsewhere: Callable[[], None] | None = None,
    ) -> None:
        """Close everything above the title and open the table ``make`` drives; a driver
        that cannot ``keep`` its game in ``folder`` is reported instead (one whose file
        another window plays, to ``elsewhere`` if given)."""
        if door_refuses(self, "new_game"):
            return
        self.close_tables()
        while len(self.screen_stack) > 1:
            self.pop_screen()
        try:
            driver = make()
        except OpenElsewhere:
            if elsewhere is None:
                self.notify(OPEN_ELSEWHERE, severity="warning")
            else:
                elsewhere()
            return
        except OSError as error:
            where = printable(str(folder))
            self.notify(f"Cannot {keep} in {where}: {error.strerror}", severity="error")
            return
        self.push_screen(TableScreen(driver))

    def open_file(self, path: Path) -> None:
        """Load the save at ``path`` and open it; a bad file is reported and left alone."""
        self.load_save(path, lambda match: self.open_match(match, path), "Cannot open the save")

    def load_save(self, path: Path, then: Callable[[Match], None], refused: str) -> None:
        """Load the save at ``path`` off the UI thread, then ``then(match)``; a bad file is
        reported (titled ``refused``) and left alone.

        A save is verified by replaying it: the longest take a moment, so a dialog
        shows the replay's progress once it has taken :data:`PROGRESS_AFTER` seconds.
        Asking for another save meanwhile forgets this one.
        """
        dialog = OpeningSave(printable(path.name))
        self._loading = token = object()
        shown = self.set_timer(PROGRESS_AFTER, lambda: self.push_screen(dialog))

        def progress(done: int, total: int) -> None:
            self.call_from_thread(dialog.advance, done, total)

        def finish(loaded: Match | SaveError) -> None:
            shown.stop()
            dialog.close()
            if self._loading is not token:
                return  # another save was asked for meanwhile
            self._loading = None
            if isinstance(loaded, SaveError):
                self.notify(str(loaded), title=refused, severity="error", timeout=8)
            else:
                then(loaded)

        async def load() -> None:
            try:
                loaded: Match | SaveError = await asyncio.to_thread(
                    load_match, path, None, progress
                )
            except SaveError as error:
                loaded = error
            # On the app's own queue, as from any handler, not inside this worker's task.
            self.call_later(finish, loaded)

        self.run_worker(load(), group="open-save", exit_on_error=False)

    def on_open_save(self, message: OpenSave) -> None:
        """A screen asks for a save at the table."""
        self.open_file(message.path)
