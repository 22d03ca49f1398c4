"""The lobby's lists in words, laid out in columns as wide as what they hold.

Pure: no widget.  Each list is a row for each table, each row a cell for each
column, each cell one or more lines (a table's seats one under another, so that
every name is shown whole).  :func:`lay_out` gives each column the width of its
widest line; where the lines do not fit, the columns that may be cut are cut,
widest first, each line cut by an ellipsis, and never the seats'.  Below 80
columns each table is a block of lines in one column (:func:`lobby_block` and
the others).  Every name comes from the server and is kept as it is: the widget
shows the lines as plain text.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from attrs import frozen
from rich.cells import cell_len, set_cell_size

from karavan_core.registry import get_game
from karavan_core.text import plural
from karavan_net.lobby import BoardLine, SeatLine, TableLine
from karavan_tui.glyphs import Glyphs

Cell = tuple[str, ...]  # a cell's lines
WRAPPED = 28  # the widest a column of sentences grows before its sentences wrap
INDENT = "  "  # a block's lines after its first


@frozen
class Column:
    """A column: its ``head``, the narrowest it may be cut to (``least``; ``None``: never cut),
    and whether its cells are sentences, wrapped over several lines (``wrap``)."""

    head: str
    least: int | None = None
    wrap: bool = False


@frozen
class Layout:
    """A list laid out: each column's head and width, and each row's cells, cut to fit."""

    heads: tuple[str, ...]
    widths: tuple[int, ...]
    rows: tuple[tuple[Cell, ...], ...]


def fit(natural: Sequence[int], least: Sequence[int], room: int) -> list[int]:
    """Each column's width: its ``natural`` one where they all fit in ``room``; else the
    widest of those wider than their ``least`` is cut by one, again and again, until they
    fit or none can be cut further."""
    widths = list(natural)
    excess = sum(widths) - room
    while excess > 0:
        cuttable = [i for i, width in enumerate(widths) if width > least[i]]
        if not cuttable:
            break
        widest = max(cuttable, key=lambda i: (widths[i], i))
        widths[widest] -= 1
        excess -= 1
    return widths


def cut(text: str, width: int, ellipsis: str) -> str:
    """``text`` in at most ``width`` cells, ended by ``ellipsis`` where it was cut."""
    if cell_len(text) <= width:
        return text
    room = width - cell_len(ellipsis)
    if room <= 0:
        return ellipsis[: max(width, 0)]
    return set_cell_size(text, room).rstrip() + ellipsis


def lay_out(
    columns: Sequence[Column], rows: Sequence[Sequence[Cell]], room: int, ellipsis: str
) -> Layout:
    """``rows`` in ``columns`` as wide as their widest lines, cut to fit ``room`` cells."""
    natural, least = [], []
    for index, column in enumerate(columns):
        widest = max((cell_len(line) for row in rows for line in row[index]), default=0)
        width = max(cell_len(column.head), widest)
        if column.wrap:
            width = min(width, max(WRAPPED, cell_len(column.head)))
        natural.append(width)
        least.append(width if column.least is None else min(column.least, width))
    widths = fit(natural, least, room)
    laid = tuple(
        tuple(
            _fitted(cell, width, column.wrap, ellipsis)
            for cell, width, column in zip(row, widths, columns, strict=True)
        )
        for row in rows
    )
    heads = tuple(cut(c.head, w, ellipsis) for c, w in zip(columns, widths, strict=True))
    return Layout(heads, tuple(widths), laid)


def _fitted(cell: Cell, width: int, wrap: bool, ellipsis: str) -> Cell:
    """``cell``'s lines in ``width`` cells: wrapped (``wrap``), or cut."""
    if wrap:
        cell = tuple(
            part
            for line in cell
            for part in textwrap.wrap(line, max(width, 1), break_on_hyphens=False) or [""]
        )
    return tuple(cut(line, width, ellipsis) for line in cell)


# -- what a table is, in words -----------------------------------------------------------------


def seat_words(seat: SeatLine) -> str:
    """A seat: "Ann (1138)", "Ann (1138), late" (out of time: a bot decides for her),
    "Hard bot", "kept for Bob", "open seat"."""
    if seat.kind == "bot":
        return f"{(seat.level or 'bot').capitalize()} bot"
    if seat.name:
        rating = f" ({seat.rating})" if seat.rating is not None else ""
        late = ", late" if seat.stood_in else ""  # out of time: a bot decides for them
        return f"{seat.name}{rating}{late}"
    if seat.reserved_for:
        return f"kept for {seat.reserved_for}"
    return "open seat"


def free_seats(line: TableLine) -> int:
    """How many people's seats of the table nobody has taken yet."""
    return sum(1 for seat in line.seats if seat.kind == "human" and seat.name is None)


def rules_words(line: TableLine) -> Cell:
    """The clock and the rules, a line each: "30 s a move + 5 min", "rated", "no take-backs"."""
    rules = [line.clock, "rated" if line.rated else "not rated"]
    if line.takebacks == "none":
        rules.append("no take-backs")
    return tuple(rules)


def state_words(line: TableLine) -> str:
    """Where the table is: "challenge for you", "1 seat free", "waiting for 1 player", "your
    turn", "playing", "over"."""
    free = free_seats(line)
    if line.status == "open" and line.my_seat is None and line.challenge:
        return "challenge for you"
    if line.status == "open" and line.my_seat is None:
        return f"{plural(free, 'seat')} free"
    if line.status == "open":
        return f"waiting for {plural(free, 'player')}"
    if line.status == "over":
        return "over"
    return "your turn" if line.my_turn else "playing"


def rating_words(line: TableLine, glyphs: Glyphs) -> str:
    """My rating before and after a finished rated game: "1000 → 1018 (+18)"."""
    if len(line.rating_change) != 2:
        return ""
    before, after = line.rating_change
    return glyphs.words(f"{before} → {after} ({after - before:+d})")


def sit_question(line: TableLine) -> str:
    """What Enter asks before taking a seat: "Sit at table 3, Jaipur, 30 s a move + 5 min,
    rated, against Ann (1138)?"."""
    others = [seat_words(seat) for seat in line.seats if seat.kind == "bot" or seat.name]
    more = free_seats(line) - 1
    rules = ", ".join(rules_words(line))
    against = f", against {', '.join(others)}" if others else ""
    waiting = f", {plural(more, 'more seat')} to fill" if more > 0 else ""
    return f"Sit at table {line.id}, {get_game(line.game).title}, {rules}{against}{waiting}?"


def watch_question(line: TableLine) -> str:
    """What Enter asks at a table being played: "Watch table 5, Karakum: Ann (1012), Bob?"."""
    seats = ", ".join(seat_words(seat) for seat in line.seats)
    return f"Watch table {line.id}, {get_game(line.game).title}: {seats}?"


# -- the wide lists: a column each -------------------------------------------------------------

LOBBY = (
    Column("#"),
    Column("Game", least=8, wrap=True),
    Column("Seats"),
    Column("Clock", least=8, wrap=True),
    Column("By", least=4),
)
MINE = (
    Column(""),
    Column("#"),
    Column("Game", least=8, wrap=True),
    Column("Seats"),
    Column("Clock", least=8, wrap=True),
)
OVER = (
    Column("#"),
    Column("Game", least=6),
    Column("Seats"),
    Column("Result", least=10, wrap=True),
    Column("My rating"),
)
BOARD = (Column(""), Column("Player"), Column("Rating"), Column("Games"))


def _game(line: TableLine) -> str:
    return get_game(line.game).title


def _seats(line: TableLine) -> Cell:
    return tuple(seat_words(seat) for seat in line.seats)


def lobby_cells(line: TableLine) -> tuple[Cell, ...]:
    """An open or running table of the lobby, a cell for each of :data:`LOBBY`."""
    return (
        (str(line.id),),
        (_game(line), state_words(line)),
        _seats(line),
        rules_words(line),
        (line.created_by or "",),
    )


def mine_cells(line: TableLine, glyphs: Glyphs) -> tuple[Cell, ...]:
    """One of my tables, a cell for each of :data:`MINE` (a mark where it is my turn)."""
    left = (f"{line.time_left} left",) if line.my_turn and line.time_left else ()
    return (
        (glyphs.turn if line.my_turn else "",),
        (str(line.id),),
        (_game(line), state_words(line)),
        _seats(line),
        (line.clock, *left),
    )


def over_cells(line: TableLine, glyphs: Glyphs) -> tuple[Cell, ...]:
    """One of my finished games, a cell for each of :data:`OVER`."""
    return (
        (str(line.id),),
        (_game(line),),
        _seats(line),
        (line.result or "over",),
        (rating_words(line, glyphs),),
    )


def board_cells(rank: int, line: BoardLine) -> tuple[Cell, ...]:
    """A player on the leaderboard, a cell for each of :data:`BOARD`."""
    return ((str(rank),), (line.name,), (str(line.rating),), (str(line.games),))


# -- the narrow lists: a block of lines each ---------------------------------------------------


def _block(first: str, line: TableLine, last: Sequence[str], width: int, glyphs: Glyphs) -> Cell:
    """A table's block: ``first``, then its seats (on one line if they fit), then ``last``,
    each line cut to ``width``."""
    seats = _seats(line)
    joined = INDENT + ", ".join(seats)
    shown = [joined] if cell_len(joined) <= width else [*_wrapped(seats, width)]
    lines = [first, *shown, *(INDENT + text for text in last if text)]
    return tuple(cut(text, width, glyphs.ellipsis) for text in lines)


def _wrapped(seats: Sequence[str], width: int) -> list[str]:
    """Each seat on a line of its own; one too long for ``width`` goes on over the next
    lines (a word too long for a line is cut by an ellipsis, not broken)."""
    lines = []
    for seat in seats:
        lines += textwrap.wrap(
            seat,
            max(width, 1),
            initial_indent=INDENT,
            subsequent_indent=INDENT * 2,
            break_long_words=False,  # cut by an ellipsis instead
            break_on_hyphens=False,
        )
    return lines


def lobby_block(line: TableLine, width: int, glyphs: Glyphs) -> Cell:
    """An open or running table of the lobby in ``width`` cells."""
    sep = f" {glyphs.sep} "
    by = f"{sep}by {line.created_by}" if line.created_by else ""
    first = f"{line.id} {_game(line)}{sep}{state_words(line)}{by}"
    return _block(first, line, [sep.join(rules_words(line))], width, glyphs)


def mine_block(line: TableLine, width: int, glyphs: Glyphs) -> Cell:
    """One of my tables in ``width`` cells."""
    sep = f" {glyphs.sep} "
    mark = f"{glyphs.turn} " if line.my_turn else ""
    left = f"{sep}{line.time_left} left" if line.my_turn and line.time_left else ""
    first = f"{mark}{line.id} {_game(line)}{sep}{state_words(line)}{left}"
    return _block(first, line, [line.clock], width, glyphs)


def over_block(line: TableLine, width: int, glyphs: Glyphs) -> Cell:
    """One of my finished games in ``width`` cells (its result wrapped, not cut)."""
    sep = f" {glyphs.sep} "
    change = rating_words(line, glyphs)
    first = f"{line.id} {_game(line)}" + (f"{sep}{change}" if change else "")
    result = textwrap.wrap(
        line.result or "over", max(width - len(INDENT), 1), break_on_hyphens=False
    )
    return _block(first, line, result, width, glyphs)
