"""A card shows its face in full once its table gives it the room, else its compact face."""

from __future__ import annotations

from textual.app import App, ComposeResult

from karavan_tui.widgets.cards import CardFace, CardRow

FACE = CardFace("B4\ncost 5", large="B4\nblue camel\ncosts 5\njewelry")


class RowApp(App[None]):
    CSS = """
    CardRow { height: auto; }
    .card { width: 8; height: 2; }
    CardRow.-large .card { width: 14; height: 6; border: round white; }
    """

    def compose(self) -> ComposeResult:
        yield CardRow(2)


def test_the_face_in_full_needs_its_rows_and_columns():
    assert FACE.text_for(2, 8) == FACE.text
    assert FACE.text_for(4, 8) == FACE.text  # "blue camel" needs 10 columns
    assert FACE.text_for(4, 10) == FACE.large
    assert CardFace("K\ncamel").text_for(9, 20) == "K\ncamel"  # no large face: the compact one


async def test_a_card_given_more_room_is_drawn_in_full_and_compact_again_when_it_shrinks():
    app = RowApp()
    async with app.run_test(size=(60, 12)) as pilot:
        row = app.query_one(CardRow)
        row.set_faces([FACE, None])
        await pilot.pause()
        card = row.cards[0]
        assert str(card.render()).splitlines() == ["B4", "cost 5"]
        row.add_class("-large")
        await pilot.pause()
        assert "blue camel" in str(card.render())
        row.remove_class("-large")
        await pilot.pause()
        assert "blue camel" not in str(card.render())
