"""Desktop notifications: the OSC sequences asked of the terminal, and that the app writes
one only where the settings have them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from karavan_net.lobby import SeatLine, TableLine
from karavan_tui.desktop import desktop_note, news

from .helpers import make_app, settle


def test_osc_9_for_most_terminals_and_osc_777_where_the_terminal_reads_it():
    assert desktop_note("Karavan", "Your turn", {"TERM": "xterm-kitty"}) == (
        "\x1b]9;Karavan: Your turn\x07"
    )
    assert desktop_note("Karavan", "Your turn", {}) == "\x1b]9;Karavan: Your turn\x07"
    for environ in ({"TERM": "foot"}, {"TERM": "rxvt-unicode-256color"}, {"VTE_VERSION": "7600"}):
        assert desktop_note("Kara;van", "a;b", environ) == "\x1b]777;notify;Kara,van;a,b\x07"


@given(st.text(), st.text(), st.sampled_from([{}, {"TERM": "foot"}]))
def test_nothing_in_the_words_can_end_the_sequence_early(title, words, environ):
    note = desktop_note(title, words, environ)
    assert note.startswith("\x1b]") and note.endswith("\x07")
    inside = note[2:-1]
    assert not any(char in inside for char in "\x1b\x07\x9c\x90\x9d")


def line(number: int, status: str, my_turn: bool = False) -> TableLine:
    seats = [SeatLine("human", "Ann")]
    return TableLine(number, "jaipur", status, seats, "untimed", "consent", False, my_turn=my_turn)


def test_a_game_started_and_a_turn_come_are_news_and_the_first_look_is_not():
    before = [line(1, "open"), line(2, "playing"), line(3, "open"), line(5, "playing")]
    now = [
        line(1, "playing"),
        line(2, "playing"),
        line(3, "open"),
        line(4, "playing", my_turn=True),
        line(5, "playing", my_turn=True),
    ]
    assert news(before, now) == [
        "Your game of Jaipur at table 1 has started",
        "Your turn at table 5 (Jaipur)",
    ]
    assert news([], now) == []  # the first look at my tables tells nothing
    assert news(now, now) == []


async def test_a_note_is_written_only_where_the_settings_have_them(tmp_path, monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("VTE_VERSION", raising=False)
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        written: list[str] = []
        app.write_escape = written.append
        app.tell_desktop("Your game has started")
        assert written == ["\x1b]9;Karavan: Your game has started\x07"]
        # The turn, away from any table: a note beside the title.
        written.clear()
        app.tell_turn(True)
        assert any("Your turn at the table" in seq for seq in written)
        app.tell_turn(False)
        # Off in the settings: the title alone.
        app.settings.desktop_notes = False
        written.clear()
        app.tell_desktop("Your game has started")
        app.tell_turn(True)
        assert written and all(seq.startswith("\x1b]2;") for seq in written)
