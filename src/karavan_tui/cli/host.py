"""``karavan host``: serve a table that others join; play its first human seat here, or headless.

The host is the referee of the table (:mod:`karavan_net.host`); this terminal
either prints what happens (``--headless``) or opens the app at the first
human seat, as a client of its own host running on a thread of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import ssl
from collections.abc import Callable
from functools import partial
from pathlib import Path

from attrs import evolve

from karavan_core.bots import BOT_LEVELS
from karavan_core.match import Match
from karavan_core.referee import TAKEBACK_SECONDS
from karavan_core.saves import SaveError, load_match, new_save_path, remove_abandoned_temps
from karavan_core.text import printable
from karavan_net.host import Host, host_for
from karavan_net.hosting import (
    HostControl,
    announce,
    closing_words,
    resume_line,
    serve_headless,
)
from karavan_net.presence import AWAY_LEVEL
from karavan_net.protocol import DEFAULT_PORT
from karavan_net.storage import TableFile, TableSettings, check_code, new_code
from karavan_net.tls import own_context
from karavan_tui.cli import common
from karavan_tui.cli.common import Command, Context, Failed, check_port, fail, find_save
from karavan_tui.config import Settings, default_settings_path

COMMAND = Command(
    "host",
    "host a table that others join from their terminals",
    "Host a table: the players join it from their own terminals or a browser "
    "(karavan join). Without --headless this terminal plays the first human seat.",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """A new table's ``GAME --players ...`` or ``--resume FILE``, where to serve it, its code
    and its limits."""
    common.add_game_argument(parser, optional=True)
    common.add_deal_arguments(
        parser,
        "comma-separated seats in order: a name for a human, bot:LEVEL or bot:LEVEL:NAME "
        "for a bot the host plays (e.g. Ann,Bob,bot:hard)",
        required=False,
    )
    parser.add_argument("--resume", metavar="FILE", help="reopen the hosted table saved in FILE")
    common.add_listen_arguments(parser, DEFAULT_PORT, remembered="with --resume, the table's")
    common.add_tls_arguments(parser)
    parser.add_argument("--code", help="the table code (default: a random one, not to be guessed)")
    parser.add_argument(
        "--headless",
        action="store_true",
        help="every human seat is remote; print what happens instead of opening the table "
        "(and read commands that free a seat or hand it to a bot)",
    )
    parser.add_argument(
        "--takeback-time",
        type=float,
        metavar="SECONDS",
        help="how long a take-back request waits for the others' answers before it lapses "
        f"(default {TAKEBACK_SECONDS:g})",
    )
    parser.add_argument(
        "--away-limit",
        type=float,
        metavar="SECONDS",
        help="after this long away, a player's seat is played by a bot until they are back "
        "(default: the table waits for them)",
    )
    parser.add_argument(
        "--away-bot",
        metavar="LEVEL",
        help=f"the bot that plays an absent player's seat (default {AWAY_LEVEL})",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause before each turn of the host's bots (default: the setting, 0.6 s)",
    )


def _settings(ctx: Context, kept: TableSettings) -> TableSettings:
    """How to serve the table: the arguments given, else what its table file ``kept``."""
    args = ctx.args
    takeback = args.takeback_time or kept.takeback_seconds or TAKEBACK_SECONDS
    if not 5 <= takeback <= 600:
        ctx.error("--takeback-time: from 5 to 600 seconds")
    away = args.away_limit if args.away_limit is not None else kept.away_limit
    if away is not None and not 5 <= away <= 86400:
        ctx.error("--away-limit: from 5 seconds to a day (86400)")
    level = (args.away_bot or kept.away_level or AWAY_LEVEL).lower()
    if level not in BOT_LEVELS:
        ctx.error(f"--away-bot: no bot level {printable(repr(level))}; the levels are: "
                  f"{', '.join(BOT_LEVELS)}")  # fmt: skip
    bind = args.bind or kept.bind or "127.0.0.1"
    port = args.port if args.port is not None else kept.port or DEFAULT_PORT
    return TableSettings(bind, port, takeback, away, level)


def _match_from_args(ctx: Context) -> tuple[Match, Path]:
    args = ctx.args
    if args.resume is not None:
        if args.game is not None or args.players is not None:
            ctx.error("--resume takes the game and the players from the save: give neither")
        path = find_save(ctx.folder, args.resume)
        try:
            match = load_match(path)
        except SaveError as error:
            raise Failed(str(error)) from None
        if match.is_over():
            raise Failed(f"{path}: that game is over")
        return match, path
    if args.game is None or args.players is None:
        ctx.error("host needs a GAME and --players (or --resume FILE)")
    return common.new_from_args(ctx)


def run(ctx: Context) -> int:
    """Serve the table; play the first human seat here unless headless."""
    args = ctx.args
    check_port(ctx, args.port)
    common.open_saves(ctx)
    match, path = _match_from_args(ctx)
    if not match.humans:
        ctx.error("--players: a hosted table needs at least one human seat")
    kept = TableFile.read(path) if args.resume is not None else None
    try:
        if args.code is not None:
            code = check_code(args.code)
        elif kept is not None:
            code = kept.code
        else:
            code = new_code()
    except ValueError as error:
        ctx.error(f"--code: {error}")
    settings = _settings(ctx, kept.settings if kept is not None else TableSettings())
    bot_delay = args.bot_delay
    if bot_delay is None:
        bot_delay = Settings.load(default_settings_path()).bot_delay
    if not 0 <= bot_delay <= 60:
        ctx.error("--bot-delay: from 0 to 60 seconds")
    headless, tls = args.headless, common.server_tls(ctx)

    def event(line: str) -> None:
        if headless:
            print(line, flush=True)

    if not path.resolve().is_relative_to(ctx.folder.resolve()):
        remove_abandoned_temps(path.parent, deep=False)
    table_file = kept or TableFile(TableFile.path_for(path), code, {})

    def make_host(port: int) -> Host:
        """The table, once its port is known: its save and table file are written now."""
        table_file.settings = evolve(settings, port=port)
        host = host_for(
            match,
            code,
            save_path=path,
            table_file=table_file,
            bot_delay=bot_delay,
            events=event,
            takeback_seconds=settings.takeback_seconds or TAKEBACK_SECONDS,
        )
        host.away_limit = settings.away_limit
        host.away_level = settings.away_level or AWAY_LEVEL
        return host

    bind = settings.bind or "127.0.0.1"
    port = DEFAULT_PORT if settings.port is None else settings.port
    if headless:

        def out(line: str) -> None:
            print(line, flush=True)

        serve = partial(serve_headless, saves=partial(new_save_path, ctx.folder), tls=tls)
        return asyncio.run(serve(make_host, bind, port, path, fail, out))
    return _host_with_table(ctx, make_host, bind, port, path, tls)


def _host_with_table(
    ctx: Context,
    make_host: Callable[[int], Host],
    bind: str,
    port: int,
    path: Path,
    tls: ssl.SSLContext | None,
) -> int:
    """Listen on a thread of its own (over ``tls``, if given), then serve the table
    ``make_host`` makes there and play its first human seat in the app here."""
    from karavan_net.client import HostUnreachable, JoinRefused, TableClient
    from karavan_net.server import HostServer, ServerThread
    from karavan_tui.app import TableApp

    server = HostServer(tls=tls)
    thread = ServerThread(server, bind, port)
    try:
        port = thread.start()
    except OSError as error:
        return fail(f"cannot listen on {bind}:{port}: {error.strerror or error}")
    try:
        host = make_host(port)
    except OSError as error:
        thread.stop()
        return fail(f"cannot save to {path}: {error.strerror or error}")
    server.events = host.events
    seat = host.humans[0]
    secret = host.reserve(seat)
    thread.call(lambda: server.add(host))
    remote = [i for i in host.humans if i != seat]
    lines = announce(host, bind, port, path, remote, tls is not None)
    for line in lines:
        print(line, flush=True)
    thread.call(host.start)
    local = "127.0.0.1" if bind in ("0.0.0.0", "") else "::1" if bind == "::" else bind
    name = host.match.seats[seat].name
    saves = partial(new_save_path, ctx.folder)
    invite = lines[1:-1] if remote else []
    control = HostControl(host, invite, thread, server=server, saves=saves)

    async def play() -> int:
        own = None if tls is None else own_context()  # its own server: nothing to check
        client = TableClient(local, port, host.code, name, secret=secret, tls=own)
        try:
            await client.join()
        except (JoinRefused, HostUnreachable) as error:
            return fail(f"cannot open the table here: {error}")
        app = TableApp(ctx.app_config(), client, control=control, save_path=path)
        await app.run_async()
        await client.close()
        return app.return_code or 0

    try:
        status = asyncio.run(play())
    finally:
        last = control.host  # after a rematch, the last game's
        thread.stop(*closing_words(last.match.is_over()))
    if not last.match.is_over():
        print(printable(f"The table is closed. {resume_line(last.save_path or path, bind, port)}."))
    return status
