"""What calls a player to the table: a table of theirs that started, or one that waits for them.

The lobby and the title screen follow the player's tables (the lists a server
pushes); :class:`Caller` compares each list of "my tables" with the one before
and says what is new: a table that started (a live one opens at once, as on
lichess), or a table that waits for the player's decision since.  The app rings
the bell and puts the words in the terminal's title (the browser tab's).
"""

from __future__ import annotations

from attrs import frozen

from karavan_core.text import plural
from karavan_net.lobby import TableLine, Tables


@frozen
class Call:
    """What calls the player: ``words`` for the terminal's title, and ``table``, a live table
    that started, to open at once (``None``: nothing to open)."""

    words: str
    table: int | None = None


class Caller:
    """Follows the player's tables from one list to the next."""

    def __init__(self) -> None:
        self.before: dict[int, TableLine] | None = None  # the last list, by table

    def heard(self, mine: Tables) -> Call | None:
        """The call of ``mine``, the newest list of the player's tables, if anything in it
        calls them (nothing does in the first list heard: it is no news)."""
        lines = {line.id: line for line in mine.tables}
        before, self.before = self.before, lines
        if before is None:
            return None
        started = [
            line
            for line in lines.values()
            if line.status == "playing" and line.id in before and before[line.id].status == "open"
        ]
        # A table new to the list is one I have just sat at or created myself: no news.
        waiting = [
            line
            for line in lines.values()
            if line.my_turn and line.id in before and not before[line.id].my_turn
        ]
        if started:
            live = next((line.id for line in started if line.clock_kind == "live"), None)
            turn = ": your turn" if any(line.my_turn for line in started) else ""
            return Call(f"Table {started[0].id} starts{turn}", live)
        if len(waiting) == 1:
            return Call(f"Your turn at table {waiting[0].id}")
        if waiting:
            return Call(f"Your turn at {plural(len(waiting), 'table')}")
        return None
