"""The list of a screen's keys: where a narrow Footer has no room for them all (a phone held
upright shows four), every key stays a tap away."""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.screen import Screen

from karavan_tui.words import padded

# The action of the key that opens the list (it does not list itself).
KEYS_ACTION = "keys"
PALETTE_ACTION = "command_palette"  # the app's key for the command palette (Ctrl+P)


def key_entries(screen: Screen[Any]) -> list[tuple[str, str]]:
    """The keys that ``screen``'s Footer would show now and that work now, one per action, and
    the command palette's: each with its line in the list ("u  Undo")."""
    entries: list[tuple[str, str, str]] = []  # the key, as shown, what it does
    seen: set[tuple[object, str]] = set()
    for key, active in screen.active_bindings.items():
        binding = active.binding
        shown = binding.show or binding.action == PALETTE_ACTION  # a narrow Footer hides it
        if not (active.enabled and shown and binding.description):
            continue
        doing = (active.node, binding.action)
        if binding.action == KEYS_ACTION or doing in seen:
            continue  # "u,ctrl+z" is one key with two names: the first is listed
        seen.add(doing)
        words = binding.description
        entries.append((key, screen.app.get_key_display(binding), words[0].upper() + words[1:]))
    width = max((cell_len(shown) for _, shown, _ in entries), default=0)
    return [(key, f"{padded(shown, width)}  {words}") for key, shown, words in entries]
