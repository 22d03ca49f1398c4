"""The zones of Karakum's table: the camel market, the resources, the hand and every caravan.

Each zone draws from its ``data``, a reactive value the table sets: Textual draws
the zone again whenever it changes, and the caravans again on a resize (they
are laid out for the zone's width in ``render``).  Everything drawn comes from
the observation of the player at the keyboard.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.reactive import reactive, var
from textual.widget import Widget
from textual.widgets import Static

from karavan_core.engine import Action
from karavan_core.games.karakum import components as C
from karavan_core.games.karakum.components import RES_LETTERS, RESOURCES, Res
from karavan_core.games.karakum.rules import price, taxed_color
from karavan_core.games.karakum.state import (
    Buy,
    Camel,
    DrawCard,
    KarakumObservation,
    Step,
    TakeCard,
)
from karavan_core.text import plural
from karavan_tui.glyphs import Glyphs
from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.widgets.hand import HandZone as HiddenHand
from karavan_tui.words import padded, widest, wrap_tokens

# Card colours for rich text (the zones' cards take theirs from the .tcss).
COLOURS: dict[Res, str] = {
    Res.BLUE: "bold white on #2f5fb3",
    Res.PURPLE: "bold white on #7a3fa0",
    Res.RED: "bold white on #9e1b1b",
    Res.ORANGE: "bold black on #ffa733",
    Res.GREEN: "bold black on #4fa84a",
    Res.GOLD: "bold black on #e3c340",
}


def camel_text(camel: Camel, new: bool = False, g: Glyphs | None = None) -> Text:
    """A camel as a coloured token such as ``R3`` (letter and number carry it without colour).

    A camel ``new`` since the viewer's last decision is marked and underlined.
    """
    text = Text(f"{RES_LETTERS[camel.color]}{camel.value}", style=COLOURS[camel.color])
    if new and g is not None:
        text = Text(g.changed, style="bold") + text
        text.stylize("underline", 1)
    return text


def short(res: Res) -> str:
    """The good a camel of colour ``res`` is paid with, in at most five letters."""
    return res.good[:5]


def mark(new: bool, g: Glyphs) -> str:
    """The change mark before a card's text, when another player changed it."""
    return g.changed if new else ""


@frozen
class TableData:
    """What a zone of the table draws: the view, the one before it, and the decisions open."""

    obs: KarakumObservation
    before: KarakumObservation | None
    legal: frozenset[Action]
    g: Glyphs
    news: tuple[Action, ...] = ()  # the decisions since the viewer's last one


class MarketZone(Horizontal):
    """The camel deck and the market, slot 0 next to the deck."""

    data: var[TableData | None] = var(None)

    def compose(self) -> ComposeResult:
        """The deck pile and the five market slots."""
        yield Static("", id="camel-deck", classes="card -deck")
        yield CardRow(C.MARKET_SIZE, id="market-row")

    def watch_data(self, data: TableData | None) -> None:
        """Draw the market, marking the camels that arrived since the viewer's last decision."""
        if data is None:
            return
        obs, before, legal, g = data.obs, data.before, data.legal, data.g
        taxed = taxed_color(obs.market)
        self.query_one("#camel-deck", Static).update(f"{g.deck}{obs.camel_deck_size:>3}\ncamels")
        faces = []
        for slot, camel in enumerate(obs.market):
            if camel is None:
                faces.append(CardFace(f"{g.sep}\nempty", "-empty"))
                continue
            new = before is not None and camel not in before.market
            cost = price(obs.market, slot)
            tax = g.tax if camel.color is taxed else " "
            classes = f"-{camel.color.value}"
            buying = obs.step is Step.PAY and obs.slot == slot
            if Buy(slot) not in legal and not buying:
                classes += " -off"
            if buying:
                classes += " -buying"
            tip = f"{camel.color.value} {camel.value}: costs {cost} units of {camel.color.good}"
            if camel.color is taxed:
                tip += f" (taxed +{cost - camel.value})"
            # The second line names the good that pays: the camel's letter is its colour.
            token = f"{mark(new, g)}{RES_LETTERS[camel.color]}{camel.value}{tax}"
            face = CardFace(f"{token}\n{cost} {short(camel.color)}", classes, tip, str(camel), new)
            faces.append(face)
        self.query_one(CardRow).set_faces(faces)
        tax_text = f"tax {g.tax} {RES_LETTERS[taxed]} {taxed.value} +1" if taxed else "no tax"
        self.border_title = f"Camel market {g.sep} {tax_text}"


class ResourceZone(CardRow):
    """The resource deck (draw) and the face-up row."""

    data: var[TableData | None] = var(None)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(1 + C.ROW_SIZE, **kwargs)  # the deck, then the face-up row

    def watch_data(self, data: TableData | None) -> None:
        """Draw the deck and the row, marking the places refilled since the last decision.

        A place taken by another player and refilled with the same good is marked too.
        """
        if data is None:
            return
        obs, before, legal, g = data.obs, data.before, data.legal, data.g
        faces = [
            CardFace(
                f"{g.deck}{obs.resource_deck_size:>3}\ndraw",
                "-deck" + ("" if DrawCard() in legal else " -off"),
                "Draw the top card of the resource deck",
                key="deck",
            )
        ]
        for slot, card in enumerate(obs.row):
            if card is None:
                faces.append(CardFace(f"{g.sep}\nempty", "-empty"))
                continue
            off = "" if TakeCard(slot) in legal else " -off"
            new = before is not None and (before.row[slot] != card or TakeCard(slot) in data.news)
            faces.append(
                CardFace(
                    # Goods go by name: a letter on the table always means a camel's colour.
                    f"{mark(new, g)}{card.good}\n{'face up' if card is not Res.GOLD else 'gold'}",
                    f"-{card.value}{off}",
                    f"Take the face-up {card.good} ({card.value})",
                    key=card.value,
                    changed=new,
                )
            )
        self.set_faces(faces)
        self.border_title = f"Resources {g.sep} discard {sum(obs.discard)}"


@frozen
class HandData:
    """What the hand shows: the cards marked to pay with (a count per resource)."""

    obs: KarakumObservation
    g: Glyphs
    paying: tuple[int, ...] = ()


class HandZone(HiddenHand):
    """The hand of the player at the keyboard, one card per resource."""

    CARDS = len(RESOURCES)
    data: var[HandData | None] = var(None)

    def watch_data(self, data: HandData | None) -> None:
        """Draw the observer's hand (none in the public view) and the cards marked to pay."""
        if data is None:
            return
        obs, g, paying = data.obs, data.g, data.paying
        if obs.hand is None or obs.player is None:
            self.hide()
            return
        row = self.reveal()
        times = "x" if g.tax == "*" else "×"
        faces = []
        for res, count in zip(RESOURCES, obs.hand, strict=True):
            paid = paying[res.index] if paying else 0
            classes = (
                f"-{res.value}" + (" -none" if not count else "") + (" -marked" if paid else "")
            )
            text = f"{times}{count}\n" + (f"pay {paid}" if paid else res.good)
            tip = f"{res.good}: {count} in hand" + (f", {paid} marked to pay" if paid else "")
            faces.append(CardFace(text, classes, tip, key=res.value))
        row.set_faces(faces)
        name = obs.players[obs.player]
        self.border_title = Content(f"{name}'s hand {g.sep} {plural(sum(obs.hand), 'card')}")


class CaravansZone(Widget):
    """Every player's caravan: left-side camels, the master, then the chain."""

    # Drawn again when it changes, and on a resize (the lines wrap to the zone's width).
    data: reactive[TableData | None] = reactive(None)

    def render(self) -> Text:
        """One line per player: name, hand size, left side, master, chain.

        A caravan too long for the zone goes on below, indented under the
        camels so that the names stay in their column.  Camels that joined a
        caravan since the viewer's last decision are underlined and marked.
        """
        if self.data is None:
            return Text()
        obs, before, g = self.data.obs, self.data.before, self.data.g
        width = widest(obs.players)  # in cells: an emoji takes two
        lefts = [3 * len(left) for left in obs.lefts]
        pad = max(lefts)
        room = self.content_size.width or 10_000
        text = Text()
        for seat, name in enumerate(obs.players):
            if seat:
                text.append("\n")
            mine = seat == obs.to_move
            text.append(f"{g.turn if mine else ' '} ", style="bold")
            text.append(padded(name, width), style="bold" if mine else "")
            text.append(f" ({obs.hand_sizes[seat]:>2}) ", style="dim")
            indent = 2 + width + 6
            used = indent + pad - lefts[seat]
            text.append(" " * (pad - lefts[seat]))
            wrap_tokens(text, caravan(obs, before, seat, g), used, room, indent)
        return text


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
