"""How Karakorum's things look in the zones: colours, symbols, card and expedition tokens.

Also what became of the expeditions gone since the viewer's last decision, told from
the two observations alone.  Plain functions of rich text: no widget here.
"""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen
from rich.text import Text

from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import PEAK_INDEX, GoalKind, Peak
from karavan_core.games.karakorum.state import Card, Expedition, Goal, KarakorumObservation
from karavan_core.text import plural
from karavan_tui.glyphs import ASCII, Glyphs

# Rich styles per peak, for the text zones (the card widgets take theirs from the .tcss).
PEAK_TEXT: dict[Peak, str] = {
    Peak.RED: "bold #e0554d",
    Peak.GREEN: "bold #5cbf57",
    Peak.YELLOW: "bold #e3c340",
}
PEAK_CHIP: dict[Peak, str] = {
    Peak.RED: "bold white on #b3362f",
    Peak.GREEN: "bold black on #4fa84a",
    Peak.YELLOW: "bold black on #e3c340",
}


@frozen(kw_only=True)
class Symbols:
    """The table's own symbols: ice axes, track bars and the first-player marker."""

    axe: str
    full: str
    empty: str
    first: str
    fresh: str
    times: str


UNICODE_SYMBOLS = Symbols(axe="▲", full="█", empty="░", first="◆", fresh="+", times="×")
ASCII_SYMBOLS = Symbols(axe="^", full="#", empty=".", first="@", fresh="+", times="x")


def symbols_for(g: Glyphs) -> Symbols:
    """The symbols matching the app's glyph set (plain ASCII in ASCII mode)."""
    return ASCII_SYMBOLS if g == ASCII else UNICODE_SYMBOLS


def goal_name(kind: GoalKind, m: Symbols, *, long: bool) -> str:
    """A goal card's name on the table, short ("2×3") or long ("2×3 cards +10").

    The numbers are the rules' own (the components' table), never copies.
    """
    if kind is GoalKind.AXES:
        need = f"{C.GOAL_MIN_AXES}{m.axe}"
    elif kind is GoalKind.DOUBLE:
        need = f"2{m.times}{C.DOUBLE_MIN_CARDS}"
    else:
        need = str(C.GOAL_MIN_CARDS[kind])
    if not long:
        return need
    cards = "" if kind is GoalKind.AXES else " cards"
    return f"{need}{cards} +{kind.points}"


def goals_words(goals: Sequence[Goal], m: Symbols) -> str:
    """Claimed goal cards in short, such as ``R2×3 G7``."""
    return " ".join(f"{goal.color.letter}{goal_name(goal.kind, m, long=False)}" for goal in goals)


def card_token(card: Card) -> Text:
    """A summit card as a coloured token such as ``R5`` (the letter carries the colour)."""
    return Text(f"{card.color.letter}{card.value}", style=PEAK_CHIP[card.color])


def card_values(cards: Sequence[Card]) -> str:
    """The values of an expedition's cards, bottom to top: ``3 6 8``."""
    return " ".join(str(card.value) for card in cards)


def expedition_token(
    exp: Expedition, m: Symbols, new: bool = False, g: Glyphs | None = None
) -> Text:
    """An expedition in a line of text: ``G[3 6 8] 7▲`` — peak, cards bottom to top, axes.

    One that changed since the viewer's last decision is marked and underlined.
    """
    text = Text(f"{exp.color.letter}[{card_values(exp.cards)}]", style=PEAK_TEXT[exp.color])
    text.append(f" {exp.axes}{m.axe}", style="dim")
    if new and g is not None:
        text.stylize("underline")
        text = Text(g.changed, style="bold") + text
    return text


def axes_line(card: Card, m: Symbols) -> str:
    """A card's ice axes drawn as symbols (a dash for none)."""
    return m.axe * card.axes if card.axes else "-"


def axes_words(axes: int, *, short: bool = False) -> str:
    """Ice axes counted in words: ``no ice axes``, ``1 ice axe``, ``3 ice axes`` (``3 axes``)."""
    if not axes:
        return "no axes" if short else "no ice axes"
    return plural(axes, "axe" if short else "ice axe")


def card_large(card: Card, m: Symbols, mark: str = "") -> str:
    """A summit card in full (in eight columns): letter and value, peak, its ice axes drawn
    and counted."""
    return "\n".join(
        [f"{mark}{card.color.letter}{card.value}", card.color.value, axes_line(card, m)]
        + [axes_words(card.axes, short=True)]
    )


def expedition_large(exp: Expedition, m: Symbols, values: str) -> str:
    """An expedition in full: its peak and ``values``, its size, its ice axes, if just added to."""
    size = len(exp.cards)
    lines = [
        f"{exp.color.letter} {values}",
        f"{exp.color.value} peak",
        plural(size, "card"),
        f"{exp.axes}{m.axe} {axes_words(exp.axes)}",
    ]
    return "\n".join(lines + (["added to now"] if exp.fresh else []))


def gone_since(
    obs: KarakorumObservation, before: KarakorumObservation | None, seat: int
) -> list[tuple[Expedition, str]]:
    """The expeditions ``seat`` had at ``before`` and has no longer, each with what became of it.

    Told from the two views alone: one of three cards or more was scored (a smaller one
    cannot be); a smaller one was removed if that peak's marker did not go up meanwhile,
    else it was discarded, by a removal or with a scoring.
    """
    if before is None:
        return []
    now = obs.expeditions[seat]
    gone = []
    for exp in before.expeditions[seat]:
        size = len(exp.cards)
        if any(later.cards[:size] == exp.cards for later in now):
            continue  # still there, perhaps with more cards
        peak = PEAK_INDEX[exp.color]
        if size >= C.MIN_SCORING_CARDS:
            what = "scored"
        elif obs.tracks[seat][peak] <= before.tracks[seat][peak]:
            what = "removed"
        else:
            what = "discarded"
        gone.append((exp, what))
    return gone


def gone_tokens(
    gone: Sequence[tuple[Expedition, str]], g: Glyphs, *, brief: bool = False
) -> list[Text]:
    """Expeditions gone since the viewer's last decision, by what became of them.

    ``•G[2 5] R[1] removed``, the expeditions struck out; ``brief``: ``•2 removed``.
    """
    tokens = []
    for what in ("scored", "removed", "discarded"):
        exps = [exp for exp, became in gone if became == what]
        if not exps:
            continue
        text = Text(g.changed, style="bold")
        if brief:
            text.append(str(len(exps)))
        for index, exp in enumerate([] if brief else exps):
            text.append(" " if index else "")
            text.append(
                f"{exp.color.letter}[{card_values(exp.cards)}]",
                style=f"{PEAK_TEXT[exp.color]} strike",
            )
        text.append(f" {what}", style="dim")
        tokens.append(text)
    return tokens
