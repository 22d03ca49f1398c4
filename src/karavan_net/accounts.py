"""The player's accounts on `karavan serve` servers, as their Karavan keeps them.

An account is a name and a secret the app makes on first use; the server keeps
only the secret's hash and asks for the secret on every connection.  The app
keeps each server's account in a small file beside the settings, readable by
its owner only.  ``karavan account export`` writes one to a file (as private
as the secret itself) and ``karavan account import`` reads it on another
machine: both Karavans then play as the same player, at once if they like.

Beside each account the app pins the fingerprint of the server's identity the first time
the server proves one (as ssh pins host keys): from then on the account's secret goes
only where that identity is proven (:mod:`karavan_net.identity`).  An address written
``wss://HOST:PORT`` is reached over TLS, and is another server than ``HOST:PORT``.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from attrs import evolve, frozen

from karavan_core.saves import atomic_write, read_limited
from karavan_core.text import check_name, printable
from karavan_net.identity import FINGERPRINT
from karavan_net.lobby import DEFAULT_SERVER_PORT
from karavan_net.protocol import is_tls, parse_address, shown_address
from karavan_net.seats import locked

SECRET_BYTES = 32  # 43 URL-safe characters: not to be guessed
EXPORT_FORMAT = "karavan-account"


@frozen
class Account:
    """A player's account on ``server`` (``HOST:PORT``, or ``wss://HOST:PORT``), and the
    fingerprint of the server's ``identity`` once pinned."""

    server: str
    name: str
    secret: str
    identity: str | None = None


def new_secret() -> str:
    """A fresh account secret."""
    return secrets.token_urlsafe(SECRET_BYTES)


def accounts_file(settings_path: Path) -> Path:
    """Where the accounts live: beside the settings file."""
    return settings_path.with_name("accounts.json")


def bot_accounts_file(settings_path: Path) -> Path:
    """Where the accounts of the bots this machine lends to servers live."""
    return settings_path.with_name("bot-accounts.json")


def server_key(address: str) -> str:
    """An address as the accounts file keys it: ``host:port`` (``wss://host:port`` over
    TLS), whatever was typed."""
    host, port = parse_address(address, DEFAULT_SERVER_PORT)
    return ("wss://" if is_tls(address) else "") + shown_address(host, port)


def _identity(value: object) -> str | None:
    """A pinned fingerprint as kept, if it is one."""
    return value if isinstance(value, str) and FINGERPRINT.fullmatch(value) else None


def _fits(server: object, name: object, secret: object) -> bool:
    if not (isinstance(server, str) and isinstance(name, str) and isinstance(secret, str)):
        return False
    try:
        server_key(server)
        check_name(name)
    except ValueError:
        return False
    return 32 <= len(secret) <= 256 and secret.isascii() and secret.isprintable()


def _entry_key(server: str, name: str | None) -> str:
    """How an account is kept: by its server, and (a bot's, of which a machine may lend
    several) by its name too."""
    key = server_key(server)
    return key if name is None else f"{key} {name.casefold()}"


def _read(path: Path) -> dict[str, Account]:
    try:
        data = json.loads(read_limited(path))
    except Exception:  # missing or unreadable: no account kept
        return {}
    if not isinstance(data, dict):
        return {}
    kept = {}
    for key, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(key, str):
            continue
        server = entry.get("server", key)
        if _fits(server, entry.get("name"), entry.get("secret")):
            identity = _identity(entry.get("identity"))
            kept[key] = Account(server, entry["name"], entry["secret"], identity)
    return kept


def account_for(path: Path, server: str, name: str | None = None) -> Account | None:
    """The account kept for ``server`` (a bot's: of that ``name``), if any."""
    return _read(path).get(_entry_key(server, name))


def keep(path: Path, account: Account, by_name: bool = False) -> None:
    """Keep ``account``, replacing the one kept for its server (``by_name``: for its server
    and name, as bots are kept); ``OSError`` if it cannot be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with locked(path):
        kept = _read(path)
        kept[_entry_key(account.server, account.name if by_name else None)] = account
        if not path.exists():
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        data = {key: _entry(a) for key, a in kept.items()}
        atomic_write(path, json.dumps(data, indent=2) + "\n")


def _entry(account: Account) -> dict[str, str]:
    entry = {"server": account.server, "name": account.name, "secret": account.secret}
    if account.identity is not None:
        entry["identity"] = account.identity
    return entry


def pin(path: Path, account: Account, identity: str | None, by_name: bool = False) -> Account:
    """``account`` with the server's ``identity`` pinned, kept so the first time (a pin
    kept stays: a server that proves another is refused before this is called);
    ``OSError`` if it cannot be kept."""
    if identity is None or account.identity is not None:
        return account
    pinned = evolve(account, identity=identity)
    keep(path, pinned, by_name)
    return pinned


def export_account(account: Account, target: Path) -> None:
    """Write ``account`` to ``target``, readable by its owner only; ``OSError`` if it cannot be."""
    data = {"format": EXPORT_FORMAT, **_entry(account)}
    if not target.exists():
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    atomic_write(target, json.dumps(data, indent=2) + "\n")


def import_account(source: Path) -> Account:
    """The account exported to ``source``; ``ValueError`` with one line if it is not one."""
    try:
        data = json.loads(read_limited(source))
    except Exception:
        raise ValueError(f"{printable(str(source))}: not a Karavan account file") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValueError(f"{printable(str(source))}: not a Karavan account file")
    server, name, secret = data.get("server"), data.get("name"), data.get("secret")
    if not _fits(server, name, secret):
        raise ValueError(f"{printable(str(source))}: the account inside is damaged")
    assert isinstance(server, str) and isinstance(name, str) and isinstance(secret, str)
    return Account(server_key(server), name, secret, _identity(data.get("identity")))
