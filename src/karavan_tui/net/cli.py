"""``karavan host``, ``karavan join`` and ``karavan web``: their arguments and their runs."""

from __future__ import annotations

import argparse
import asyncio
import signal
from collections.abc import Callable, Sequence
from pathlib import Path

from karavan_core.bots import BOT_LEVELS
from karavan_core.match import Match
from karavan_core.registry import game_names
from karavan_core.saves import SaveError, check_saves_dir, load_match
from karavan_core.text import check_name, printable
from karavan_net.protocol import DEFAULT_PORT, parse_address

HOST_LINGER = 30.0  # seconds a headless host stays after the end, for players to read it
CLOSED_AT_END = "The game is over: the host has closed the table."


def add_parsers(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    opens_app: argparse.ArgumentParser,
) -> None:
    """Add ``host``, ``join`` and ``web`` to the ``karavan`` command."""
    host = commands.add_parser(
        "host",
        parents=[opens_app],
        help="host a table that others join from their terminals",
        description="Host a table: the players join it from their own terminals or a browser "
        "(karavan join). Without --headless this terminal plays the first human seat.",
    )
    host.add_argument(
        "game", nargs="?", metavar="GAME", help=f"the game: {', '.join(game_names())}"
    )
    host.add_argument(
        "--players",
        metavar="LIST",
        help="comma-separated seats in order: a name for a human, bot:LEVEL or bot:LEVEL:NAME "
        "for a bot the host plays (e.g. Ann,Bob,bot:hard)",
    )
    host.add_argument("--resume", metavar="FILE", help="reopen the hosted table saved in FILE")
    host.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    host.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="address to listen on (default 127.0.0.1: this machine only; see the README "
        "to play across the internet safely)",
    )
    host.add_argument("--code", help="the table code (default: a random one, not to be guessed)")
    host.add_argument(
        "--headless",
        action="store_true",
        help="every human seat is remote; print what happens instead of opening the table",
    )
    host.add_argument("--seed", type=int, metavar="N", help="deal from this seed (default: random)")
    host.add_argument("--first", metavar="NAME", help="who starts (default: drawn at random)")
    host.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause before each of the host's bots moves (default: the setting, 0.6 s)",
    )
    join = commands.add_parser(
        "join",
        parents=[opens_app],
        help="join a hosted table",
        description="Join a table hosted with karavan host, and play your seat.",
    )
    join.add_argument("address", metavar="HOST:PORT", help="where the table is")
    join.add_argument("code", metavar="CODE", help="the table's code")
    join.add_argument("--name", required=True, help="your seat's name, as the host set it")
    join.add_argument(
        "--bot",
        metavar="LEVEL",
        help=f"play the seat headless as a bot of LEVEL ({', '.join(BOT_LEVELS)}), "
        "print the result and exit",
    )
    web = commands.add_parser(
        "web",
        parents=[opens_app],
        help="serve the app in a web browser",
        description="Serve the whole app to web browsers (each browser tab runs its own "
        "Karavan; Join a table on its title screen joins a hosted table).",
    )
    web.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    web.add_argument(
        "--bind", default="127.0.0.1", metavar="ADDRESS", help="address (default 127.0.0.1)"
    )


def _port(parser: argparse.ArgumentParser, port: int) -> int:
    if not 0 <= port < 65536:
        parser.error(f"--port: {port} is not a port (0 to 65535)")
    return port


# -- join -------------------------------------------------------------------------------------


def run_join(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    fail: Callable[[str], int],
    config_for: Callable[[], object],
) -> int:
    """``karavan join``: take the seat, then play it in the app or as a headless bot."""
    try:
        host, port = parse_address(args.address)
    except ValueError as error:
        parser.error(printable(str(error)))
    try:
        name = check_name(args.name)
    except ValueError as error:
        parser.error(f"--name: {printable(str(error))}")
    if args.bot is not None and args.bot.lower() not in BOT_LEVELS:
        levels = ", ".join(BOT_LEVELS)
        parser.error(f"--bot: no bot level {printable(repr(args.bot))}; the levels are: {levels}")
    return asyncio.run(_join(host, port, args.code, name, args.bot, fail, config_for))


async def _join(
    host: str,
    port: int,
    code: str,
    name: str,
    bot: str | None,
    fail: Callable[[str], int],
    config_for: Callable[[], object],
) -> int:
    from karavan_net.client import HostUnreachable, JoinRefused, TableClient
    from karavan_net.seats import seats_file
    from karavan_tui.config import default_settings_path

    memory = seats_file(default_settings_path())
    client = TableClient(host, port, code, name, retry_for=120.0 if bot else None, memory=memory)
    try:
        await client.join()
    except JoinRefused as error:
        return fail(f"cannot join: {error}")
    except HostUnreachable as error:
        return fail(f"cannot join: {error}")
    if bot is not None:
        from karavan_net.bot_client import BotPlayer

        print(
            f"Playing {printable(name)}'s seat at {client.address} as a {bot.lower()} bot.",
            flush=True,
        )
        return await BotPlayer(client, bot.lower(), out=lambda line: print(line, flush=True)).play()
    from karavan_tui.config import AppConfig
    from karavan_tui.net.app import TableApp

    config = config_for()
    assert isinstance(config, AppConfig)
    app = TableApp(config, client)
    await app.run_async()
    await client.close()
    return app.return_code or 0


# -- host -------------------------------------------------------------------------------------


def _match_from_args(
    parser: argparse.ArgumentParser, args: argparse.Namespace, folder: Path
) -> tuple[Match, Path]:
    from karavan_tui.cli import find_save, new_from_args

    if args.resume is not None:
        if args.game is not None or args.players is not None:
            parser.error("--resume takes the game and the players from the save: give neither")
        path = find_save(folder, args.resume)
        try:
            match = load_match(path)
        except SaveError as error:
            raise _Stop(str(error)) from None
        if match.is_over():
            raise _Stop(f"{path}: that game is over")
        return match, path
    if args.game is None or args.players is None:
        parser.error("host needs a GAME and --players (or --resume FILE)")
    return new_from_args(parser, args, folder)


class _Stop(Exception):
    """Hosting cannot start; ``str()`` is the one line that says why."""


def run_host(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    folder: Path,
    fail: Callable[[str], int],
    config_for: Callable[[], object],
) -> int:
    """``karavan host``: serve the table; play the first human seat here unless headless."""
    from karavan_net.host import host_for
    from karavan_net.storage import TableFile, check_code, new_code

    _port(parser, args.port)
    try:
        check_saves_dir(folder)
    except OSError as error:
        return fail(f"cannot keep saves in {folder}: {error.strerror or error}")
    try:
        match, path = _match_from_args(parser, args, folder)
    except _Stop as stop:
        return fail(str(stop))
    humans = list(match.humans)
    if not humans:
        parser.error("--players: a hosted table needs at least one human seat")
    table_file = TableFile.read(path) if args.resume is not None else None
    try:
        if args.code is not None:
            code = check_code(args.code)
        elif table_file is not None:
            code = table_file.code
        else:
            code = new_code()
    except ValueError as error:
        parser.error(f"--code: {error}")
    bot_delay = args.bot_delay
    if bot_delay is None:
        from karavan_tui.config import Settings, default_settings_path

        bot_delay = Settings.load(default_settings_path()).bot_delay
    if not 0 <= bot_delay <= 60:
        parser.error("--bot-delay: from 0 to 60 seconds")
    headless = args.headless

    def event(line: str) -> None:
        if headless:
            print(line, flush=True)

    table = host_for(
        match, code, save_path=path, table_file=table_file, bot_delay=bot_delay, events=event
    )
    if headless:
        return asyncio.run(_host_headless(table, args.bind, args.port, path, fail))
    return _host_with_table(table, args.bind, args.port, path, humans[0], fail, config_for)


def invitation(table_code: str, bind: str, port: int, names: list[str]) -> list[str]:
    """The lines that tell the players how to join."""
    shown = bind if bind not in ("0.0.0.0", "::", "") else "THIS-MACHINE"
    if ":" in shown:
        shown = f"[{shown}]"
    lines = ["Each player joins from their own terminal with:"]
    lines += [f"  karavan join {shown}:{port} {table_code} --name {name}" for name in names]
    return lines


def _announce(table: object, bind: str, port: int, path: Path, remote: Sequence[int]) -> list[str]:
    from karavan_net.host import Host

    assert isinstance(table, Host)
    match = table.match
    seats = ", ".join(seat.name for seat in match.seats)
    lines = [f"Hosting {match.game.title} for {seats} at {bind}:{port} (table code {table.code})."]
    names = [match.seats[i].name for i in remote]
    if names:
        lines += invitation(table.code, bind, port, names)
    lines.append(f"Saving to {path} (karavan host --resume {path} reopens the table).")
    return [printable(line) for line in lines]


async def _first(*events: asyncio.Event, timeout: float | None = None) -> None:
    """Wait until one of ``events`` is set (or ``timeout`` seconds have passed)."""
    waiters = [asyncio.ensure_future(event.wait()) for event in events]
    try:
        await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


async def _until_done(table: object, stop: asyncio.Event) -> None:
    """Until ``stop``, or the game is over and every client has gone (or lingered enough)."""
    from karavan_net.host import Host

    assert isinstance(table, Host)
    await _first(stop, table.over)
    if table.match.is_over() and not stop.is_set():
        await _first(stop, table.ended, timeout=HOST_LINGER)


async def _host_headless(
    table: object, bind: str, port: int, path: Path, fail: Callable[[str], int]
) -> int:
    from karavan_net.host import Host
    from karavan_net.server import HostServer

    assert isinstance(table, Host)
    server = HostServer([table])
    try:
        port = await server.start(bind, port)
    except OSError as error:
        return fail(f"cannot listen on {bind}:{port}: {error.strerror or error}")
    for line in _announce(table, bind, port, path, table.humans):
        print(line, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    table.kick_bots()
    await _until_done(table, stop)
    over = table.match.is_over()
    await server.stop(CLOSED_AT_END if over else None)
    failed = table.referee.save_error
    if failed is not None:
        return fail(f"the last autosave failed: {failed.strerror or failed}")
    if not over:
        print(printable(f"Stopped. karavan host --resume {path} reopens the table."), flush=True)
    return 0


def _host_with_table(
    table: object,
    bind: str,
    port: int,
    path: Path,
    seat: int,
    fail: Callable[[str], int],
    config_for: Callable[[], object],
) -> int:
    from karavan_net.client import HostUnreachable, JoinRefused, TableClient
    from karavan_net.host import Host
    from karavan_net.server import HostServer, ServerThread
    from karavan_tui.config import AppConfig
    from karavan_tui.net.app import TableApp

    assert isinstance(table, Host)
    server = HostServer([table])
    thread = ServerThread(server, bind, port)
    try:
        port = thread.start()
    except OSError as error:
        return fail(f"cannot listen on {bind}:{port}: {error.strerror or error}")
    secret = table.reserve(seat)
    remote = [i for i in table.humans if i != seat]
    lines = _announce(table, bind, port, path, remote)
    for line in lines:
        print(line, flush=True)
    thread.call(table.kick_bots)
    local = "127.0.0.1" if bind in ("0.0.0.0", "") else "::1" if bind == "::" else bind
    name = table.match.seats[seat].name

    async def play() -> int:
        client = TableClient(local, port, table.code, name, secret=secret)
        try:
            await client.join()
        except (JoinRefused, HostUnreachable) as error:
            return fail(f"cannot open the table here: {error}")
        config = config_for()
        assert isinstance(config, AppConfig)
        invite = "\n".join(lines[1:-1]) if remote else None
        app = TableApp(config, client, hosting=True, save_path=path, invitation=invite)
        await app.run_async()
        await client.close()
        return app.return_code or 0

    try:
        status = asyncio.run(play())
    finally:
        over = table.match.is_over()
        thread.stop(CLOSED_AT_END if over else None)
    if not table.match.is_over():
        print(
            printable(f"The table is closed. karavan host --resume {path} reopens it."), flush=True
        )
    return status


# -- web --------------------------------------------------------------------------------------


def run_web(
    parser: argparse.ArgumentParser,
    args: argparse.Namespace,
    saves: str | None,
    fail: Callable[[str], int],
) -> int:
    """``karavan web``: serve the app to browsers with textual-serve."""
    from karavan_tui.web import serve

    _port(parser, args.port)
    return serve(args.bind, args.port, saves, fail, ascii_mode=bool(getattr(args, "ascii", False)))
