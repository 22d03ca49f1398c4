"""Accounts and the keys that prove them."""

from __future__ import annotations

import hmac

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from karavan_core.text import check_name
from karavan_net.serve.schema import Account, AccountKey
from karavan_net.serve.store.records import AccountInfo, KeyKind, StoreError, name_key
from karavan_net.serve.store.sessions import Sessions


class Accounts:
    """The players' accounts, each proven by the hashes of its keys."""

    def __init__(self, sessions: Sessions) -> None:
        self._sessions = sessions

    def by_key(self, kind: KeyKind, digest: str) -> AccountInfo | None:
        """The account proven by the key ``digest`` of ``kind``, if there is one."""
        with self._sessions.begin() as session:
            row = session.scalar(
                select(AccountKey)
                .where(AccountKey.kind == kind.value, AccountKey.digest == digest)
                .options(selectinload(AccountKey.account))
            )
            if row is None or not hmac.compare_digest(row.digest, digest):
                return None
            return AccountInfo(row.account.id, row.account.name)

    def named(self, name: str) -> AccountInfo | None:
        """The account called ``name`` (in any case), if there is one."""
        with self._sessions.begin() as session:
            row = session.scalar(select(Account).where(Account.name_key == name_key(name)))
            return None if row is None else AccountInfo(row.id, row.name)

    def create(self, name: str, kind: KeyKind, digest: str) -> AccountInfo:
        """A new account called ``name``, proven by the key ``digest``; :class:`StoreError`
        if the name is unfit or taken, or the key already proves an account."""
        try:
            name = check_name(name)
        except ValueError as error:
            raise StoreError(str(error)) from None
        try:
            with self._sessions.begin() as session:
                now = self._sessions.now(session)
                account = Account(name=name, name_key=name_key(name), created_at=now)
                session.add(account)
                session.flush()
                session.add(
                    AccountKey(
                        account_id=account.id, kind=kind.value, digest=digest, created_at=now
                    )
                )
                session.flush()
                return AccountInfo(account.id, account.name)
        except IntegrityError:
            if self.by_key(kind, digest) is not None:
                raise StoreError("That key already belongs to an account.") from None
            raise StoreError(f"The name {name} is taken on this server: choose another.") from None

    def add_key(self, account_id: int, kind: KeyKind, digest: str) -> None:
        """Let the key ``digest`` of ``kind`` prove account ``account_id`` too (an SSH key, or
        the secret of a session the SSH door opens); a key already kept changes nothing."""
        try:
            with self._sessions.begin() as session:
                now = self._sessions.now(session)
                session.add(
                    AccountKey(
                        account_id=account_id, kind=kind.value, digest=digest, created_at=now
                    )
                )
        except IntegrityError:
            return

    def set_notify_url(self, account_id: int, url: str | None) -> None:
        """Call account ``account_id`` at ``url`` when a turn-based table waits for it
        (``None``: call it nowhere).  The lobby checks the address first."""
        with self._sessions.begin() as session:
            account = session.get(Account, account_id)
            if account is not None:
                account.notify_url = url

    def notify_url(self, account_id: int) -> str | None:
        """Where account ``account_id`` is called when a turn-based table waits for it."""
        with self._sessions.begin() as session:
            account = session.get(Account, account_id)
            return None if account is None else account.notify_url
