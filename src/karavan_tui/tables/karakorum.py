"""Karakorum's table: the revealed cards, the goal cards, the expeditions and the tracks.

Each zone is its own widget.  Everything shown comes from the observation of
the player at the keyboard (in Karakorum only the order of the deck is
hidden); every choice goes back to the game screen as engine actions, which
the engine accepts or refuses with its own reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from attrs import frozen
from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from karavan_core.engine import Action
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum.components import (
    GOAL_KINDS,
    PEAK_INDEX,
    PEAKS,
    REVEAL_BEYOND_PLAYERS,
    TRACK_TOP,
    GoalKind,
    Peak,
)
from karavan_core.games.karakorum.state import (
    Card,
    Done,
    Expedition,
    KarakorumObservation,
    Pass,
    Place,
    Remove,
    Reveal,
    Score,
    Step,
    StopRevealing,
    StopTaking,
    Take,
)
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.tables.base import TableView, View, table_stylesheet
from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.widgets.refit import Refits
from karavan_tui.words import listed, padded, widest, wrap_tokens

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
TABLE_SLOTS = C.MAX_PLAYERS + C.REVEAL_BEYOND_PLAYERS  # the most cards ever revealed
EXPEDITION_SLOTS = C.MAX_EXPEDITIONS
STOP_SLOT = TABLE_SLOTS + 1  # the table row: deck, the revealed cards, then stop/pass/done
NEW_SLOT = EXPEDITION_SLOTS  # the expeditions row: the expeditions, then "start a new one"


@frozen
class Marks:
    """The table's own symbols: ice axes, track bars and the first-player marker."""

    axe: str
    full: str
    empty: str
    first: str
    fresh: str
    times: str


UNICODE_MARKS = Marks(axe="▲", full="█", empty="░", first="◆", fresh="+", times="×")
ASCII_MARKS = Marks(axe="^", full="#", empty=".", first="@", fresh="+", times="x")


def marks_for(g: Glyphs) -> Marks:
    """The symbols matching the app's glyph set (plain ASCII in ASCII mode)."""
    return ASCII_MARKS if g == ASCII else UNICODE_MARKS


def goal_name(kind: GoalKind, m: Marks, *, long: bool) -> str:
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


def card_token(card: Card) -> Text:
    """A summit card as a coloured token such as ``R5`` (the letter carries the colour)."""
    return Text(f"{card.color.letter}{card.value}", style=PEAK_CHIP[card.color])


def expedition_token(exp: Expedition, m: Marks, new: bool = False, g: Glyphs | None = None) -> Text:
    """An expedition in a line of text: ``G[3 6 8] 7▲`` — peak, cards bottom to top, axes.

    One that changed since the viewer's last decision is marked and underlined.
    """
    values = " ".join(str(card.value) for card in exp.cards)
    text = Text(f"{exp.color.letter}[{values}]", style=PEAK_TEXT[exp.color])
    text.append(f" {exp.axes}{m.axe}", style="dim")
    if new and g is not None:
        text.stylize("underline")
        text = Text(g.changed, style="bold") + text
    return text


def fitting(zone: Widget, *titles: str) -> Content:
    """The first of ``titles`` that fits on ``zone``'s border uncut (else the last one).

    Before the zone is laid out, its width is unknown: the first is taken, and the
    table draws again once it is (on resize).
    """
    room = zone.outer_size.width - 6  # "╭─ " and " ─╮" around the words
    fits = [title for title in titles if room < 0 or cell_len(title) <= room]
    return Content(fits[0] if fits else titles[-1])


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
            values = " ".join(str(card.value) for card in exp.cards)
            text.append(" " if index else "")
            text.append(f"{exp.color.letter}[{values}]", style=f"{PEAK_TEXT[exp.color]} strike")
        text.append(f" {what}", style="dim")
        tokens.append(text)
    return tokens


def axes_line(card: Card, m: Marks) -> str:
    """A card's ice axes drawn as symbols (a dash for none)."""
    return m.axe * card.axes if card.axes else "-"


class TableZone(Vertical):
    """The summit cards of the round: the deck, the revealed cards, and stop/pass/done.

    While a player places, the row shows the cards that player took instead
    (the revealed cards are all taken or discarded by then).
    """

    def compose(self) -> ComposeResult:
        """The one row of slots."""
        yield CardRow(1 + TABLE_SLOTS + 1, id="table-row")

    def show(
        self,
        obs: KarakorumObservation,
        before: KarakorumObservation | None,
        legal: set[Action],
        g: Glyphs,
        marked: Sequence[Card] = (),
    ) -> None:
        """Draw the round's cards from ``obs``, marking those revealed since ``before``.

        ``marked`` cards (to take together, or to place next) are drawn marked.
        """
        m = marks_for(g)
        placing = obs.step is Step.PLACE
        cards = row_cards(obs)
        limit = len(obs.players) + REVEAL_BEYOND_PLAYERS
        # The deck is a card to act on only while revealing; its size is in the title.
        revealing = obs.step is Step.REVEAL
        faces: list[CardFace | None] = [
            CardFace(
                f"{g.deck}{obs.deck_size:>3}\nreveal",
                "-deck" + ("" if Reveal() in legal else " -off"),
                "Reveal the top card of the deck",
                key="deck",
            )
            if revealing
            else None
        ]
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
                chosen = card in marked
                faces.append(
                    CardFace(
                        f"{'+' if chosen else g.changed if new else ''}"
                        f"{card.color.letter}{card.value}\n{axes_line(card, m)}",
                        f"-{card.color.value}"
                        + ("" if usable else " -off")
                        + (" -marked" if chosen else ""),
                        tip,
                        key=str(card),
                        changed=new,
                    )
                )
            elif slot < limit:
                faces.append(CardFace(f"{g.sep}\n", "-empty"))
            else:
                faces.append(None)
        stop = stop_action(obs.step)
        # The words the status line uses for it ("... or stop taking"), in six columns.
        label = {StopTaking: "stop\ntaking", Pass: f"{g.turn}\npass", Done: f"{g.turn}\ndone"}
        tips = {
            StopRevealing: "Stop revealing: take from the cards on the table",
            StopTaking: "Take no more cards",
            Pass: "Take no card this round",
            Done: "End your placing turn",
        }
        faces.append(
            CardFace(
                label.get(type(stop), f"{g.turn}\nstop"),
                "-stop" + ("" if stop in legal else " -off"),
                tips[type(stop)],
                key="stop",
            )
        )
        self.query_one(CardRow).set_faces(faces)
        name = obs.players[obs.current]
        # The name goes first, where it fits beside the words (the status line names them too).
        if placing and cards:
            titles = [f"{name} places the cards taken", "Placing the cards taken"]
        elif placing:
            titles = [f"{name} may score or remove, then done", "Score or remove, then done"]
        elif obs.is_over:
            titles = ["The game is over"]
        elif obs.step is Step.REVEAL:
            titles = [f"Revealed {len(obs.table)} of at most {limit}"]
        else:  # taking: what is left of the revealed cards
            titles = [f"Cards to take {len(obs.table)}"]
        self.border_title = fitting(self, *titles)
        self.border_subtitle = f"deck {obs.deck_size} {g.sep} discard {len(obs.discard)}"


def row_cards(obs: KarakorumObservation) -> tuple[Card, ...]:
    """The cards in the table row: the placing player's taken cards, or the revealed ones."""
    return obs.held[obs.current] if obs.step is Step.PLACE else obs.table


def stop_action(step: Step) -> Action:
    """What the last slot of the table row does in ``step``."""
    if step is Step.REVEAL:
        return StopRevealing()
    if step is Step.OTHERS:
        return Pass()
    if step in (Step.TAKE, Step.TAKE_MORE):
        return StopTaking()
    return Done()


class GoalsZone(Static):
    """The goal cards still available, per peak; claimed ones leave a gap."""

    def show(self, obs: KarakorumObservation, g: Glyphs, *, long: bool) -> None:
        """One line per peak when ``long``, otherwise all three peaks on one line."""
        m = marks_for(g)
        text = Text()
        for i, peak in enumerate(PEAKS):
            if i:
                text.append("\n" if long else f" {g.bar} ")
            text.append(peak.letter, style=PEAK_CHIP[peak])
            for kind in GOAL_KINDS:
                name = goal_name(kind, m, long=long)
                gap = "  " if long else " "
                if any(goal.color is peak and goal.kind is kind for goal in obs.goals):
                    text.append(gap)
                    text.append(name, style=PEAK_TEXT[peak])
                else:  # claimed: keep the column, show it is gone
                    text.append(gap + "-" * len(name), style="dim")
        self.update(text)
        legend = " ".join(f"{goal_name(kind, m, long=False)}:+{kind.points}" for kind in GOAL_KINDS)
        self.border_title = "Goal cards left" if long else f"Goals left {legend}"


class ExpeditionsZone(Vertical):
    """The expeditions of the player at the keyboard, and a slot to start a new one."""

    def compose(self) -> ComposeResult:
        """The row of expedition slots."""
        yield CardRow(EXPEDITION_SLOTS + 1, id="exp-row")

    def show(self, obs: KarakorumObservation, seat: int, legal: set[Action], g: Glyphs) -> None:
        """Draw ``seat``'s expeditions from ``obs``."""
        m = marks_for(g)
        exps = obs.expeditions[seat]
        faces: list[CardFace | None] = []
        for index in range(EXPEDITION_SLOTS):
            if index >= len(exps):
                faces.append(None)
                continue
            exp = exps[index]
            values = " ".join(str(card.value) for card in exp.cards)
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
        self.query_one(CardRow).set_faces(faces)
        held = obs.held[seat]
        took = ""
        if held and obs.step is not Step.PLACE:
            took = f" {g.sep} took " + " ".join(f"{c.color.letter}{c.value}" for c in held)
        self.border_title = fitting(
            self, f"{obs.players[seat]}'s expeditions{took}", f"Expeditions{took}"
        )
        claimed = obs.claimed[seat]
        goals = " ".join(
            f"{goal.color.letter}{goal_name(goal.kind, m, long=False)}" for goal in claimed
        )
        self.border_subtitle = (
            fitting(self, f"goals {goals}", f"{len(claimed)} goals") if claimed else ""
        )


GoneShown = Literal["listed", "counted", "left out"]  # how the tracks zone tells gone ones


class ClimbersZone(Refits):
    """Every player's three tracks, and the expeditions and taken cards of the others."""

    _shown: (
        tuple[KarakorumObservation, KarakorumObservation | None, int, Sequence[int], Glyphs, bool]
        | None
    ) = None

    def show(
        self,
        obs: KarakorumObservation,
        before: KarakorumObservation | None,
        me: int,
        scores: Sequence[int],
        g: Glyphs,
        with_others: bool = True,
    ) -> None:
        """One line of tracks per player, then (``with_others``) a line of expeditions for
        every other player.

        Markers that moved and expeditions that changed since ``before`` are marked, and
        expeditions gone since then are told where they were (struck out).
        """
        self._shown = (obs, before, me, scores, g, with_others)
        # Four players at 80x24 fill the zone: gone expeditions are then only counted,
        # or left to the log, rather than push the last players out of sight.
        shown: tuple[GoneShown, ...] = ("listed", "counted", "left out")
        for gone in shown:
            text = self._lines(gone)
            if len(text.plain.splitlines()) <= (self.content_region.height or 10_000):
                break
        self.update(text, layout=False)  # the zone's size does not follow its text

    def _lines(self, gone: GoneShown) -> Text:
        """The text of what :meth:`show` was given, the gone expeditions ``gone``."""
        assert self._shown is not None
        obs, before, me, scores, g, with_others = self._shown
        m = marks_for(g)
        width = widest(obs.players)  # in cells: an emoji takes two
        room = self.content_region.width or 80
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
            text.append(f" ={scores[seat]:>3}", style="dim")
            if seat != me and with_others:
                text.append_text(self._others_line(obs, before, seat, room, m, g, gone))
        return text

    @staticmethod
    def _others_line(
        obs: KarakorumObservation,
        before: KarakorumObservation | None,
        seat: int,
        room: int,
        m: Marks,
        g: Glyphs,
        gone: GoneShown,
    ) -> Text:
        """A player's expeditions, taken cards and claimed goals, wrapped under the name."""
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


class OpponentsZone(Static):
    """From 120 columns: every other player's expeditions drawn as cards, as your own are.

    Narrower, the tracks zone lists them in a line under each name instead.
    """

    CELL = 13  # columns per expedition card

    def show(
        self, obs: KarakorumObservation, before: KarakorumObservation | None, me: int, g: Glyphs
    ) -> None:
        """For each other player: a name line, then a row of expedition cards (two lines)."""
        m = marks_for(g)
        text = Text()
        for seat, name in enumerate(obs.players):
            if seat == me:
                continue
            if text:
                text.append("\n")
            text.append(name, style="bold")
            held = obs.held[seat]
            if held:
                text.append(f" {g.sep} took ", style="dim")
                text.append_text(Text(" ").join(card_token(card) for card in held))
            if obs.claimed[seat]:
                goals = " ".join(
                    f"{goal.color.letter}{goal_name(goal.kind, m, long=False)}"
                    for goal in obs.claimed[seat]
                )
                text.append(f" {g.sep} goals {goals}", style="dim")
            # Gone ones on the name line: the row of cards keeps to the expeditions there are.
            for token in gone_tokens(gone_since(obs, before, seat), g):
                text.append(f" {g.sep} ", style="dim")
                text.append_text(token)
            exps = obs.expeditions[seat]
            old = None if before is None else before.expeditions[seat]
            tops, bottoms = Text(), Text()
            for exp in exps:
                new = old is not None and exp not in old
                values = " ".join(str(card.value) for card in exp.cards)
                top = f"{g.changed if new else ' '}{exp.color.letter} {values}"
                style = PEAK_CHIP[exp.color] + (" underline" if new else "")
                tops.append(f"{top[: self.CELL - 1]:<{self.CELL - 1}}", style=style)
                tops.append(" ")
                bottom = f"  {exp.axes}{m.axe}" + (" added" if exp.fresh else "")
                bottoms.append(f"{bottom:<{self.CELL - 1}}", style=PEAK_CHIP[exp.color])
                bottoms.append(" ")
            if not exps:
                tops.append("no expeditions", style="dim")
            text.append("\n")
            text.append_text(tops)
            text.append("\n")
            text.append_text(bottoms)
        self.update(text, layout=False)


class KarakorumTable(TableView[KarakorumObservation]):
    """The Karakorum table."""

    FIRST_FOCUS = "#table-row"
    BINDINGS = [Binding("escape", "clear_marks", "Clear marks", show=False)]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.marked: list[Card] = []  # cards marked to take together, or the one to place

    DEFAULT_CSS = table_stylesheet("karakorum.tcss")
    SCOPED_CSS = False
    TALL = 34  # from this terminal height (and width) the goals take one line per peak
    WIDE = 53

    ZONES = (
        (TableZone, "round"),
        (GoalsZone, "goals"),
        (ExpeditionsZone, "expeditions"),
        (OpponentsZone, "opponents"),
        (ClimbersZone, "climbers"),
    )

    @property
    def me(self) -> int:
        """The seat whose expeditions are drawn below (the player to move, behind the curtain)."""
        seat: int | None = self.obs.player
        return self.obs.current if seat is None else seat

    def show(self, view: View) -> None:
        """Draw every zone."""
        super().show(view)
        obs = self.obs
        legal = set(view.legal)
        g = view.glyphs
        before = view.before
        assert before is None or isinstance(before, KarakorumObservation)
        cards = row_cards(obs)
        if not view.legal or any(card not in cards for card in self.marked):
            self.marked = []  # the turn moved on: marks do not outlive it
        self.query_one(TableZone).show(obs, before, legal, g, self.marked)
        self.query_one(GoalsZone).show(obs, g, long=self.roomy)
        self.query_one(ExpeditionsZone).show(obs, self.me, legal, g)
        opponents = self.query_one(OpponentsZone)
        opponents.show(obs, before, self.me, g)
        opponents.border_title = "The others' expeditions"
        climbers = self.query_one(ClimbersZone)
        climbers.show(obs, before, self.me, view.scores, g, with_others=not self.wide)
        m = marks_for(g)
        climbers.border_title = (
            f"Tracks {g.sep} {g.turn} to move {g.sep} {m.first} first {g.sep} = points now"
        )

    def on_resize(self) -> None:
        """Switch the goals between one line and one line per peak, the others' expeditions
        between their own zone (wide screens) and lines under the tracks."""
        if self.view is not None:
            self.show(self.view)

    @property
    def wide(self) -> bool:
        """Whether the others' expeditions have a zone of their own (from 120 columns)."""
        return self.app.size.width >= 120

    @property
    def roomy(self) -> bool:
        """Whether the goals have room for one line per peak in long words."""
        return self.app.size.height >= self.TALL and self.size.width >= self.WIDE

    # -- choosing -----------------------------------------------------------------
    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Turn a chosen slot into a decision."""
        message.stop()
        if self.view is None:
            return
        if message.row.id == "table-row":
            if self.marked and self.obs.step is not Step.PLACE:
                self.take_marked()
            else:
                self.choose_on_table(message.index)
        elif self.marked and self.obs.step is Step.PLACE:
            index = message.index
            self.place_marked(None if index == NEW_SLOT else index)
        else:
            self.choose_expedition(message.index)

    # -- several cards by marking ---------------------------------------------------
    def on_card_row_marked(self, message: CardRow.Marked) -> None:
        """Mark cards to take together (one peak), or the taken card to place next."""
        message.stop()
        view = self.turn_view()
        if view is None:
            return
        obs = self.obs
        cards = row_cards(obs)
        if message.row.id != "table-row" or not 1 <= message.index <= len(cards):
            self.notify("Space marks cards on the table: to take together, or the one to place.")
            return
        card = cards[message.index - 1]
        if obs.step is Step.PLACE:
            self.marked = [] if self.marked == [card] else [card]
        elif card in self.marked:
            self.marked.remove(card)
        else:
            self.marked.append(card)
        self.show(view)
        if obs.step is Step.PLACE and self.marked:
            self.query_one("#exp-row", CardRow).focus()
        self.host.refresh_status()

    def take_marked(self) -> None:
        """Take the marked cards as one gesture, or say why not."""
        if self.host.decide(*(Take(card) for card in self.marked)):  # else it says why not
            self.marked = []

    def place_marked(self, expedition: int | None) -> None:
        """Put the marked card on ``expedition`` (None: a new one), or say why not."""
        if self.host.decide(Place(self.marked[0], expedition)):  # else it says why not
            self.marked = []

    def marking_status(self) -> str | None:
        """What the marked cards will do, and whether they may."""
        if not self.marked or self.view is None:
            return None
        g = self.view.glyphs
        names = listed([f"the {card}" for card in self.marked])
        if self.obs.step is Step.PLACE:
            return f"Place {names}: choose its expedition, or + new exped. {g.sep} Esc clears"
        reason = self.host.check(*(Take(card) for card in self.marked))
        if reason is None:
            return f"Take {names} {g.sep} Enter takes, Esc clears"
        return f"Take {names}? {reason}"

    def action_clear_marks(self) -> None:
        """Forget the marked cards (Esc)."""
        if self.marked:
            self.marked = []
            if self.view is not None:
                self.show(self.view)
            self.host.refresh_status()

    def choose_on_table(self, index: int) -> None:
        """The deck reveals, a card is taken (or placed), the last slot stops."""
        obs = self.obs
        if index == 0:
            self.host.decide(Reveal())
            return
        if index == STOP_SLOT:
            self.host.decide(stop_action(obs.step))
            return
        cards = row_cards(obs)
        if index - 1 >= len(cards):
            return  # an empty place on the table: nothing to do
        card = cards[index - 1]
        if obs.step is Step.PLACE:
            self.place(card)
        else:
            self.host.decide(Take(card))

    def place(self, card: Card) -> None:
        """Place a taken card: at once if it has one place to go, else ask where."""
        options = [a for a in self.legal if isinstance(a, Place) and a.card == card]
        if len(options) == 1:
            self.host.decide(options[0])
        elif options:
            self.ask(f"Where does the {card} go?", options)
        else:  # not this player's turn: the screen says why
            self.host.decide(Place(card, None))

    def choose_expedition(self, index: int) -> None:
        """Act on expedition ``index``, or start a new expedition (the last slot)."""
        obs = self.obs
        if index == NEW_SLOT:
            starts = [a for a in self.legal if isinstance(a, Place) and a.expedition is None]
            if len(starts) == 1:
                self.host.decide(starts[0])
            elif starts:
                self.ask("Start a new expedition with which card?", starts)
            elif obs.step is Step.PLACE and obs.held[obs.current]:
                self.host.decide(Place(obs.held[obs.current][0], None))  # the engine says why not
            elif obs.table:
                self.host.decide(Place(obs.table[0], None))  # refused: taking comes first
            else:
                self.notify("There is no card to start an expedition with.", severity="warning")
            return
        options = [a for a in self.legal if getattr(a, "expedition", None) == index]
        exp = obs.expeditions[self.me][index]
        if len(options) == 1 and isinstance(options[0], Place):
            self.host.decide(options[0])
        elif options:
            self.ask(f"Your {exp}: what now?", options)
        else:
            self.host.decide(self._refused_for(index))

    def _refused_for(self, index: int) -> Action:
        """The decision a player most likely meant on an expedition that allows none.

        Played anyway, so that the engine refuses it with its own reason.
        """
        obs = self.obs
        exp = obs.expeditions[self.me][index]
        held = sorted(obs.held[obs.current], key=lambda card: card.color is not exp.color)
        if obs.step is Step.PLACE and held:
            return Place(held[0], index)
        if len(exp.cards) >= 3:
            return Score(index, None)
        return Remove(index)

    def news_weight(self, action: Action) -> int:
        """Scoring and removing tell the most, then taking and placing, then revealing;
        stopping, passing and ending a turn the least."""
        if isinstance(action, Score | Remove):
            return 3
        if isinstance(action, Take | Place):
            return 2
        return 1 if isinstance(action, Reveal) else 0

    def hint_places(self, action: Action) -> list[tuple[str, int]]:
        """The slots of the table row and the expeditions a decision acts on."""
        cards = row_cards(self.obs)
        if isinstance(action, Reveal):
            return [("table-row", 0)]
        if isinstance(action, StopRevealing | StopTaking | Pass | Done):
            return [("table-row", STOP_SLOT)]
        if isinstance(action, Take) and action.card in cards:
            return [("table-row", 1 + cards.index(action.card))]
        if isinstance(action, Place) and action.card in cards:
            target = NEW_SLOT if action.expedition is None else action.expedition
            return [("table-row", 1 + cards.index(action.card)), ("exp-row", target)]
        if isinstance(action, Remove | Score):
            return [("exp-row", action.expedition)]
        return []

    def on_turn(self) -> None:
        """Put the cursor on the likeliest decision of this step, in the zone it belongs to."""
        if self.view is None or not self.view.legal:
            return
        obs = self.obs
        legal = self.legal
        table_row = self.query_one("#table-row", CardRow)
        exp_row = self.query_one("#exp-row", CardRow)
        if obs.step is Step.PLACE:
            placeable = {a.card for a in legal if isinstance(a, Place)}
            slots = [i for i, card in enumerate(obs.held[obs.current]) if card in placeable]
            if slots:
                card = obs.held[obs.current][slots[0]]
                # Down then Enter puts that card on the first place it may go.
                target = next(
                    a.expedition for a in legal if isinstance(a, Place) and a.card == card
                )
                exp_row.point_at(NEW_SLOT if target is None else target)
                table_row.point_at(1 + slots[0])
                table_row.focus()
                return
            # Scoring first; removing (it costs steps) only when nothing else is open.
            scores = [a.expedition for a in legal if isinstance(a, Score)]
            removes = [a.expedition for a in legal if isinstance(a, Remove)]
            usable = scores or ([] if Done() in legal else removes)
            if usable:
                exp_row.point_at(usable[0])
                exp_row.focus()
                return
            table_row.point_at(STOP_SLOT)
        elif obs.step is Step.REVEAL:
            table_row.point_at(0)
        else:
            takes = [obs.table.index(a.card) for a in legal if isinstance(a, Take)]
            table_row.point_at(1 + takes[0] if takes else STOP_SLOT)
        table_row.focus()
