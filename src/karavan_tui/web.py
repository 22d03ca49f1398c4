"""``karavan web``: the whole app in a browser, served by textual-serve.

Each browser tab runs its own Karavan process (``python -m karavan_tui``);
its title screen's Join a table joins a hosted table like ``karavan join``.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable

from karavan_core.text import printable


def command(saves: str | None, ascii_mode: bool = False) -> str:
    """The command each browser tab runs."""
    parts = [sys.executable, "-m", "karavan_tui"]
    if saves:
        parts += ["--saves", saves]
    if ascii_mode:
        parts.append("--ascii")
    return " ".join(shlex.quote(part) for part in parts)


def serve(
    bind: str, port: int, saves: str | None, fail: Callable[[str], int], *, ascii_mode: bool = False
) -> int:
    """Serve the app at ``bind``:``port`` until interrupted."""
    from textual_serve.server import Server

    shown = f"[{bind}]" if ":" in bind else bind
    print(printable(f"Serving Karavan at http://{shown}:{port} (Ctrl+C stops)."), flush=True)
    server = Server(command(saves, ascii_mode), host=bind, port=port, title="Karavan")
    try:
        server.serve()
    except OSError as error:
        return fail(f"cannot listen on {bind}:{port}: {error.strerror or error}")
    return 0
