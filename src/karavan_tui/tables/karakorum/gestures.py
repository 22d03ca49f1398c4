"""What a Karakorum gesture means: a slot of the table row or of the expeditions row chosen,
a card marked, Enter on the marks.

Pure functions of the observation, the legal decisions and the marks (no widget
here).  The table row holds the deck, the revealed cards (or, while placing, the
cards taken) and a last slot that stops, passes or ends the turn; the expeditions
row holds the expeditions of the player at the keyboard and a slot to start one.
Several cards of one peak are taken together by marking them; a taken card is
placed by marking it, then choosing its expedition.  A choice the rules refuse is
played as it is, so that the engine says why in its own words.
"""

from __future__ import annotations

from collections.abc import Sequence

from karavan_core.engine import Action
from karavan_core.games.karakorum import components as C
from karavan_core.games.karakorum import state as S  # its decisions: S.Take, S.Place, ...
from karavan_core.games.karakorum.state import Card, KarakorumObservation, Step
from karavan_tui.tables.marking import Marked, Marks
from karavan_tui.tables.outcome import Ask, Outcome, Say, play
from karavan_tui.tables.spots import Spot, spot_of
from karavan_tui.words import listed

TABLE_SLOTS = C.MAX_PLAYERS + C.REVEAL_BEYOND_PLAYERS  # the most cards ever revealed
EXPEDITION_SLOTS = C.MAX_EXPEDITIONS
STOP_SLOT = TABLE_SLOTS + 1  # the table row: deck, the revealed cards, then stop/pass/done
NEW_SLOT = EXPEDITION_SLOTS  # the expeditions row: the expeditions, then "start a new one"
TABLE_ROW, EXP_ROW = "table-row", "exp-row"  # the ids of the two rows

MARK_HELP = "Space marks cards on the table: to take together, or the one to place."


def row_cards(obs: KarakorumObservation) -> tuple[Card, ...]:
    """The cards in the table row: the placing player's taken cards, or the revealed ones."""
    return obs.held[obs.current] if obs.step is Step.PLACE else obs.table


def stop_action(step: Step) -> Action | None:
    """What the last slot of the table row does in ``step``.

    ``None`` for the active player's first take, which cannot be skipped, and
    once the game is over: the slot then stays empty.
    """
    if step is Step.OVER:
        return None
    if step is Step.REVEAL:
        return S.StopRevealing()
    if step is Step.OTHERS:
        return S.Pass()
    if step is Step.TAKE:
        return None
    if step is Step.TAKE_MORE:
        return S.StopTaking()
    return S.Done()


def viewer_seat(obs: KarakorumObservation) -> int:
    """The seat whose expeditions the expeditions row shows (the player to move, behind the
    curtain)."""
    return obs.current if obs.player is None else obs.player


# -- choosing a slot ------------------------------------------------------------------
def choose_on_table(
    obs: KarakorumObservation, legal: Sequence[Action], marks: Marks[Card], index: int
) -> Outcome | None:
    """Slot ``index`` of the table row was chosen (Enter or a click).

    With cards marked to take, they are taken together, whichever slot it was.
    Otherwise the deck reveals, a card is taken (or placed), the last slot stops;
    ``None`` for an empty place.
    """
    if marks and obs.step is not Step.PLACE:
        return play(*(S.Take(card) for card in marks))
    if index == 0:
        return play(S.Reveal())
    if index == STOP_SLOT:
        stop = stop_action(obs.step)
        return None if stop is None else play(stop)
    cards = row_cards(obs)
    if index - 1 >= len(cards):
        return None
    card = cards[index - 1]
    if obs.step is Step.PLACE:
        return place(legal, card)
    return play(S.Take(card))


def place(legal: Sequence[Action], card: Card) -> Outcome:
    """Place a taken card: at once if it has one place to go, else ask where."""
    options = tuple(a for a in legal if isinstance(a, S.Place) and a.card == card)
    if len(options) == 1:
        return play(options[0])
    if options:
        return Ask(f"Where does the {card} go?", options)
    return play(S.Place(card, None))  # not this player's turn: the host says whose it is


def choose_expedition(
    obs: KarakorumObservation, legal: Sequence[Action], marks: Marks[Card], index: int
) -> Outcome:
    """Slot ``index`` of the expeditions row was chosen.

    A card marked to place goes there (the last slot: on a new expedition); else the
    expedition's own decisions are offered (scoring, removing, a card to place on it).
    """
    target = None if index == NEW_SLOT else index
    if marks and obs.step is Step.PLACE:
        return play(S.Place(next(iter(marks)), target))
    if target is None:
        return start_expedition(obs, legal)
    options = tuple(a for a in legal if getattr(a, "expedition", None) == index)
    if len(options) == 1 and isinstance(options[0], S.Place):
        return play(options[0])
    if options:
        return Ask(f"Your {obs.expeditions[viewer_seat(obs)][index]}: what now?", options)
    return play(meant_on(obs, index))


def start_expedition(obs: KarakorumObservation, legal: Sequence[Action]) -> Outcome:
    """The slot that starts a new expedition was chosen: with which card, or why not."""
    starts = tuple(a for a in legal if isinstance(a, S.Place) and a.expedition is None)
    if len(starts) == 1:
        return play(starts[0])
    if starts:
        return Ask("Start a new expedition with which card?", starts)
    if obs.step is Step.PLACE and obs.held[obs.current]:
        return play(S.Place(obs.held[obs.current][0], None))  # the engine says why not
    if obs.table:
        return play(S.Place(obs.table[0], None))  # refused: taking comes first
    if not legal:
        return play()  # not this player's turn: the host says whose it is
    return Say("There is no card to start an expedition with.", warning=True)


def meant_on(obs: KarakorumObservation, index: int) -> Action:
    """The decision a player most likely meant on an expedition that allows none.

    Played anyway, so that the engine refuses it with its own reason: a taken card
    (one of the expedition's peak first) while placing, else scoring it if it is
    long enough, else removing it.
    """
    exp = obs.expeditions[viewer_seat(obs)][index]
    held = sorted(obs.held[obs.current], key=lambda card: card.color is not exp.color)
    if obs.step is Step.PLACE and held:
        return S.Place(held[0], index)
    if len(exp.cards) >= C.MIN_SCORING_CARDS:
        return S.Score(index, None)
    return S.Remove(index)


# -- marking ------------------------------------------------------------------------
def mark(obs: KarakorumObservation, marks: Marks[Card], row: str, index: int) -> Marks[Card] | Say:
    """The marks after Space (or a right click) on slot ``index`` of ``row``.

    Cards of the table are marked to take together; while placing, one taken card
    is marked to place next (marking it again unmarks it).  Elsewhere: how marking works.
    """
    cards = row_cards(obs)
    if row != TABLE_ROW or not 1 <= index <= len(cards):
        return Say(MARK_HELP)
    card = cards[index - 1]
    return marks.alone(card) if obs.step is Step.PLACE else marks.toggled(card)


def marked_gesture(obs: KarakorumObservation, marks: Marks[Card]) -> Marked | None:
    """What the marked cards make: the cards to take together, or the card to place."""
    if not marks:
        return None
    names = listed([f"the {card}" for card in marks])
    if obs.step is Step.PLACE:
        return Marked(
            words=f"Place {names}: choose its expedition, or + new exped.", keys="Esc clears"
        )
    takes = tuple(S.Take(card) for card in marks)
    return Marked(
        words=f"Take {names}", actions=takes, keys="Enter takes, Esc clears", question=True
    )


def marks_fit(obs: KarakorumObservation, legal: Sequence[Action], marks: Marks[Card]) -> bool:
    """Whether the marks still hold: the marking player is to move and every card is still
    in the row (the turn moved on, or the cards were taken or placed, otherwise)."""
    cards = row_cards(obs)
    return bool(legal) and all(card in cards for card in marks)


# -- pointing -------------------------------------------------------------------------
def hint_places(obs: KarakorumObservation, action: Action) -> list[Spot]:
    """The slots of the table row and the expeditions a decision acts on."""
    cards = row_cards(obs)
    if isinstance(action, S.Reveal):
        return [(TABLE_ROW, 0)]
    if isinstance(action, S.StopRevealing | S.StopTaking | S.Pass | S.Done):
        return [(TABLE_ROW, STOP_SLOT)]
    if isinstance(action, S.Take):
        return spot_of(TABLE_ROW, cards, action.card, offset=1)  # the deck's slot comes first
    if isinstance(action, S.Place) and action.card in cards:
        target = NEW_SLOT if action.expedition is None else action.expedition
        return [*spot_of(TABLE_ROW, cards, action.card, offset=1), (EXP_ROW, target)]
    if isinstance(action, S.Remove | S.Score):
        return [(EXP_ROW, action.expedition)]
    return []


def hinted_place(obs: KarakorumObservation, action: Action) -> tuple[Marks[Card], Spot] | None:
    """A hinted card to place, marked as the player would mark it, and the slot of its
    expedition, where Enter places it; ``None`` for any other hint."""
    if obs.step is not Step.PLACE or not isinstance(action, S.Place):
        return None
    if action.card not in row_cards(obs):
        return None
    target = NEW_SLOT if action.expedition is None else action.expedition
    return Marks(((action.card, 1),)), (EXP_ROW, target)


def turn_places(obs: KarakorumObservation, legal: Sequence[Action]) -> list[Spot]:
    """Where the cursors go when a turn starts: the likeliest decision of the step.

    The first spot gets the keyboard.  While placing, the first card to place and the
    first place it may go (Down then Enter puts it there); then scoring, and removing
    (it costs steps) only when nothing else is open; else the last slot.
    """
    if obs.step is Step.PLACE:
        held = obs.held[obs.current]
        places = [a for a in legal if isinstance(a, S.Place)]
        placeable = {a.card for a in places}
        slots = [i for i, card in enumerate(held) if card in placeable]
        if slots:
            card = held[slots[0]]
            target = next(a.expedition for a in places if a.card == card)
            return [(TABLE_ROW, 1 + slots[0]), (EXP_ROW, NEW_SLOT if target is None else target)]
        scores = [a.expedition for a in legal if isinstance(a, S.Score)]
        removes = [a.expedition for a in legal if isinstance(a, S.Remove)]
        usable = scores or ([] if S.Done() in legal else removes)
        return [(EXP_ROW, usable[0])] if usable else [(TABLE_ROW, STOP_SLOT)]
    if obs.step is Step.REVEAL:
        return [(TABLE_ROW, 0)]
    takes = [obs.table.index(a.card) for a in legal if isinstance(a, S.Take)]
    return [(TABLE_ROW, 1 + takes[0] if takes else STOP_SLOT)]


def news_weight(action: Action) -> int:
    """How telling another player's decision is: scoring and removing the most, then taking
    and placing, then revealing; stopping, passing and ending a turn the least."""
    if isinstance(action, S.Score | S.Remove):
        return 3
    if isinstance(action, S.Take | S.Place):
        return 2
    return 1 if isinstance(action, S.Reveal) else 0
