"""The pieces every table shares, without an app: marks, what marks make, spots, wrapping."""

from __future__ import annotations

from rich.text import Text

from karavan_core.games.jaipur.components import Card
from karavan_core.games.jaipur.state import Sell, TakeCamels
from karavan_tui.tables.marking import Marked, Marks
from karavan_tui.tables.spots import counted_spots, spot_of, spots_of
from karavan_tui.words import wrap_tokens


def test_toggling_marks_and_unmarks_a_card_keeping_the_order_marked():
    marks = Marks[int]().toggled(3).toggled(1).toggled(4)
    assert list(marks) == [3, 1, 4] and len(marks) == 3 and marks.total == 3
    marks = marks.toggled(1)
    assert list(marks) == [3, 4] and 1 not in marks and 4 in marks
    assert not Marks[int]().toggled(2).toggled(2)


def test_marks_are_values_a_change_leaves_the_old_marks_as_they_were():
    old = Marks[str]().toggled("a")
    new = old.toggled("b")
    assert list(old) == ["a"] and list(new) == ["a", "b"]
    assert new == Marks[str]().toggled("a").toggled("b")


def test_cycling_counts_one_more_then_back_to_none_after_all_that_are_held():
    marks = Marks[str]()
    seen = []
    for _ in range(4):
        marks = marks.cycled("gold", 3)
        seen.append(marks.count("gold"))
    assert seen == [1, 2, 3, 0] and not marks
    assert Marks[str]().cycled("gold", 0).count("gold") == 0  # none held: nothing to mark


def test_counts_are_given_per_key_in_the_order_asked():
    marks = Marks.of([("b", 2), ("a", 0), ("c", 1)])
    assert list(marks) == ["b", "c"]  # a key counted none is not marked
    assert marks.counts(["a", "b", "c", "d"]) == (0, 2, 1, 0)
    assert marks.total == 3
    again = marks.counted("b", 0).counted("a", 5)
    assert list(again) == ["c", "a"] and again.count("a") == 5


def test_a_card_marked_alone_replaces_the_others_and_unmarks_itself():
    marks = Marks[int]().toggled(1).toggled(2)
    assert list(marks.alone(5)) == [5]
    assert list(marks.alone(5).alone(5)) == []
    assert list(marks.alone(1)) == [1]  # marked with another: now alone, not unmarked


def test_marks_of_cards_that_left_are_dropped():
    marks = Marks[int]().toggled(1).toggled(2).toggled(3)
    assert list(marks.kept(lambda key: key != 2)) == [1, 3]


def test_what_marks_make_says_the_keys_or_the_engines_refusal():
    marked = Marked(
        words="Exchange: take 2, give 1",
        actions=(TakeCamels(),),
        keys="Enter exchanges, Esc clears",
    )
    assert marked.status(None, "·") == "Exchange: take 2, give 1 · Enter exchanges, Esc clears"
    refused = marked.status("An exchange gives back exactly as many cards.", "·")
    assert refused == "Exchange: take 2, give 1. An exchange gives back exactly as many cards."
    asked = Marked(
        words="Take the R5", actions=(Sell(Card.GOLD, 2),), keys="Enter takes", question=True
    )
    assert asked.status("Not now.", "|") == "Take the R5? Not now."
    assert Marked(words="Place the G3: choose its expedition").status(None, "|") == (
        "Place the G3: choose its expedition"
    )


def test_spots_find_a_decisions_cards_in_a_row():
    row = [Card.GOLD, Card.CAMEL, Card.GOLD, None, Card.CAMEL]
    assert spots_of("market", row, Card.GOLD) == [("market", 0), ("market", 2)]
    assert spots_of("market", row, Card.GOLD, 1) == [("market", 0)]
    assert spots_of("market", row, Card.GOLD, 0) == []
    assert spot_of("market", row, Card.CAMEL) == [("market", 1)]
    assert spot_of("table", row, Card.CAMEL, offset=1) == [("table", 2)]
    assert spot_of("market", row, Card.SPICE) == []
    assert counted_spots("hand-row", (0, 2, 0, 1)) == [("hand-row", 1), ("hand-row", 3)]


def test_tokens_wrap_between_tokens_never_inside_one_and_go_on_indented():
    text = Text("name ")
    tokens = [Text(word) for word in ("R3", "B12", "G4", "Y5")]
    wrap_tokens(text, tokens, used=5, room=12, indent=5)
    assert text.plain == "name R3 B12\n     G4 Y5"


def test_wide_tokens_are_measured_in_cells():
    text = Text()
    tokens = [Text("🐪1"), Text("🐪2"), Text("🐪3")]  # three cells each
    wrap_tokens(text, tokens, used=0, room=8, indent=0)  # 3+1+3+1+3 = 11
    assert text.plain == "🐪1 🐪2\n🐪3"
