"""A snapshot of the web hook dialog at 80x24 and 40x30, the server's answer shown (review the
SVGs when they change)."""

from __future__ import annotations

import pytest

from karavan_tui.net.web_hook import WebHookScreen

from .helpers import make_app
from .test_snapshots import steady


class Answering:
    """A lobby's client whose server calls the player at one address."""

    async def notify_address(self, url: str | None = None) -> str:
        return "https://ntfy.sh/karavan-ann"


@pytest.mark.parametrize("size", [(80, 24), (40, 30)])
def test_the_web_hook_dialog(snap_compare, tmp_path, size):
    async def open_dialog(pilot):
        await steady(pilot)
        pilot.app.push_screen(WebHookScreen(Answering()))
        await steady(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=open_dialog)
