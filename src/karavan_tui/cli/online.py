"""``karavan online [SERVER]``: open the app at Play online, for a server's lobby.

Behind a server's ssh door (``KARAVAN_DOOR``, door mode) it opens that server's lobby and
no other, and keeps no saves folder.
"""

from __future__ import annotations

import argparse

from karavan_net.accounts import server_key
from karavan_net.lobby import DEFAULT_SERVER_PORT
from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context

COMMAND = Command(
    "online",
    "play online: a Karavan server's lobby (karavan serve)",
    "Open Play online for SERVER (HOST:PORT, default the server last played on): its lobby "
    "of tables, your tables, finished games and the leaderboards.",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The server, if not the last one."""
    parser.add_argument(
        "server",
        nargs="?",
        metavar="SERVER",
        help=f"HOST:PORT of the server (port {DEFAULT_SERVER_PORT} if left out)",
    )


def run(ctx: Context) -> int:
    """Open the app at Play online."""
    server = ctx.args.server
    if server is not None:
        try:
            server = server_key(server)
        except ValueError as error:
            ctx.error(f"SERVER: {error}")
    config = ctx.app_config()
    if config.door is not None:
        if server not in (None, config.door):
            ctx.error(f"SERVER: over ssh, Karavan plays on {config.door} only")
        return common.open_app(config, None, online=config.door)
    common.open_saves(ctx, tidy=False)
    return common.open_app(config, None, online=server or "")
