"""Karakum's players zone: every player's caravan, with its worth where there is room.

The zone draws from the table's ``data`` (see :mod:`.zones`) and again on a
resize: the caravans are laid out for the zone's width in ``render``.  All of
it is public: caravans lie face up, and a hand is only counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from karavan_core.games.karakum.state import (
    KarakumObservation,
)
from karavan_core.text import plural
from karavan_tui.glyphs import Glyphs
from karavan_tui.tables.karakum.zones import TableData, camel_text
from karavan_tui.words import cells, cut, padded, widest, wrap_tokens


class CaravansZone(Widget):
    """Every player's caravan: left-side camels, the master, then the chain."""

    # Drawn again when it changes, and on a resize (the lines wrap to the zone's width).
    data: reactive[TableData | None] = reactive(None)

    def render(self) -> Text:
        """One line per player: name, hand size, left side, master, chain.

        A caravan too long for the zone goes on below, indented under the
        camels so that the names stay in their column.  Camels that joined a
        caravan since the viewer's last decision are underlined and marked.
        In a tall table each caravan's worth follows, in the roomiest layout
        that has the rows: on two lines or one, a blank line between players or none.
        """
        if self.data is None:
            return Text()
        room = self.content_size.width or 10_000
        if self.screen.has_class("-tall"):
            for detail, spaced in ROOMY_LAYOUTS:
                roomy = caravan_lines(self.data, room, detail, spaced)
                if len(roomy.plain.split("\n")) <= self.content_size.height:
                    return roomy
        return caravan_lines(self.data, room)


# The fewest cells a wrapped chain's lines keep (three camels) when they go on under its start.
CHAIN_LEAST = 8
# The layouts a tall zone tries, roomiest first: lines of worth under each caravan, spaced.
ROOMY_LAYOUTS = ((2, True), (2, False), (1, True), (1, False))


def caravan_lines(data: TableData, room: int, detail: int = 0, spaced: bool = False) -> Text:
    """Every caravan, wrapped to ``room`` cells, with ``detail`` lines of its worth under it
    (0, 1 or 2); ``spaced``: a blank line between the players."""
    obs, before, g = data.obs, data.before, data.g
    width = widest(obs.players)  # in cells: an emoji takes two
    lefts = [3 * len(left) for left in obs.lefts]
    pad = max(lefts)
    text = Text()
    for seat, name in enumerate(obs.players):
        if seat:
            text.append("\n\n" if spaced else "\n")
        mine = seat == obs.to_move
        text.append(f"{g.turn if mine else ' '} ", style="bold")
        text.append(padded(name, width), style="bold" if mine else "")
        text.append(f" ({obs.hand_sizes[seat]:>2}) ", style="dim")
        indent = 2 + width + 6
        used = indent + pad - lefts[seat]
        text.append(" " * (pad - lefts[seat]))
        # A chain too long for the line goes on under its first camel, right of the master,
        # so it cannot be read as the left side; where that leaves too little room, under
        # the left side.
        chain = indent + pad + cells(g.master) + 1
        if room - chain < CHAIN_LEAST:
            chain = indent
        wrap_tokens(text, caravan(obs, before, seat, g), used, room, chain)
        for line in worth(data, seat, room, detail):
            text.append("\n").append(line, style="dim")
    return text


def worth(data: TableData, seat: int, room: int, lines: int) -> list[str]:
    """What ``seat``'s caravan is worth in ``lines`` lines (0 to 2) of at most ``room`` cells."""
    if not lines:
        return []
    obs, sep, ellipsis = data.obs, data.g.sep, data.g.ellipsis
    chain, left = obs.caravans[seat], obs.lefts[seat]
    chain_points, left_points = sum(c.value for c in chain), sum(c.value for c in left)
    points = f" {sep} {plural(data.scores[seat], 'point')}" if data.scores else ""
    in_chain = f"chain {plural(len(chain), 'camel')} worth {chain_points}" if chain else "no chain"
    # The left side scores half its camels' total: say what it adds, and of what.
    half = left_points // 2
    on_left = f"left side {plural(len(left), 'camel')} worth {half} (half of {left_points})"
    on_left = on_left if left else "no left side"
    if lines == 2:
        return [cut(f"  {in_chain}", room, ellipsis), cut(f"  {on_left}{points}", room, ellipsis)]
    forms = [
        f"  {in_chain} {sep} {on_left}{points}",
        f"  chain {chain_points} {sep} left side {half}{points}",
    ]
    shortest = cut(forms[-1], room, ellipsis)
    return [next((form for form in forms if cells(form) <= room), shortest)]


def caravan(
    obs: KarakumObservation, before: KarakumObservation | None, seat: int, g: Glyphs
) -> Sequence[Text]:
    """The tokens of ``seat``'s caravan: the left side, the master, the chain."""
    # A camel is news where it was not before: one that went from the left side
    # into the chain has joined the caravan, so it is marked there too.
    had_left = () if before is None else before.lefts[seat]
    had_chain = () if before is None else before.caravans[seat]
    new = before is not None
    tokens = [camel_text(c, new and c not in had_left, g) for c in obs.lefts[seat]]
    tokens.append(Text(g.master, style="bold"))
    tokens += [camel_text(c, new and c not in had_chain, g) for c in obs.caravans[seat]]
    return tokens
