"""Where Karavan reaches into Textual 8.2.8 (pinned): every private member it uses is here.

Each has the reason it is needed.  A Textual upgrade is checked against this
module alone: nothing else in the app touches Textual's private names.

A toast's timer is set to its notification's time left, which is negative when
the app was busy between the notification and the toast's creation (many
notifications at once, a slow redraw); Textual's ``Timer`` then loops forever
without yielding and the whole app hangs (seen at a hosted table, whose
notices come from outside at any moment).  Toasts here get at least a tenth
of a second.

An option list asked to move a page before it is laid out (the command palette
opened, a letter typed and PageDown pressed in one burst of keys: a fast typist,
or typeahead on a busy machine) looks its highlighted option up in a map of lines
not built yet and raises ``KeyError``, which ends the app.  Until the list has
lines, a page move does nothing, as Textual's own ``scroll_to_highlight`` does.
Likewise the palette's search, started by a letter typed as the palette closes,
finds its list gone (``NoMatches`` in a worker, which ends the app): it stops.

Keys typed quickly after Tab reach the field Tab left: the app hands each key to the
widget focused when it reads it, and the Tab queued ahead moves the focus only once it
has bubbled up to the app's binding (a name typed at once went partly into the server
field: "veE").  A :class:`FocusedInput` moves the focus on Tab itself, and once it is no
longer focused passes a key on to the widget that is.

A header keeps the title up to date by watching the app's and the screen's titles; as
the app closes, a title set by a screen being torn down finds the header's own title
widget already gone (``NoMatches``), which Textual's watcher does not expect (it
spares only ``NoScreen``) and which fails the app's exit.  The header's watcher
here spares both: a header on its way out has no title to show.

On a touch screen a tap is also a hover: a tooltip would open over what was tapped.
Textual turns its tooltips off only for its tests (a private flag); :func:`tooltips_off`
turns them off for a touch screen, before the first screen is composed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from textual import _widget_navigation, events, work
from textual.app import App
from textual.binding import BindingsMap, BindingType
from textual.command import CommandList, CommandPalette
from textual.css.query import NoMatches
from textual.dom import DOMNode, NoScreen
from textual.notifications import Notification, Notifications, Notify
from textual.widgets import Header, Input, OptionList, _toast
from textual.widgets._header import HeaderTitle

MIN_TOAST_SECONDS = 0.1
PALETTE_ID = "--command-palette"  # Textual's id for its command palette screen


class SafeToast(_toast.Toast):
    """A toast whose timer is never negative."""

    def __init__(self, notification: Notification) -> None:
        super().__init__(notification)
        self._timeout = max(self._timeout, MIN_TOAST_SECONDS)


def tooltips_off(app: App[Any]) -> None:
    """No tooltips in ``app`` (its screens composed from now on)."""
    app._disable_tooltips = True


class FocusedInput(Input):
    """An input that passes on the keys it was handed once the focus has left it (see the
    module's docstring)."""

    async def _on_key(self, event: events.Key) -> None:
        focused = self.app.focused  # this one's own focus flag is updated later
        if event.key in ("tab", "shift+tab") and focused is self:
            # At once, not once the key has bubbled up to the app's binding: the keys queued
            # behind it are read here first.
            event.stop()
            event.prevent_default()
            if event.key == "tab":
                self.screen.focus_next()
            else:
                self.screen.focus_previous()
            return
        if focused is not None and focused is not self:
            event.stop()
            event.prevent_default()
            focused.post_message(events.Key(event.key, event.character))
            return
        await super()._on_key(event)


_textual_move_page = OptionList._move_page
_textual_header_mount = Header._on_mount
# The search itself, under Textual's @work (which keeps it as __wrapped__, untyped).
_gather = CommandPalette._gather_commands
_textual_gather_commands = _gather.__wrapped__  # type: ignore[attr-defined]  # see above


class SafeCommandPalette(CommandPalette):
    """Textual's command palette, whose search stops once its list has gone."""

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        """Textual's search, unless the palette closed under it."""
        try:
            await _textual_gather_commands(self, search_value)
        except NoMatches:
            if self.query(CommandList):
                raise  # not the palette closing: a fault of its own


def _move_page_once_laid_out(self: OptionList, direction: _widget_navigation.Direction) -> None:
    """Textual's page move, once the list has lines to move by (before: nothing)."""
    self._update_lines()
    if (self.highlighted or 0) not in self._index_to_line or not self._lines:
        return
    _textual_move_page(self, direction)


def _header_mount_sparing_removed(self: Header, _: events.Mount) -> None:
    """Textual's header watchers, which leave a header whose title is gone alone."""

    async def set_title() -> None:
        with contextlib.suppress(NoScreen, NoMatches):
            self.query_one(HeaderTitle).update(self.format_title())

    self.watch(self.app, "title", set_title)
    self.watch(self.app, "sub_title", set_title)
    self.watch(self.screen, "title", set_title)
    self.watch(self.screen, "sub_title", set_title)


def apply() -> None:
    """Make Textual's toast rack build :class:`SafeToast` toasts, its option lists (the
    command palette's among them) page only once they are laid out, and its headers let
    a title they can no longer show go."""
    if _toast.Toast is not SafeToast:
        setattr(_toast, "Toast", SafeToast)  # noqa: B010 - the module's name for its toasts
    if OptionList._move_page is _textual_move_page:
        OptionList._move_page = _move_page_once_laid_out  # type: ignore[method-assign]  # the fix
    if Header._on_mount is _textual_header_mount:
        Header._on_mount = _header_mount_sparing_removed  # type: ignore[method-assign]  # the fix


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

    def action_command_palette(self) -> None:
        """Open :class:`SafeCommandPalette`, never while a palette is still the app's: Textual
        asks the current screen for a class the palette sets only once mounted, so a second
        Ctrl+P in the same burst of keys (or one while a palette is still going) pushed a
        second palette of the same id, and ``DuplicateIds`` ended the app."""
        if self.use_command_palette and not self.palette_open():
            self.push_screen(SafeCommandPalette(id=PALETTE_ID))

    def palette_open(self) -> bool:
        """Whether a command palette is the app's, shown or on its way (the app's own
        screens, looked up by id as Textual does when it refuses a second)."""
        return self._nodes._get_by_id(PALETTE_ID) is not None

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
