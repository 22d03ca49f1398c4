"""Shared pytest options, and the end of a session."""

from __future__ import annotations

import gc

import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--conformance-games",
        type=int,
        default=None,
        help="random games per game and player count in the conformance suite "
        "(default: a count that keeps the whole suite near a minute)",
    )
    parser.addoption(
        "--conformance-full-every",
        type=int,
        default=None,
        help="check everything at every decision in one game of every K (1: all games)",
    )


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """Collect the session's garbage once, then set what survives aside from the collector.

    When it unconfigures, pytest collects garbage five times over (to catch the errors of
    finalizers), and an xdist worker does that after it has told the controller it is
    done.  A worker's heap at the end holds a few hundred thousand objects (the engines'
    caches, Textual's), five collections of it take several seconds on a loaded machine,
    and execnet interrupts a worker still busy five seconds after the controller ended
    it: the KeyboardInterrupt surfaced as "Exception ignored" warnings (in hypothesis's
    gc callback, where it landed).  Frozen, the survivors are not walked again, and the
    worker is done in time; the garbage is still collected, here, before the controller
    is told.
    """
    gc.collect()
    gc.freeze()
