"""A timed table's clocks in words: live (move time + bank, its last seconds marked),
turn-based (the time left in whole units), worked out from the deadline at each moment;
and the clock board's lines laid out in the room there is."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from karavan_net.clocks import skew
from karavan_net.protocol import SeatTime, TableClock
from karavan_tui.clock_words import Face, face, live_words, minutes, span, turn_words
from karavan_tui.glyphs import ASCII, UNICODE
from karavan_tui.widgets.clocks import Timing, board, faces_at, strip

NOW = datetime(2026, 12, 7, 12, 0, 0, tzinfo=UTC)
LIVE = TableClock("live", 30, 300)


def due_in(seconds: float) -> str:
    return (NOW + timedelta(seconds=seconds)).isoformat()


def test_minutes_round_up_so_that_nought_is_only_time_up():
    assert minutes(24) == "0:24"
    assert minutes(23.2) == "0:24"
    assert minutes(291) == "4:51"
    assert minutes(3725) == "1:02:05"
    assert minutes(0) == minutes(-3) == "0:00"


def test_a_live_clock_reads_move_time_then_bank():
    assert live_words(24, 291) == "0:24 + 4:51"
    assert live_words(24, 0, banked=False) == "0:24"


def test_the_seat_to_move_counts_down_from_its_deadline_the_move_time_first():
    time = SeatTime(0, 291.0, due_in(24 + 291))
    assert face(LIVE, time, NOW).words == "0:24 + 4:51"
    later = face(LIVE, time, NOW + timedelta(seconds=30))
    assert later.words == "0:00 + 4:45" and later.running and not later.hurry
    last = face(LIVE, time, NOW + timedelta(seconds=24 + 283))
    assert last.words == "0:00 + 0:08" and last.hurry
    assert face(LIVE, time, NOW + timedelta(hours=1)).words == "0:00 + 0:00"


def test_a_waiting_seat_shows_what_its_next_move_starts_with():
    shown = face(LIVE, SeatTime(1, 200.0), NOW)
    assert shown.words == "0:30 + 3:20" and not shown.running and not shown.hurry


def test_a_turn_based_clock_says_the_time_left_in_whole_units():
    assert span(23 * 3600 + 59 * 60) == "23 h"
    assert span(2 * 86400 + 4 * 3600 + 5) == "2 d 4 h"
    assert span(86400) == "1 d"
    assert span(300) == "5 min"
    assert turn_words(2 * 86400 + 4 * 3600 + 30) == "2 d 4 h left"
    assert turn_words(0) == "time is up"
    day = TableClock("turn", 86400)
    assert face(day, SeatTime(0, 0.0, due_in(23 * 3600 + 10)), NOW).words == "23 h left"
    assert face(day, SeatTime(1), NOW).words == "1 d a move"
    # Never marked as hurried: the last seconds of a day are not a live clock's.
    assert not face(day, SeatTime(0, 0.0, due_in(5)), NOW).hurry


def test_a_deadline_that_is_not_one_shows_no_count():
    assert face(LIVE, SeatTime(0, 100.0, "soon"), NOW).words == "0:30 + 1:40"


def faces(t: Timing) -> dict[int, Face]:
    return faces_at(t, NOW)


def test_the_board_has_a_line_per_person_the_last_seconds_marked_in_either_symbol_set():
    clock = TableClock("live", 30, 300, (SeatTime(0, 291.0, due_in(8)), SeatTime(1, 300.0)))
    for glyphs in (UNICODE, ASCII):
        t = Timing(clock, ("Ann", "Bob"), 0, 0, True, glyphs)
        lines = board(t, faces(t), 24).plain.split("\n")
        assert lines[0] == f"{glyphs.turn} Ann {glyphs.hurry} 0:00 + 0:08"
        assert lines[1] == "  Bob   0:30 + 5:00"
    paused = Timing(clock, ("Ann", "Bob"), 0, 0, False, UNICODE)
    lines = board(paused, faces(paused), 24).plain.split("\n")
    assert lines == ["▶ Ann      paused", "  Bob 0:30 + 5:00", "Paused: reconnecting"]


def test_the_strip_of_a_narrow_screen_cuts_names_before_clocks():
    clock = TableClock("live", 30, 300, (SeatTime(0, 291.0, due_in(100)), SeatTime(1, 300.0)))
    t = Timing(clock, ("Annabelle Longname", "Bob"), 0, 1, True, UNICODE)
    row = strip(t, faces(t), 38).plain
    assert row.endswith("Bob 0:30 + 5:00") and "0:00 + 1:40" in row and "…" in row
    assert len(row) <= 38


def test_a_clock_of_ours_that_is_off_counts_by_the_servers():
    assert skew("2026-12-07T12:01:00+00:00", NOW) == 60.0
    assert skew("", NOW) == skew("2026-12-07T12:01:00", NOW) == 0.0  # none, or no zone
    clock = TableClock("live", 30, 300, (SeatTime(0, 300.0, due_in(100)),))
    # Our clock is a minute behind the server's: 40 s are left, not 100.
    late = Timing(clock, ("Ann",), 0, 0, True, UNICODE, skew=60.0)
    assert faces_at(late, NOW)[0].words == "0:00 + 0:40"


def test_the_clock_bell_setting_is_kept(tmp_path):
    from karavan_tui.config import Settings

    path = tmp_path / "settings.json"
    assert Settings.load(path).clock_bell  # on by default
    settings = Settings()
    settings.clock_bell = False
    settings.save(path)
    assert not Settings.load(path).clock_bell


def test_a_seat_a_bot_stands_in_for_is_said_to_be_late():
    """The server sent it (a bot made the seat's last decision) but the board showed nothing."""
    clock = TableClock("live", 30, 300, (SeatTime(0, 0.0, due_in(20), True), SeatTime(1, 300.0)))
    t = Timing(clock, ("Ann", "Bob"), 0, 1, True, UNICODE)
    shown = faces(t)
    assert shown[0].late and not shown[1].late
    lines = board(t, shown, 30).plain.split("\n")
    assert lines[0].endswith("0:20 + 0:00, late") and lines[1].endswith("0:30 + 5:00")
