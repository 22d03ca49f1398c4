"""``karavan account``: the player's accounts on servers, shown, exported and imported, and
where the server calls them.

``export`` writes the account of one server to a file, as private as its secret
(take it to another machine by hand, never by mail); ``import`` keeps such a
file's account here, so that both machines play as the same player.  ``notify URL`` gives
the server a web hook (an ntfy or Gotify topic, a Matrix or Slack incoming hook) that it
calls when a turn-based table waits for the player; ``notify off`` takes it away, and
``notify`` alone shows it.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from karavan_core.text import printable
from karavan_net.accounts import (
    Account,
    account_for,
    accounts_file,
    export_account,
    import_account,
    keep,
    server_key,
)
from karavan_net.lobby import DEFAULT_SERVER_PORT
from karavan_tui.cli.common import Command, Context, fail
from karavan_tui.config import Settings, default_settings_path

COMMAND = Command(
    "account",
    "show, export or import your account on a server (Play online), or say where it calls you",
    "Your account on a Karavan server is a name and a secret this Karavan keeps. Export it "
    "to take it to another machine (the file is as private as a password), import it there. "
    "notify URL: the server calls that web hook when a turn-based table waits for you "
    "(notify off: nowhere; notify alone: where it calls you now).",
    opens_app=False,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``show``, ``export FILE``, ``import FILE`` or ``notify [URL]``, and the server."""
    parser.add_argument("what", choices=["show", "export", "import", "notify"], help="what to do")
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE|URL",
        help="the account file (export, import); the web hook, or off (notify)",
    )
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help=f"the server (default: the one last played on, else 127.0.0.1:{DEFAULT_SERVER_PORT})",
    )


def run(ctx: Context) -> int:
    """Do what was asked."""
    args = ctx.args
    settings_path = default_settings_path()
    kept = accounts_file(settings_path)
    asked = args.server or Settings.load(settings_path).last_server  # as Play online offers
    try:
        server = server_key(asked or f"127.0.0.1:{DEFAULT_SERVER_PORT}")
    except ValueError as error:
        ctx.error(f"--server: {error}")
    if args.what in ("export", "import") and not args.file:
        ctx.error(f"{args.what} needs a FILE")
    if args.what == "import":
        try:
            imported = import_account(Path(args.file))
            keep(kept, imported)
        except ValueError as error:
            return fail(str(error))
        except OSError as error:
            return fail(f"cannot keep the account in {kept}: {error.strerror or error}")
        print(printable(f"You play as {imported.name} on {imported.server} from this machine now."))
        return 0
    account = account_for(kept, server)
    if account is None:
        return fail(f"no account on {server} here: Play online in the app makes one")
    if args.what == "show":
        print(printable(f"{account.name} on {account.server}"))
        return 0
    if args.what == "notify":
        return _notify(account, args.file)
    target = Path(args.file)
    try:
        export_account(account, target)
    except OSError as error:
        return fail(f"cannot write {target}: {error.strerror or error}")
    print(printable(f"Your account on {server} is in {target}: keep it private."))
    return 0


def _notify(account: Account, url: str | None) -> int:
    """Ask the server of ``account`` where it calls the player, after setting it to ``url``
    (``off``: nowhere) if given; say it, literally."""
    from karavan_net.client import HostUnreachable
    from karavan_net.lobby_client import LobbyClient, LobbyDeclinedError, LobbyRefusedError

    wanted = None if url is None else "" if url.strip().lower() == "off" else url

    async def ask() -> str:
        client = LobbyClient.for_account(account, Settings.load(default_settings_path()).tls_ca)
        try:
            await client.connect()
            return await client.notify_address(wanted)
        finally:
            await client.close()

    try:
        kept = asyncio.run(ask())
    except (HostUnreachable, LobbyRefusedError, LobbyDeclinedError, ValueError) as error:
        return fail(str(error))
    where = f"calls you at {kept}" if kept else "calls you nowhere (notify URL gives it one)"
    print(printable(f"{account.server} {where} when a turn-based table waits for you."))
    return 0
