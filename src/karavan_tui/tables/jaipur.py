"""Jaipur's table: the market, the token piles, the hand and both players' takings.

Each zone is its own widget.  Everything shown comes from the observation of
the player at the keyboard; every choice goes back to the game screen as an
engine action, which the engine accepts or refuses.  Between rounds a summary
of the finished round comes up before play goes on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from typing import Any, cast

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from karavan_core.engine import Action
from karavan_core.games.jaipur.components import (
    BONUS_SIZES,
    CAMEL_TOKEN,
    CARDS,
    GOODS,
    HAND_LIMIT,
    LETTERS,
    MARKET_SIZE,
    NOUNS,
    SEALS_TO_WIN,
    Card,
)
from karavan_core.games.jaipur.rules import cards_of, describe_cards
from karavan_core.games.jaipur.state import (
    Exchange,
    JaipurObservation,
    RoundResult,
    Sell,
    TakeCamels,
    TakeGood,
)
from karavan_core.text import plural
from karavan_tui.glyphs import ASCII, Glyphs
from karavan_tui.tables.base import CLEAR_MARKS, TableView, View, table_stylesheet
from karavan_tui.tables.marking import Marked, Marks
from karavan_tui.tables.spots import Spot, counted_spots, spot_of, spots_of
from karavan_tui.widgets.cards import CardFace, CardRow
from karavan_tui.widgets.refit import Refits
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


def times(g: Glyphs) -> str:
    """The multiplication sign of the symbol set."""
    return "x" if g == ASCII else "×"


def swap(g: Glyphs) -> str:
    """The exchange mark of the symbol set."""
    return "<>" if g == ASCII else "⇄"


def noun(card: Card) -> str:
    """The card's name for one card: "diamond", "camel"."""
    return NOUNS[card][0]


def token_text(good: Card, value: int) -> Text:
    """A goods token as a coloured chip such as ``P5`` (the letter carries it without colour)."""
    return Text(f"{LETTERS[good]}{value}", style=COLOURS[good])


TICK = "+"  # marks a market card to take in an exchange


def stable_layout(shown: Sequence[Card | None], cards: Sequence[Card]) -> list[Card]:
    """``cards`` laid out where ``shown`` had them: cards still there keep their places.

    The places that emptied take the cards that arrived, in the market's order;
    no card moves just because another was taken.
    """
    left = Counter(cards)
    places: list[Card | None] = []
    for card in list(shown) + [None] * (len(cards) - len(shown)):
        if card is not None and left[card] > 0:
            left[card] -= 1
            places.append(card)
        else:
            places.append(None)
    # Fewer cards than before (the deck ran dry): the emptied places at the end go first.
    while len(places) > len(cards):
        places.pop(max(i for i, card in enumerate(places) if card is None))
    arrivals = iter(cards_of_counter(left))
    return [card if card is not None else next(arrivals) for card in places]


def market_places(past: Sequence[JaipurObservation]) -> list[Card]:
    """The market's cards in their places, worked out from the public views of the game.

    A round's market is laid out in the market's order (goods, then camels) when it
    is dealt; after every decision the cards still there keep their places and the
    new ones fill those that emptied (:func:`stable_layout`).  Since only the
    history decides, an undo, a resume or a replay shows every card where it was.
    """
    first = len(past) - 1
    while first > 0 and past[first].turn != 0:  # back to the deal of the round shown
        first -= 1
    places = cards_of(past[first].market)[:MARKET_SIZE]
    for view in past[first + 1 :]:
        places = stable_layout(places, cards_of(view.market)[:MARKET_SIZE])
    return places


def cards_of_counter(counts: Counter[Card]) -> list[Card]:
    """The cards of ``counts`` in the market's order (goods, then camels)."""
    return [card for card in CARDS for _ in range(counts[card])]


def added(values: Sequence[int]) -> str:
    """Token values and their sum: "none", "3", "3 + 2 = 5"."""
    if len(values) < 2:
        return str(values[0]) if values else "none"
    return " + ".join(map(str, values)) + f" = {sum(values)}"


class MarketZone(CardRow):
    """The five market cards (goods first, then camels) and the exchange card last."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(MARKET_SIZE + 1, **kwargs)
        self.shown: list[Card | None] = []  # the card at each place; None for exchange or gap

    def show(
        self,
        obs: JaipurObservation,
        before: JaipurObservation | None,
        legal: set[Action],
        g: Glyphs,
        taking: Collection[int] = (),
        past: Sequence[JaipurObservation] = (),
        playing: bool = True,
    ) -> None:
        """Draw the market from ``obs``; moves not offered now are dimmed; ``taking``: marked.

        Only a table that plays (``playing``; not a replay) says what the keys do.

        Cards stay where they were: the places come from ``past``, the public views
        of the game so far (:func:`market_places`); without them (a hosted table's
        client) from what this zone drew last.  Those that arrived since ``before``
        are marked.
        """
        if past:
            cards = market_places(past)
        else:
            cards = stable_layout(self.shown[:MARKET_SIZE], cards_of(obs.market)[:MARKET_SIZE])
        arrived = Counter(cards_of(obs.market))
        if before is None:
            arrived.clear()
        else:
            arrived.subtract(cards_of(before.market))
        faces: list[CardFace] = []
        for card in cards:
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
            if len(faces) in taking:
                classes += " -marked"
                text = f"{TICK} {LETTERS[card]}\ntake"
            else:
                text = f"{g.changed if new else ''}{LETTERS[card]}\n{noun(card)}"
            faces.append(
                CardFace(text, classes, tip if playing else None, key=card.value, changed=new)
            )
        gaps = MARKET_SIZE - len(cards)  # only when the deck ran dry, as the round ends
        faces += [CardFace("\n", "-empty")] * gaps
        self.shown = [*cards, *[None] * gaps, None]
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


class TokensZone(Vertical):
    """The goods token piles (top value, how many left), the bonus piles and the camel token."""

    def compose(self) -> ComposeResult:
        """One chip per good, then a line for the bonus piles."""
        with Horizontal(id="piles"):
            for good in GOODS:
                yield Static("", classes=f"chip -{good.value}", id=f"pile-{good.value}")
        yield Static("", id="bonus")

    def show(self, obs: JaipurObservation, before: JaipurObservation | None, g: Glyphs) -> None:
        """Draw the piles from ``obs``, marking those tokens were taken from since ``before``."""
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


class HandZone(Vertical):
    """The hand of the player at the keyboard, one card per good; hidden behind the curtain."""

    def compose(self) -> ComposeResult:
        """The row of goods, the herd, and the hidden notice."""
        yield CardRow(len(GOODS) + 1, id="hand-row")
        yield Static("", id="hand-hidden")

    def show(
        self,
        obs: JaipurObservation,
        legal: set[Action],
        g: Glyphs,
        giving: Sequence[int] = (),
        giving_camels: int = 0,
        playing: bool = True,
    ) -> None:
        """Draw the observer's hand and herd (none in the public view), dimming unsellable goods.

        ``giving`` (per good) and ``giving_camels`` are the cards marked for an exchange;
        only a table that plays (``playing``) says what the keys do.
        """
        hidden = self.query_one("#hand-hidden", Static)
        row = self.query_one("#hand-row", CardRow)
        if obs.hand is None or obs.player is None:
            # Blank the faces too, so no private card stays even in a hidden widget.
            row.set_faces([CardFace("", "-none")] * (len(GOODS) + 1))
            row.display = False
            hidden.display = True
            hidden.update("Hands are hidden.")
            self.border_title = "Hand"
            return
        row.display = True
        hidden.display = False
        sellable = {action.good for action in legal if isinstance(action, Sell)}
        faces = []
        for good, count in zip(GOODS, obs.hand, strict=True):
            classes = f"-{good.value}"
            if not count:
                classes += " -none"
            elif good not in sellable:
                classes += " -off"
            tip = f"Sell {noun(good)} ({count} in hand)" if count else f"No {noun(good)} in hand"
            given = giving[good.index] if giving else 0
            second = f"give {given}" if given else noun(good)
            if given:
                classes += " -marked"
            face = f"{LETTERS[good]} {times(g)}{count}\n{second}"
            faces.append(CardFace(face, classes, tip if playing else None, key=good.value))
        herd = obs.herds[obs.player]
        herd_classes = "-camel" + (" -marked" if giving_camels else "" if herd else " -none")
        faces.append(
            CardFace(
                f"{LETTERS[Card.CAMEL]} {times(g)}{herd}\n"
                + (f"give {giving_camels}" if giving_camels else "herd"),
                herd_classes,
                "Your herd: mark camels (Space) to give them in an exchange" if playing else None,
                key="herd",
            )
        )
        row.set_faces(faces)
        size = sum(obs.hand)
        name = obs.players[obs.player]
        keys = f" {g.sep} Enter sells" if playing else ""
        self.border_title = Content(f"{name}'s hand {g.sep} {size} of {HAND_LIMIT}{keys}")


class PlayersZone(Refits):
    """Both players: seals, hand size, herd, and the tokens won so far this round."""

    _shown: tuple[JaipurObservation, Glyphs] | None = None

    def show(self, obs: JaipurObservation, g: Glyphs) -> None:
        """Two lines per player; the tokens as chips when they fit, else as sums.

        Only the observer's bonus token values are shown: the opponent's (and,
        in the public view, everyone's) are counted but not valued.  Under a
        rival, the goods they were seen to take: what a player would remember.
        """
        self._shown = (obs, g)
        viewer = obs.player
        room = self.content_region.width or 10_000
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
            text.append_text(self._takings(obs, seat, seat == viewer, room, g))
            if seat != viewer:
                text.append("\n")
                text.append_text(self._seen(obs.known[seat]))
        self.update(text, layout=False)  # the zone's size does not depend on its text

    @staticmethod
    def _seen(known: Sequence[int]) -> Text:
        """The goods a rival was seen to take and still holds: all anyone can remember."""
        text = Text("  seen in hand:", style="dim")
        if not any(known):
            return text.append(" nothing", style="dim")
        for good, count in zip(GOODS, known, strict=True):
            if count:
                text.append(" ")
                text.append(f"{LETTERS[good]}{count}", style=COLOURS[good])
        return text

    @staticmethod
    def _takings(obs: JaipurObservation, seat: int, own: bool, room: int, g: Glyphs) -> Text:
        """The tokens ``seat`` won this round, in one line of at most ``room`` cells.

        A bonus token's value is known to its owner, and to everyone once the match
        is over (the last round's result names them all).
        """
        won = [
            (good, value)
            for good, values in zip(GOODS, obs.goods_won[seat], strict=True)
            for value in values
        ]
        goods = sum(value for _, value in won)
        count = sum(obs.bonus_counts[seat])
        known: list[int] | None = None
        if obs.is_over and obs.rounds:
            known = list(obs.rounds[-1].scores[seat].bonus_tokens)
        elif own and obs.bonus_won is not None:
            known = [value for values in obs.bonus_won for value in values]
        sep = g.sep
        if not count:
            tails = ["no bonus token", "no bonus"]
        elif known is not None:
            tokens = plural(count, "bonus token")
            tails = [f"{tokens} worth {added(known)}", f"{tokens} worth {sum(known)}"]
            tails.append(f"bonus {sum(known)}")
        else:
            tails = [f"{plural(count, 'bonus token')}, values hidden", f"{count} bonus hidden"]
        if known is not None:
            total = f"{goods + sum(known)} {'in all' if obs.is_over else 'so far'}"
            tails = [f"{tail} {sep} {total}" for tail in tails] + [total]
        # The longest form that fits: every token as a chip, then sums, then the total only;
        # a line never wraps, which would push the next player's lines out of the zone.
        chips = Text("  ")
        for index, (good, value) in enumerate(won):
            if index:
                chips.append(" ")
            chips.append_text(token_text(good, value))
        chips.append(f" = {goods} {sep} " if won else f"no goods tokens {sep} ")
        chips.append(tails[0])
        if chips.cell_len <= room:
            return chips
        tokens = f" ({plural(len(won), 'token')})"
        sums = [f"  goods {goods}{tokens} {sep} {tail}" for tail in tails[:2]]
        sums += [f"  goods {goods} {sep} {tail}" for tail in tails[1:]]
        line = next((line for line in sums if cells(line) <= room), sums[-1])
        return Text(cut(line, room, g.ellipsis))


class RoundSummaryScreen(ModalScreen[None]):
    """The finished rounds: each player's tokens, herd, camel token and total, and why the seal
    went where it did."""

    BINDINGS = [Binding("enter,escape,space", "close", "Continue", key_display="Enter")]
    DEFAULT_CSS = """
    RoundSummaryScreen { align: center middle; }
    RoundSummaryScreen > VerticalScroll {
        width: 76; max-width: 100%; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    RoundSummaryScreen .round-title { text-style: bold; margin-top: 1; }
    RoundSummaryScreen .round-reason { margin-top: 1; }
    RoundSummaryScreen #summary-hint { color: $text-muted; margin-top: 1; }
    """

    def __init__(
        self,
        players: Sequence[str],
        rounds: Sequence[RoundResult],
        next_starter: str | None,
        star: str,
    ) -> None:
        super().__init__()
        self.players = tuple(players)
        self.rounds = tuple(rounds)
        self.next_starter = next_starter
        self.star = star

    def compose(self) -> ComposeResult:
        """A part per round, newest first, and the way on."""
        with VerticalScroll(id="summary"):
            # A round just finished: its summary alone; asked for: every round, newest first.
            shown = self.rounds[-1:] if self.next_starter is not None else self.rounds
            for past in reversed(shown):
                yield Static(Content(self._title(past)), classes="round-title")
                yield Static(self._table(past), classes="round-table")
                yield Static(Content(past.reason), classes="round-reason")
            if self.next_starter is not None:
                number = self.rounds[-1].number + 1
                hint = f"{self.next_starter} starts round {number}. Press Enter to play on."
            else:
                hint = "Press Enter to go back to the table."
            yield Static(hint, id="summary-hint")
        yield Footer()

    def _title(self, past: RoundResult) -> str:
        who = "no seal" if past.winner is None else f"{self.players[past.winner]} takes the seal"
        return f"Round {past.number}: {who}"

    def _table(self, past: RoundResult) -> Table:
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column("")
        for seat, name in enumerate(self.players):
            mark = f" {self.star}" if past.winner == seat else ""
            table.add_column(Text(f"{name}{mark}"), justify="right")
        scores = past.scores
        table.add_row(
            "Goods tokens",
            *(f"{s.goods_points} ({plural(len(s.goods_tokens), 'token')})" for s in scores),
        )
        table.add_row(
            "Bonus tokens",
            *(added(s.bonus_tokens) for s in scores),
        )
        table.add_row("Herd", *(plural(s.herd, "camel") for s in scores))
        table.add_row(
            "Camel token", *(str(s.camel_token) if s.camel_token else "-" for s in scores)
        )
        table.add_row(
            Text("Total", style="bold"), *(Text(str(s.total), style="bold") for s in scores)
        )
        # Seals held once this round was settled (the earlier rounds' winners and its own).
        held = [sum(1 for r in self.rounds[: past.number] if r.winner == seat) for seat in (0, 1)]
        table.add_row("Seals", *(str(n) for n in held))
        return table

    def on_click(self) -> None:
        """A click anywhere goes on as well."""
        self.dismiss(None)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class JaipurTable(TableView[JaipurObservation]):
    """The Jaipur table."""

    FIRST_FOCUS = "#market"
    DEFAULT_CSS = table_stylesheet("jaipur.tcss")
    SCOPED_CSS = False
    BINDINGS = [
        # Not in the Footer, which is full at 80 columns: the market's exchange card and
        # the zone's title offer it.
        Binding("x", "exchange", "Exchange", show=False, tooltip="Take goods, give cards back"),
        Binding("o", "rounds", "Rounds", show=False, tooltip="The finished rounds' summaries"),
        CLEAR_MARKS,
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rounds_seen: int | None = None  # finished rounds already summarised
        # An exchange being marked: market places to take, goods and camels to give.
        self.taking: Marks[int] = Marks()  # market places
        self.giving: Marks[Card] = Marks()  # goods of the hand, and camels of the herd

    ZONES = (
        (MarketZone, "market"),
        (TokensZone, "tokens"),
        (HandZone, "hand"),
        (PlayersZone, "players"),
    )

    def show(self, view: View) -> None:
        """Draw every zone; bring up the summary when a round has just ended."""
        super().show(view)
        obs = self.obs
        legal = set(view.legal)
        g = view.glyphs
        before = view.before
        assert before is None or isinstance(before, JaipurObservation)
        market = self.query_one(MarketZone)
        past = cast(Sequence[JaipurObservation], view.past)  # the views of this game
        playing = view.playing
        market.show(obs, before, legal, g, set(self.taking), past, playing)
        marks = playing and not self.marking
        market.border_subtitle = "Space marks goods to exchange" if marks else ""
        self.query_one(TokensZone).show(obs, before, g)
        hand = self.query_one(HandZone)
        giving = self.giving.counts(GOODS)
        hand.show(obs, legal, g, giving, self.giving.count(Card.CAMEL), playing)
        players = self.query_one(PlayersZone)
        players.show(obs, g)
        players.border_title = f"Round {len(obs.rounds) + 1} {g.sep} first to {SEALS_TO_WIN} seals"
        if obs.is_over:
            players.border_title = f"Round {len(obs.rounds)} {g.sep} the match is over"
        finished = len(obs.rounds)
        players.border_subtitle = f"o {g.sep} finished rounds" if finished and playing else ""
        if self._rounds_seen is not None and finished > self._rounds_seen and not obs.is_over:
            # After the screen's own work (a curtain it is about to draw goes underneath):
            # both players read the summary together before the next hand is shown.
            self.pauses_play = True  # no bot moves until both have read it
            self.call_later(self.summarise, obs.rounds, obs.players[obs.starter])
        self._rounds_seen = finished  # also follows undo back into an earlier round

    def summarise(self, rounds: Sequence[RoundResult], next_starter: str | None) -> None:
        """Show the finished ``rounds``: only the newest when ``next_starter`` starts the next."""
        star = self.view.glyphs.winner if self.view else "*"

        def closed(_: object) -> None:
            self.pauses_play = False

        self.app.push_screen(
            RoundSummaryScreen(self.obs.players, rounds, next_starter, star), closed
        )

    def action_rounds(self) -> None:
        """Show every finished round again."""
        if not self.obs.rounds:
            self.notify("No round has finished yet.")
            return
        self.summarise(self.obs.rounds, None)

    # -- choosing -----------------------------------------------------------------
    # -- an exchange by marking cards -----------------------------------------------
    @property
    def marking(self) -> bool:
        """Whether an exchange is being marked."""
        return bool(self.taking or self.giving)

    def marked_exchange(self) -> Exchange:
        """The exchange the marks make."""
        shown = self.query_one(MarketZone).shown
        take = [0] * len(GOODS)
        for place in self.taking:
            card = shown[place]
            if card is not None and card is not Card.CAMEL:
                take[card.index] += 1
        return Exchange(tuple(take), self.giving.counts(GOODS), self.giving.count(Card.CAMEL))

    def marked_gesture(self) -> Marked | None:
        """While an exchange is marked: what it takes and gives."""
        if not self.marking:
            return None
        exchange = self.marked_exchange()
        taken, given = sum(exchange.take), sum(exchange.give) + exchange.camels
        words = f"Exchange: take {taken}, give {given}"
        return Marked(words, (exchange,), "Enter exchanges, Esc clears")

    def forget_marks(self) -> None:
        """Forget the marks of an exchange."""
        self.taking, self.giving = Marks(), Marks()

    def on_card_row_marked(self, message: CardRow.Marked) -> None:
        """Mark a market good to take, or one more card of the hand or herd to give."""
        message.stop()
        view = self.turn_view()
        if view is None:
            return
        obs = self.obs
        assert obs.hand is not None and obs.player is not None
        if message.row.id == "hand-row":
            if message.index < len(GOODS):
                held = obs.hand[message.index]
                if not held:
                    self.notify(f"You hold no {noun(GOODS[message.index])}.", severity="warning")
                    return
                self.giving = self.giving.cycled(GOODS[message.index], held)
            else:
                herd = obs.herds[obs.player]
                if not herd:
                    self.notify("Your herd has no camel to give.", severity="warning")
                    return
                self.giving = self.giving.cycled(Card.CAMEL, herd)
        else:
            card = self.query_one(MarketZone).shown[message.index]
            if message.index == MARKET_SIZE:
                self.confirm_marks()
                return
            if card is None:
                return
            if card is Card.CAMEL:
                self.notify(
                    "An exchange takes goods only: camels are taken all together.",
                    title="Not allowed",
                    severity="warning",
                )
                return
            self.taking = self.taking.toggled(message.index)
        self.marks_changed()

    def on_card_row_chosen(self, message: CardRow.Chosen) -> None:
        """Turn a chosen card into a decision (with marks made: the exchange)."""
        message.stop()
        if self.marking:
            self.confirm_marks()
            return
        if message.row.id == "hand-row":
            if message.index == len(GOODS):
                self.notify("Camels are never sold: Space marks them to give in an exchange.")
                return
            self.sell(GOODS[message.index])
            return
        card = self.query_one(MarketZone).shown[message.index]
        if message.index == MARKET_SIZE:
            self.action_exchange()
        elif card is Card.CAMEL:
            self.host.decide(TakeCamels())
        elif card is not None:
            self.host.decide(TakeGood(card))

    def hint_places(self, action: Action) -> list[Spot]:
        """The market places and hand cards a decision takes or gives."""
        shown = self.query_one(MarketZone).shown
        if isinstance(action, TakeGood):
            return spot_of("market", shown, action.good)
        if isinstance(action, TakeCamels):
            return spots_of("market", shown, Card.CAMEL)
        if isinstance(action, Sell):
            return [("hand-row", action.good.index)]
        if isinstance(action, Exchange):
            taken = zip(GOODS, action.take, strict=True)
            spots = [spot for good, n in taken for spot in spots_of("market", shown, good, n)]
            spots += counted_spots("hand-row", (*action.give, action.camels))
            return spots
        return []

    def sell(self, good: Card) -> None:
        """Sell ``good``: pick how many among the sales offered (the engine refuses any other)."""
        assert self.view is not None
        sales = [a for a in self.view.legal if isinstance(a, Sell) and a.good is good]
        if not sales:
            # Let the engine say why (too few, none held, not your turn).
            hand = self.obs.hand
            self.host.decide(Sell(good, max(1, hand[good.index] if hand else 1)))
            return
        self.ask(f"Sell {noun(good)}: how many?", sales)

    def action_exchange(self) -> None:
        """The exchange picker: first the goods to take, then what to give for them.

        Both lists come from the exchanges the engine offers, so the picker
        can only end on a legal exchange.
        """
        view = self.turn_view()
        if view is None:
            return
        offers = [action for action in view.legal if isinstance(action, Exchange)]
        if not offers:
            self.notify(
                "You have no exchange to make now.", title="Not allowed", severity="warning"
            )
            return
        ways: dict[tuple[int, ...], int] = {}
        for action in offers:
            ways[action.take] = ways.get(action.take, 0) + 1
        takes = list(ways)
        self.host.choose(
            "Exchange: which goods do you take from the market?",
            [
                f"{describe_cards(take)}  ({plural(ways[take], 'way')} to give {sum(take)} back)"
                for take in takes
            ],
            lambda index: self._pick_give(takes[index], offers),
        )

    def _pick_give(self, take: tuple[int, ...], offers: list[Exchange]) -> None:
        """Second step of the exchange picker: what to give for ``take``."""
        # Giving camels is the usual way to trade, so those ways come first.
        ways = sorted((a for a in offers if a.take == take), key=lambda a: -a.camels)
        labels = [describe_cards(action.give, action.camels) for action in ways]
        self.ask(f"For {describe_cards(take)}, you give:", ways, labels)
