"""The zones of Jaipur's table: the market, the token piles, the hand and both players.

Each zone draws from its ``data``, a reactive value the table sets: Textual draws
the zone again whenever it changes, and the players' lines again on a resize
(they are laid out for the zone's width in ``render``).  Everything drawn comes
from the observation of the player at the keyboard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widgets import Static

from karavan_core.engine import Action
from karavan_core.games.jaipur.components import (
    BONUS_SIZES,
    CAMEL_TOKEN,
    GOODS,
    HAND_LIMIT,
    LETTERS,
    MARKET_SIZE,
    Card,
)
from karavan_core.games.jaipur.state import Exchange, JaipurObservation, Sell, TakeCamels, TakeGood
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.tables.jaipur import faces
from karavan_tui.tables.jaipur.faces import times
from karavan_tui.tables.jaipur.gestures import noun
from karavan_tui.tables.jaipur.layout import arrivals, new_places
from karavan_tui.widgets import hand
from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.words import padded

# Card colours for rich text (the zones' cards take theirs from the .tcss).
COLOURS: dict[Card, str] = {
    Card.DIAMONDS: "bold white on #b3362f",
    Card.GOLD: "bold black on #e3c340",
    Card.SILVER: "bold black on #b8bec6",
    Card.CLOTH: "bold white on #7a3fa0",
    Card.SPICE: "bold black on #4fa84a",
    Card.LEATHER: "bold white on #8a5a2e",
    Card.CAMEL: "bold black on #d9b77e",
}
TICK = "+"  # marks a market card to take in an exchange
CARD_CELLS = 7  # a card's width where the hand's cards stand side by side (jaipur.tcss)


def swap(g: Glyphs) -> str:
    """The exchange mark of the symbol set."""
    return "<>" if g == ASCII else "⇄"


def token_text(good: Card, value: int) -> Text:
    """A goods token as a coloured chip such as ``P5`` (the letter carries it without colour)."""
    return Text(f"{LETTERS[good]}{value}", style=COLOURS[good])


@frozen(kw_only=True)
class MarketData:
    """What the market shows: ``places`` (the cards in their places, layout.py), the places
    marked to take, and the decisions open (those not offered are dimmed)."""

    obs: JaipurObservation
    before: JaipurObservation | None
    legal: frozenset[Action]
    g: Glyphs
    places: tuple[Card, ...]
    taking: frozenset[int] = frozenset()
    playing: bool = True  # only a table that plays (not a replay) says what the keys do
    news: tuple[Action, ...] = ()  # the decisions made since ``before``
    previous: tuple[Card | None, ...] | None = None  # the places as they were at ``before``


def give_label(count: int, before_full: bool = False) -> str:
    """How many cards of a pile are marked to give, as a card's second line.

    Seven cells, like the widest goods' names: at 80x24 the hand's cards stand side
    by side without a gap.  Its blank cell faces the card before it ("leather give 2"),
    or the card after it where that one's name fills its seven (``before_full``:
    "give 1 leather").
    """
    return f"give {count} " if before_full else f" give {count}"


class MarketZone(CardRow):
    """The five market cards (goods first, then camels) and the exchange card last."""

    data: var[MarketData | None] = var(None)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(MARKET_SIZE + 1, **kwargs)

    @property
    def shown(self) -> list[Card | None]:
        """The card at each place; ``None`` for a gap (the deck ran dry) and the exchange card."""
        places: list[Card | None] = list(self.data.places) if self.data else []
        return [*places, *[None] * (MARKET_SIZE - len(places)), None]

    def watch_data(self, data: MarketData | None) -> None:
        """Draw the market; the cards that arrived since the player's last decision are marked."""
        if data is None:
            return
        obs, g, legal, playing = data.obs, data.g, data.legal, data.playing
        before = data.before
        arrived = Counter() if before is None else arrivals(before, data.news, obs)
        fresh = new_places(data.places, data.previous, arrived)
        shown: list[CardFace] = []
        for card in data.places:
            if card is Card.CAMEL:
                n = obs.market[card.index]
                off = TakeCamels() not in legal
                tip = f"Take {'the camel' if n == 1 else f'all {n} camels'} into your herd"
            else:
                off = TakeGood(card) not in legal
                tip = f"Take the {noun(card)} into your hand"
            classes = f"-{card.value}" + (" -off" if off else "")
            new = len(shown) in fresh
            if len(shown) in data.taking:
                classes += " -marked"
                text = f"{TICK} {LETTERS[card]}\ntake"
            else:
                text = f"{g.changed if new else ''}{LETTERS[card]}\n{noun(card)}"
            if card is Card.CAMEL:
                large = faces.camel_card(text, obs.market[card.index])
            else:
                large = faces.good_card(text, card, obs.goods_piles, g)
            shown.append(CardFace(text, classes, tip if playing else None, card.value, new, large))
        shown += [CardFace("\n", "-empty")] * (MARKET_SIZE - len(data.places))
        can_swap = any(isinstance(action, Exchange) for action in legal)
        text = f"{swap(g)}\nexchange"
        shown.append(
            CardFace(
                text,
                "-exchange" + ("" if can_swap else " -off"),
                "Exchange: take two or more goods and give back as many cards" if playing else None,
                large=faces.exchange_card(text),
            )
        )
        self.set_faces(shown)
        keys = f" {g.sep} x exchanges" if playing else ""
        self.border_title = f"Market {g.sep} {g.deck} {obs.deck_size} in the deck{keys}"
        marks = playing and not data.taking
        self.border_subtitle = "Space marks goods to exchange" if marks else ""


@frozen
class PilesData:
    """What the token piles show, and the view to mark the piles taken from since."""

    obs: JaipurObservation
    before: JaipurObservation | None
    g: Glyphs


class TokensZone(Vertical):
    """The goods token piles (top value, how many left), the bonus piles and the camel token."""

    data: var[PilesData | None] = var(None)
    _sold = ""  # what was sold, for the subtitle of a short table

    def compose(self) -> ComposeResult:
        """One chip per good (or, in a tall table, a line per pile), then the bonus piles."""
        with Horizontal(id="piles"):
            for good in GOODS:
                yield Static("", classes=f"chip -{good.value}", id=f"pile-{good.value}")
        yield Static("", id="pile-lines")  # shown instead of the chips by the stylesheet
        yield Static("", id="bonus")
        yield Static("", id="sold")  # in a tall table, what the subtitle says in full

    def watch_data(self, data: PilesData | None) -> None:
        """Draw the piles, marking those tokens were taken from since the last decision."""
        if data is None:
            return
        obs, before, g = data.obs, data.before, data.g
        for i, (good, pile) in enumerate(zip(GOODS, obs.goods_piles, strict=True)):
            chip = self.query_one(f"#pile-{good.value}", Static)
            taken = before is not None and len(before.goods_piles[i]) > len(pile)
            mark = g.changed if taken else ""
            if pile:
                chip.update(f"{mark}{LETTERS[good]} {pile[0]}\n{times(g)}{len(pile)}", layout=False)
            else:
                chip.update(f"{mark}{LETTERS[good]}\nnone", layout=False)
            chip.set_class(not pile, "-none")
            chip.set_class(taken, "-changed")
            chip.tooltip = f"{noun(good)} tokens: " + (
                " ".join(map(str, pile)) if pile else "none left"
            )
        self.query_one("#pile-lines", Static).update(pile_lines(obs, before, g), layout=False)
        # How many bonus tokens are left per sale size ("×" counts, as on the goods piles).
        sizes = [f"{size}-card" for size in BONUS_SIZES[:-1]] + [f"{BONUS_SIZES[-1]}+"]
        piles = " ".join(
            f"{size} {times(g)}{count}"
            for size, count in zip(sizes, obs.bonus_pile_sizes, strict=True)
        )
        # "Bonuses: 3-card ×6 4-card ×6 5+ ×5": 35 cells, within the zone at 40 columns.
        self.query_one("#bonus", Static).update(f"Bonuses: {piles}", layout=False)
        self.border_title = f"Goods tokens {g.sep} top value, how many"
        sold = " ".join(
            f"{LETTERS[good]}{n}" for good, n in zip(GOODS, obs.discard, strict=True) if n
        )
        self._sold = f"sold {sold or 'nothing'} {g.sep} camel token {CAMEL_TOKEN}"
        herd = f"the largest herd takes the camel token ({CAMEL_TOKEN})"
        self.query_one("#sold", Static).update(f"Sold: {sold or 'nothing'} {g.sep} {herd}")
        self._say_sold()

    def on_resize(self) -> None:
        """A table that grew tall says what was sold in a line of its own, no longer below."""
        self._say_sold()

    def _say_sold(self) -> None:
        tall = self.is_mounted and self.screen.has_class("-tall")
        self.border_subtitle = "" if tall else self._sold


def pile_lines(obs: JaipurObservation, before: JaipurObservation | None, g: Glyphs) -> Text:
    """Each goods pile on a line of its own: every token value left on it, top first."""
    lines = []
    for i, (good, pile) in enumerate(zip(GOODS, obs.goods_piles, strict=True)):
        taken = before is not None and len(before.goods_piles[i]) > len(pile)
        line = Text(g.changed if taken else " ")
        line.append(f" {LETTERS[good]} ", style=COLOURS[good])
        line.append(f" {padded(noun(good), 8)}")
        if pile:
            line.append(" ".join(map(str, pile)), style="bold")
            line.append(f"  ({len(pile)} left)", style="dim")
        else:
            line.append("none left", style="dim")
        lines.append(line)
    return Text("\n").join(lines)


@frozen(kw_only=True)
class HandData:
    """What the hand shows: the cards marked to give (a count per good, then the camels)."""

    obs: JaipurObservation
    legal: frozenset[Action]
    g: Glyphs
    giving: tuple[int, ...] = ()
    giving_camels: int = 0
    playing: bool = True


class HandZone(hand.HandZone):
    """The hand of the player at the keyboard, one card per good, then the herd."""

    CARDS = len(GOODS) + 1
    data: var[HandData | None] = var(None)

    def watch_data(self, data: HandData | None) -> None:
        """Draw the observer's hand and herd (none in the public view), dimming unsellable goods."""
        if data is None:
            return
        obs, g, playing = data.obs, data.g, data.playing
        if obs.hand is None or obs.player is None:
            self.hide()
            return
        self.reveal().set_faces(
            [*self._goods(data, obs.hand), self._herd(data, obs.herds[obs.player])]
        )
        name = obs.players[obs.player]
        keys = f" {g.sep} Enter sells" if playing else ""
        self.title_hand(name, f" {g.sep} {sum(obs.hand)} of {HAND_LIMIT}{keys}", g.ellipsis)

    @staticmethod
    def _goods(data: HandData, hand: Sequence[int]) -> list[CardFace]:
        """One card per good: how many are held, and how many are marked to give."""
        sellable = {action.good for action in data.legal if isinstance(action, Sell)}
        giving = data.giving or (0,) * len(GOODS)

        def full(index: int) -> bool:
            """Whether the good at ``index`` shows a name that fills its card's width."""
            return (
                index < len(GOODS) and not giving[index] and len(noun(GOODS[index])) >= CARD_CELLS
            )

        shown = []
        piles = data.obs.goods_piles
        for good, count in zip(GOODS, hand, strict=True):
            classes = f"-{good.value}"
            if not count:
                classes += " -none"
            elif good not in sellable:
                classes += " -off"
            tip = f"Sell {noun(good)} ({count} in hand)" if count else f"No {noun(good)} in hand"
            given = giving[good.index]
            second = give_label(given, full(good.index + 1)) if given else noun(good)
            if given:
                classes += " -marked"
            face = f"{LETTERS[good]} {times(data.g)}{count}\n{second}"
            large = faces.good_card(face, good, piles, data.g)
            tip_shown = tip if data.playing else None
            shown.append(CardFace(face, classes, tip_shown, key=good.value, large=large))
        return shown

    @staticmethod
    def _herd(data: HandData, herd: int) -> CardFace:
        """The herd's card, and how many camels are marked to give."""
        giving = data.giving_camels
        face = f"{LETTERS[Card.CAMEL]} {times(data.g)}{herd}\n" + (
            give_label(giving) if giving else "herd"
        )
        return CardFace(
            face,
            "-camel" + (" -marked" if giving else "" if herd else " -none"),
            "Your herd: mark camels (Space) to give them in an exchange" if data.playing else None,
            key="herd",
            large=faces.herd_card(face),
        )
