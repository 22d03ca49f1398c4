"""Who a browser is to ``karavan web``, and the folder each visitor's Karavan keeps its files in.

A visitor is a browser: the page gives it a random id in a cookie, and every
tab it opens runs a Karavan whose settings file, seat secrets and (unless the
operator shares one folder) saves are that visitor's own.  Nothing of one
visitor is ever in reach of another: a tab typing a name that another
visitor's tab already plays has no secret for that seat, so the host refuses
it; a tab lists and opens only its visitor's saves.

The cookie carries the id signed with a key kept in the state folder: a
cookie the server did not sign is a stranger's, who is given a new id.  The
folders are named by a digest of the id, so that the state folder's listing
gives away no cookie.  A host a visitor joins is told a name for the visitor
(:func:`table_name`), so that its limits count each visitor apart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

from attrs import frozen

STATE_ENV = "XDG_STATE_HOME"
_VISITOR_ID = re.compile(r"[A-Za-z0-9_-]{43}")  # what token_urlsafe(32) gives
KEY_FILE = "cookie-key"  # in the state folder: the key that signs the visitors' cookies


def default_state_dir() -> Path:
    """``$XDG_STATE_HOME/karavan/web``, else ``~/.local/state/karavan/web``."""
    base = os.environ.get(STATE_ENV) or Path.home() / ".local" / "state"
    return Path(base) / "karavan" / "web"


def new_visitor_id() -> str:
    """A fresh visitor id: 256 random bits, URL-safe (a cookie's value as it is)."""
    return secrets.token_urlsafe(32)


def is_visitor_id(text: str | None) -> bool:
    """Whether ``text`` is an id :func:`new_visitor_id` could have given."""
    return text is not None and _VISITOR_ID.fullmatch(text) is not None


@frozen
class Visit:
    """What one visitor's Karavan is given: its settings file (seats beside it) and saves folder."""

    settings_path: Path
    saves_dir: Path


@frozen
class Visitors:
    """The visitors' folders under ``state``; ``shared_saves``, if given, is everyone's saves."""

    state: Path
    shared_saves: Path | None = None

    def signing_key(self) -> bytes:
        """The key that signs the cookies, made at the first start (the owner's only); OSError."""
        path = self.state / KEY_FILE
        self.state.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            key = path.read_bytes()
            if len(key) >= 32:
                return key
            fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
        key = secrets.token_bytes(32)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
        return key

    def folder(self, visitor: str) -> Path:
        """The folder of ``visitor`` (a valid id), whether or not it exists yet."""
        if not is_visitor_id(visitor):
            raise ValueError("not a visitor id")
        digest = hashlib.sha256(visitor.encode("ascii")).hexdigest()[:32]
        return self.state / "visitors" / digest

    def visit(self, visitor: str) -> Visit:
        """``visitor``'s files, their folders made if need be (for the owner only); ``OSError``."""
        folder = self.folder(visitor)
        for path in (self.state, folder.parent, folder):
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        if self.shared_saves is not None:  # the operator's folder, checked when serving began
            return Visit(settings_path=folder / "settings.json", saves_dir=self.shared_saves)
        saves = folder / "saves"
        saves.mkdir(mode=0o700, exist_ok=True)
        return Visit(settings_path=folder / "settings.json", saves_dir=saves)


def _mac(key: bytes, text: str) -> str:
    digest = hmac.new(key, text.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def signed(key: bytes, visitor: str) -> str:
    """The cookie of ``visitor``: the id and its signature."""
    return f"{visitor}.{_mac(key, visitor)[:32]}"


def signed_visitor(key: bytes, cookie: str | None) -> str | None:
    """The visitor id a cookie carries, if the server signed it (else ``None``)."""
    if cookie is None or "." not in cookie:
        return None
    visitor, signature = cookie.split(".", 1)
    if not is_visitor_id(visitor):
        return None
    return visitor if hmac.compare_digest(signature, _mac(key, visitor)[:32]) else None


def table_name(key: bytes, visitor: str) -> str:
    """What a host is told of ``visitor``: a name of its own, which gives away no cookie."""
    return _mac(key, f"table {visitor}")[:16]
