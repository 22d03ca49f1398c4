"""The seat driver's contract, with a fake link: it draws the link's view, offers the keys
the view allows, and sends on only the decisions the link does not refuse, as the viewer's."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from karavan_core.engine import Action
from karavan_core.match import Seat
from karavan_core.referee import Referee, SeatView
from karavan_tui.screens.seat import SeatDriver, SeatLink, seat_keys
from karavan_tui.screens.table import Status, TableScreen

from .helpers import make_app, seeded_match, settle


class FakeLink(SeatLink):
    """A link that shows a referee's views and only records what it is sent."""

    def __init__(self, referee: Referee, refused: str | None = None) -> None:
        self.referee = referee
        self.game = referee.game
        self.refused = refused
        self.sent: list[tuple[int, tuple[Action, ...]]] = []

    @property
    def seats(self) -> tuple[Seat, ...]:
        return tuple(self.referee.match.seats)

    def view(self, seat: int | None) -> SeatView:
        return self.referee.view(seat)

    def refusal(self, seat: int, actions: Sequence[Action]) -> str | None:
        return self.refused

    def play(self, seat: int, actions: Sequence[Action]) -> None:
        self.sent.append((seat, tuple(actions)))


class Probe(SeatDriver):
    """The smallest seat driver: it sends to its link and counts the take-backs asked."""

    BINDINGS = seat_keys(redo="Redo", log_shown=True, leave="Leave", leave_tip="Leave")

    def __init__(self, link: FakeLink, viewer: int | None) -> None:
        self.link = link
        self.game = link.game
        self.viewer = viewer
        self.undone = 0
        self.thinking = False  # no bots here (the helpers wait for them)

    def send(self, actions: Sequence[Action]) -> bool:
        assert self.viewer is not None
        self.link.play(self.viewer, actions)
        return True

    def status(self) -> Status:
        return Status("probing")

    def do_undo(self) -> None:
        self.undone += 1

    def do_redo(self) -> None:
        pass

    def do_leave(self) -> None:
        pass


async def probing(tmp_path, viewer: int | None, moves: int = 0, refused: str | None = None):
    """A Jaipur table of Ann and Bob after ``moves`` decisions, seen by ``viewer``."""
    referee = Referee(seeded_match("jaipur", "Ann,Bob", moves=moves))
    driver = Probe(FakeLink(referee, refused), viewer)
    return driver, TableScreen(driver)


@pytest.mark.slow
async def test_the_viewers_decision_goes_to_the_link_unless_it_refuses(tmp_path):
    """A legal gesture of the seat to move is sent, once, as that seat's; a refused one is
    not sent and the link's reason is said; nothing is sent for a seat not to move."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        driver, screen = await probing(tmp_path, viewer=0)
        await app.push_screen(screen)
        await settle(pilot, app)
        legal = driver.seen().legal
        assert legal and driver.frame() is not None
        assert driver.frame().view.legal == legal  # the view's decisions, on the table
        assert driver.decide(legal[0])
        assert driver.link.sent == [(0, (legal[0],))]
        driver.link.refused = "Not that one."
        assert not driver.decide(legal[0])
        assert driver.check(legal[0]) == "Not that one."
        assert driver.link.sent == [(0, (legal[0],))]
        await pilot.pause()
        assert any(n.message == "Not that one." for n in app._notifications)

        other, screen = await probing(tmp_path, viewer=1)
        await app.push_screen(screen)
        await settle(pilot, app)
        assert not other.decide(legal[0]) and other.link.sent == []
        assert other.frame().view.legal == ()


async def test_a_watcher_decides_nothing_and_is_told_whose_turn_it_is(tmp_path):
    """Without a seat (the public view) nothing is sent, and a check says whose turn it is."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        driver, screen = await probing(tmp_path, viewer=None, moves=3)
        await app.push_screen(screen)
        await settle(pilot, app)
        seat = driver.to_move()
        assert seat is not None
        assert driver.check() == f"It is {driver.seat_name(seat)}'s turn."
        assert not driver.decide(*driver.link.referee.legal()[:1]) and driver.link.sent == []
        frame = driver.frame()
        assert frame is not None and not frame.news_yours and frame.view.legal == ()


@pytest.mark.slow
async def test_undo_is_offered_as_the_view_allows(tmp_path):
    """The Undo key works only while the viewer's view says a take-back may be asked."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        driver, screen = await probing(tmp_path, viewer=0)
        await app.push_screen(screen)
        await settle(pilot, app)
        assert not driver.seen().can_undo and driver.allows("undo") is None
        await pilot.press("u")
        assert driver.undone == 0
        referee = driver.link.referee
        referee.play(0, referee.legal()[:1])
        screen.refresh_bindings()
        await settle(pilot, app)
        assert driver.seen().can_undo and driver.allows("undo") is True
        await pilot.press("u")
        assert driver.undone == 1
