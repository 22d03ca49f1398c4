"""What the commands share: how a command is declared and run, failing in one line, saves, seats.

Every command module offers ``COMMAND`` (a :class:`Command`: its name and
help), ``add_arguments(parser)`` and ``run(ctx) -> int``; :class:`Context` is
what ``run`` is given, and :class:`Failed`, raised anywhere in a run, ends it
with one line.  This module imports no other command.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import ssl
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn, TypeVar

from attrs import frozen

from karavan_core.bots import BOT_LEVELS
from karavan_core.match import Match, Seat, names_differ, parse_table, seat_named
from karavan_core.registry import game_names, get_game
from karavan_core.saves import check_saves_dir, new_save_path, remove_abandoned_temps
from karavan_core.text import printable
from karavan_tui.config import AppConfig


@frozen
class Command:
    """How a command shows in ``karavan --help`` and in its own ``--help``.

    ``help`` is its line in the list of commands, ``description`` the text of
    its own help.  Most commands open the app, and take ``--ascii`` besides
    ``--saves``; the others say ``opens_app=False``.  One that ``lists_levels``
    ends its help with the bot levels.
    """

    name: str
    help: str
    description: str = ""
    opens_app: bool = True
    lists_levels: bool = False


class OneLineParser(argparse.ArgumentParser):
    """An argument parser that refuses bad arguments in one line, naming its command.

    argparse prints the usage first; here the line says where the usage is, so a
    mistake reads as one sentence ("karavan new: No game called 'chess'...").
    """

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line (outside text made safe to show) and exit with 2."""
        self.exit(2, f"{self.prog}: {printable(message)} (see {self.prog} --help)\n")


class Failed(Exception):
    """The command cannot go on: ``str()`` is the one line that says why (exit status 2)."""


@frozen
class Context:
    """One run of a command: its parser (for argument errors), its arguments, the saves folder."""

    parser: argparse.ArgumentParser
    args: argparse.Namespace
    folder: Path

    def error(self, message: str) -> NoReturn:
        """Refuse the arguments in one line naming the command, exit status 2."""
        self.parser.error(message)

    def app_config(self) -> AppConfig:
        """The app's configuration for this run."""
        return AppConfig(saves_dir=self.folder, ascii=bool(getattr(self.args, "ascii", False)))


EXTRAS: dict[str, tuple[str, ...]] = {
    "server": ("sqlalchemy", "alembic", "asyncssh", "openskill", "prometheus_client"),
    "web": ("textual_serve",),
}
"""The libraries each of Karavan's extras brings (psycopg too, which SQLAlchemy loads only for
a PostgreSQL address), which the terminal app alone goes without."""


def require_extra(command: str, extra: str) -> None:
    """Raise :class:`Failed`, naming what to install, if ``extra``'s libraries are missing:
    ``pip install karavan`` brings the terminal app alone."""
    for library in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(library) is not None
        except ImportError:  # an import hook that refuses the library
            found = False
        if not found:
            raise Failed(
                f"karavan {command} needs Karavan's {extra} part: pip install 'karavan[{extra}]'"
            )


def fail(message: str, status: int = 2) -> int:
    """Print ``message`` as one line (outside text made safe to show) and return ``status``."""
    print(f"karavan: {printable(message)}", file=sys.stderr)
    return status


def open_saves(ctx: Context, tidy: bool = True) -> Path:
    """The saves folder, made if need be (and, if ``tidy``, rid of abandoned temp files).

    Raises :class:`Failed` when saves cannot be kept there.
    """
    try:
        check_saves_dir(ctx.folder)
    except OSError as error:
        raise Failed(f"cannot keep saves in {ctx.folder}: {error.strerror or error}") from None
    if tidy:
        remove_abandoned_temps(ctx.folder)
    return ctx.folder


def add_game_argument(
    parser: argparse.ArgumentParser, names: list[str] | None = None, optional: bool = False
) -> None:
    """The positional ``GAME`` (one of ``names``, by default every game)."""
    listed = ", ".join(game_names() if names is None else names)
    parser.add_argument(
        "game", nargs="?" if optional else None, metavar="GAME", help=f"the game: {listed}"
    )


T = TypeVar("T")


def look_up_game(ctx: Context, registry: Callable[[str], T]) -> T:
    """What ``registry`` (a game's, or a lesson's) holds under ``GAME``; else the arguments
    are refused with the registry's own sentence, which names what it has."""
    try:
        return registry(ctx.args.game)
    except KeyError as error:
        ctx.error(printable(str(error.args[0])))


def add_deal_arguments(parser: argparse.ArgumentParser, players_help: str, required: bool) -> None:
    """``--players LIST``, ``--seed N`` and ``--first NAME``: what :func:`new_from_args` reads."""
    parser.add_argument("--players", required=required, metavar="LIST", help=players_help)
    parser.add_argument(
        "--seed", type=int, metavar="N", help="deal from this seed (default: random)"
    )
    parser.add_argument("--first", metavar="NAME", help="who starts (default: drawn at random)")


def add_listen_arguments(
    parser: argparse.ArgumentParser, port: int, remembered: str | None = None
) -> None:
    """``--port N`` (default ``port``) and ``--bind ADDRESS``, where a server listens.

    With ``remembered`` (words saying where the address was kept), both default
    to ``None``: the command takes the remembered address where it has one.
    """
    kept = f"{remembered}, else " if remembered else ""
    parser.add_argument(
        "--port",
        type=int,
        default=None if remembered else port,
        help=f"port (default: {kept}{port})",
    )
    parser.add_argument(
        "--bind",
        default=None if remembered else "127.0.0.1",
        metavar="ADDRESS",
        help=f"address to listen on (default: {kept}127.0.0.1, this machine only; see the "
        "README to serve across the internet safely)",
    )


def add_tls_arguments(parser: argparse.ArgumentParser) -> None:
    """``--tls-cert FILE --tls-key FILE``: serve ``wss://`` (TLS) only."""
    parser.add_argument(
        "--tls-cert",
        metavar="FILE",
        help="serve wss:// (TLS) with this certificate (PEM, its chain after it); needs --tls-key",
    )
    parser.add_argument("--tls-key", metavar="FILE", help="the certificate's private key (PEM)")


def server_tls(ctx: Context) -> ssl.SSLContext | None:
    """The TLS context ``--tls-cert`` and ``--tls-key`` ask for (``None``: plain ``ws://``);
    the arguments are refused in words if only one is given or they cannot be used."""
    from karavan_net.tls import server_context

    cert, key = ctx.args.tls_cert, ctx.args.tls_key
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        ctx.error("--tls-cert and --tls-key go together")
    try:
        return server_context(cert, key)
    except ValueError as error:
        ctx.error(str(error))


def add_tls_ca_argument(parser: argparse.ArgumentParser) -> None:
    """``--tls-ca FILE``: the CA that checks a self-signed ``wss://`` server."""
    parser.add_argument(
        "--tls-ca",
        metavar="FILE",
        help="for a wss:// server with a self-signed certificate: the CA file (PEM) that "
        "checks it, besides the system's",
    )


def check_port(ctx: Context, port: int | None) -> int | None:
    """``port`` if it is one (0 to 65535, or not given); else the arguments are refused."""
    if port is not None and not 0 <= port < 65536:
        ctx.error(f"--port: {port} is not a port (0 to 65535)")
    return port


def find_save(folder: Path, name: str) -> Path:
    """The save called ``name``: a path, or a name in ``folder`` as listed, ``.json`` optional."""
    given = Path(name)
    for candidate in (given, folder / name, folder / f"{name}.json"):
        if candidate.exists():
            return candidate
    return given if given.suffix == ".json" or given.parent != Path() else folder / f"{name}.json"


def parse_seats(ctx: Context, text: str) -> list[Seat]:
    """The seats of ``--players`` (the arguments are refused on a bad list)."""
    try:
        seats = parse_table(text.split(","))
    except ValueError as error:
        ctx.error(f"--players: {printable(str(error))}")
    for seat in seats:
        if seat.is_bot and seat.level not in BOT_LEVELS:
            ctx.error(
                f"--players: no bot level {printable(repr(seat.level))}; "
                f"the levels are: {', '.join(BOT_LEVELS)}"
            )
    if not names_differ(seats):
        ctx.error("--players: every player needs a different name")
    return seats


def new_from_args(ctx: Context) -> tuple[Match, Path]:
    """The match ``GAME --players ... [--seed] [--first]`` asks for, and a fresh save file."""
    args = ctx.args
    game = look_up_game(ctx, get_game)
    seats = parse_seats(ctx, args.players)
    options = {}
    if args.first is not None:
        first = seat_named(seats, args.first)
        if first is None:
            ctx.error(f"--first: {printable(repr(args.first))} is not one of the players")
        options["first_player"] = first
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    try:
        match = Match(game, seats, seed, options)
    except ValueError as error:
        ctx.error(printable(str(error)))
    return match, new_save_path(ctx.folder, game.name)


def open_app(
    config: AppConfig,
    start: tuple[Match, Path] | None,
    lesson: str | None = None,
    online: str | None = None,
) -> int:
    """Run the app until it closes (at ``start``'s table, ``lesson``'s, or the lobby of the
    server ``online``, if given); 1 (with one line saying where the report is) after a crash."""
    from karavan_tui.app import create_app  # imported late: `karavan saves` stays quick

    app = create_app(config, start, lesson, online)
    app.run()
    if app.return_code and app.crash_report is not None:
        return fail(
            f"an unexpected error stopped Karavan; the report is in {app.crash_report} "
            "(every game is saved: karavan resume opens the latest)",
            status=1,
        )
    return app.return_code or 0
