"""Asking a screen to draw itself again for a moment, where Textual may drop an update.

Textual leaves a screen's update undone when it falls in a batch of updates
(a Footer being composed as a dialog opens is one) and takes it up only at
that screen's next event.  A change made from outside the screen's own events
(a hint worked out in a thread, coming just as a picker opens) then stayed off
the terminal: "Looking for a hint" under the picker, no "(hint)" in it, until
a key was pressed.  Asking again a few times, a tenth of a second apart, puts
one ask outside any batch.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.screen import Screen
from textual.timer import Timer

# How many times, and how often (seconds), a screen is asked to draw itself again.
REDRAWS, REDRAW_SECONDS = 8, 0.1


def redraw_for_a_moment(screen: Screen[Any], previous: Timer | None = None) -> Timer:
    """Have ``screen`` laid out and drawn again REDRAWS times, REDRAW_SECONDS apart.

    ``previous``, the timer of an earlier call still running, is stopped first.
    Returns the timer.
    """
    if previous is not None:
        previous.stop()
    return screen.set_interval(REDRAW_SECONDS, partial(screen.refresh, layout=True), repeat=REDRAWS)
