"""Karakum in words: prompts, previews, the log's lines and the refusals.

Every sentence is built from what its reader may see: a preview and a prompt
from the decider's observation, a log line from the public views around the
decision, a refusal from the asker's own table.  The rules decide
(:mod:`.rules`); this module only says.
"""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.engine import Action
from karavan_core.games.karakum import components as C
from karavan_core.games.karakum.components import RESOURCES, Res
from karavan_core.games.karakum.rules import (
    Why,
    auto_joins,
    check_payment,
    color_units,
    fits,
    prices,
)
from karavan_core.games.karakum.state import (
    Buy,
    Camel,
    DrawCard,
    Hand,
    Join,
    KarakumObservation,
    KarakumState,
    Pass,
    Pay,
    Step,
    TakeCard,
)
from karavan_core.text import plural

View = KarakumState | KarakumObservation


def describe_cards(cards: Hand) -> str:
    """``(3, 0, 0, 0, 0, 1)`` as "3 jewelry + 1 gold"."""
    parts = [res.counted(n) for res, n in zip(RESOURCES, cards, strict=True) if n]
    return " + ".join(parts) if parts else "nothing"


def must(view: View) -> str:
    """What the player to move has to do now, as a clause."""
    step = view.step
    if step is Step.PAY:
        assert view.slot is not None
        return f"first choose how to pay for the {view.market[view.slot]}"
    if step is Step.JOIN:
        return "first choose which camel joins your caravan"
    if step is Step.SECOND_CARD:
        return "take your second card"
    if step is Step.BONUS:
        return "take your free resource card"
    return "gather resources or buy a camel"


# -- refusals ---------------------------------------------------------------------------------

_DOING = {TakeCard: "take a card", DrawCard: "draw", Buy: "buy a camel", Join: "join a camel"}


def refusal(state: KarakumState, action: object, why: Why) -> str:
    """Why ``action`` is refused, as :func:`.rules.refusal` found (``why``), in a sentence."""
    if why is Why.NOT_NOW:
        if isinstance(action, Pay):
            return "There is nothing to pay for now."
        if isinstance(action, Join):
            return "No left-side camel is waiting to join now."
        if isinstance(action, Pass):
            return "You can only pass when no other move is possible."
        return f"You cannot {_DOING.get(type(action), 'do that')} now: {must(state)}."
    if why is Why.PAYMENT:
        assert isinstance(action, Pay)
        return _payment_refusal(state, action.cards)
    if why is Why.UNAFFORDABLE:
        assert isinstance(action, Buy)
        camel = state.market[action.slot]
        assert camel is not None
        cost = plural(prices(state.market)[action.slot], "unit")
        return f"You cannot afford the {camel}: it costs {cost} of {camel.color.good}."
    return _REFUSALS[why]


_REFUSALS = {
    Why.NO_CARD: "There is no face-up card in that place.",
    Why.GOLD_SECOND: (
        "A face-up gold can only be taken as your whole gathering, not as a second card."
    ),
    Why.PILES_EMPTY: "The resource deck and the discard pile are both empty.",
    Why.NO_CAMEL: "There is no camel in that market place.",
    Why.CANNOT_JOIN: "That camel cannot join your caravan: it matches neither colour nor number.",
    Why.NOT_STUCK: "You can only pass when no other move is possible.",
    Why.UNKNOWN: "That is not a Karakum move.",
}


def _payment_refusal(state: KarakumState, cards: Hand) -> str:
    check = check_payment(state, cards)
    assert state.slot is not None
    camel = state.market[state.slot]
    assert camel is not None
    if not check.held:
        return "You do not hold those cards."
    if check.unpaired is not None:
        good = check.unpaired
        # The fault first, then what shows it: a line short of room says the first.
        return (
            f"{good.good.capitalize()} can pay for the {camel} only in pairs; "
            f"this payment holds {good.counted(cards[good.index])}."
        )
    tax = f" ({C.TAX} of them tax)" if check.cost > camel.value else ""
    return (
        f"That payment makes {plural(check.paid, 'unit')}, not the {check.cost} the {camel} "
        f"costs{tax}: a unit is one {camel.color.counted(1)[2:]}, one gold, or two alike of "
        "another good."
    )


# -- prompts ----------------------------------------------------------------------------------


def prompt(obs: KarakumObservation) -> str:
    """What the player to move must decide now."""
    if obs.step is Step.OVER:
        return "The game is over."
    name = obs.players[obs.current]
    if obs.step is Step.PAY:
        assert obs.slot is not None
        cost = plural(prices(obs.market)[obs.slot], "unit")
        return f"{name}: choose how to pay {cost} for the {obs.market[obs.slot]}"
    if obs.step is Step.CHOOSE and obs.player == obs.current and _stuck(obs):
        return f"{name}: no move is possible, pass"
    return f"{name}: {must(obs)}"


def _stuck(obs: KarakumObservation) -> bool:
    """Whether the player to move, whose hand ``obs`` shows, can neither gather nor buy."""
    assert obs.hand is not None
    if any(card is not None for card in obs.row) or obs.resource_deck_size or any(obs.discard):
        return False
    can_pay = color_units(obs.hand)
    return not any(
        camel is not None and can_pay[camel.color.index] >= cost
        for camel, cost in zip(obs.market, prices(obs.market), strict=True)
    )


# -- previews and the log ---------------------------------------------------------------------


def preview(obs: KarakumObservation, action: Action) -> str:
    """``action`` before it is taken: a card drawn or a camel revealed stays unnamed."""
    if isinstance(action, Pay):
        return _payment_preview(obs, action)
    if isinstance(action, Join):
        seat = obs.current
        left = obs.lefts[seat]
        camel = left[action.index]
        caravan = obs.caravans[seat] + (camel,)
        rest = left[: action.index] + left[action.index + 1 :]
        return _sentence(obs, action) + _joined_words(auto_joins(caravan, rest))
    return _sentence(obs, action)


def _payment_preview(obs: KarakumObservation, action: Pay) -> str:
    text = _payment(obs, action)
    camel, seat = obs.market[obs.slot or 0], obs.current
    assert camel is not None
    caravan, left = obs.caravans[seat], obs.lefts[seat]
    if fits(caravan, camel):
        text += _joined_words(auto_joins(caravan + (camel,), left))
    if None in obs.row:
        text += (
            " The cards paid are shuffled into a new deck to fill the empty face-up places."
            if obs.payment_refills_row
            else " The empty face-up places stay empty: this game, saved by an older"
            " Karavan, keeps the rule it was played with."
        )
    if obs.camel_deck_size:
        text += " A new camel is revealed in the market."
    else:
        text += " The camel deck is empty: the game ends after this turn."
    if camel.value == C.BONUS_VALUE:
        text += " A value-1 camel earns a free resource card."
    return text


def describe(before: KarakumObservation, action: Action, after: KarakumObservation) -> str:
    """``action`` in the log's words (a card drawn unseen stays unnamed)."""
    if isinstance(action, Pay):
        text = _payment(before, action)
        text += _joined_text(before, after)
        text += _refilled_text(before, after)
        if after.market[0] is not None:
            text += f" The {after.market[0]} is revealed in the market."
        else:
            text += " The camel deck is empty: the game ends after this turn."
        return text
    if isinstance(action, Join):
        return _sentence(before, action) + _joined_text(before, after)
    return _sentence(before, action) + _reshuffled_text(before, after)


def _reshuffled_text(before: KarakumObservation, after: KarakumObservation) -> str:
    """ " The deck ran out: the 9 discarded cards are shuffled into a new deck." (a draw, or a
    face-up place filled, found the deck empty).  Discards only grow, but by this."""
    shuffled = sum(before.discard)
    if sum(after.discard) >= shuffled:
        return ""
    cards, verb = plural(shuffled, "discarded card"), "is" if shuffled == 1 else "are"
    return f" The deck ran out: the {cards} {verb} shuffled into a new deck."


def _payment(obs: KarakumObservation, action: Pay) -> str:
    """ "Ann pays 3 silk; the purple 3 joins the caravan." """
    assert obs.slot is not None
    camel = obs.market[obs.slot]
    assert camel is not None
    seat = obs.current
    joins = fits(obs.caravans[seat], camel)
    where = "joins the caravan" if joins else "goes left of the caravan master"
    return f"{obs.players[seat]} pays {describe_cards(action.cards)}; the {camel} {where}."


def _sentence(obs: KarakumObservation, action: Action) -> str:
    """The words for a decision other than a payment, from the table before it."""
    name = obs.players[obs.current]
    if isinstance(action, TakeCard):
        card = obs.row[action.slot]
        assert card is not None
        what = f"the face-up {card.good}"
        if obs.step is Step.BONUS:
            return f"{name} takes {what} as the bonus for a value-1 camel."
        if card is Res.GOLD and obs.step is Step.CHOOSE:
            return f"{name} takes {what} as the whole gathering."
        return f"{name} takes {what}."
    if isinstance(action, DrawCard):
        if obs.step is Step.BONUS:
            return f"{name} draws a card from the deck as the bonus for a value-1 camel."
        return f"{name} draws a card from the deck."
    if isinstance(action, Buy):
        camel = obs.market[action.slot]
        assert camel is not None
        cost = prices(obs.market)[action.slot]
        tax = " (taxed)" if cost > camel.value else ""
        return f"{name} buys the {camel} for {plural(cost, 'unit')}{tax}."
    if isinstance(action, Join):
        camel = obs.lefts[obs.current][action.index]
        return f"{name} moves the {camel} from the left side into the caravan."
    if isinstance(action, Pass):
        return f"{name} passes: no move is possible."
    return f"{name} plays {action!r}."


def _joined_words(joined: Sequence[Camel]) -> str:
    """ " From the left side, the red 5 joins the caravan." for camels that joined on their own."""
    if not joined:
        return ""
    names = ", then the ".join(map(str, joined))
    verb = "joins" if len(joined) == 1 else "join"
    return f" From the left side, the {names} {verb} the caravan."


def _refilled_text(before: KarakumObservation, after: KarakumObservation) -> str:
    """ " The cards paid, shuffled into a new deck, fill the empty face-up places: silk, gold." """
    filled = [
        card.good
        for was, card in zip(before.row, after.row, strict=True)
        if was is None and card is not None
    ]
    if not filled:
        return ""
    places = "place" if len(filled) == 1 else "places"
    return (
        f" The cards paid, shuffled into a new deck, fill the empty face-up {places}: "
        f"{', '.join(filled)}."
    )


def _joined_text(before: KarakumObservation, after: KarakumObservation) -> str:
    """The words for the left-side camels that joined the caravan on their own between two views.

    The first camel added (the one bought, or the one chosen to join) is the
    decision's own and is left out.
    """
    seat = before.current
    added = after.caravans[seat][len(before.caravans[seat]) + 1 :]
    return _joined_words([c for c in added if c in before.lefts[seat]])


def disclose(state: KarakumState) -> tuple[tuple[str, str], ...]:
    """Every hand, both decks in order and the camels set aside unseen, in words."""
    rows = [
        (f"{name}'s hand", describe_cards(hand))
        for name, hand in zip(state.players, state.hands, strict=True)
    ]
    resources = ", ".join(res.good for res in state.resource_deck)
    rows.append(("Resource deck, top first", resources or "empty"))
    rows.append(("Camel deck, top first", ", ".join(map(str, state.camel_deck)) or "empty"))
    rows.append(("Set aside unseen", ", ".join(map(str, state.removed)) or "none"))
    return tuple(rows)
