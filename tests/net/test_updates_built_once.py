"""Updates are built once per change and per distinct view, and the frames are what they were.

A table's watchers all see the public view: one frame is encoded for all of
them.  A seat's choices in words are worked out once per view, and a change
(or a hold) makes them anew.  Every frame sent in a whole game, to a seat and to
watchers of two protocol revisions, is byte for byte the frame the host wrote
when it built each connection's update on its own and encoded it with the
standard library's json (a guard, which held before the updates were shared).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from karavan_core.engine import Action
from karavan_core.referee import SeatView
from karavan_core.saves import unstructure_action, unstructure_actions
from karavan_net import updates
from karavan_net.host import Host, host_for
from karavan_net.protocol import (
    MINOR,
    NOTICE_TAKEBACK,
    Choice,
    Update,
    decode_host,
    encode,
    observation_data,
)
from karavan_net.updates import asked

from .helpers import CODE, new_match
from .test_host_parts import FakeLink


def seated(game: str = "jaipur", seats: str = "Ann,Bob") -> tuple[Host, list[FakeLink]]:
    """A host of ``game`` whose seats are all taken and connected (links by seat)."""
    table = host_for(new_match(game, seats), CODE, bot_delay=0.0)
    links = []
    for seat in table.humans:
        table.reserve(seat)
        link = FakeLink()
        table.admit(link, seat)
        links.append(link)
    return table, links


def counting_encodes(monkeypatch: pytest.MonkeyPatch) -> list[Update]:
    """Every update :mod:`karavan_net.updates` encodes from now on."""
    encoded: list[Update] = []

    def counted(message: Update, minor: int = MINOR) -> str:
        encoded.append(message)
        return encode(message, minor)

    monkeypatch.setattr(updates, "encode", counted)
    return encoded


async def test_one_frame_is_encoded_for_every_watcher_of_a_change(monkeypatch):
    table, links = seated()
    watchers = [FakeLink() for _ in range(50)]
    for watcher in watchers:
        table.watch(watcher)
    encoded = counting_encodes(monkeypatch)
    table.referee.play(0, (table.referee.legal()[0],))
    assert all(watcher.numbers()[-1] == 1 for watcher in [*watchers, *links])
    # One for each seat, one for all fifty watchers.
    assert len(encoded) == 3
    assert len({watcher.frames[-1] for watcher in watchers}) == 1
    await table.close()


async def test_a_seats_choices_are_worked_out_once_a_view_and_anew_after_a_change(monkeypatch):
    table = host_for(new_match("jaipur", "Ann,Bob"), CODE, bot_delay=0.0)
    for seat in table.humans:
        table.reserve(seat)
    worked_out: list[int | None] = []
    choices = SeatView.choices

    def counted(view: SeatView, distinct: bool = False) -> list[tuple[Action, str]]:
        worked_out.append(view.seat)
        return choices(view, distinct)

    monkeypatch.setattr(SeatView, "choices", counted)
    referee = table.referee
    first = table.update_for(0).legal
    assert first and table.update_for(0, 99).legal == first and worked_out == [0]
    referee.hold("The host has stepped away.")  # nobody decides: no choices now
    assert table.update_for(0).legal == [] and worked_out == [0, 0]
    referee.hold(None)
    assert table.update_for(0).legal == first and worked_out == [0, 0, 0]
    referee.play(0, (referee.legal()[0],))
    assert table.update_for(0).legal == [] and table.update_for(1).legal != []
    assert worked_out == [0, 0, 0, 0, 1]
    await table.close()


def old_update(table: Host, seat: int | None, held: list[str], joined: int) -> Update:
    """``seat``'s update as the host built it for each connection on its own: ``held`` is
    the log the connection holds, ``joined`` the table's number when it came."""
    referee, game = table.referee, table.game
    view = referee.view(seat)
    start = 0
    for mine, theirs in zip(view.log, held, strict=False):
        if mine != theirs:
            break
        start += 1
    notice = view.notice if joined < view.revision else None
    return Update(
        number=view.revision,
        to_move=view.observation.to_move,
        observation=observation_data(game, view.observation),
        legal=[Choice(unstructure_action(game, a), words) for a, words in view.choices()],
        scores=list(view.scores),
        seats=table.seat_infos(),
        log_start=start,
        log=list(view.log[start:]),
        before=None if view.before is None else observation_data(game, view.before),
        news=unstructure_actions(game, view.news) if view.before is not None else [],
        can_undo=view.can_undo,
        can_redo=view.can_redo,
        outcome=view.outcome,
        takeback=asked(view, referee.takeback_seconds),
        notice=notice,
        since=view.since,
        notice_about=NOTICE_TAKEBACK if notice else "",
    )


def old_frame(update: Update, minor: int) -> str:
    """``update`` as the host wrote it: the same data, in the standard library json's words."""
    data = json.loads(encode(update, minor))
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class Checked(FakeLink):
    """A connection that checks each update it is sent against the old way's frame."""

    def __init__(self, table: Host, seat: int | None, minor: int = MINOR) -> None:
        super().__init__()
        self.table, self.viewer, self.minor = table, seat, minor
        self.held: list[str] = []
        self.joined = table.number
        self.checked = 0

    def refresh(self, frame: Callable[[], str | None]) -> None:
        expected = old_update(self.table, self.viewer, self.held, self.joined)
        text = frame()
        if text is None:
            return
        assert text == old_frame(expected, self.minor)
        update = decode_host(text)
        assert isinstance(update, Update)
        self.held = [*self.held[: update.log_start], *update.log]
        self.frames.append(text)
        self.checked += 1


async def test_every_frame_of_a_played_game_is_the_old_ways_byte_for_byte():
    table = host_for(new_match("karakum", "Ann,Bob,Cid"), CODE, bot_delay=0.0)
    links = {}
    for seat in table.humans:
        table.reserve(seat)
    for seat in table.humans:
        links[seat] = Checked(table, seat)
        table.admit(links[seat], seat)
    watchers = [Checked(table, None), Checked(table, None, minor=2), Checked(table, None)]
    for watcher in watchers:
        watcher.joined = table.number
        table.watch(watcher, watcher.minor)
    referee, match = table.referee, table.match
    rng = random.Random(5)
    while not match.is_over() and len(match.history) < 120:
        seat = match.to_move
        assert seat is not None
        if rng.random() < 0.1 and referee.undo_refusal(seat) is None:
            referee.undo(seat)  # a take-back: alone, or asked of the others
            while referee.request is not None:
                referee.answer(min(referee.request.waiting), rng.random() < 0.7)
            continue
        referee.play(seat, (rng.choice(referee.legal()),))
    counts = [link.checked for link in [*links.values(), *watchers]]
    assert min(counts) > 60, counts
    assert len({watcher.frames[-1] for watcher in watchers if watcher.minor == MINOR}) == 1
    await table.close()
