"""``karavan serve``: a server of many tables behind one lobby, kept in a database.

Players reach it from the app (Play online), each with an account of their own;
see :mod:`karavan_net.serve`.  It prints what happens, one line per event (a
sentence, or with ``--log-format json`` one JSON object), answers ``/health``
and ``/metrics`` on its port, and stops on Ctrl+C or SIGTERM, keeping every
table in the database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
    require_extra,
    server_tls,
)

if TYPE_CHECKING:
    from karavan_net.serve.eventlog import EventLog, LineWriter
    from karavan_net.serve.metrics import ServerMetrics
    from karavan_net.serve.server import KaravanServer
    from karavan_net.serve.store import Store

COMMAND = Command(
    "serve",
    "run a server of many tables, a lobby, accounts, clocks and ratings",
    "Run a Karavan server: a lobby of tables that players find and join from the app "
    "(Play online), with accounts, spectators, live and turn-based clocks and ratings, all "
    "kept in a database (an SQLite file by default; PostgreSQL with --db postgresql://...).",
    opens_app=False,
)


DEFAULT_ACCOUNTS_PER_HOUR = 10


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
    parser.add_argument(
        "--log-format",
        choices=("plain", "json"),
        default="plain",
        help="print each event as a sentence (plain, the default) or as one JSON object a "
        "line (json: time, level, event, table, message...), for a log collector",
    )
    _add_guard_arguments(parser)


def _add_guard_arguments(parser: argparse.ArgumentParser) -> None:
    """What the server trusts of its clients, and what it measures."""
    parser.add_argument(
        "--behind-proxy",
        action="store_true",
        help="served through a reverse proxy on this machine (TLS in front): each client's "
        "address, which the caps per address count, is the one the proxy forwards "
        "(X-Forwarded-For); without it every client through the proxy is one address",
    )
    parser.add_argument(
        "--accounts-per-hour",
        type=int,
        metavar="N",
        default=DEFAULT_ACCOUNTS_PER_HOUR,
        help="new accounts one address may make in an hour (default "
        f"{DEFAULT_ACCOUNTS_PER_HOUR}; this machine's own address, the doors', more)",
    )
    parser.add_argument(
        "--notify-private",
        action="store_true",
        help="let players' notification web hooks be private addresses (this machine, its "
        "network: an ntfy or Gotify of your own); without it the server calls only public "
        "ones, so that no stranger can make it call inside your network",
    )
    parser.add_argument(
        "--no-metrics",
        action="store_true",
        help="do not measure, nor answer /metrics (Prometheus's text format) on the port",
    )


def run(ctx: Context) -> int:
    """Open the database (migrating it to this version's schema) and serve until stopped."""
    require_extra("serve", "server")
    from karavan_net.serve.metrics import ServerMetrics
    from karavan_net.serve.store import Store, shown_database

    args = ctx.args
    wrong = _wrong_option(ctx)
    if wrong is not None:
        return fail(wrong)
    where = args.db or str(default_database())
    shown = shown_database(where)  # never the password
    try:
        store = Store.open(where)
    except Exception as error:  # a file that is no database, a server that refuses us
        return fail(f"cannot open the database {shown}: {_why(error, where)}")
    log, writer = _event_log(args.log_format)
    metrics = None if args.no_metrics else ServerMetrics()
    try:
        return asyncio.run(_serve(ctx, store, log, metrics))
    finally:
        store.close()
        writer.close()


def _wrong_option(ctx: Context) -> str | None:
    """What is wrong with the options, if anything (a port out of range exits at once)."""
    args = ctx.args
    check_port(ctx, args.port)
    if args.ssh is not None:
        check_port(ctx, args.ssh)
    if args.address is not None:
        try:
            parse_address(args.address)
        except ValueError:
            return f"--address {printable(args.address)!r} is not HOST:PORT"
    if args.accounts_per_hour < 1:
        return f"--accounts-per-hour: {args.accounts_per_hour} is not 1 or more"
    return None


async def _serve(ctx: Context, store: Store, log: EventLog, metrics: ServerMetrics | None) -> int:
    """Serve on ``store`` until SIGINT or SIGTERM; the exit status."""
    from karavan_net.serve.collector import Collector
    from karavan_net.serve.limits import Limits
    from karavan_net.serve.server import KaravanServer

    args = ctx.args
    tls = server_tls(ctx)
    server = KaravanServer(
        store,
        address=args.address,
        log=log,
        metrics=metrics,
        tls=tls,
        limits=Limits.with_accounts_per_hour(args.accounts_per_hour),
        behind_proxy=args.behind_proxy,
        notify_private=args.notify_private,
    )
    try:
        port = await server.start(args.bind, args.port)
    except OSError as error:
        return fail(f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}")
    where = args.db or str(default_database())
    collector = Collector()  # many tables' objects, out of the cycle collector's way
    collector.start()
    _say_where(log, server, f"{'' if tls is None else 'wss://'}{args.bind}:{port}", port, where)
    door = None
    if args.ssh is not None:
        door = await _open_door(where, args, await _door_lobby(server, args.bind, port), log)
        if door is None:
            await server.stop()
            collector.stop()
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
    log.event("stopped", "Stopped. Every table is kept: karavan serve picks them up again.")
    return 0


async def _door_lobby(server: KaravanServer, bind: str, port: int) -> str:
    """Where the ssh door's apps reach the lobby: on this machine, and without TLS (a
    certificate names the server's public name), on a loopback port of its own if need be."""
    from karavan_net.protocol import shown_address

    if server.tls is not None:
        return shown_address("127.0.0.1", await server.listen_locally())
    anywhere = bind in ("0.0.0.0", "", "::")
    return shown_address("127.0.0.1" if anywhere else bind, port)


def _say_where(log: EventLog, server: KaravanServer, address: str, port: int, where: str) -> None:
    """Tell where the server listens, where it keeps its tables (no password) and its identity."""
    from karavan_net.serve.store import shown_database

    shown = shown_database(where)
    log.event(
        "listening", f"Karavan server at {address}, keeping its tables in {shown}.", port=port
    )
    log.event("listening", f"Players reach it from the app: Play online, server {address}.")
    if server.identity is not None:
        fingerprint = server.identity.fingerprint
        log.event("identity", f"Its identity, which players' apps pin: {fingerprint}")


def _event_log(log_format: str) -> tuple[EventLog, LineWriter]:
    """The server's log, in ``log_format``, and the writer of its lines (on a thread of its
    own: the event loop never waits for the output)."""
    from karavan_net.serve.eventlog import EventLog, LineWriter

    writer = LineWriter(sys.stdout)
    log = EventLog(writer, json=log_format == "json")
    writer.note = lambda count: log.format(
        "output_dropped", f"{count} lines of output were dropped.", level="warning", lines=count
    )
    return log, writer


async def _open_door(where: str, args: argparse.Namespace, lobby: str, log: EventLog) -> Any:
    """The ssh door, open in its own process, its players' apps at the lobby at ``lobby``;
    ``None`` (said why) if it cannot open."""
    from karavan_net.serve.door_keeper import DoorFailed, DoorKeeper
    from karavan_net.serve.door_process import DoorConfig

    state = Path(args.state) if args.state else default_state()
    beside = Path(sys.executable).with_name("karavan")  # this Karavan's own command
    karavan = str(beside) if beside.exists() else shutil.which("karavan") or "karavan"
    config = DoorConfig(where, lobby, str(state), karavan, args.bind, args.ssh)
    door = DoorKeeper(config, events=log.line)
    try:
        opened = await door.start()
    except (DoorFailed, OSError) as error:
        fail(f"cannot open the ssh door on {args.bind}:{args.ssh}: {error}")
        return None
    log.event("ssh", f"Players with only ssh come in with: ssh -p {opened.port} NAME@{args.bind}")
    log.event(
        "ssh", f"The ssh door's host key: {opened.fingerprint} (ssh shows it the first time)."
    )
    return door


def _why(error: Exception, where: str) -> str:
    """The first line of ``error``'s words, without the password of the database ``where``."""
    from karavan_net.serve.store import redacted

    lines = redacted(str(error), where).strip().splitlines()
    return lines[0][:160] if lines else type(error).__name__
