"""Shared pytest options."""

from __future__ import annotations


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
