"""A zone laid out for its width, drawn again when the width changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Static


class Refits(Static):
    """A ``Static`` whose ``show`` lays its text out for the width it has.

    ``show`` keeps its arguments in ``_shown``; a resize calls it again with
    them, so the text fits the new width (before the first ``show``, there
    is nothing to draw).
    """

    _shown: tuple[Any, ...] | None = None
    show: Callable[..., None]

    def on_resize(self) -> None:
        """Lay the text out again for the new width."""
        if self._shown is not None:
            self.show(*self._shown)
