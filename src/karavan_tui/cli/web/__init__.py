"""``karavan web``: the whole app in a browser, served by textual-serve.

Each browser tab runs its own Karavan process (``python -m karavan_tui``);
its title screen's Join a table joins a hosted table like ``karavan join``.
Every visitor (a browser, known by a cookie) has their own settings, seat
secrets and saves (:mod:`.visitors`); the server (:mod:`.server`) refuses
other pages' WebSockets and caps how many Karavans run at once.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from pathlib import Path

from karavan_core.saves import check_saves_dir
from karavan_core.text import printable
from karavan_tui.cli.common import (
    Command,
    Context,
    add_listen_arguments,
    check_port,
    fail,
    require_extra,
)
from karavan_tui.cli.web.visitors import Visitors, default_state_dir

DEFAULT_MAX_APPS = 10  # each Karavan is a process of some 45 MB
DEFAULT_PER_VISITOR = 3  # tabs of one browser


COMMAND = Command(
    "web",
    "serve the app in a web browser",
    "Serve the whole app to web browsers (each browser tab runs its own Karavan; Join a "
    "table on its title screen joins a hosted table). Every visitor has their own settings, "
    "seats and saves; --saves DIR makes DIR everyone's saves.",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Where to serve, the visitors' folder and how many Karavans may run at once."""
    add_listen_arguments(parser, 8000)
    parser.add_argument(
        "--state",
        metavar="DIR",
        help="folder of the visitors' files (default: $XDG_STATE_HOME/karavan/web, "
        "else ~/.local/state/karavan/web)",
    )
    parser.add_argument(
        "--max-apps",
        type=int,
        default=DEFAULT_MAX_APPS,
        metavar="N",
        help=f"Karavans running at once, one per tab (default {DEFAULT_MAX_APPS}); "
        "past that the page says the server is full",
    )
    parser.add_argument(
        "--max-apps-per-visitor",
        type=int,
        default=DEFAULT_PER_VISITOR,
        metavar="N",
        help=f"Karavans one visitor (a browser) runs at once (default {DEFAULT_PER_VISITOR})",
    )
    parser.add_argument(
        "--max-apps-per-address",
        type=int,
        metavar="N",
        help="Karavans run at once for the visitors of one address (default: half of "
        "--max-apps; on loopback every visitor has the same address unless --behind-proxy)",
    )
    parser.add_argument(
        "--behind-proxy",
        action="store_true",
        help="served through a reverse proxy on this machine (TLS in front): the page's "
        "address and each visitor's are the ones the proxy forwards (X-Forwarded-Proto, "
        "-Host, -For)",
    )


def binds_loopback(bind: str) -> bool:
    """Whether listening on ``bind`` serves this machine only."""
    if bind.casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return False


def places_per_address(max_apps: int, asked: int | None) -> int:
    """The Karavans the visitors of one address may run at once: as ``asked``, else half of
    ``max_apps``.  A visitor is known by a cookie, which anyone can make afresh: the cap that
    holds is the address's, and on loopback (unless behind a proxy, which tells each
    visitor's address) every visitor has the same one."""
    return asked if asked is not None else max(1, max_apps // 2)


def run(ctx: Context) -> int:
    """Serve the app to browsers with textual-serve."""
    require_extra("web", "web")
    args = ctx.args
    check_port(ctx, args.port)
    for option in ("max_apps", "max_apps_per_visitor", "max_apps_per_address"):
        value = getattr(args, option)
        if value is not None and value < 1:
            name = "--" + option.replace("_", "-")
            ctx.error(f"{name}: {value} is not a number of Karavans (1 or more)")
    # Only a --saves given here shares a folder: $KARAVAN_SAVES is the operator's own.
    shared = getattr(args, "saves", None)
    shared_saves = Path(shared) if shared else None
    visitors = Visitors(Path(args.state) if args.state else default_state_dir(), shared_saves)
    try:
        visitors.state.mkdir(mode=0o700, parents=True, exist_ok=True)
        visitors.signing_key()
        if shared_saves is not None:
            check_saves_dir(shared_saves)
    except OSError as error:
        where = error.filename or visitors.state
        return fail(f"cannot keep the visitors' files in {where}: {error.strerror or error}")
    return serve(ctx, visitors)


def serve(ctx: Context, visitors: Visitors) -> int:
    """Serve the app at ``--bind``:``--port`` until interrupted."""
    from karavan_tui.cli.web.server import KaravanServer  # aiohttp and textual-serve, late

    args = ctx.args
    proxied = bool(getattr(args, "behind_proxy", False))
    loopback = binds_loopback(args.bind) and not proxied  # a proxy brings visitors apart
    per_address = places_per_address(args.max_apps, args.max_apps_per_address)
    server = KaravanServer(
        visitors,
        host=args.bind,
        port=args.port,
        program=[sys.executable, "-m", "karavan_tui"],
        max_apps=args.max_apps,
        per_visitor=args.max_apps_per_visitor,
        per_address=per_address,
        ascii_mode=bool(getattr(args, "ascii", False)),
        loopback_only=loopback,
        proxied=proxied,
    )
    shown = f"[{args.bind}]" if ":" in args.bind else args.bind
    saves = (
        f"everyone's saves in {visitors.shared_saves}"
        if visitors.shared_saves is not None
        else "each visitor's own saves"
    )
    print(
        printable(
            f"Serving Karavan at http://{shown}:{args.port} (Ctrl+C stops): at most "
            f"{args.max_apps} at once ({args.max_apps_per_visitor} a visitor, {per_address} an "
            f"address), {saves}, the visitors' files in {visitors.state}."
        ),
        flush=True,
    )
    try:
        server.serve()
    except OSError as error:
        return fail(f"cannot listen on {args.bind}:{args.port}: {error.strerror or error}")
    return 0
