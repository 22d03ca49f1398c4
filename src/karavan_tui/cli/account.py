"""``karavan account``: the player's accounts on servers, shown, exported and imported.

``export`` writes the account of one server to a file, as private as its secret
(take it to another machine by hand, never by mail); ``import`` keeps such a
file's account here, so that both machines play as the same player.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from karavan_core.text import printable
from karavan_net.accounts import (
    account_for,
    accounts_file,
    export_account,
    import_account,
    keep,
    server_key,
)
from karavan_net.lobby import DEFAULT_SERVER_PORT
from karavan_tui.cli.common import Command, Context, fail
from karavan_tui.config import default_settings_path

COMMAND = Command(
    "account",
    "show, export or import your account on a server (Play online)",
    "Your account on a Karavan server is a name and a secret this Karavan keeps. Export it "
    "to take it to another machine (the file is as private as a password), import it there.",
    opens_app=False,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``show``, ``export FILE`` or ``import FILE``, and the server."""
    parser.add_argument("what", choices=["show", "export", "import"], help="what to do")
    parser.add_argument("file", nargs="?", metavar="FILE", help="the account file (export, import)")
    parser.add_argument(
        "--server",
        default=f"127.0.0.1:{DEFAULT_SERVER_PORT}",
        metavar="HOST:PORT",
        help=f"the server (default 127.0.0.1:{DEFAULT_SERVER_PORT})",
    )


def run(ctx: Context) -> int:
    """Do what was asked."""
    args = ctx.args
    kept = accounts_file(default_settings_path())
    try:
        server = server_key(args.server)
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
    target = Path(args.file)
    try:
        export_account(account, target)
    except OSError as error:
        return fail(f"cannot write {target}: {error.strerror or error}")
    print(printable(f"Your account on {server} is in {target}: keep it private."))
    return 0
