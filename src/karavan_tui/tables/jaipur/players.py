"""Jaipur's players' zone: seals, hand, herd, the tokens won this round, what a rival holds.

Drawn from the observation of the player at the keyboard, laid out in
``render`` for the room the zone has: two lines a player when it is short (each
line said shorter rather than wrapped, so that nothing is cut), a roomier
layout of a line per fact when the zone is tall enough for it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from attrs import frozen
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from karavan_core.games.jaipur.components import GOODS, HAND_LIMIT, LETTERS, SEALS_TO_WIN, Card
from karavan_core.games.jaipur.state import JaipurObservation
from karavan_core.text import plural
from karavan_tui.glyphs import Glyphs
from karavan_tui.modals.round_summary import added
from karavan_tui.tables.jaipur.zones import COLOURS, token_text
from karavan_tui.words import cells, cut, padded, short_name, widest

TURN = 2  # the turn mark and a space, before a name


@frozen
class PlayersData:
    """What the players' zone shows."""

    obs: JaipurObservation
    g: Glyphs


class PlayersZone(Widget):
    """Both players: seals, hand size, herd, and the tokens won so far this round."""

    # Drawn again when it changes or is resized (the layout follows the room).
    data: reactive[PlayersData | None] = reactive(None)

    def render(self) -> Text:
        """The players in the roomy layout if the zone has the rows for it, else compactly.

        Only the observer's bonus token values are shown: the opponent's (and,
        in the public view, everyone's) are counted but not valued.  Under a
        rival, the goods they were seen to take: what a player would remember.
        """
        if self.data is None:
            return Text()
        obs, g = self.data.obs, self.data.g
        room = self.content_size.width or 10_000
        roomy = roomy_lines(obs, room, g)
        rows = self.content_size.height
        if len(roomy.plain.splitlines()) <= rows:
            return roomy
        # A status line of two rows takes one from the zone: a rival's goods seen in hand
        # join the line of their tokens rather than fall off the bottom, as few as need to.
        rivals = sum(seat != obs.player for seat in range(len(obs.players)))
        for joined in range(rivals + 1):
            compact = compact_lines(obs, room, g, joined)
            if len(compact.plain.splitlines()) <= rows:
                break
        return compact


def heading(
    obs: JaipurObservation, seat: int, width: int, g: Glyphs, name: str | None = None
) -> Text:
    """The turn mark and the player's name (or ``name``, its shorter form), padded to
    ``width`` cells (cut if longer)."""
    mine = seat == obs.current and not obs.is_over
    text = Text().append(f"{g.turn if mine else ' '} ", style="bold")
    name = cut(obs.players[seat] if name is None else name, width, g.ellipsis)
    return text.append(padded(name, width), style="bold" if mine else "")


def herd(obs: JaipurObservation, seat: int) -> Text:
    """The herd as a camel chip: "K5"."""
    return Text(f"{LETTERS[Card.CAMEL]}{obs.herds[seat]}", style=COLOURS[Card.CAMEL])


def compact_lines(obs: JaipurObservation, room: int, g: Glyphs, joined: int = 0) -> Text:
    """Two lines per player, three under a rival but the first ``joined`` of them, each line
    fitted to ``room`` cells."""
    text = Text()
    for seat, first in enumerate(first_lines(obs, room, g)):
        if seat:
            text.append("\n")
        text.append_text(first).append("\n")
        if seat == obs.player:
            text.append_text(takings(obs, seat, True, room, g))
        elif joined > 0:
            joined -= 1
            held = seen(obs.known[seat], f" {g.sep} seen")
            text.append_text(takings(obs, seat, False, max(1, room - held.cell_len), g))
            text.append_text(held)
        else:
            text.append_text(takings(obs, seat, False, room, g))
            text.append("\n").append_text(seen(obs.known[seat]))
    return text


def first_lines(obs: JaipurObservation, room: int, g: Glyphs) -> list[Text]:
    """Each player's first line in the compact layout: the turn mark, the name, the seals,
    the cards and the herd, in ``room`` cells.

    The name has the room the rest of the line leaves, measured; where a name would be
    shortened, the herd's chip goes without its word ("K5"). A name still too long keeps
    its first and last words ("Random 2"), else it is cut (the Scores panel has it whole).
    """
    for word in ("herd ", ""):
        tails = [first_tail(obs, seat, word, g) for seat in range(len(obs.players))]
        width = max(1, room - TURN - max(tail.cell_len for tail in tails))
        if all(cells(name) <= width for name in obs.players):
            break
    names = [short_name(name, width, g.ellipsis) for name in obs.players]
    width = widest(names)  # cells: an emoji takes two
    return [
        heading(obs, seat, width, g, name).append_text(tail)
        for seat, (name, tail) in enumerate(zip(names, tails, strict=True))
    ]


def first_tail(obs: JaipurObservation, seat: int, herd_word: str, g: Glyphs) -> Text:
    """What follows a player's name on their first line: seals, cards, herd."""
    seals = obs.seals[seat]
    text = Text().append(f"  {plural(seals, 'seal')}", style="bold" if seals else "")
    text.append(f" {g.sep} {plural(obs.hand_sizes[seat], 'card')}")
    return text.append(f" {g.sep} {herd_word}").append_text(herd(obs, seat))


def roomy_lines(obs: JaipurObservation, room: int, g: Glyphs) -> Text:
    """A line per fact, a blank line between the players; each line fitted to ``room`` cells."""
    width = min(widest(obs.players), max(4, room - 20))
    sep = g.sep
    lines: list[Text] = []
    for seat in range(len(obs.players)):
        if seat:
            lines.append(Text())
        seals = obs.seals[seat]
        name = heading(obs, seat, width, g)
        lines.append(
            name.append(f"  {seals} of {SEALS_TO_WIN} seals", style="bold" if seals else "")
        )
        hand = Text(f"  hand {obs.hand_sizes[seat]} of {HAND_LIMIT} cards {sep} herd ")
        camels = f" ({plural(obs.herds[seat], 'camel')})"
        lines.append(hand.append_text(herd(obs, seat)).append(camels if room >= 48 else ""))
        won = won_tokens(obs, seat)
        goods = sum(value for _, value in won)
        chips = Text("  goods tokens ")
        chips.append_text(Text(" ").join(token_text(good, value) for good, value in won))
        chips.append(f" = {goods}" if won else "none")
        if chips.cell_len > room:
            chips = Text(cut(f"  goods {goods} ({plural(len(won), 'token')})", room, g.ellipsis))
        lines.append(chips)
        tails = bonus_tails(obs, seat, seat == obs.player, goods, sep)
        line = next((tail for tail in tails if cells(tail) + 2 <= room), tails[-1])
        lines.append(Text(cut(f"  {line}", room, g.ellipsis)))
        if seat != obs.player:
            lines.append(seen(obs.known[seat]))
    return Text("\n").join(lines)


def seen(known: Sequence[int], label: str = "  seen in hand") -> Text:
    """The goods a rival was seen to take and still holds: all anyone can remember."""
    text = Text(f"{label}:", style="dim")
    if not any(known):
        return text.append(" nothing", style="dim")
    for good, count in zip(GOODS, known, strict=True):
        if count:
            text.append(" ")
            text.append(f"{LETTERS[good]}{count}", style=COLOURS[good])
    return text


def known_bonuses(obs: JaipurObservation, seat: int, own: bool) -> Collection[int] | None:
    """The values of ``seat``'s bonus tokens if the viewer may know them, else ``None``.

    A bonus token's value is known to its owner, and to everyone once the match
    is over (the last round's result names them all).
    """
    if obs.is_over and obs.rounds:
        return list(obs.rounds[-1].scores[seat].bonus_tokens)
    if own and obs.bonus_won is not None:
        return [value for values in obs.bonus_won for value in values]
    return None


def won_tokens(obs: JaipurObservation, seat: int) -> list[tuple[Card, int]]:
    """The goods tokens ``seat`` won this round: each with its good, in the goods' order."""
    return [
        (good, value)
        for good, values in zip(GOODS, obs.goods_won[seat], strict=True)
        for value in values
    ]


def bonus_tails(obs: JaipurObservation, seat: int, own: bool, goods: int, sep: str) -> list[str]:
    """``seat``'s bonus tokens (and the total so far, where known), the longest words first."""
    count = sum(obs.bonus_counts[seat])
    known = known_bonuses(obs, seat, own)
    if not count:
        tails = ["no bonus token", "no bonus"]
    elif known is not None:
        tokens = plural(count, "bonus token")
        tails = [f"{tokens} worth {added(list(known))}", f"{tokens} worth {sum(known)}"]
        tails.append(f"bonus {sum(known)}")
    else:
        tails = [f"{plural(count, 'bonus token')}, values hidden", f"{count} bonus hidden"]
        tails.append(plural(count, "bonus", "bonuses"))  # the count, never cut (40x30)
    camel = camel_token(obs, seat)
    if camel:
        tails = [f"{tail} {sep} camel token {camel}" for tail in tails]
    if known is not None:
        total = f"{goods + sum(known) + camel} {'in all' if obs.is_over else 'so far'}"
        tails = [f"{tail} {sep} {total}" for tail in tails] + [total]
    return tails


def camel_token(obs: JaipurObservation, seat: int) -> int:
    """The camel token's value if ``seat`` took it in the match's last round, else 0.

    The token is given only as a round ends, so it counts only once the match is over.
    """
    if obs.is_over and obs.rounds:
        return obs.rounds[-1].scores[seat].camel_token
    return 0


def takings(obs: JaipurObservation, seat: int, own: bool, room: int, g: Glyphs) -> Text:
    """The tokens ``seat`` won this round, in one line of at most ``room`` cells."""
    won = won_tokens(obs, seat)
    goods = sum(value for _, value in won)
    sep = g.sep
    tails = bonus_tails(obs, seat, own, goods, sep)
    # The longest form that fits: every token as a chip, then sums, then the total only;
    # a line never wraps, which would push the next player's lines out of the zone.
    chips = Text("  ") + Text(" ").join(token_text(good, value) for good, value in won)
    chips.append(f" = {goods} {sep} " if won else f"no goods tokens {sep} ")
    chips.append(tails[0])
    if chips.cell_len <= room:
        return chips
    tokens = f"goods {goods} ({plural(len(won), 'token')})" if won else "no goods tokens"
    sums = [f"  {tokens} {sep} {tail}" for tail in tails[:2]]
    sums += [f"  goods {goods} {sep} {tail}" for tail in tails[1:]]
    sums += [f"  {goods} {sep} {tail}" for tail in tails[-1:]]  # a rival's line at 40x30
    line = next((line for line in sums if cells(line) <= room), sums[-1])
    return Text(cut(line, room, g.ellipsis))
