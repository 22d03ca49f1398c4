"""Each tab's Karavan as a process of ``karavan web``, and its certain end.

textual-serve ends a tab's app by asking it to quit and waiting, without a bound, for it to
go. A Karavan that is frozen never hears the question; one that ignores SIGTERM outlives the
server. Here each one runs in a process group (a session) of its own, so that it and
anything it started can be ended together: asked to quit, then after a grace SIGTERM, then
SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from asyncio.subprocess import PIPE, Process
from typing import Any

from textual_serve.app_service import AppService

from karavan_core.saves import SAVES_ENV
from karavan_tui.cli.web.visitors import Visit
from karavan_tui.config import SAVES_WORDS_ENV, SETTINGS_ENV, TOUCH_ENV, VISITOR_ENV

QUIT_GRACE = 3.0  # seconds a Karavan has to quit when asked, before SIGTERM
TERM_GRACE = 2.0  # ... and after SIGTERM, before SIGKILL


def signal_group(group: int, signum: int) -> None:
    """Send ``signum`` to process group ``group``, if any of it is left."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signum)


async def ended(process: Process, seconds: float) -> bool:
    """Whether ``process`` ends within ``seconds``."""
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        return False
    return True


class VisitorApp(AppService):
    """One tab's Karavan: textual-serve's process, with the visitor's own files, in a
    process group of its own that :meth:`stop` ends whatever state it is in."""

    def __init__(
        self,
        command: str,
        visit: Visit,
        name: str,
        saves_words: str,
        touch: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(command, **kwargs)
        self.touch = touch  # the tab's screen is a touch screen: the app shows no tooltips
        self.visit = visit
        self.name = name  # the visitor as the hosts it joins know it
        self.saves_words = saves_words  # the saves folder, in words: its path is the server's

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment[SETTINGS_ENV] = str(self.visit.settings_path)
        environment[VISITOR_ENV] = self.name
        environment[SAVES_WORDS_ENV] = self.saves_words
        environment.pop(SAVES_ENV, None)  # the command names the saves folder
        environment.pop(TOUCH_ENV, None)
        if self.touch:
            environment[TOUCH_ENV] = "1"
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        # textual-serve's own, but in a new session: the process leads a group of its own.
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_shell(
            self.command,
            stdin=PIPE,
            stdout=PIPE,
            stderr=PIPE,
            env=environment,
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """End the process and its group, and wait until it has (it counts against the cap
        till then): asked to quit, then SIGTERM, then SIGKILL, each after a grace."""
        process = self._process
        if process is None:
            return
        asked = asyncio.ensure_future(super().stop())  # the quit; returns once output ends
        group = process.pid  # the session's leader: its pid names the group
        if not await ended(process, QUIT_GRACE):
            signal_group(group, signal.SIGTERM)
            if not await ended(process, TERM_GRACE):
                signal_group(group, signal.SIGKILL)
                await process.wait()
        signal_group(group, signal.SIGKILL)  # what it started and left behind
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asked, TERM_GRACE)  # its output read to the end
