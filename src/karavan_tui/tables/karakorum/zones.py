"""Karakorum's card zones: the round's cards, the goal cards left, your expeditions.

Each zone draws from its reactive data (what the table last gave it); a border title
is the first of its wordings that fits the zone, chosen again when the zone is resized.
Everything comes from the observation of the player at the keyboard (in Karakorum
only the order of the deck is hidden).
"""

from __future__ import annotations

from attrs import frozen
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import reactive, var
from textual.widget import Widget

from karavan_core.engine import Action
from karavan_core.games.karakorum.components import GOAL_KINDS, PEAKS, REVEAL_BEYOND_PLAYERS, Peak
from karavan_core.games.karakorum.state import (
    Card,
    Done,
    KarakorumObservation,
    Pass,
    Place,
    Reveal,
    Step,
    StopRevealing,
    StopTaking,
    Take,
)
from karavan_tui.glyphs import Glyphs
from karavan_tui.tables.karakorum.faces import (
    PEAK_CHIP,
    PEAK_TEXT,
    axes_line,
    card_large,
    card_values,
    expedition_large,
    goal_name,
    goals_words,
    symbols_for,
)
from karavan_tui.tables.karakorum.gestures import (
    EXPEDITION_SLOTS,
    TABLE_SLOTS,
    row_cards,
    stop_action,
)
from karavan_tui.widgets.cards import CardFace, CardRow


def fitting(zone: Widget, *titles: str) -> Content:
    """The first of ``titles`` that fits on ``zone``'s border uncut (else the last one).

    Before the zone is laid out, its width is unknown: the first is taken.
    """
    room = zone.outer_size.width - 6  # "╭─ " and " ─╮" around the words
    fits = [title for title in titles if room < 0 or cell_len(title) <= room]
    return Content(fits[0] if fits else titles[-1])


class Titled(Widget):
    """A zone whose border titles are the first of their wordings that fits its width."""

    titles: var[tuple[str, ...]] = var(())  # the longest wording first
    subtitles: var[tuple[str, ...]] = var(())

    def watch_titles(self) -> None:
        """Put the fitting title on the border."""
        self.fit_titles()

    def watch_subtitles(self) -> None:
        """Put the fitting subtitle on the border."""
        self.fit_titles()

    def on_resize(self) -> None:
        """Choose the wordings again for the new width."""
        self.fit_titles()

    def fit_titles(self) -> None:
        """The border titles: the first wording of each that fits."""
        self.border_title = fitting(self, *self.titles) if self.titles else ""
        self.border_subtitle = fitting(self, *self.subtitles) if self.subtitles else ""


@frozen(kw_only=True)
class RoundCards:
    """What the table row shows: the round's cards of ``obs``, those revealed since
    ``before`` marked as news, the ``marked`` cards (to take together, or to place next)."""

    obs: KarakorumObservation
    before: KarakorumObservation | None
    legal: tuple[Action, ...]
    glyphs: Glyphs
    marked: tuple[Card, ...] = ()


# The words the status line uses for the last slot ("... or stop taking"), in six columns.
STOP_LABELS = {StopTaking: "stop\ntaking", Pass: "{turn}\npass", Done: "{turn}\ndone"}
STOP_TIPS = {
    StopRevealing: "Stop revealing: take from the cards on the table",
    StopTaking: "Take no more cards",
    Pass: "Take no card this round",
    Done: "End your placing turn",
}


def round_faces(shown: RoundCards) -> list[CardFace | None]:
    """The faces of the table row: the deck (while revealing), the cards, the last slot."""
    obs, before, legal, g = shown.obs, shown.before, set(shown.legal), shown.glyphs
    m = symbols_for(g)
    placing = obs.step is Step.PLACE
    cards = row_cards(obs)
    limit = len(obs.players) + REVEAL_BEYOND_PLAYERS
    # The deck is a card to act on only while revealing; its size is in the subtitle.
    faces: list[CardFace | None] = [
        CardFace(
            f"{g.deck}{obs.deck_size:>3}\nreveal",
            "-deck" + ("" if Reveal() in legal else " -off"),
            "Reveal the top card of the deck",
            key="deck",
        )
        if obs.step is Step.REVEAL
        else None
    ]
    empty = CardFace(f"{g.blank}\n", "-empty")  # a place for a card, with none in it
    for slot in range(TABLE_SLOTS):
        if slot < len(cards):
            card = cards[slot]
            if placing:
                usable = any(isinstance(a, Place) and a.card == card for a in legal)
                tip = f"Place the {card}"
            else:
                usable = Take(card) in legal
                tip = f"Take the {card}"
            new = before is not None and card not in before.table and not placing
            chosen = card in shown.marked
            mark = "+" if chosen else g.changed if new else ""
            faces.append(
                CardFace(
                    f"{mark}{card.color.letter}{card.value}\n{axes_line(card, m)}",
                    f"-{card.color.value}"
                    + ("" if usable else " -off")
                    + (" -marked" if chosen else ""),
                    tip,
                    key=str(card),
                    changed=new,
                    large=card_large(card, m, mark),
                )
            )
        elif slot < limit:
            faces.append(empty)
        else:
            faces.append(None)
    stop = stop_action(obs.step)
    if stop is None:
        faces.append(empty)
        return faces
    faces.append(
        CardFace(
            STOP_LABELS.get(type(stop), "{turn}\nstop").format(turn=g.turn),
            "-stop" + ("" if stop in legal else " -off"),
            STOP_TIPS[type(stop)],
            key="stop",
        )
    )
    return faces


def round_titles(obs: KarakorumObservation) -> tuple[str, ...]:
    """What the round is at, the player's name first where it fits (the status line names
    them too)."""
    name = obs.players[obs.current]
    placing = obs.step is Step.PLACE
    if placing and row_cards(obs):
        return (f"{name} places the cards taken", "Placing the cards taken")
    if placing:
        return (f"{name} may score or remove, then done", "Score or remove, then done")
    if obs.is_over:
        return ("The game is over",)
    if obs.step is Step.REVEAL:
        return (f"Revealed {len(obs.table)} of at most {len(obs.players) + REVEAL_BEYOND_PLAYERS}",)
    return (f"Cards to take {len(obs.table)}",)  # taking: what is left of the revealed cards


class TableZone(Titled, Vertical):
    """The summit cards of the round: the deck, the revealed cards, and stop/pass/done.

    While a player places, the row shows the cards that player took instead
    (the revealed cards are all taken or discarded by then).
    """

    cards: var[RoundCards | None] = var(None)

    def compose(self) -> ComposeResult:
        """The one row of slots."""
        yield CardRow(1 + TABLE_SLOTS + 1, id="table-row")

    def watch_cards(self, shown: RoundCards | None) -> None:
        """Draw the round's cards, and say in the border where the round is."""
        if shown is None:
            return
        obs, g = shown.obs, shown.glyphs
        self.query_one(CardRow).set_faces(round_faces(shown))
        self.titles = round_titles(obs)
        self.subtitles = (f"deck {obs.deck_size} {g.sep} discard {len(obs.discard)}",)


@frozen
class Goals:
    """The goal cards still available in ``obs``."""

    obs: KarakorumObservation
    glyphs: Glyphs


class GoalsZone(Widget):
    """The goal cards still available, per peak; claimed ones leave a gap.

    ``long``: one line per peak in long words, else all three peaks on one line.
    """

    goals: reactive[Goals | None] = reactive(None, layout=True)
    long: reactive[bool] = reactive(False, layout=True)

    def render(self) -> Text:
        """The goals of each peak, by name, a gap where one was claimed; short, the peaks
        share a line as far as the width goes (a narrow zone starts a peak on a new line
        rather than break it in two)."""
        if self.goals is None:
            return Text()
        g, long = self.goals.glyphs, self.long
        peaks = [self.peak_goals(peak) for peak in PEAKS]
        if long:
            return Text("\n").join(peaks)
        room = self.content_region.width or 10_000
        bar = f" {g.bar} "
        text, used = Text(), 0
        for i, peak in enumerate(peaks):
            if i and used + len(bar) + peak.cell_len > room:
                text.append("\n")
                used = 0
            elif i:
                text.append(bar)
                used += len(bar)
            text.append_text(peak)
            used += peak.cell_len
        return text

    def peak_goals(self, peak: Peak) -> Text:
        """One peak's letter and goals, in long words or short."""
        assert self.goals is not None
        obs, long = self.goals.obs, self.long
        m = symbols_for(self.goals.glyphs)
        text = Text().append(peak.letter, style=PEAK_CHIP[peak])
        for kind in GOAL_KINDS:
            name = goal_name(kind, m, long=long)
            gap = "  " if long else " "
            if any(goal.color is peak and goal.kind is kind for goal in obs.goals):
                text.append(gap)
                text.append(name, style=PEAK_TEXT[peak])
            else:  # claimed: keep the column, show it is gone
                text.append(gap + "-" * len(name), style="dim")
        return text

    def watch_goals(self) -> None:
        """Name the zone, with the points of each goal where the names are short."""
        self.watch_long()

    def watch_long(self) -> None:
        """Name the zone, with the points of each goal where the names are short."""
        if self.goals is None:
            return
        m = symbols_for(self.goals.glyphs)
        legend = " ".join(f"{goal_name(kind, m, long=False)}:+{kind.points}" for kind in GOAL_KINDS)
        # Narrow, the legend whole before the word "left".
        titles = ("Goal cards left",) if self.long else (f"Goals left {legend}", f"Goals {legend}")
        self.border_title = fitting(self, *titles)

    def on_resize(self) -> None:
        """Name the zone for its new width."""
        self.watch_long()


@frozen
class Expeditions:
    """What the expeditions row shows: the expeditions of ``seat`` in ``obs``."""

    obs: KarakorumObservation
    seat: int
    legal: tuple[Action, ...]
    glyphs: Glyphs


def expedition_faces(shown: Expeditions) -> list[CardFace | None]:
    """The faces of the expeditions row: each expedition, then "start a new one"."""
    obs, legal, g = shown.obs, shown.legal, shown.glyphs
    m = symbols_for(g)
    exps = obs.expeditions[shown.seat]
    faces: list[CardFace | None] = []
    for index in range(EXPEDITION_SLOTS):
        if index >= len(exps):
            faces.append(None)
            continue
        exp = exps[index]
        values = card_values(exp.cards)
        if len(values) > 6:  # the top cards matter most: keep them
            values = g.ellipsis + values[-(6 - len(g.ellipsis)) :].lstrip()
        usable = any(getattr(a, "expedition", None) == index for a in legal)
        fresh = " added" if exp.fresh else ""
        faces.append(
            CardFace(
                f"{exp.color.letter} {values}\n{exp.axes}{m.axe}{fresh}",
                f"-{exp.color.value}"
                + (" -fresh" if exp.fresh else "")
                + ("" if usable else " -off"),
                f"{exp.color.value.capitalize()} expedition, bottom to top: "
                + ", ".join(str(card) for card in exp.cards)
                + f"; {exp.axes} axes in all"
                + ("; added to this turn" if exp.fresh else ""),
                large=expedition_large(exp, m, card_values(exp.cards)),
            )
        )
    can_start = any(isinstance(a, Place) and a.expedition is None for a in legal)
    faces.append(
        CardFace(
            "+ new\nexped.",
            "-deck" + ("" if can_start else " -off"),
            "Start a new expedition with a card you took",
        )
    )
    return faces


class ExpeditionsZone(Titled, Vertical):
    """The expeditions of the player at the keyboard, and a slot to start a new one."""

    expeditions: var[Expeditions | None] = var(None)

    def compose(self) -> ComposeResult:
        """The row of expedition slots."""
        yield CardRow(EXPEDITION_SLOTS + 1, id="exp-row")

    def watch_expeditions(self, shown: Expeditions | None) -> None:
        """Draw the expeditions; the cards taken and the goals claimed go in the border."""
        if shown is None:
            return
        obs, seat, g = shown.obs, shown.seat, shown.glyphs
        self.query_one(CardRow).set_faces(expedition_faces(shown))
        held = obs.held[seat]
        took = ""
        if held and obs.step is not Step.PLACE:
            took = f" {g.sep} took " + " ".join(f"{c.color.letter}{c.value}" for c in held)
        self.titles = (f"{obs.players[seat]}'s expeditions{took}", f"Expeditions{took}")
        claimed = obs.claimed[seat]
        goals = goals_words(claimed, symbols_for(g))
        self.subtitles = (f"goals {goals}", f"{len(claimed)} goals") if claimed else ()
