"""``karavan online [SERVER]``: open the app at Play online, for a server's lobby.

Behind a server's ssh door (``KARAVAN_DOOR``, door mode) it opens that server's lobby and
no other, and keeps no saves folder.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from karavan_core.registry import game_names
from karavan_core.text import check_name, printable
from karavan_net.accounts import server_key
from karavan_net.lobby import DEFAULT_SERVER_PORT, CreateTable
from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context, add_tls_ca_argument
from karavan_tui.config import Settings
from karavan_tui.net.challenge import challenge_request

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
        help=f"HOST:PORT of the server (port {DEFAULT_SERVER_PORT} if left out; "
        "wss://HOST:PORT over TLS)",
    )
    add_tls_ca_argument(parser)
    challenge = parser.add_argument_group("a challenge (a table kept for the players named)")
    challenge.add_argument(
        "--challenge",
        action="append",
        metavar="NAME",
        help="the account to challenge (again for each player of a larger table)",
    )
    challenge.add_argument("--game", choices=game_names(), help="the game (with --challenge)")
    challenge.add_argument(
        "--clock",
        default="untimed",
        help="untimed, a live move time and bank like 30s+5m, or a time for each turn like "
        "1d (default untimed)",
    )
    challenge.add_argument("--rated", action="store_true", help="the game changes ratings")


def run(ctx: Context) -> int:
    """Open the app at Play online."""
    server = ctx.args.server
    if server is not None:
        try:
            server = server_key(server)
        except ValueError as error:
            ctx.error(f"SERVER: {error}")
    config = ctx.app_config()
    config.challenge = _challenge(ctx)
    if config.door is not None:
        if server not in (None, config.door):
            ctx.error(f"SERVER: over ssh, Karavan plays on {config.door} only")
        return common.open_app(config, None, online=config.door)
    if ctx.args.tls_ca is not None:
        _keep_ca(ctx, config.settings_path)
    common.open_saves(ctx, tidy=False)
    return common.open_app(config, None, online=server or "")


def _challenge(ctx: Context) -> CreateTable | None:
    """The table ``--challenge`` asks for, if given; its arguments checked."""
    args = ctx.args
    if not args.challenge:
        if args.game is not None or args.rated or args.clock != "untimed":
            ctx.error("--game, --clock and --rated go with --challenge NAME")
        return None
    if args.game is None:
        ctx.error("--challenge: name the game with --game")
    try:
        names = [check_name(name) for name in args.challenge]
        return challenge_request(args.game, names, args.clock, rated=args.rated)
    except ValueError as error:
        ctx.error(f"--challenge: {printable(str(error))}")


def _keep_ca(ctx: Context, settings_path: Path) -> None:
    """Keep ``--tls-ca`` in the settings, once it reads as a CA file: the app checks every
    ``wss://`` server's certificate with it from now on (besides the system's CAs)."""
    from karavan_net.tls import client_context

    ca = str(Path(ctx.args.tls_ca).resolve())
    try:
        client_context(ca)
    except ValueError as error:
        ctx.error(f"--tls-ca: {printable(str(error))}")
    settings = Settings.load(settings_path)
    settings.tls_ca = ca
    try:
        settings_path.parent.mkdir(parents=True, exist_ok=True)
        settings.save(settings_path)
    except OSError as error:
        ctx.error(f"--tls-ca: cannot keep it in {settings_path}: {error.strerror or error}")
