"""Where Karavan reaches into Textual 8.2.8 (pinned): every private member it uses is here.

Each has the reason it is needed.  A Textual upgrade is checked against this
module alone: nothing else in the app touches Textual's private names.

A toast's timer is set to its notification's time left, which is negative when
the app was busy between the notification and the toast's creation (many
notifications at once, a slow redraw); Textual's ``Timer`` then loops forever
without yielding and the whole app hangs (seen at a hosted table, whose
notices come from outside at any moment).  Toasts here get at least a tenth
of a second.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App
from textual.binding import BindingsMap, BindingType
from textual.dom import DOMNode
from textual.notifications import Notification, Notifications, Notify
from textual.widgets import _toast

MIN_TOAST_SECONDS = 0.1


class SafeToast(_toast.Toast):
    """A toast whose timer is never negative."""

    def __init__(self, notification: Notification) -> None:
        super().__init__(notification)
        self._timeout = max(self._timeout, MIN_TOAST_SECONDS)


def apply() -> None:
    """Make Textual's toast rack build :class:`SafeToast` toasts."""
    if _toast.Toast is not SafeToast:
        setattr(_toast, "Toast", SafeToast)  # noqa: B010 - the module's name for its toasts


apply()


def add_bindings(node: DOMNode, bindings: Sequence[BindingType]) -> None:
    """Give ``node`` (one instance) ``bindings`` on top of its class's.

    Textual builds a node's keys from its class's ``BINDINGS`` into the private
    ``_bindings`` map; a table screen takes its driver's keys, which differ from
    one table to the next, so they are merged into the instance's map.
    """
    node._bindings = BindingsMap.merge([node._bindings, BindingsMap(bindings)])


class FixedApp(App[None]):
    """Textual's app with the private members Karavan changes, each for the reason given."""

    def _on_notify(self, event: Notify) -> None:
        """A toast that says again what one on screen says replaces it, its time afresh; so
        does one with the same title (its newer word: the latest refusal, or Karakum's
        cards drawn this turn, told again with the next one).

        A key pressed three times on a card the rules refuse stacked three copies of the
        same refusal over the table; Textual has no public way to take a toast down.
        """
        new = event.notification
        for shown in list(self._notifications):
            same = (shown.title, shown.message) == (new.title, new.message)
            if shown.severity == new.severity and (
                same or (new.title and shown.title == new.title)
            ):
                self._unnotify(shown, refresh=False)
        super()._on_notify(event)

    def _refresh_notifications(self) -> None:
        """The toasts on the screen on top; the screens under it show none.

        A dialog lets the screen under it show through, and Textual leaves that screen's
        toasts as they were when the dialog opened: a refusal said again in the dialog
        would stand twice on screen, the stale copy beside the new one.  A screen shown
        again gets the toasts still due (Textual refreshes them on its resume).
        """
        super()._refresh_notifications()
        for screen in self.screen_stack[:-1]:
            for rack in screen.query_children(_toast.ToastRack):
                self.call_later(rack.show, Notifications())

    def withdraw_toasts(self, title: str) -> None:
        """Take down the toasts titled ``title`` (as shown): what they said is no longer so."""
        gone = [note for note in self._notifications if note.title == title]
        for note in gone:
            self._unnotify(note, refresh=False)
        if gone:
            self._refresh_notifications()

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error: Textual sets the return code to 1 and closes the app; the
        long traceback it would print once the terminal is restored is dropped, as
        :meth:`crashed` keeps it in a report instead."""
        super()._handle_exception(error)
        self._exit_renderables.clear()
        self.crashed(error)

    def crashed(self, error: Exception) -> None:
        """An unexpected error stopped the app (called once per error)."""

    def write_title(self, title: str) -> None:
        """Set the terminal's window title (the browser tab's under ``karavan web``).

        Textual has no public way to write an escape sequence to the terminal: its
        driver does it.
        """
        self.write_escape(f"\x1b]2;{title}\x07")

    def write_escape(self, sequence: str) -> None:
        """Write the escape ``sequence`` to the terminal (a title, a desktop notification):
        Textual has no public way to, its driver does it."""
        if not self.is_headless and self._driver is not None:
            self._driver.write(sequence)
