"""``karavan serve``: a server of many tables behind one lobby, kept in a database.

Players reach it from the app (Play online), each with an account of their own;
see :mod:`karavan_net.serve`.  It prints what happens, one line at a time, and
stops on Ctrl+C or SIGTERM, keeping every table in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

from karavan_core.text import printable
from karavan_net.lobby import DEFAULT_SERVER_PORT
from karavan_net.protocol import parse_address
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


def default_state() -> Path:
    """``$XDG_STATE_HOME/karavan/serve`` (``~/.local/state/karavan/serve``)."""
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "karavan" / "serve"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where to listen and where to keep everything."""
    common.add_listen_arguments(parser, DEFAULT_SERVER_PORT)
    parser.add_argument(
        "--db",
        metavar="PATH_OR_URL",
        help=f"the database: an SQLite file, or a postgresql:// URL (default {default_database()})",
    )
    parser.add_argument(
        "--address",
        metavar="HOST:PORT",
        help="where players reach this process, told to them when a server of several "
        "processes sends them here (default: the address it listens on)",
    )
    parser.add_argument(
        "--ssh",
        type=int,
        metavar="PORT",
        help="also let players in by ssh on PORT (ssh -p PORT name@server): nothing to install",
    )
    parser.add_argument(
        "--state",
        metavar="DIR",
        help=f"where the ssh door keeps its host key and each key's settings "
        f"(default {default_state()})",
    )


def run(ctx: Context) -> int:
    """Open the database (migrating it to this version's schema) and serve until stopped."""
    from karavan_net.serve.collector import Collector
    from karavan_net.serve.server import KaravanServer
    from karavan_net.serve.store import Store

    args = ctx.args
    check_port(ctx, args.port)
    if args.ssh is not None:
        check_port(ctx, args.ssh)
    if args.address is not None:
        try:
            parse_address(args.address)
        except ValueError:
            return fail(f"--address {printable(args.address)!r} is not HOST:PORT")
    where = args.db or str(default_database())
    try:
        store = Store.open(where)
    except Exception as error:  # a file that is no database, a server that refuses us
        return fail(f"cannot open the database {where}: {_why(error)}")

    def out(line: str) -> None:
        print(printable(line), flush=True)

    async def serve() -> int:
        server = KaravanServer(store, address=args.address, events=out)
        try:
            port = await server.start(args.bind, args.port)
        except OSError as error:
            return fail(f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}")
        collector = Collector()  # many tables' objects, out of the cycle collector's way
        collector.start()
        out(f"Karavan server at {args.bind}:{port}, keeping its tables in {where}.")
        out(f"Players reach it from the app: Play online, server {args.bind}:{port}.")
        door = None
        if args.ssh is not None:
            door = await _open_door(store, args, port, out)
            if door is None:
                await server.stop()
                return 2
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
        if door is not None:
            await door.stop()
        await server.stop()
        collector.stop()
        out("Stopped. Every table is kept: karavan serve picks them up again.")
        return 0

    try:
        return asyncio.run(serve())
    finally:
        store.close()


async def _open_door(store: Any, args: argparse.Namespace, port: int, out: Any) -> Any:
    """The ssh door, listening; ``None`` (said why) if it cannot."""
    from karavan_net.serve.ssh import SshDoor

    state = Path(args.state) if args.state else default_state()
    lobby = f"{'127.0.0.1' if args.bind in ('0.0.0.0', '', '::') else args.bind}:{port}"
    beside = Path(sys.executable).with_name("karavan")  # this Karavan's own command
    karavan = str(beside) if beside.exists() else shutil.which("karavan") or "karavan"
    door = SshDoor(store, lobby, state / "keys", karavan, events=out)
    try:
        ssh_port = await door.start(args.bind, args.ssh, state / "ssh_host_key")
    except OSError as error:
        fail(f"cannot listen for ssh on {args.bind}:{args.ssh}: {error.strerror or error}")
        return None
    out(f"Players with only ssh come in with: ssh -p {ssh_port} NAME@{args.bind}")
    return door


def _why(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0][:160] if text else type(error).__name__
