"""The line of news over the table when there is no news to tell."""

from __future__ import annotations

from karavan_tui.glyphs import glyphs
from karavan_tui.widgets.side import News, news_text

from .helpers import game_screen, seeded_match, settle, start_with


def quiet(yours: bool, opening: bool) -> str:
    return news_text(News((), ("Ann", "Bob"), yours, glyphs(False), (), opening), 78).plain


def test_with_nothing_to_tell_the_line_says_why():
    assert quiet(yours=True, opening=True) == "A new game: nothing has been played yet."
    assert quiet(yours=True, opening=False) == "Nothing new since your last move."
    # Nobody at the keyboard (the public view): nobody to speak to.
    assert quiet(yours=False, opening=True) == ""
    assert quiet(yours=False, opening=False) == ""


async def test_a_new_game_does_not_speak_of_a_last_move_before_the_first(tmp_path):
    # Ann moves first, and has not moved yet: there is no "last move" of hers.
    app = start_with(tmp_path, seeded_match("karakorum", "Ann,bot:random", first=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = game_screen(app)
        match = screen.driver.link.match
        assert not match.history
        assert (
            str(screen.query_one("#banner").render()) == "A new game: nothing has been played yet."
        )
        # Enter acts on the slot the table points at (here: reveal another card).
        await pilot.press("enter")
        await settle(pilot, app)
        assert match.history
        banner = str(screen.query_one("#banner").render())
        assert "new game" not in banner
        # Ann is still revealing: nobody else has moved since her move, which the line tells
        # (rather than "nothing new since your last move" right after it).
        assert match.to_move == 0 and match.last_move_of(0) == len(match.history)
        assert banner == f"Your last move: {match.log()[-1]}"


def test_decisions_left_out_of_the_line_are_counted_and_the_key_to_read_them_named():
    lines = ("Bob takes the silk.", "Bob draws a card.", "Cid buys the red 4.", "Ann passes.")
    news = News(lines, ("Ann", "Bob", "Cid"), True, glyphs(False), (0, 0, 5, 0), False)
    assert news_text(news, 200).plain == (
        "• Bob takes the silk, then draws a card. Cid buys the red 4. Ann passes."
    )
    # The most telling decision is kept; the others are counted, and where to read them said.
    assert (
        news_text(news, 60).plain == "• Cid buys the red 4. Ann passes. (2 earlier moves: press l)"
    )
    assert news_text(news, 50).plain == "• Cid buys the red 4. (3 more moves: press l)"
    assert news_text(news, 40).plain == "• Cid buys the red 4. (+3 in the log: l)"
    assert news_text(news, 31).plain == "• Cid buys the red 4. (+3 more)"
    assert news_text(news, 30).plain == "• Cid buys the red 4."  # no room to count them
    later = ("Bob takes the silk and the spices and the paper.", "Cid buys the red 4.")
    news = News(later, ("Ann", "Bob", "Cid"), True, glyphs(False), (0, 5), False)
    assert news_text(news, 60).plain == "• Cid buys the red 4. (1 earlier move: press l)"
