"""The zones of Jaipur's table: the market, the token piles, the hand and both players.

Each zone draws from its ``data``, a reactive value the table sets: Textual draws
the zone again whenever it changes, and the players' lines again on a resize
(they are laid out for the zone's width in ``render``).  Everything drawn comes
from the observation of the player at the keyboard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.reactive import reactive, var
from textual.widget import Widget
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
from karavan_core.games.jaipur.rules import cards_of
from karavan_core.games.jaipur.state import Exchange, JaipurObservation, Sell, TakeCamels, TakeGood
from karavan_core.text import plural
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.modals.round_summary import added
from karavan_tui.tables.jaipur.gestures import noun
from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.widgets.hand import HandZone as HiddenHand
from karavan_tui.words import cells, cut, padded, widest

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


def times(g: Glyphs) -> str:
    """The multiplication sign of the symbol set."""
    return "x" if g == ASCII else "×"


def swap(g: Glyphs) -> str:
    """The exchange mark of the symbol set."""
    return "<>" if g == ASCII else "⇄"


def token_text(good: Card, value: int) -> Text:
    """A goods token as a coloured chip such as ``P5`` (the letter carries it without colour)."""
    return Text(f"{LETTERS[good]}{value}", style=COLOURS[good])


@frozen
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
        arrived = Counter(cards_of(obs.market))
        if data.before is None:
            arrived.clear()
        else:
            arrived.subtract(cards_of(data.before.market))
        faces: list[CardFace] = []
        for card in data.places:
            if card is Card.CAMEL:
                n = obs.market[card.index]
                off = TakeCamels() not in legal
                tip = f"Take {'the camel' if n == 1 else f'all {n} camels'} into your herd"
            else:
                off = TakeGood(card) not in legal
                tip = f"Take the {noun(card)} into your hand"
            classes = f"-{card.value}" + (" -off" if off else "")
            new = arrived[card] > 0
            arrived[card] -= 1
            if len(faces) in data.taking:
                classes += " -marked"
                text = f"{TICK} {LETTERS[card]}\ntake"
            else:
                text = f"{g.changed if new else ''}{LETTERS[card]}\n{noun(card)}"
            faces.append(
                CardFace(text, classes, tip if playing else None, key=card.value, changed=new)
            )
        faces += [CardFace("\n", "-empty")] * (MARKET_SIZE - len(data.places))
        can_swap = any(isinstance(action, Exchange) for action in legal)
        faces.append(
            CardFace(
                f"{swap(g)}\nexchange",
                "-exchange" + ("" if can_swap else " -off"),
                "Exchange: take two or more goods and give back as many cards" if playing else None,
            )
        )
        self.set_faces(faces)
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

    def compose(self) -> ComposeResult:
        """One chip per good, then a line for the bonus piles."""
        with Horizontal(id="piles"):
            for good in GOODS:
                yield Static("", classes=f"chip -{good.value}", id=f"pile-{good.value}")
        yield Static("", id="bonus")

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
        # How many bonus tokens are left per sale size ("×" counts, as on the goods piles).
        sizes = [f"{size}-card" for size in BONUS_SIZES[:-1]] + [f"{BONUS_SIZES[-1]}+"]
        piles = " ".join(
            f"{size} {times(g)}{count}"
            for size, count in zip(sizes, obs.bonus_pile_sizes, strict=True)
        )
        self.query_one("#bonus", Static).update(f"Bonuses left: {piles}", layout=False)
        self.border_title = f"Goods tokens {g.sep} top value, how many"
        sold = " ".join(
            f"{LETTERS[good]}{n}" for good, n in zip(GOODS, obs.discard, strict=True) if n
        )
        self.border_subtitle = f"sold {sold or 'nothing'} {g.sep} camel token {CAMEL_TOKEN}"


@frozen
class HandData:
    """What the hand shows: the cards marked to give (a count per good, then the camels)."""

    obs: JaipurObservation
    legal: frozenset[Action]
    g: Glyphs
    giving: tuple[int, ...] = ()
    giving_camels: int = 0
    playing: bool = True


class HandZone(HiddenHand):
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
        self.border_title = Content(f"{name}'s hand {g.sep} {sum(obs.hand)} of {HAND_LIMIT}{keys}")

    @staticmethod
    def _goods(data: HandData, hand: Sequence[int]) -> list[CardFace]:
        """One card per good: how many are held, and how many are marked to give."""
        sellable = {action.good for action in data.legal if isinstance(action, Sell)}
        faces = []
        for good, count in zip(GOODS, hand, strict=True):
            classes = f"-{good.value}"
            if not count:
                classes += " -none"
            elif good not in sellable:
                classes += " -off"
            tip = f"Sell {noun(good)} ({count} in hand)" if count else f"No {noun(good)} in hand"
            given = data.giving[good.index] if data.giving else 0
            second = f"give {given}" if given else noun(good)
            if given:
                classes += " -marked"
            face = f"{LETTERS[good]} {times(data.g)}{count}\n{second}"
            faces.append(CardFace(face, classes, tip if data.playing else None, key=good.value))
        return faces

    @staticmethod
    def _herd(data: HandData, herd: int) -> CardFace:
        """The herd's card, and how many camels are marked to give."""
        giving = data.giving_camels
        return CardFace(
            f"{LETTERS[Card.CAMEL]} {times(data.g)}{herd}\n"
            + (f"give {giving}" if giving else "herd"),
            "-camel" + (" -marked" if giving else "" if herd else " -none"),
            "Your herd: mark camels (Space) to give them in an exchange" if data.playing else None,
            key="herd",
        )


@frozen
class PlayersData:
    """What the players' zone shows."""

    obs: JaipurObservation
    g: Glyphs


class PlayersZone(Widget):
    """Both players: seals, hand size, herd, and the tokens won so far this round."""

    # Drawn again when it changes; its number of lines never does (no new layout).
    data: reactive[PlayersData | None] = reactive(None)

    def render(self) -> Text:
        """Two lines per player; the tokens as chips when they fit, else as sums.

        Only the observer's bonus token values are shown: the opponent's (and,
        in the public view, everyone's) are counted but not valued.  Under a
        rival, the goods they were seen to take: what a player would remember.
        """
        if self.data is None:
            return Text()
        obs, g = self.data.obs, self.data.g
        viewer = obs.player
        room = self.content_size.width or 10_000
        # Long names are cut so that each line fits a narrow zone (the Scores panel has them whole).
        width = min(widest(obs.players), max(4, room - 32))  # cells: an emoji takes two
        text = Text()
        for seat, name in enumerate(obs.players):
            name = cut(name, width)
            if seat:
                text.append("\n")
            mine = seat == obs.current and not obs.is_over
            text.append(f"{g.turn if mine else ' '} ", style="bold")
            text.append(padded(name, width), style="bold" if mine else "")
            seals = obs.seals[seat]
            text.append(f"  {plural(seals, 'seal')}", style="bold" if seals else "")
            text.append(f" {g.sep} {plural(obs.hand_sizes[seat], 'card')}")
            text.append(f" {g.sep} herd ")
            text.append(f"{LETTERS[Card.CAMEL]}{obs.herds[seat]}", style=COLOURS[Card.CAMEL])
            text.append("\n")
            text.append_text(takings(obs, seat, seat == viewer, room, g))
            if seat != viewer:
                text.append("\n")
                text.append_text(seen(obs.known[seat]))
        return text


def seen(known: Sequence[int]) -> Text:
    """The goods a rival was seen to take and still holds: all anyone can remember."""
    text = Text("  seen in hand:", style="dim")
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


def takings(obs: JaipurObservation, seat: int, own: bool, room: int, g: Glyphs) -> Text:
    """The tokens ``seat`` won this round, in one line of at most ``room`` cells."""
    won = [
        (good, value)
        for good, values in zip(GOODS, obs.goods_won[seat], strict=True)
        for value in values
    ]
    goods = sum(value for _, value in won)
    count = sum(obs.bonus_counts[seat])
    known = known_bonuses(obs, seat, own)
    sep = g.sep
    if not count:
        tails = ["no bonus token", "no bonus"]
    elif known is not None:
        tokens = plural(count, "bonus token")
        tails = [f"{tokens} worth {added(list(known))}", f"{tokens} worth {sum(known)}"]
        tails.append(f"bonus {sum(known)}")
    else:
        tails = [f"{plural(count, 'bonus token')}, values hidden", f"{count} bonus hidden"]
    if known is not None:
        total = f"{goods + sum(known)} {'in all' if obs.is_over else 'so far'}"
        tails = [f"{tail} {sep} {total}" for tail in tails] + [total]
    # The longest form that fits: every token as a chip, then sums, then the total only;
    # a line never wraps, which would push the next player's lines out of the zone.
    chips = Text("  ") + Text(" ").join(token_text(good, value) for good, value in won)
    chips.append(f" = {goods} {sep} " if won else f"no goods tokens {sep} ")
    chips.append(tails[0])
    if chips.cell_len <= room:
        return chips
    tokens = f" ({plural(len(won), 'token')})"
    sums = [f"  goods {goods}{tokens} {sep} {tail}" for tail in tails[:2]]
    sums += [f"  goods {goods} {sep} {tail}" for tail in tails[1:]]
    line = next((line for line in sums if cells(line) <= room), sums[-1])
    return Text(cut(line, room, g.ellipsis))
