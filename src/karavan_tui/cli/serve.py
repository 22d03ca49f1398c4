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
from karavan_tui.cli.common import (
    Command,
    Context,
    add_tls_arguments,
    check_port,
    fail,
    server_tls,
)

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
    add_tls_arguments(parser)
    parser.add_argument(
        "--state",
        metavar="DIR",
        help=f"where the ssh door keeps its host key and each key's settings "
        f"(default {default_state()})",
    )


def run(ctx: Context) -> int:
    """Open the database (migrating it to this version's schema) and serve until stopped."""
    from karavan_net.serve.server import KaravanServer
    from karavan_net.serve.store import Store, shown_database

    args = ctx.args
    check_port(ctx, args.port)
    if args.ssh is not None:
        check_port(ctx, args.ssh)
    if args.address is not None:
        try:
            parse_address(args.address)
        except ValueError:
            return fail(f"--address {printable(args.address)!r} is not HOST:PORT")
    tls = server_tls(ctx)
    where = args.db or str(default_database())
    shown = shown_database(where)  # never the password
    try:
        store = Store.open(where)
    except Exception as error:  # a file that is no database, a server that refuses us
        return fail(f"cannot open the database {shown}: {_why(error, where)}")

    def out(line: str) -> None:
        print(printable(line), flush=True)

    async def serve() -> int:
        server = KaravanServer(store, address=args.address, events=out, tls=tls)
        try:
            port = await server.start(args.bind, args.port)
        except OSError as error:
            return fail(f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}")
        scheme = "" if tls is None else "wss://"
        out(f"Karavan server at {scheme}{args.bind}:{port}, keeping its tables in {shown}.")
        out(f"Players reach it from the app: Play online, server {scheme}{args.bind}:{port}.")
        if server.identity is not None:
            out(f"Its identity, which players' apps pin: {server.identity.fingerprint}")
        door = None
        if args.ssh is not None:
            door = await _open_door(where, args, port, out)
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
        out("Stopped. Every table is kept: karavan serve picks them up again.")
        return 0

    try:
        return asyncio.run(serve())
    finally:
        store.close()


async def _open_door(where: str, args: argparse.Namespace, port: int, out: Any) -> Any:
    """The ssh door, open in its own process; ``None`` (said why) if it cannot open."""
    from karavan_net.serve.door_keeper import DoorFailed, DoorKeeper
    from karavan_net.serve.door_process import DoorConfig

    state = Path(args.state) if args.state else default_state()
    lobby = f"{'127.0.0.1' if args.bind in ('0.0.0.0', '', '::') else args.bind}:{port}"
    beside = Path(sys.executable).with_name("karavan")  # this Karavan's own command
    karavan = str(beside) if beside.exists() else shutil.which("karavan") or "karavan"
    config = DoorConfig(where, lobby, str(state), karavan, args.bind, args.ssh)
    door = DoorKeeper(config, events=out)
    try:
        opened = await door.start()
    except (DoorFailed, OSError) as error:
        fail(f"cannot open the ssh door on {args.bind}:{args.ssh}: {error}")
        return None
    out(f"Players with only ssh come in with: ssh -p {opened.port} NAME@{args.bind}")
    out(f"The ssh door's host key: {opened.fingerprint} (ssh shows it the first time).")
    return door


def _why(error: Exception, where: str) -> str:
    """The first line of ``error``'s words, without the password of the database ``where``."""
    from karavan_net.serve.store import redacted

    lines = redacted(str(error), where).strip().splitlines()
    return lines[0][:160] if lines else type(error).__name__
