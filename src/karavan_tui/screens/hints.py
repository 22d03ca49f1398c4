"""The Expert's hint at a local table: searched off the UI thread, shown on the table.

A hint is the search the review judges a decision by (the same seed and
budget), so the review never faults a decision the hint chose.  The search is
given the player's own observation and decisions, never the state; the hint is
counted in the save once it is shown, and it holds for its position only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from karavan_core.analysis import Hint, gesture_hints
from karavan_core.engine import Action, Observation
from karavan_core.pacing import deliberate
from karavan_tui.context import karavan_app
from karavan_tui.screens.local_link import LocalLink
from karavan_tui.screens.seat import SeatDriver, gesture_of


class HintDesk:
    """The hints of ``driver``'s player at a table run by ``link``; no hint while ``busy()``
    (a bot thinks)."""

    def __init__(self, driver: SeatDriver, link: LocalLink, busy: Callable[[], bool]) -> None:
        self.driver = driver
        self.link = link
        self.busy = busy
        self.hinting = False  # the Expert search is looking for a hint
        self.wanted = False  # asked while a bot moved: looked for once the turn is back
        # The latest hint (a gesture's decisions, each hinted) and the position it is for.
        self.latest: tuple[object, tuple[Hint, ...]] | None = None

    def allowed(self) -> bool:
        """Whether a hint may be asked now: a human's own turn, in sight of that human only."""
        seat = self.driver.to_move()
        return (
            seat is not None
            and seat == self.driver.viewer
            and not self.link.seats[seat].is_bot
            and not self.busy()
        )

    def current(self) -> tuple[Hint, ...] | None:
        """The hint for the position on the table, if one was asked for it."""
        if self.latest is None or not self.allowed():
            return None
        position, hint = self.latest
        return hint if position is self.link.position() else None

    def ask(self) -> None:
        """Search, in a worker, what the player at the keyboard should play now (a hint found
        already is pointed at again, counted once)."""
        hint = self.current()
        if hint is not None:
            self.show(hint)
            return
        seat = self.driver.viewer
        if self.hinting or seat is None:
            return
        position = self.link.position()
        seen = self.link.view(seat)
        self.hinting = True
        self.driver.screen.refresh_status()
        self.search(
            seen.observation,
            list(seen.legal),
            lambda found: self.found(position, seat, found),
        )

    def search(
        self,
        observation: Observation,
        legal: list[Action],
        done: Callable[[tuple[Hint, ...] | Exception], None],
    ) -> None:
        """Search for a hint off the UI thread; ``done`` gets it (or what went wrong), unless
        the search is cancelled first."""
        screen = self.driver.screen
        game, follows = self.link.game, screen.table.hint_follows
        seed, index = self.link.seed, self.link.decisions()
        budget = karavan_app(screen).config.review_budget

        async def search() -> None:
            found: tuple[Hint, ...] | Exception
            try:
                found = await deliberate(
                    partial(gesture_hints, game, observation, legal, seed, index, budget, follows),
                    pause=0.0,  # a hint shows as soon as it is found
                )
            except Exception as error:  # said on the status line, not left "thinking"
                found = error
            done(found)

        screen.run_worker(search(), exclusive=True, group="hint", exit_on_error=False)

    def found(self, position: object, seat: int, found: tuple[Hint, ...] | Exception) -> None:
        """Show a hint, counted in the save, unless the game moved on since it was asked."""
        if not self.hinting:
            return
        self.hinting = False
        screen = self.driver.screen
        if isinstance(found, Exception):
            screen.refresh_status()
            self.driver.notify(f"No hint this time: {found}", title="Hint", severity="error")
            return
        if self.link.position() is not position or self.driver.viewer != seat:
            screen.refresh_status()
            return
        self.latest = (position, found)
        self.link.referee.count_hint(seat)
        self.show(found)

    def show(self, hint: tuple[Hint, ...]) -> None:
        """Mark the hint on the table, laid where Enter plays it, and in any picker open.

        Marked on the table and said on the status line, both gone with the move: no
        toast, which would cover the table and outlive the position it is for.
        """
        gesture = gesture_of(hint)
        screen = self.driver.screen
        screen.table.mark_hint(gesture, point=True)
        screen.table.lay_hint(gesture)
        screen.flag_in_picker(gesture)
        screen.refresh_status()

    def cancel(self) -> None:
        """Stop looking for a hint; its answer, if it still comes, is ignored."""
        self.hinting = False
        screen = self.driver.screen
        screen.workers.cancel_group(screen, "hint")
