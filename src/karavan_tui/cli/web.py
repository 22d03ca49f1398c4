"""``karavan web``: the whole app in a browser, served by textual-serve.

Each browser tab runs its own Karavan process (``python -m karavan_tui``);
its title screen's Join a table joins a hosted table like ``karavan join``.
"""

from __future__ import annotations

import html
import shlex
import sys
from collections.abc import Callable
from typing import Any

from karavan_core.text import printable
from karavan_tui.cli.common import Commands, Context, Parents, check_port, fail


def add_parser(commands: Commands, parents: Parents) -> None:
    """Add ``web`` to the ``karavan`` command."""
    web = commands.add_parser(
        "web",
        parents=[parents.opens_app],
        help="serve the app in a web browser",
        description="Serve the whole app to web browsers (each browser tab runs its own "
        "Karavan; Join a table on its title screen joins a hosted table).",
    )
    web.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    web.add_argument(
        "--bind", default="127.0.0.1", metavar="ADDRESS", help="address (default 127.0.0.1)"
    )


def run(ctx: Context) -> int:
    """Serve the app to browsers with textual-serve."""
    check_port(ctx, ctx.args.port)
    saves = getattr(ctx.args, "saves", None)
    ascii_mode = bool(getattr(ctx.args, "ascii", False))
    return serve(ctx.args.bind, ctx.args.port, saves, fail, ascii_mode=ascii_mode)


def command(saves: str | None, ascii_mode: bool = False) -> str:
    """The command each browser tab runs."""
    parts = [sys.executable, "-m", "karavan_tui"]
    if saves:
        parts += ["--saves", saves]
    if ascii_mode:
        parts.append("--ascii")
    return " ".join(shlex.quote(part) for part in parts)


def titled(page: str, title: str = "Karavan") -> str:
    """``page`` (textual-serve's HTML page) with a ``<title>``: the browser tab says Karavan."""
    if "<title>" in page:
        return page
    return page.replace("<head>", f"<head>\n    <title>{html.escape(title)}</title>", 1)


def serve(
    bind: str, port: int, saves: str | None, fail: Callable[[str], int], *, ascii_mode: bool = False
) -> int:
    """Serve the app at ``bind``:``port`` until interrupted."""
    from aiohttp import web
    from textual_serve.server import Server

    class KaravanServer(Server):
        """textual-serve's server, its page titled Karavan."""

        async def handle_index(self, request: web.Request) -> Any:
            """The page, with its title."""
            response = await super().handle_index(request)
            if isinstance(response, web.Response) and response.text is not None:
                response.text = titled(response.text)
            return response

    shown = f"[{bind}]" if ":" in bind else bind
    print(printable(f"Serving Karavan at http://{shown}:{port} (Ctrl+C stops)."), flush=True)
    server = KaravanServer(command(saves, ascii_mode), host=bind, port=port, title="Karavan")
    try:
        server.serve()
    except OSError as error:
        return fail(f"cannot listen on {bind}:{port}: {error.strerror or error}")
    return 0
