"""The server's tests run on both databases it keeps its tables in: an SQLite file, and a
PostgreSQL server (the one ``KARAVAN_TEST_POSTGRES`` names, a URL whose user may create
databases; by default a local server's ``karavan`` user).  Each test gets a database of its
own, dropped afterwards.  Without PostgreSQL the PostgreSQL cases skip, saying why; under
``CI=true`` they fail instead (``.ci/run`` starts one)."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator

import pytest

DEFAULT_POSTGRES = "postgresql://karavan:karavan@127.0.0.1:5432/karavan_test"


def postgres_url() -> str:
    return os.environ.get("KARAVAN_TEST_POSTGRES", DEFAULT_POSTGRES)


def _admin(url: str):
    import psycopg

    return psycopg.connect(url, autocommit=True, connect_timeout=3)


# PostgreSQL's cases are slow checks: SQLite's catch the common mistakes in the default run,
# and CI runs both (the slow run against its PostgreSQL on loopback).
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request, tmp_path) -> Iterator[str]:
    """A fresh database for one test: a path (SQLite) or a URL (PostgreSQL)."""
    if request.param == "sqlite":
        yield str(tmp_path / "server.db")
        return
    url = postgres_url()
    try:
        admin = _admin(url)
    except Exception as error:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL at {url} ({error}); .ci/run starts one")
        pytest.skip(f"no PostgreSQL at {url} (set KARAVAN_TEST_POSTGRES): {error}")
    name = f"karavan_t_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = url.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        _drop(url, name)


def _drop(url: str, name: str) -> None:
    """Drop the test's database, whoever is still connected to it.

    Without ``pg_signal_backend`` (``.ci/run`` grants it) the user may not end an autovacuum
    worker that happens to be at work in it: it is tried again once the worker is done.
    """
    import psycopg

    for attempt in range(20):
        try:
            with _admin(url) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except psycopg.errors.InsufficientPrivilege:
            if attempt == 19:
                raise
            time.sleep(0.5)
