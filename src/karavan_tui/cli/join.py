"""``karavan join HOST:PORT CODE --name NAME``: take a seat at a hosted table.

The seat is played in the app, or headless by a bot (``--bot LEVEL``), which
prints the result and exits.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from karavan_core.bots import BOT_LEVELS
from karavan_core.text import check_name, printable
from karavan_net.client import HostUnreachable, JoinRefused, TableClient
from karavan_net.protocol import parse_address
from karavan_net.seats import seats_file
from karavan_tui.cli.common import Command, Context, fail
from karavan_tui.config import LastJoin, Settings, default_settings_path

COMMAND = Command(
    "join",
    "join a hosted table",
    "Join a table hosted with karavan host, and play your seat.",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``HOST:PORT CODE --name NAME [--bot LEVEL]``."""
    parser.add_argument("address", metavar="HOST:PORT", help="where the table is")
    parser.add_argument("code", metavar="CODE", help="the table's code")
    parser.add_argument("--name", required=True, help="your seat's name, as the host set it")
    parser.add_argument(
        "--bot",
        metavar="LEVEL",
        help=f"play the seat headless as a bot of LEVEL ({', '.join(BOT_LEVELS)}), "
        "print the result and exit",
    )


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
    try:
        return asyncio.run(_join(ctx, host, port, name, bot))
    except KeyboardInterrupt:  # Ctrl+C: the seat is left as a dropped connection leaves it
        print(printable(f"Stopped: {name} left the table."), flush=True)
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


async def _join(ctx: Context, host: str, port: int, name: str, bot: str | None) -> int:
    memory = seats_file(default_settings_path())
    client = TableClient(
        host, port, ctx.args.code, name, retry_for=120.0 if bot else None, memory=memory
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
