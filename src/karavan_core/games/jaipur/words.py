"""Jaipur in words: prompts, previews, the log's lines, the refusals and the results.

Every sentence is built from what its reader may see: a preview and a prompt
from the decider's observation, a log line from the public views around the
decision, a refusal from the asker's own table.  The rules decide
(:mod:`.rules`); this module only says.
"""

from __future__ import annotations

from functools import lru_cache

from karavan_core.engine import Action
from karavan_core.games.jaipur import components as C
from karavan_core.games.jaipur.components import CAMEL, GOODS, NOUNS, Card
from karavan_core.games.jaipur.rules import Why, bonus_pile, exchange_fault, sale_ends_round
from karavan_core.games.jaipur.state import (
    Counts,
    Exchange,
    JaipurObservation,
    JaipurState,
    RoundScore,
    Sell,
    TakeCamels,
    TakeGood,
)
from karavan_core.text import plural


@lru_cache(maxsize=4096)  # a table's every choice says its cards: a few hundred counts recur
def describe_cards(goods: Counts, camels: int = 0) -> str:
    """Counts as words, camels first: "2 camels + 1 leather"."""
    parts = [Card.CAMEL.amount(camels)] if camels else []
    parts += [good.amount(n) for good, n in zip(GOODS, goods, strict=True) if n]
    return " + ".join(parts) if parts else "nothing"


def prompt(observation: JaipurObservation) -> str:
    """What the player to move must decide now."""
    obs = observation
    if obs.over:
        return "The match is over."
    name = obs.players[obs.current]
    return f"{name}: take a good, take the camels, exchange or sell"


def disclose(state: JaipurState) -> tuple[tuple[str, str], ...]:
    """Every hand, the deck in order and the bonus tokens left, in words."""
    rows = [
        (f"{name}'s hand", describe_cards(hand))
        for name, hand in zip(state.players, state.hands, strict=True)
    ]
    deck = ", ".join(NOUNS[card][0] for card in state.deck)  # one card each: "diamond"
    rows.append(("Deck, top first", deck or "empty"))
    for size, pile in zip(("3", "4", "5+"), state.bonus_piles, strict=True):
        rows.append((f"{size}-card bonus tokens, top first", " ".join(map(str, pile)) or "none"))
    for name, won in zip(state.players, state.bonus_won, strict=True):
        values = [value for pile in won for value in pile]
        total = sum(values)
        rows.append(
            (
                f"{name}'s bonus tokens",
                f"{' + '.join(map(str, values))} = {total}" if values else "none",
            )
        )
    return tuple(rows)


# -- refusals ---------------------------------------------------------------------------------


def refusal(state: JaipurState, action: object, why: Why) -> str:
    """Why ``action`` is refused, as :func:`.rules.refusal` found (``why``), in a sentence."""
    hand = state.hands[state.current]
    if isinstance(action, TakeGood | Sell) and why is Why.CAMEL_ALONE:
        if isinstance(action, Sell):
            return "Camels can never be sold."
        return "Camels are never taken one at a time: take all the camels instead."
    if isinstance(action, Exchange):
        return _exchange_refusal(state, action)
    if why is Why.NOT_IN_MARKET:
        assert isinstance(action, TakeGood)
        return f"There is no {action.good.amount(1)[2:]} in the market."
    if why is Why.HAND_FULL:
        return (
            f"You already hold {C.HAND_LIMIT} cards, the most allowed, "
            "so you cannot take another good."
        )
    if why is Why.NO_CAMELS:
        return "There are no camels in the market to take."
    if isinstance(action, Sell):
        return _sale_refusal(hand, action, why)
    return "That is not a Jaipur move."


def _sale_refusal(hand: Counts, action: Sell, why: Why) -> str:
    good = action.good
    if why is Why.NO_SALE:
        return "A sale sells at least one card."
    if why is Why.HAND_SHORT:
        return f"You hold only {good.amount(hand[good.index])}."
    return f"{good.value.capitalize()} can only be sold {C.PRECIOUS_MIN_SALE} or more at a time."


def _exchange_refusal(state: JaipurState, action: Exchange) -> str:
    fault = exchange_fault(state, action)
    assert fault is not None
    why, good = fault
    seat = state.current
    hand = state.hands[seat]
    taken, given = sum(action.take), sum(action.give) + action.camels
    if why is Why.MALFORMED:
        return "That exchange is not well formed."
    if why is Why.TOO_FEW:
        return (
            f"An exchange takes at least {C.MIN_EXCHANGE} goods from the market; "
            "to take a single good, take one good instead."
        )
    if why is Why.UNEVEN:
        return (
            f"An exchange gives back exactly as many cards as it takes "
            f"(this one takes {taken} and gives {given})."
        )
    if why is Why.OVER_LIMIT:
        return (
            f"After this exchange you would hold {sum(hand) + action.camels} cards; "
            f"the limit is {C.HAND_LIMIT}."
        )
    assert good is not None
    if why is Why.SAME_GOOD:
        return f"You cannot give back {good.value} while taking {good.value}."
    if why is Why.MARKET_SHORT:
        return f"The market holds only {good.amount(state.market[good.index])}."
    if why is Why.HERD_SHORT:
        return f"Your herd has only {Card.CAMEL.amount(state.herds[seat])}."
    return f"You hold only {good.amount(hand[good.index])}."


# -- decisions in words -----------------------------------------------------------------------


def preview(observation: JaipurObservation, action: Action) -> str:
    """``action`` before it is taken: the tokens it wins and whether it surely ends the round.

    A bonus token's value, and so who would take the seal, stays unsaid:
    the rival's bonus tokens are hidden until the round ends.
    """
    obs = observation
    text = sentence(obs, action)
    refill = 0
    if isinstance(action, TakeGood):
        refill = 1
    elif isinstance(action, TakeCamels):
        refill = obs.market[CAMEL]
    if refill > obs.deck_size:
        text += " The deck cannot refill the market, so the round ends."
    if isinstance(action, Sell) and sale_ends_round(obs, action):
        text += f" {C.EMPTY_PILES_TO_END} goods are then out of tokens, so the round ends."
    return text


def describe(before: JaipurObservation, action: Action, after: JaipurObservation) -> str:
    """``action`` in the log's words, with the round's end once it is public."""
    text = sentence(before, action)
    if len(after.rounds) > len(before.rounds):
        text += " " + after.rounds[-1].reason
        if after.over:
            seals = after.seals
            w = 0 if seals[0] > seals[1] else 1
            text += f" {after.players[w]} wins the match with {seals[w]} seals to {seals[1 - w]}."
    return text


def sentence(obs: JaipurObservation, action: Action) -> str:
    """The words for ``action`` that the table before it settles."""
    name = obs.players[obs.current]
    if isinstance(action, TakeGood):
        return f"{name} takes {action.good.amount(1)} from the market."
    if isinstance(action, TakeCamels):
        n = obs.market[CAMEL]
        what = {1: "the only camel", 2: "both camels"}.get(n, f"all {n} camels")
        return f"{name} takes {what} from the market."
    if isinstance(action, Exchange):
        gives = describe_cards(action.give, action.camels)
        return f"{name} exchanges {gives} for {describe_cards(action.take)}."
    assert isinstance(action, Sell)
    return _describe_sale(obs, action)


def _describe_sale(obs: JaipurObservation, action: Sell) -> str:
    good, n = action.good, action.count
    name = obs.players[obs.current]
    tokens = obs.goods_piles[good.index][:n]
    text = f"{name} sells {good.amount(n)}"
    if not tokens:
        text += f" but gets no token: the {NOUNS[good][0]} tokens have run out"
    else:
        worth = " + ".join(map(str, tokens))
        worth += f" = {sum(tokens)}" if len(tokens) > 1 else ""
        text += f" for {plural(len(tokens), 'token')} worth {worth}"
        if len(tokens) < n:
            text += " (the last of the pile)"
    k = bonus_pile(n)
    if k is not None:
        size = C.BONUS_SIZES[k]
        if obs.bonus_pile_sizes[k]:
            text += f", and a {size}-card bonus token"
        else:
            text += f"; no {size}-card bonus token is left"
    return text + "."


# -- rounds and the match ---------------------------------------------------------------------


def round_story(
    players: tuple[str, ...],
    scores: tuple[RoundScore, ...],
    number: int,
    ended_by: str,
    winner: int | None,
) -> str:
    """The sentences a finished round is kept with: why it ended, who took the camel token
    and who took the seal (``winner``, ``None`` after a complete tie), and why."""
    return f"Round {number} ends because {ended_by}. {_camel_words(players, scores)} " + (
        _seal_words(players, scores, winner)
    )


def _camel_words(players: tuple[str, ...], scores: tuple[RoundScore, ...]) -> str:
    a, b = players
    sa, sb = scores
    if sa.camel_token:
        return f"{a}'s herd of {sa.herd} beats {b}'s {sb.herd}: {a} takes the camel token."
    if sb.camel_token:
        return f"{b}'s herd of {sb.herd} beats {a}'s {sa.herd}: {b} takes the camel token."
    return f"The herds tie at {plural(sa.herd, 'camel')}: nobody takes the camel token."


def _seal_words(
    players: tuple[str, ...], scores: tuple[RoundScore, ...], winner: int | None
) -> str:
    if winner is None:
        sa = scores[0]
        return (
            f"Both have {plural(sa.total, 'point')}, {plural(len(sa.bonus_tokens), 'bonus token')} "
            f"and {plural(len(sa.goods_tokens), 'goods token')}: a complete tie, so nobody takes "
            "a seal."
        )
    name = players[winner]
    win, lose = scores[winner], scores[1 - winner]
    if win.total != lose.total:
        return f"{name} takes the seal with {plural(win.total, 'point')} to {lose.total}."
    if len(win.bonus_tokens) != len(lose.bonus_tokens):
        return (
            f"Both have {plural(win.total, 'point')}; "
            f"{name} takes the seal with more bonus tokens "
            f"({len(win.bonus_tokens)} to {len(lose.bonus_tokens)})."
        )
    return (
        f"Both have {plural(win.total, 'point')} and "
        f"{plural(len(win.bonus_tokens), 'bonus token')}; "
        f"{name} takes the seal with more goods tokens "
        f"({len(win.goods_tokens)} to {len(lose.goods_tokens)})."
    )


def breakdown(state: JaipurState, seat: int) -> tuple[tuple[str, str], ...]:
    """``seat``'s seals and each round's takings; of the round in progress, what is public."""
    lines: list[tuple[str, str]] = [("Seals", str(state.seals[seat]))]
    for past in state.rounds:
        score = past.scores[seat]
        label = f"Round {past.number}"
        seal = ", seal" if past.winner == seat else ""
        lines += [
            (
                f"{label} goods tokens",
                f"{score.goods_points} ({plural(len(score.goods_tokens), 'token')})",
            ),
            (
                f"{label} bonus tokens",
                f"{score.bonus_points} ({plural(len(score.bonus_tokens), 'token')})",
            ),
            (f"{label} camel token", f"{score.camel_token} (herd of {score.herd})"),
            (f"{label} total", f"{score.total}{seal}"),
        ]
    if not state.over:
        label = f"Round {state.round_number}"
        goods = [v for values in state.goods_won[seat] for v in values]
        bonus = sum(len(values) for values in state.bonus_won[seat])
        lines += [
            (f"{label} goods tokens so far", f"{sum(goods)} ({plural(len(goods), 'token')})"),
            (f"{label} bonus tokens so far", f"{plural(bonus, 'token')}, values hidden"),
            (f"{label} herd", Card.CAMEL.amount(state.herds[seat])),
        ]
    return tuple(lines)


def match_notes(state: JaipurState, winners: tuple[int, ...]) -> tuple[str, ...]:
    """Every round's story, then how the match stands (or how it was won)."""
    notes = [past.reason for past in state.rounds]
    names, seals = state.players, state.seals
    if state.over:
        w = winners[0]
        notes.append(f"{names[w]} wins the match with {seals[w]} seals to {seals[1 - w]}.")
    elif len(winners) == 1:
        w = winners[0]
        notes.append(
            f"{names[w]} leads by {seals[w]} seals to {seals[1 - w]}; "
            f"round {state.round_number} is in progress."
        )
    else:
        notes.append(
            f"The seals are level at {seals[0]} each; round {state.round_number} is in progress."
        )
    return tuple(notes)
