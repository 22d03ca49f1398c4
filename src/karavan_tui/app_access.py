"""Typed access to the running :class:`~karavan_tui.app.KaravanApp` from its screens and widgets.

Textual types ``node.app`` as a plain ``App``; Karavan's own parts of it (the
config, the settings, the symbols, the commands that move between screens)
are reached through :func:`karavan_app` instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from karavan_tui.app import KaravanApp


def karavan_app(node: DOMNode) -> KaravanApp:
    """The Karavan app that ``node`` (a screen or a widget) runs in."""
    from karavan_tui import app  # late: the app module imports the screens that call this

    running = node.app
    assert isinstance(running, app.KaravanApp)
    return running
