"""The zones of Karakum's table: the camel market, the resources and the hand.

Each zone draws from its ``data``, a reactive value the table sets: Textual draws
the zone again whenever it changes.  Everything drawn comes from the observation
of the player at the keyboard.  Every player's caravan is in :mod:`.players`.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import var
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
from karavan_tui.tables.karakum import faces as full
from karavan_tui.widgets import hand
from karavan_tui.widgets.cards import CardFace, CardRow

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


def mark(new: bool, g: Glyphs) -> str:
    """The change mark before a card's text, when another player changed it."""
    return g.changed if new else ""


@frozen(kw_only=True)
class TableData:
    """What a zone of the table draws: the view, the one before it, and the decisions open."""

    obs: KarakumObservation
    before: KarakumObservation | None
    legal: frozenset[Action]
    g: Glyphs
    news: tuple[Action, ...] = ()  # the decisions since the viewer's last one
    scores: tuple[int, ...] = ()  # each player's points now (the game's own count)


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
                faces.append(CardFace(f"{g.blank}\nempty", "-empty"))
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
            paid = f"{plural(cost, 'unit')} of {camel.color.good}"
            tip = f"{camel.color.value} {camel.value}: costs {paid}"
            if camel.color is taxed:
                tip += f" (taxed +{cost - camel.value})"
            # The second line says the cost: the good that pays is the one of the camel's
            # letter, as on the hand's cards (its name, "jewelry", leaves no room for a number
            # in a narrow card; the tooltip and the large card say both).
            token = f"{mark(new, g)}{RES_LETTERS[camel.color]}{camel.value}{tax}"
            large = full.camel_card(token, camel, cost, camel.color is taxed)
            text = f"{token}\ncost {cost}"
            faces.append(CardFace(text, classes, tip, str(camel), new, large))
        self.query_one(CardRow).set_faces(faces)
        tax_text = f"tax {g.tax} {RES_LETTERS[taxed]} {taxed.value} +{C.TAX}" if taxed else "no tax"
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
        deck = f"{g.deck}{obs.resource_deck_size:>3}\ndraw"
        faces = [
            CardFace(
                deck,
                "-deck" + ("" if DrawCard() in legal else " -off"),
                "Draw the top card of the resource deck",
                key="deck",
                large=full.deck_card(deck),
            )
        ]
        for slot, card in enumerate(obs.row):
            if card is None:
                faces.append(CardFace(f"{g.blank}\nempty", "-empty"))
                continue
            off = "" if TakeCard(slot) in legal else " -off"
            new = before is not None and (before.row[slot] != card or TakeCard(slot) in data.news)
            # Goods go by name: a letter on the table always means a camel's colour.  A card
            # refilled since the last decision says so on its second line: "jewelry" fills
            # a narrow card, and the mark before it would push a letter out.
            below = "face up" if card is not Res.GOLD else "gold"
            text = f"{card.good}\n{mark(new, g)}new" if new else f"{card.good}\n{below}"
            faces.append(
                CardFace(
                    text,
                    f"-{card.value}{off}",
                    f"Take the face-up {card.good} ({card.value})",
                    key=card.value,
                    changed=new,
                    large=full.resource_card(text, card),
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


class HandZone(hand.HandZone):
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
            # The letter names the resource even where the second line counts the marked.
            text = f"{RES_LETTERS[res]} {times}{count}\n" + (f"pay {paid}" if paid else res.good)
            tip = f"{res.good}: {count} in hand" + (f", {paid} marked to pay" if paid else "")
            large = full.resource_card(text, res)
            faces.append(CardFace(text, classes, tip, key=res.value, large=large))
        row.set_faces(faces)
        name = obs.players[obs.player]
        self.title_hand(name, f" {g.sep} {plural(sum(obs.hand), 'card')}", g.ellipsis)
