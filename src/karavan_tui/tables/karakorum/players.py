"""Karakorum's player zones: every player's tracks, and the others' expeditions.

Both draw from their reactive data when Textual draws them, laid out for the size
they have then, so a resize redraws them by itself.  From 120 columns the others'
expeditions have a zone of their own (drawn as cards, as your own are); narrower,
the tracks zone lists them in a line under each name.
"""

from __future__ import annotations

from typing import Literal

from attrs import frozen
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from karavan_core.games.karakorum.components import PEAKS, TRACK_TOP
from karavan_core.games.karakorum.state import KarakorumObservation
from karavan_tui.glyphs import Glyphs
from karavan_tui.tables.karakorum.faces import (
    PEAK_CHIP,
    PEAK_TEXT,
    card_token,
    card_values,
    expedition_token,
    goal_name,
    goals_words,
    gone_since,
    gone_tokens,
    symbols_for,
)
from karavan_tui.words import padded, widest, wrap_tokens

GoneShown = Literal["listed", "counted", "left out"]  # how the tracks zone tells gone ones


@frozen(kw_only=True)
class Climbers:
    """What the player zones show: every player of ``obs``, changes since ``before`` marked.

    ``me`` is the seat at the keyboard (their expeditions have a row of their own).
    """

    obs: KarakorumObservation
    before: KarakorumObservation | None
    me: int
    scores: tuple[str, ...]  # as the game says them: points, or "out"
    glyphs: Glyphs


class ClimbersZone(Widget):
    """Every player's three tracks, and (``with_others``) the others' expeditions and cards."""

    # Lines come and go (an expedition gone is told): the zone's height is worked out again.
    climbers: reactive[Climbers | None] = reactive(None, layout=True)
    with_others: reactive[bool] = reactive(True, layout=True)

    def watch_climbers(self, climbers: Climbers | None) -> None:
        """Say in the border what the marks mean."""
        if climbers is not None:
            g = climbers.glyphs
            first = symbols_for(g).first
            self.border_title = (
                f"Tracks {g.sep} {g.turn} to move {g.sep} {first} first {g.sep} = if ended now"
            )

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The rows of every line in full (where the stylesheet lets the zone take its own)."""
        if self.climbers is None:
            return 1
        return len(tracks_text(self.climbers, self.with_others, "listed", width).plain.splitlines())

    def render(self) -> Text:
        """One line of tracks per player, then (``with_others``) a line of expeditions for
        every other player, in the zone's size (which does not follow its text).

        Markers that moved and expeditions that changed since ``before`` are marked, and
        expeditions gone since then are told where they were (struck out).
        """
        if self.climbers is None:
            return Text()
        # Four players at 80x24 fill the zone: gone expeditions are then only counted,
        # or left to the log, rather than push the last players out of sight.
        shown: tuple[GoneShown, ...] = ("listed", "counted", "left out")
        for gone in shown:
            text = tracks_text(self.climbers, self.with_others, gone, self.content_region.width)
            if len(text.plain.splitlines()) <= (self.content_region.height or 10_000):
                break
        return text


def tracks_text(climbers: Climbers, with_others: bool, gone: GoneShown, room: int) -> Text:
    """The tracks of every player in ``room`` columns, the gone expeditions ``gone``."""
    obs, before, g = climbers.obs, climbers.before, climbers.glyphs
    m = symbols_for(g)
    width = widest(obs.players)  # in cells: an emoji takes two
    room = room or 80
    fixed = 4 + width + 3 * 4 + 5  # marks, name, "R12 " per peak, " = 35"
    bar = max(0, min(TRACK_TOP // 2, (room - fixed) // 3 - 1))
    text = Text()
    for seat, name in enumerate(obs.players):
        if seat:
            text.append("\n")
        mine = seat == obs.to_move
        text.append(g.turn if mine else " ", style="bold")
        text.append(m.first if seat == obs.active else " ", style="bold")
        text.append(f" {padded(name, width)}", style="bold" if mine else "")
        for i, (peak, value) in enumerate(zip(PEAKS, obs.tracks[seat], strict=True)):
            moved = before is not None and before.tracks[seat][i] != value
            text.append(g.changed if moved else " ", style="bold")
            text.append(peak.letter, style=PEAK_CHIP[peak])
            if bar:
                filled = round(value * bar / TRACK_TOP)
                text.append(m.full * filled, style=PEAK_TEXT[peak])
                text.append(m.empty * (bar - filled), style="dim")
            text.append(f"{value:>2}")
        text.append(f" ={climbers.scores[seat]:>3}", style="dim")
        if seat != climbers.me and with_others:
            text.append_text(others_line(obs, before, seat, room, g, gone))
    return text


def others_line(
    obs: KarakorumObservation,
    before: KarakorumObservation | None,
    seat: int,
    room: int,
    g: Glyphs,
    gone: GoneShown,
) -> Text:
    """A player's expeditions, taken cards and claimed goals, wrapped under the name."""
    m = symbols_for(g)
    old = None if before is None else before.expeditions[seat]
    tokens = [
        expedition_token(exp, m, old is not None and exp not in old, g)
        for exp in obs.expeditions[seat]
    ]
    if gone != "left out":
        tokens += gone_tokens(gone_since(obs, before, seat), g, brief=gone == "counted")
    if not tokens:
        tokens.append(Text("no expeditions", style="dim"))
    held = obs.held[seat]
    if held:
        tokens.append(Text("took", style="dim"))
        tokens += [card_token(card) for card in held]
    if obs.claimed[seat]:
        tokens.append(Text("goals", style="dim"))
    for goal in obs.claimed[seat]:
        name = goal_name(goal.kind, m, long=False)
        tokens.append(Text(f"{goal.color.letter}{name}", style="bold"))
    indent = 4
    text = Text("\n" + " " * indent)
    wrap_tokens(text, tokens, indent, room, indent)
    return text


@frozen
class Opponents:
    """What the others' zone shows: every player of ``obs`` but ``me``."""

    obs: KarakorumObservation
    before: KarakorumObservation | None
    me: int
    glyphs: Glyphs


class OpponentsZone(Widget):
    """From 120 columns: every other player's expeditions drawn as cards, as your own are.

    Narrower, the tracks zone lists them in a line under each name instead.
    """

    BORDER_TITLE = "The others' expeditions"
    CELL = 13  # columns per expedition card

    opponents: reactive[Opponents | None] = reactive(None, layout=True)

    def render(self) -> Text:
        """For each other player: a name line, then a row of expedition cards (two lines)."""
        if self.opponents is None:
            return Text()
        obs, before, g = self.opponents.obs, self.opponents.before, self.opponents.glyphs
        text = Text()
        for seat, name in enumerate(obs.players):
            if seat == self.opponents.me:
                continue
            if text:
                text.append("\n")
            text.append(name, style="bold")
            held = obs.held[seat]
            if held:
                text.append(f" {g.sep} took ", style="dim")
                text.append_text(Text(" ").join(card_token(card) for card in held))
            if obs.claimed[seat]:
                goals = goals_words(obs.claimed[seat], symbols_for(g))
                text.append(f" {g.sep} goals {goals}", style="dim")
            # Gone ones on the name line: the row of cards keeps to the expeditions there are.
            for token in gone_tokens(gone_since(obs, before, seat), g):
                text.append(f" {g.sep} ", style="dim")
                text.append_text(token)
            text.append_text(self.expedition_cards(obs, before, seat, g))
        return text

    def expedition_cards(
        self,
        obs: KarakorumObservation,
        before: KarakorumObservation | None,
        seat: int,
        g: Glyphs,
    ) -> Text:
        """A player's expeditions as a row of cards two lines high, after a line break."""
        m = symbols_for(g)
        exps = obs.expeditions[seat]
        old = None if before is None else before.expeditions[seat]
        tops, bottoms = Text(), Text()
        for exp in exps:
            new = old is not None and exp not in old
            top = f"{g.changed if new else ' '}{exp.color.letter} {card_values(exp.cards)}"
            style = PEAK_CHIP[exp.color] + (" underline" if new else "")
            tops.append(f"{top[: self.CELL - 1]:<{self.CELL - 1}}", style=style)
            tops.append(" ")
            bottom = f"  {exp.axes}{m.axe}" + (" added" if exp.fresh else "")
            bottoms.append(f"{bottom:<{self.CELL - 1}}", style=PEAK_CHIP[exp.color])
            bottoms.append(" ")
        if not exps:
            tops.append("no expeditions", style="dim")
        return Text("\n") + tops + Text("\n") + bottoms
