"""A fix for Textual 8.2.8 (pinned), applied once when the app is imported.

A toast's timer is set to its notification's time left, which is negative when
the app was busy between the notification and the toast's creation (many
notifications at once, a slow redraw); Textual's ``Timer`` then loops forever
without yielding and the whole app hangs (seen at a hosted table, whose
notices come from outside at any moment).  Toasts here get at least a tenth
of a second.
"""

from __future__ import annotations

from textual.notifications import Notification
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
