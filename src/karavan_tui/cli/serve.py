"""``karavan serve``: a server of many tables behind one lobby, kept in a database.

Players reach it from the app (Play online), each with an account of their own;
see :mod:`karavan_net.serve`.  It prints what happens, one line at a time, and
stops on Ctrl+C or SIGTERM, keeping every table in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
from pathlib import Path

from karavan_core.text import printable
from karavan_net.lobby import DEFAULT_SERVER_PORT
from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context, check_port, fail

COMMAND = Command(
    "serve",
    "run a server of many tables, a lobby, accounts, clocks and ratings",
    "Run a Karavan server: a lobby of tables that players find and join from the app "
    "(Play online), with accounts, spectators, live and turn-based clocks and ratings, all "
    "kept in a database (an SQLite file by default; PostgreSQL with --db postgresql://...).",
    opens_app=False,
)


def default_database() -> Path:
    """``$XDG_DATA_HOME/karavan/server.db`` (``~/.local/share/karavan/server.db``)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "karavan" / "server.db"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where to listen and where to keep everything."""
    common.add_listen_arguments(parser, DEFAULT_SERVER_PORT)
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help=f"the database: an SQLite file, or a postgresql:// URL (default {default_database()})",
    )


def run(ctx: Context) -> int:
    """Open the database (migrating it to this version's schema) and serve until stopped."""
    from karavan_net.serve.server import KaravanServer
    from karavan_net.serve.store import Store

    args = ctx.args
    check_port(ctx, args.port)
    where = args.db or str(default_database())
    try:
        store = Store.open(where)
    except Exception as error:  # a file that is no database, a server that refuses us
        return fail(f"cannot open the database {where}: {_why(error)}")

    def out(line: str) -> None:
        print(printable(line), flush=True)

    async def serve() -> int:
        server = KaravanServer(store, events=out)
        try:
            port = await server.start(args.bind, args.port)
        except OSError as error:
            return fail(f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}")
        out(f"Karavan server at {args.bind}:{port}, keeping its tables in {where}.")
        out(f"Players reach it from the app: Play online, server {args.bind}:{port}.")
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        await server.stop()
        out("Stopped. Every table is kept: karavan serve picks them up again.")
        return 0

    try:
        return asyncio.run(serve())
    finally:
        store.close()


def _why(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0][:160] if text else type(error).__name__
