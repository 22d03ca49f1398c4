"""What a host keeps beside its save: the table's code, a hash of each seat's secret, and
where and how it was served."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

import attrs
from attrs import frozen

from karavan_core.saves import atomic_write, read_limited

CODE_BYTES = 12
"""Random bytes in a table code: 96 bits, 16 characters, not to be guessed."""
SECRET_BYTES = 24


def new_code() -> str:
    """A random table code (URL-safe letters, digits, - and _)."""
    return secrets.token_urlsafe(CODE_BYTES)


def new_secret() -> str:
    """A fresh seat secret."""
    return secrets.token_urlsafe(SECRET_BYTES)


MIN_CODE = 10
"""The fewest characters of a code the host chooses (a random code has 16)."""
MIN_OLD_CODE = 4  # what a table file of an earlier Karavan may hold


def check_code(code: str, shortest: int = MIN_CODE) -> str:
    """A table code chosen by the host; ``ValueError`` if unfit.

    ``shortest`` is :data:`MIN_CODE` but for a code kept in an earlier
    Karavan's table file, which its players' clients still know.
    """
    code = code.strip()
    if not shortest <= len(code) <= 64 or not all(
        c.isascii() and (c.isalnum() or c in "-_") for c in code
    ):
        raise ValueError(
            f"A table code has {shortest} to 64 letters, digits, dashes and underscores "
            "(leave --code out for a random one)."
        )
    return code


def digest(secret: str) -> str:
    """What the table file keeps of a seat's secret."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


@frozen
class TableSettings:
    """How a table was served: where it listened, and the limits its host set.

    ``away_limit`` is the seconds an absent player's seat waits before a bot of
    ``away_level`` plays it (``None``: it waits for them).
    """

    bind: str | None = None
    port: int | None = None
    takeback_seconds: float | None = None
    away_limit: float | None = None
    away_level: str | None = None

    @classmethod
    def read(cls, data: object) -> TableSettings:
        """The settings in a table file (outside data): each one kept only if it fits."""
        if not isinstance(data, dict):
            return cls()
        bind, port = data.get("bind"), data.get("port")
        level = data.get("away_level")
        return cls(
            bind if isinstance(bind, str) and 0 < len(bind) <= 255 and bind.isprintable() else None,
            port if isinstance(port, int) and _within(port, 1, 65535) else None,
            _within(data.get("takeback_seconds"), 1, 3600),
            _within(data.get("away_limit"), 1, 86400),
            level if isinstance(level, str) and level.isidentifier() and len(level) < 20 else None,
        )


def _within(value: object, low: float, high: float) -> float | None:
    """``value`` if it is a number from ``low`` to ``high``, else ``None``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if low <= value <= high else None


class TableFile:
    """The table's own file beside its save: its code, a hash of each seat's secret and
    how it was served (:class:`TableSettings`).

    A host restarted from the save reads it back, so the players' clients can
    take their seats again with the secrets they hold, at the same address.
    Only hashes are kept, in a file only its owner can read.
    """

    def __init__(
        self,
        path: Path | None,
        code: str,
        digests: dict[int, str],
        settings: TableSettings | None = None,
    ) -> None:
        self.path = path
        self.code = code
        self.digests = dict(digests)
        self.settings = settings or TableSettings()

    @staticmethod
    def path_for(save_path: Path) -> Path:
        """Where the table file of the save at ``save_path`` lives."""
        return save_path.with_suffix(".table")

    @classmethod
    def read(cls, save_path: Path) -> TableFile | None:
        """The table file of ``save_path``, or ``None`` if there is none or it does not fit."""
        path = cls.path_for(save_path)
        try:
            data = json.loads(read_limited(path))
        except Exception:  # missing, unreadable or not ours: a new table then
            return None
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            return None
        digests = data.get("secrets")
        if not isinstance(digests, dict):
            return None
        kept = {
            int(seat): value
            for seat, value in digests.items()
            if isinstance(seat, str) and seat.isdigit() and isinstance(value, str)
        }
        try:
            code = check_code(data["code"], MIN_OLD_CODE)
        except ValueError:
            return None
        return cls(path, code, kept, TableSettings.read(data.get("settings")))

    def claimed(self, seat: int) -> bool:
        """Whether somebody has taken ``seat`` (and holds its secret)."""
        return seat in self.digests

    def claim(self, seat: int) -> str:
        """Give ``seat`` a fresh secret, keep its hash and return it."""
        secret = new_secret()
        self.digests[seat] = digest(secret)
        self.write()
        return secret

    def release(self, seat: int) -> None:
        """Forget ``seat``'s secret: whoever has the code may take the seat by its name."""
        if self.digests.pop(seat, None) is not None:
            self.write()

    def holds(self, seat: int, secret: str | None) -> bool:
        """Whether ``secret`` is ``seat``'s."""
        kept = self.digests.get(seat)
        return kept is not None and secret is not None and hmac.compare_digest(digest(secret), kept)

    def write(self) -> None:
        """Write the file (readable by its owner only)."""
        if self.path is None:
            return
        data = {
            "code": self.code,
            "secrets": {str(k): v for k, v in self.digests.items()},
            "settings": attrs.asdict(self.settings),
        }
        if not self.path.exists():
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.close(fd)
        atomic_write(self.path, json.dumps(data))
