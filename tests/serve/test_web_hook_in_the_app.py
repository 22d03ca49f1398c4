"""The web hook of an account, seen and set in the app (Pilot, by keys) at a `karavan serve`
server on loopback: from the lobby's command palette, shown literally, refused in words."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from karavan_tui.net.web_hook import WebHookScreen

from ..tui.helpers import make_app, settle, visible_characters, waiting
from .test_online_app import online, serving

HOOK = "https://ntfy.sh/karavan-ann"


@pytest.mark.slow  # by default the server's calls to a hook are checked (test_turn_calls)
async def test_the_web_hook_is_set_from_the_lobby_and_a_bad_one_is_refused(tmp_path):
    async with serving(tmp_path) as server:
        app = make_app(tmp_path)
        app.test_port = server.port
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await online(pilot, app, server.port, "Ann")
            await pilot.press("ctrl+p")
            await pilot.press(*"Web hook")
            await waiting(pilot, lambda: "Where the server calls you" in visible_characters(app))
            await pilot.press("enter")
            await waiting(pilot, lambda: isinstance(app.screen, WebHookScreen))
            await waiting(pilot, lambda: "calls you nowhere yet" in visible_characters(app))
            field = app.screen.query_one("#hook-url", Input)
            assert app.focused is field
            await pilot.press(*HOOK, "enter")
            await waiting(
                pilot, lambda: f"Kept. The server calls you at {HOOK}" in (visible_characters(app))
            )
            account = server.store.accounts.named("Ann")
            assert server.store.accounts.notify_url(account.id) == HOOK
            field.value = "file:///etc/[b]passwd[/b]"
            await pilot.press("enter")
            await waiting(pilot, lambda: "Not kept:" in visible_characters(app))
            assert server.store.accounts.notify_url(account.id) == HOOK
            await pilot.press("escape")
            await waiting(pilot, lambda: not isinstance(app.screen, WebHookScreen))
