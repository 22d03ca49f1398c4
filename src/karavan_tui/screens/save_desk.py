"""The save of a game played here, as its player sees it: the autosave's mark, and naming it.

The referee writes the match after every change, off the UI thread; once a
write is done (or has failed) the table hears of it here, on the UI thread, and
the status line says "saved" or NOT SAVED.  A failing save is told once, when
it starts failing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars

from karavan_core.saves import new_save_path
from karavan_core.text import printable
from karavan_tui.context import karavan_app
from karavan_tui.modals.save_as import SaveAsScreen
from karavan_tui.screens.local_link import LocalLink
from karavan_tui.screens.seat import SeatDriver


class SaveDesk:
    """The save of the game ``link`` runs, at ``driver``'s table."""

    def __init__(self, driver: SeatDriver, link: LocalLink) -> None:
        self.driver = driver
        self.link = link
        self.failed = False  # the last autosave failed: the status says NOT SAVED

    def watch(self) -> None:
        """Hear of every save once it is written (call it on the UI thread)."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()  # the app's: what kept() draws needs it

        def kept(_: int) -> None:  # on the writer's thread: told on the UI's, never waited for
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to tell
                loop.call_soon_threadsafe(self.kept, context=context)

        self.link.referee.when_kept(kept)

    def kept(self) -> None:
        """A save was written, or failed: said once when it starts failing, and marked."""
        error = self.link.referee.save_error
        if error is not None and not self.failed:
            self.driver.notify(f"Autosave failed: {error.strerror or error}", severity="error")
        self.failed = error is not None
        if self.driver.screen.is_mounted:
            self.driver.screen.refresh_status()

    def save_as(self) -> None:
        """Give the game a name: its save file moves there, and autosave goes on in it."""
        screen, link = self.driver.screen, self.link
        folder = karavan_app(screen).config.saves_dir

        def named(name: str | None) -> None:
            if not name:
                return
            if name == link.save_path.stem:  # its own name: autosaved there after every decision
                self.driver.notify(f"Saved as {printable(link.save_path.name)}.")
                return
            path = new_save_path(folder, link.game.name, stem=name)
            try:
                link.relocate(path)
            except OSError as error:
                self.driver.notify(f"Could not save: {error.strerror or error}", severity="error")
                return
            screen.refresh_status()
            self.driver.notify(f"Saved as {printable(path.name)}.")

        screen.app.push_screen(SaveAsScreen(link.save_path.stem), named)
