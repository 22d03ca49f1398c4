"""``karavan join HOST:PORT CODE --name NAME``: take a seat at a hosted table.

The seat is played in the app, or headless by a bot (``--bot LEVEL``), which
prints the result and exits.  Without a code, the address is a `karavan serve`
server's, and the bot takes open seats there for ``--games N`` games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ssl

from karavan_core.bots import BOT_LEVELS
from karavan_core.text import check_name, printable
from karavan_net.accounts import (
    Account,
    account_for,
    bot_accounts_file,
    keep,
    new_secret,
    pin,
    server_key,
)
from karavan_net.client import HostUnreachable, JoinRefused, TableClient
from karavan_net.lobby_client import LobbyRefusedError
from karavan_net.protocol import parse_address
from karavan_net.seats import seats_file
from karavan_net.tls import client_tls
from karavan_tui.cli.common import Command, Context, add_tls_ca_argument, fail
from karavan_tui.config import LastJoin, Settings, default_settings_path

COMMAND = Command(
    "join",
    "join a hosted table",
    "Join a table hosted with karavan host, and play your seat.",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``HOST:PORT CODE --name NAME [--bot LEVEL]``."""
    parser.add_argument(
        "address", metavar="HOST:PORT", help="where the table is (wss://HOST:PORT over TLS)"
    )
    parser.add_argument(
        "code",
        metavar="CODE",
        nargs="?",
        help="the table's code (left out: HOST:PORT is a server's, where --bot takes open seats)",
    )
    parser.add_argument(
        "--name", required=True, help="your seat's name, as the host set it (a bot's account)"
    )
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        metavar="N",
        help="at a server: how many games the bot plays (default 1)",
    )
    parser.add_argument(
        "--bot",
        metavar="LEVEL",
        help=f"play the seat headless as a bot of LEVEL ({', '.join(BOT_LEVELS)}), "
        "print the result and exit",
    )
    add_tls_ca_argument(parser)


def run(ctx: Context) -> int:
    """Take the seat, then play it in the app or as a headless bot."""
    args = ctx.args
    try:
        host, port = parse_address(args.address)
    except ValueError as error:
        ctx.error(printable(str(error)))
    try:
        name = check_name(args.name)
    except ValueError as error:
        ctx.error(f"--name: {printable(str(error))}")
    if args.bot is not None and args.bot.lower() not in BOT_LEVELS:
        levels = ", ".join(BOT_LEVELS)
        ctx.error(f"--bot: no bot level {printable(repr(args.bot))}; the levels are: {levels}")
    bot = None if args.bot is None else args.bot.lower()
    ca = args.tls_ca or Settings.load(default_settings_path()).tls_ca
    try:
        tls = client_tls(args.address, ca)
    except ValueError as error:
        ctx.error(f"--tls-ca: {printable(str(error))}")
    if args.code is None:
        if bot is None:
            ctx.error("a table's CODE is needed (or --bot, to lend a bot to a server)")
        if not 1 <= args.games <= 10_000:
            ctx.error("--games: from 1 to 10000")
        return _lend(args.address, name, bot, args.games, ca)
    try:
        return asyncio.run(_join(ctx, host, port, name, bot, tls))
    except KeyboardInterrupt:  # Ctrl+C: the seat is left as a dropped connection leaves it
        print(printable(f"Stopped: {name} left the table."), flush=True)
        return 130


def _lend(address: str, name: str, level: str, games: int, ca: str | None) -> int:
    """Lend a bot to the server at ``address`` for ``games`` games, as the account ``name``
    (the server's identity pinned beside it the first time; ``ca`` checks a ``wss://``
    server's certificate besides the system's CAs)."""
    from karavan_net.lobby_bot import lend_bot

    kept = bot_accounts_file(default_settings_path())
    account = account_for(kept, address, name)
    create = account is None
    if account is None:
        account = Account(server_key(address), name, new_secret())
    try:
        if create:
            keep(kept, account, by_name=True)
    except OSError as error:
        return fail(f"cannot keep the bot's account in {kept}: {error.strerror or error}")

    def out(line: str) -> None:
        print(printable(line), flush=True)

    def pinned(identity: str) -> None:
        with contextlib.suppress(OSError):  # not kept now: kept at the next login
            pin(kept, account, identity, by_name=True)

    try:
        return asyncio.run(lend_bot(account, level, games, out, create, ca=ca, pinned=pinned))
    except (HostUnreachable, LobbyRefusedError) as error:
        return fail(f"cannot play at {address}: {error}")
    except KeyboardInterrupt:
        print(printable(f"Stopped: {name} left the server."), flush=True)
        return 130


def remember_join(address: str, code: str, name: str) -> None:
    """Have the Join dialog offer this table next time (a settings file that cannot be
    written is no reason to stop)."""
    path = default_settings_path()
    settings = Settings.load(path)
    settings.last_join = LastJoin.load({"address": address, "code": code, "name": name})
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        settings.save(path)


async def _join(
    ctx: Context,
    host: str,
    port: int,
    name: str,
    bot: str | None,
    tls: ssl.SSLContext | None = None,
) -> int:
    memory = seats_file(default_settings_path())
    retry_for = 120.0 if bot else None
    client = TableClient(
        host, port, ctx.args.code, name, retry_for=retry_for, memory=memory, tls=tls
    )
    try:
        await client.join()
    except (JoinRefused, HostUnreachable) as error:
        return fail(f"cannot join: {error}")
    if bot is not None:
        from karavan_net.bot_client import BotPlayer

        print(f"Playing {printable(name)}'s seat at {client.address} as a {bot} bot.", flush=True)
        return await BotPlayer(client, bot, out=lambda line: print(line, flush=True)).play()
    remember_join(ctx.args.address.strip(), ctx.args.code, name)
    from karavan_tui.app import TableApp

    app = TableApp(ctx.app_config(), client)
    await app.run_async()
    await client.close()
    return app.return_code or 0
